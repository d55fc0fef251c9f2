/*
 * rev-list: the commits reachable from the ones given and not from
 * the excluded ones (^commit, or a..b for ^a b), one id a line in git
 * rev-list's order: newest committer date first, or parents after all
 * their children with --topo-order.  --parents adds each commit's
 * parents to its line; --objects then lists every tree and blob those
 * commits hold, that no excluded commit next to them holds, with the
 * path it was first met at, as git does.  --max-age and --min-age are
 * epoch seconds.  --all starts from every ref, HEAD, and the HEAD of
 * every other worktree of the repository, as git's does.
 *
 * A tag of a tree or blob is a tip like any other: with --objects the
 * tags are listed, then what they name, from "".  An object --objects
 * finds missing stops the command (a tree as "bad tree object") unless
 * --missing allows it: then it is left out.  git would first try to
 * fetch it from a promisor remote; we cannot, so where git succeeds in
 * that fetch we fail, where it cannot fetch we fail as it does.
 * --exclude-promisor-objects leaves out what promisor packs hold or
 * promise, as git does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "history.h"

static const char rev_list_usage[] =
	"rev-list [--max-count=<n>] [--max-age=<t>] [--min-age=<t>] "
	"[--parents] [--topo-order] [--objects] "
	"[--missing=(error|allow-any|allow-promisor)] "
	"[--exclude-promisor-objects] [--all] "
	"<commit>... [^<commit>...]";

static int show_parents;
static int exclude_promisor;	/* --exclude-promisor-objects */

/* What to do about an object --objects finds missing (--missing=). */
static enum {
	MISSING_ERROR,		/* die, as git does */
	MISSING_ALLOW_ANY,	/* leave it out */
	MISSING_ALLOW_PROMISOR	/* leave it out if a promisor remote has it */
} missing_action;

static void add_arg(struct rev_info *revs, const char *arg, int excluded)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (get_sha1(arg, sha1) < 0 || add_revision(revs, sha1, excluded) < 0)
		die("bad revision '%s'", arg);
}

/* "a..b" is "^a b"; an empty side is HEAD, as in git. */
static int add_range(struct rev_info *revs, const char *arg)
{
	const char *dots = strstr(arg, "..");
	char *left;

	if (!dots || dots[2] == '.')
		return 0;
	left = xstrdup(arg);
	left[dots - arg] = '\0';
	add_arg(revs, *left ? left : "HEAD", 1);
	add_arg(revs, dots[2] ? dots + 2 : "HEAD", 0);
	free(left);
	return 1;
}

static int add_ref_tip(const char *name, const unsigned char *sha1,
		       void *data)
{
	if (add_revision(data, sha1, 0) < 0)
		die("bad ref '%s'", name);
	return 0;
}

/* git's --all: the refs in name order, HEAD, the other worktrees' HEADs. */
static void add_all(struct rev_info *revs)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	for_each_ref(add_ref_tip, revs);
	if (!read_ref("HEAD", sha1))
		add_ref_tip("HEAD", sha1, revs);
	for_each_other_head(add_ref_tip, revs);
}

static long parse_count(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end)
		die("'%s' is not a number", s);
	return n < 0 ? -1 : n;
}

static void show_commit(const struct commit *c)
{
	size_t i;

	fputs(sha1_to_hex(c->object.sha1), stdout);
	if (show_parents)
		for (i = 0; i < c->nr_parents; i++)
			printf(" %s", sha1_to_hex(c->parents[i]->object.sha1));
	putchar('\n');
}

/*
 * A missing object: left out (1), or the end.  git would first fetch
 * it from a promisor remote; we cannot, and die as git does when that
 * fetch fails.
 */
static int missing_object(const struct object *obj)
{
	const char *type = type_name(obj->type);
	const char *hex = sha1_to_hex(obj->sha1);

	if (missing_action == MISSING_ALLOW_ANY)
		return 1;
	if (missing_action == MISSING_ALLOW_PROMISOR) {
		if (is_promisor_object(obj->sha1))
			return 1;
		die("unexpected missing %s object %s", type, hex);
	}
	die("missing %s object %s", type, hex);
}

/* git prints a path up to its first newline, unquoted. */
static int show_object(const struct object *obj, const char *path,
		       void *data)
{
	(void)data;
	if (!(obj->flags & READ_OK) && !has_sha1_file(obj->sha1) &&
	    ((exclude_promisor && is_promisor_object(obj->sha1)) ||
	     missing_object(obj)))
		return 0;
	printf("%s ", sha1_to_hex(obj->sha1));
	fwrite(path, 1, strcspn(path, "\n"), stdout);
	putchar('\n');
	return 0;
}

static int parse_option(struct rev_info *revs, const char *arg)
{
	if (!strncmp(arg, "--max-count=", 12))
		revs->max_count = parse_count(arg + 12);
	else if (!strncmp(arg, "--max-age=", 10))
		revs->max_age = atoi(arg + 10);
	else if (!strncmp(arg, "--min-age=", 10))
		revs->min_age = atoi(arg + 10);
	else if (!strcmp(arg, "--parents"))
		show_parents = 1;
	else if (!strcmp(arg, "--topo-order"))
		revs->topo_order = 1;
	else if (!strcmp(arg, "--objects"))
		revs->tree_objects = 1;
	else if (!strcmp(arg, "--all"))
		;	/* a tip: handled with them */
	else if (!strcmp(arg, "--exclude-promisor-objects"))
		exclude_promisor = 1;
	else if (!strcmp(arg, "--missing=error"))
		missing_action = MISSING_ERROR;
	else if (!strcmp(arg, "--missing=allow-any"))
		missing_action = MISSING_ALLOW_ANY;
	else if (!strcmp(arg, "--missing=allow-promisor"))
		missing_action = MISSING_ALLOW_PROMISOR;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct rev_info revs;
	struct commit *c;
	int i, nr_args = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, rev_list_usage);
	init_revisions(&revs);
	for (i = 1; i < argc; i++)
		if (argv[i][0] == '-' && parse_option(&revs, argv[i]) < 0)
			usage(rev_list_usage);
	if (setup_repository() < 0)
		exit(128);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--all")) {
			add_all(&revs);
			nr_args++;
		}
		if (arg[0] == '-')
			continue;
		nr_args++;
		if (arg[0] == '^')
			add_arg(&revs, arg + 1, 1);
		else if (!add_range(&revs, arg))
			add_arg(&revs, arg, 0);
	}
	if (!nr_args)
		usage(rev_list_usage);
	if (exclude_promisor && missing_action != MISSING_ERROR)
		die("--exclude-promisor-objects and --missing cannot be used "
		    "together");
	revs.exclude_promisor_objects = exclude_promisor;
	if (missing_action != MISSING_ERROR || exclude_promisor)
		revs.missing_trees_ok = 1;
	if (prepare_revision_walk(&revs) < 0)
		die("cannot walk the history");
	while ((c = get_revision(&revs)) != NULL)
		show_commit(c);
	if (revs.failed)
		die("cannot walk the history");
	if (revs.tree_objects && walk_objects(&revs, show_object, NULL) < 0)
		exit(128);	/* the walk said why */
	release_revisions(&revs);
	finish_stdout();
	return 0;
}
