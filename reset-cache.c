/*
 * reset-cache: put the index, and with -u, --hard or --merge the work
 * tree, back at a tree: what git reset, git restore and git checkout
 * <tree-ish> -- <path> do below their porcelain.
 *
 * Without paths the whole index becomes the tree's (git reset
 * --mixed); an entry whose path, mode and id are unchanged keeps its
 * stat data, so a reset costs what changed, and the stages of an
 * unmerged path go.  With paths (pathspecs, git's rules) only the
 * entries they select are replaced, those the tree lacks removed unless
 * --overlay (git checkout <tree-ish> -- <path> keeps them).
 *
 * -u also writes the selected paths' files from the new entries (and
 * removes those the index no longer has): local changes there are
 * lost, as the porcelain asked.  --worktree-only does that and leaves
 * the index as it was (git restore --source=<tree-ish>); --from-index
 * takes the index itself as the source (git restore <path>) and
 * refuses an unmerged path.  With -u or --error-unmatch, a path that
 * selects nothing (in the tree, or with --overlay in the tree alone)
 * is an error and nothing is changed, as in git restore and checkout;
 * git reset takes such a path silently.
 *
 * --hard makes the index and the whole work tree the tree's (files the
 * index has and the tree lacks removed).  --merge is git reset --merge,
 * which git merge --abort runs: only the paths where the index differs
 * from the tree (the merge's work, its conflicts) go back, and the
 * local changes a merge left alone stay; a path that differs from the
 * tree and has a local change too is a refusal, nothing changed.
 *
 * The index is replaced under index.lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "commit-write.h"
#include "tree-merge.h"

static const char reset_cache_usage[] =
	"reset-cache [--hard | --merge | [-u] [--worktree-only] [--overlay] "
	"[--error-unmatch]] (<tree-ish> | --from-index) [--] [<path>...]";

static int update, worktree_only, overlay, from_index, merge_mode;
static int error_unmatch;

/* The paths a reset selected (old and new), for the work-tree update. */
static char **touched;
static size_t touched_nr, touched_alloc;

static void touch(const char *name)
{
	if (touched_nr && !strcmp(touched[touched_nr - 1], name))
		return;
	ALLOC_GROW(touched, touched_nr + 1, touched_alloc);
	touched[touched_nr++] = xstrdup(name);
}

/* A malloc'd copy of ce, stage and stat data kept. */
static struct cache_entry *copy_entry(const struct cache_entry *ce)
{
	struct cache_entry *copy = make_cache_entry(ce->name, ce->ce_namelen);
	uint16_t flags = copy->ce_flags;

	memcpy(copy, ce, sizeof(*ce));
	copy->ce_flags = flags | (ce->ce_flags & (CE_STAGEMASK | CE_EXTENDED));
	copy->ce_state = 0;
	return copy;
}

static int same_entry(const struct cache_entry *a, const struct cache_entry *b)
{
	return a->ce_mode == b->ce_mode && hasheq(a->sha1, b->sha1);
}

/* The pathspecs, one per argument (to tell which matched) and all. */
static struct pathspec all_ps, *one_ps;
static int *matched;
static int nr_ps;

/* Does ce match the paths?  count: it counts as a match for them. */
static int selected(const struct cache_entry *ce, int count)
{
	int i;

	if (!nr_ps)
		return 1;
	if (!match_pathspec(&all_ps, ce->name, ce->ce_namelen))
		return 0;
	for (i = 0; count && i < nr_ps; i++)
		if (!matched[i] &&
		    match_pathspec(&one_ps[i], ce->name, ce->ce_namelen))
			matched[i] = 1;
	return 1;
}

static void parse_paths(char **argv, int argc)
{
	int i;

	nr_ps = argc;
	if (!argc)
		return;
	one_ps = xcalloc(argc, sizeof(*one_ps));
	matched = xcalloc(argc, sizeof(*matched));
	if (parse_pathspec(&all_ps, argv, argc) < 0)
		exit(128);
	for (i = 0; i < argc; i++)
		if (parse_pathspec(&one_ps[i], argv + i, 1) < 0)
			exit(128);
}

static void check_all_matched(char **argv)
{
	int i, bad = 0;

	for (i = 0; i < nr_ps; i++)
		if (!matched[i]) {
			error("pathspec '%s' did not match any file(s) known "
			      "to git", argv[i]);
			bad = 1;
		}
	if (bad)
		exit(1);
}

/*
 * The new index from the old one (active_cache) and the tree's list:
 * the old entries the paths do not select, the tree's entries they
 * select (the old entry, stat data and all, when it is the same).
 */
static struct cache_entry **merge_lists(const struct entry_list *l,
					unsigned int *nr)
{
	struct cache_entry **out;
	unsigned int i = 0, n = 0;
	size_t j = 0;

	out = xcalloc(active_nr + l->nr + 1, sizeof(*out));
	while (i < active_nr || j < l->nr) {
		struct cache_entry *ce = i < active_nr ? active_cache[i] : NULL;
		struct cache_entry *te = j < l->nr ? l->ces[j] : NULL;
		int cmp;

		if (!ce)
			cmp = 1;
		else if (!te)
			cmp = -1;
		else
			cmp = cache_name_compare(ce->name, ce->ce_namelen, 0,
						 te->name, te->ce_namelen, 0);
		if (cmp < 0) {
			/* only the index has it (at some stage) */
			if (!selected(ce, !overlay) || overlay)
				out[n++] = copy_entry(ce);
			else
				touch(ce->name);
			i++;
			continue;
		}
		if (cmp > 0) {
			if (selected(te, 1)) {
				out[n++] = copy_entry(te);
				touch(te->name);
			}
			j++;
			continue;
		}
		/* both: every stage of the index's path, then the tree's */
		if (!selected(te, 1)) {
			for (; i < active_nr && !strcmp(active_cache[i]->name,
							te->name); i++)
				out[n++] = copy_entry(active_cache[i]);
			j++;
			continue;
		}
		if (!ce_stage(ce) && same_entry(ce, te)) {
			out[n++] = copy_entry(ce);
			if (!merge_mode)
				touch(te->name);
		} else {
			out[n++] = copy_entry(te);
			touch(te->name);
		}
		while (i < active_nr &&
		       !strcmp(active_cache[i]->name, te->name))
			i++;
		j++;
	}
	*nr = n;
	return out;
}

