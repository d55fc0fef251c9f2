/*
 * show-diff: what changed in the working tree since the index.
 *
 * Each index entry is lstat'ed first and its content looked at only
 * when the stat data differs (or the entry is racily clean), and then
 * a file counts as changed only when its content or mode does: a file
 * that was merely touched is not a change.  The output is git's: a
 * patch that git apply and patch -p1 apply to the indexed tree, or with
 * -s the lines of git diff-files --name-status (-z: NUL-terminated).
 * -z alone implies -s.  -q only answers, by the exit status, whether
 * anything changed.  An unmerged path shows as "U" (plus the work tree
 * against stage 2, as git), or "* Unmerged path p" in a patch: there is
 * no single pair to diff.  Paths name files or directories to compare.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"

static const char show_diff_usage[] =
	"show-diff [-q] [-s] [-z] [--binary] [--] [<path>...]";

static int quiet, name_status, nul_terminate;
static struct diff_options diff_opts;

static struct pathspec pathspec;

/* For preload_index: is this index entry among the paths asked for? */
static int path_wanted(const char *name)
{
	return match_pathspec(&pathspec, name, strlen(name));
}

/* ---- reading both sides ---- */

static void *read_index_blob(const struct cache_entry *ce, size_t *size)
{
	void *buf = read_object_of_type(ce->sha1, OBJ_BLOB, size);

	if (!buf)
		die("cannot read the indexed content of '%s'", ce->name);
	return buf;
}

/* ---- output ---- */

static void show_status(char status, const char *name)
{
	putchar(status);
	write_name_field(stdout, name, strlen(name), nul_terminate);
}

static void patch_or_die(const struct diff_side *one,
			 const struct diff_side *two)
{
	if (print_patch(stdout, one, two, &diff_opts) < 0)
		die("cannot write the patch for '%s'", two->path);
}

static void side_from_entry(struct diff_side *s, const struct cache_entry *ce)
{
	s->path = ce->name;
	s->mode = ce->ce_mode;
	memcpy(s->sha1, ce->sha1, 20);
	s->data = S_ISGITLINK(ce->ce_mode) ? NULL :
		read_index_blob(ce, &s->size);
}

static void side_from_work(struct diff_side *s, const char *name,
			   const struct stat *st)
{
	s->path = name;
	s->mode = ce_mode_from_stat(st->st_mode);
	s->data = read_work_file(name, st, &s->size);
	if (!s->data)
		exit(128);
	hash_sha1_file(s->data, s->size, OBJ_BLOB, s->sha1);
}

/*
 * Print the patch for one changed entry: status 'M', 'A' (intent to
 * add), 'D' or 'T' (a type change is a deletion plus an addition, as
 * git prints it).
 */
static void show_patch(char status, const struct cache_entry *ce,
		       const struct stat *st)
{
	struct diff_side one, two, none;

	memset(&one, 0, sizeof(one));
	memset(&two, 0, sizeof(two));
	memset(&none, 0, sizeof(none));
	none.path = ce->name;
	if (status != 'A')
		side_from_entry(&one, ce);
	else
		one.path = ce->name;
	if (status != 'D')
		side_from_work(&two, ce->name, st);
	if (status == 'M' || status == 'A') {
		patch_or_die(&one, &two);
	} else {
		patch_or_die(&one, &none);
		if (status == 'T')
			patch_or_die(&none, &two);
	}
	free((char *)one.data);
	free((char *)two.data);
}

/* ---- comparing ---- */

/*
 * lstat name; 0 when it exists, 1 when it is gone (or beyond a
 * symlink, as git sees it), die on other errors.
 */
static int lstat_work(const char *name, struct stat *st)
{
	if (!lstat_work_path(name, st))
		return 0;
	if (errno == ENOENT || errno == ENOTDIR)
		return 1;
	die_errno("lstat '%s'", name);
}

/*
 * How the work tree differs from ce: 0 (not at all), 'M', 'D' or 'T'.
 * Content is hashed only when the stat data says it may have changed.
 */
static char compare_entry(const struct cache_entry *ce, struct stat *st)
{
	unsigned int changed;
	unsigned char sha1[20];

	if (ce->ce_state & CE_UPTODATE)
		return 0;	/* preload_index saw it unchanged */
	if (ce->ce_ext_flags & CE_SKIP_WORKTREE)
		return 0;	/* sparse: its absence is no change */
	if (lstat_work(ce->name, st))
		return 'D';
	if (ce->ce_ext_flags & CE_INTENT_TO_ADD)
		return 'A';	/* "git add -N": a new file, as git shows it */
	if (S_ISGITLINK(ce->ce_mode))
		return S_ISDIR(st->st_mode) ? 0 : 'T';
	if (S_ISDIR(st->st_mode))
		return 'D';	/* git: a directory where a file was */
	if (!S_ISREG(st->st_mode) && !S_ISLNK(st->st_mode))
		return 'M';	/* git: a FIFO is a change it cannot hash */
	changed = ce_match_stat(ce, st);
	if (!changed)
		return 0;
	if (changed & TYPE_CHANGED)
		return 'T';
	if (changed & MODE_CHANGED)
		return 'M';
	if (index_path(ce->name, st, 0, sha1) < 0)
		die("cannot hash '%s'", ce->name);
	return memcmp(sha1, ce->sha1, 20) ? 'M' : 0;
}

/*
 * An unmerged path (entries i.. with stages): "U", then the work tree
 * against "our" side (stage 2) as git diff-files does, whose missing
 * stat data always reads as a modification.  In a patch that is
 * "* Unmerged path p" and the patch against stage 2; git shows a path
 * with both stages 2 and 3 as a combined diff instead, which we do not
 * write (the line alone stands for it).
 */
static unsigned int show_unmerged(unsigned int i, int *differs)
{
	const char *name = active_cache[i]->name;
	const struct cache_entry *ours = NULL;
	int theirs = 0;
	struct stat st;
	char status;

	for (; i < active_nr && !strcmp(active_cache[i]->name, name); i++) {
		if (ce_stage(active_cache[i]) == 2)
			ours = active_cache[i];
		if (ce_stage(active_cache[i]) == 3)
			theirs = 1;
	}
	*differs = 1;
	if (quiet)
		return i;
	if (!name_status) {
		/* git writes this name as it is, unquoted */
		printf("* Unmerged path %s\n", name);
	} else {
		show_status('U', name);
	}
	if (!ours || (!name_status && theirs))
		return i;
	if (lstat_work(name, &st) || S_ISDIR(st.st_mode))
		status = 'D';
	else if ((ce_mode_from_stat(st.st_mode) & S_IFMT) !=
		 (ours->ce_mode & S_IFMT))
		status = 'T';
	else
		status = 'M';
	if (name_status)
		show_status(status, name);
	else
		show_patch(status, ours, &st);
	return i;
}

/* Compare every wanted entry; returns 1 when something differs. */
static int show_changes(void)
{
	unsigned int i = 0;
	int differs = 0;

	while (i < active_nr) {
		const struct cache_entry *ce = active_cache[i];
		struct stat st;
		char status;

		if (!path_wanted(ce->name)) {
			i++;
			continue;
		}
		if (ce_stage(ce)) {
			i = show_unmerged(i, &differs);
		} else {
			i++;
			status = compare_entry(ce, &st);
			if (!status)
				continue;
			differs = 1;
			if (quiet)
				break;
			if (name_status)
				show_status(status, ce->name);
			else
				show_patch(status, ce, &st);
		}
		if (differs && quiet)
			break;
	}
	return differs;
}

int main(int argc, char **argv)
{
	int i, differs;

	setup_tool(argv[0]);
	handle_help(argc, argv, show_diff_usage);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-q"))
			quiet = 1;
		else if (!strcmp(arg, "-s"))
			name_status = 1;
		else if (!strcmp(arg, "-z"))
			nul_terminate = 1;
		else if (!strcmp(arg, "--binary"))
			diff_opts.binary = 1;
		else if (arg[0] == '-')
			usage(show_diff_usage);
		else
			break;
	}
	if (nul_terminate)
		name_status = 1;	/* -z is --name-status -z */
	if (parse_pathspec(&pathspec, argv + i, argc - i) < 0)
		exit(128);
	if (setup_repository() < 0)
		exit(128);
	if (read_cache() < 0)
		die("cannot read the index");
	preload_index(pathspec.match_all ? NULL : path_wanted);
	differs = show_changes();
	clear_pathspec(&pathspec);
	finish_stdout();
	return quiet && differs ? 1 : 0;
}