static void install(struct cache_entry **ces, unsigned int nr)
{
	discard_cache();
	active_cache = ces;
	active_nr = nr;
	active_alloc = nr + 1;
}

/*
 * git reset --merge: which paths differ between the index and the
 * tree; a stage-0 entry among them must match its file.
 */
static void check_merge_reset(const struct entry_list *l)
{
	unsigned int i;
	size_t j;
	int bad = 0;

	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];
		size_t len = ce->ce_namelen;

		if (ce_stage(ce) || S_ISGITLINK(ce->ce_mode))
			continue;
		j = lower_bound(l, ce->name, len);
		if (j < l->nr && l->ces[j]->ce_namelen == len &&
		    !memcmp(l->ces[j]->name, ce->name, len) &&
		    same_entry(l->ces[j], ce))
			continue;
		if (refresh_cache_entry(ce, 0)) {
			error("entry '%s' not uptodate: cannot merge",
			      ce->name);
			bad = 1;
		}
	}
	if (bad)
		die("cannot reset the index: nothing changed");
}

/* Read the tree-ish name into l. */
static void read_source(const char *name, struct entry_list *l)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (get_sha1(name, sha1) < 0)
		exit(128);
	if (read_tree_list(sha1, l, NULL, 0, 1) < 0)
		die("cannot read tree '%s'", name);
}

static void reset_hard(const char *name)
{
	unsigned char sha1[HASH_MAX_RAWSZ], tree[HASH_MAX_RAWSZ];
	size_t size;
	void *buf;

	if (get_sha1(name, sha1) < 0)
		exit(128);
	buf = read_tree_ish(sha1, &size, tree);
	if (!buf)
		exit(128);
	free(buf);
	if (reset_to_tree(tree) < 0)
		die("cannot reset the work tree to '%s'", name);
}

/* git restore <path>: the index's entries selected, none unmerged. */
static void select_from_index(void)
{
	unsigned int i;
	int bad = 0;

	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];

		if (!selected(ce, 1))
			continue;
		if (ce_stage(ce)) {
			if (!touched_nr ||
			    strcmp(touched[touched_nr - 1], ce->name))
				error("path '%s' is unmerged", ce->name);
			bad = 1;
		}
		touch(ce->name);
	}
	if (bad)
		exit(1);
}

static int parse_options(int argc, char **argv, int *hard, int *merge)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--hard"))
			*hard = 1;
		else if (!strcmp(argv[i], "--merge"))
			*merge = 1;
		else if (!strcmp(argv[i], "-u"))
			update = 1;
		else if (!strcmp(argv[i], "--worktree-only"))
			worktree_only = update = 1;
		else if (!strcmp(argv[i], "--error-unmatch"))
			error_unmatch = 1;
		else if (!strcmp(argv[i], "--overlay"))
			overlay = 1;
		else if (!strcmp(argv[i], "--from-index"))
			from_index = 1;
		else
			usage(reset_cache_usage);
	}
	return i;
}

int main(int argc, char **argv)
{
	struct entry_list l;
	int hard = 0, merge = 0, i;
	struct cache_entry **ces;
	unsigned int nr = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, reset_cache_usage);
	memset(&l, 0, sizeof(l));
	i = parse_options(argc, argv, &hard, &merge);
	if (!from_index) {
		if (i >= argc)
			usage(reset_cache_usage);
		if (!strcmp(argv[i], "--"))
			usage(reset_cache_usage);
	}
	if (hard + merge + (update || overlay) > 1)
		die("--hard, --merge and -u cannot be used together");
	if (from_index && !update)
		die("--from-index needs -u or --worktree-only");
	if (setup_repository() < 0)
		exit(128);
	if (hold_index_lock() < 0)
		die("cannot lock the index");
	if (read_cache() < 0)
		die("cannot read the index");
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	if (from_index) {
		if (i < argc && !strcmp(argv[i], "--"))
			i++;
		if (i >= argc)
			usage(reset_cache_usage);
		parse_paths(argv + i, argc - i);
		select_from_index();
		check_all_matched(argv + i);
	} else {
		const char *name = argv[i++];

		if (i < argc && !strcmp(argv[i], "--"))
			i++;
		if ((hard || merge) && i < argc)
			die("--hard and --merge take no paths");
		parse_paths(argv + i, argc - i);
		if (hard) {
			reset_hard(name);
			goto write;
		}
		read_source(name, &l);
		if (merge) {
			check_merge_reset(&l);
			merge_mode = 1;
		}
		ces = merge_lists(&l, &nr);
		install(ces, nr);
		if (update || error_unmatch)
			check_all_matched(argv + i);
		if (merge)
			update = 1;
	}
	if (update && checkout_index_paths(touched, touched_nr, NULL) < 0)
		die("some files could not be updated");
write:
	if (worktree_only)
		rollback_index_lock();
	else if (commit_index() < 0)
		die("cannot write the index");
	entry_list_clear(&l);
	finish_stdout();
	return 0;
}
