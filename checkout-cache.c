/*
 * checkout-cache: write files from the index into the working tree.
 * Regular files get mode 0666 or 0777 (less the umask), symlinks are
 * made as symlinks, gitlinks as empty directories, and leading
 * directories are created as needed.
 *
 * The writing itself is checkout.c's, shared with read-tree -u.
 *
 * Nothing is ever written outside the work tree, even from a hostile
 * index: each path is checked again with verify_path, and every
 * leading component is checked with lstat, so a symlink is never
 * followed (only the directories of --prefix are trusted).
 *
 * A file that exists and differs from the index is kept unless -f, as
 * git checkout-index does: "'f' already exists, no checkout" and exit
 * 1 at the end (-q drops that message and "not in the cache", as in
 * git).  With -f, a file or symlink where a directory must go is
 * replaced by a directory, and a directory where a file must go is
 * removed with all it holds.  Errors on one entry are reported and the
 * others are still checked out; the exit status is 1 when any failed.
 *
 * A file whose name is free is made nameless in its directory
 * (O_TMPFILE) and linked under its name once whole; any other is
 * written under a temporary name in its own directory,
 * ".<name>.tmp-<pid>-<n>", and renamed into place.  Either way an
 * interrupted checkout leaves a file complete or absent under its real
 * name (a nameless file is not left at all).  In a directory the
 * checkout made itself, a name is free without an lstat to say so.
 *
 * With -a, the directories are made and the paths checked in index
 * order, a batch at a time; the files of a batch are inflated and
 * written on every core while the next batch is checked, as nothing
 * but whole files linked or renamed into checked directories is left
 * to do.  A rename never replaces a directory and
 * a link never replaces anything, so even a
 * hostile index that names "a" and "a/x" cannot make a write go
 * through anything but a checked directory.
 *
 * -u records the stat data of what was written in the index, so that
 * show-diff is clean right after a checkout.  --prefix=<string> puts
 * <string> before every path (to export a tree; "export/" makes a
 * directory); it cannot be used with -u, as the files are not the
 * ones the index describes.  -a checks out every entry; otherwise the
 * paths name index entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkout.h"

static const char checkout_cache_usage[] =
	"checkout-cache [-a] [-f] [-q] [-u] [--prefix=<string>] [--] "
	"<path>...";

static int quiet, update_index;
static struct checkout co;

static int checkout_all(void)
{
	unsigned int i;
	int errs = 0;

	co.progress = start_progress("Checking out files", active_nr);
	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];

		/* Unmerged and sparse entries are skipped, as git does. */
		if (ce_stage(ce) || (ce->ce_ext_flags & CE_SKIP_WORKTREE))
			continue;
		if (checkout_queue_entry(&co, ce) < 0)
			errs++;
	}
	errs += checkout_flush(&co);
	stop_progress(&co.progress);
	return errs;
}

static int checkout_path(const char *arg)
{
	char *name = normalize_path(arg);
	size_t len = strlen(name);
	int pos = cache_name_pos(name, len), ret;

	if ((pos >= 0 &&
	     (active_cache[pos]->ce_ext_flags & CE_SKIP_WORKTREE)) ||
	    (pos < 0 && path_in_sparse_dir(name, len))) {
		/* sparse: not in the work tree by design, as git refuses */
		ret = error("'%s' has skip-worktree enabled, not checked out",
			    arg);
	} else if (pos >= 0) {
		ret = checkout_entry(&co, active_cache[pos]);
	} else {
		pos = -pos - 1;
		if ((unsigned int)pos < active_nr &&
		    active_cache[pos]->ce_namelen == len &&
		    !memcmp(active_cache[pos]->name, name, len))
			ret = error("'%s' is unmerged, not checked out", arg);
		else if (quiet)
			ret = -1;
		else
			ret = error("'%s' is not in the cache", arg);
	}
	free(name);
	return ret;
}

/* The directories of the prefix are the user's: made like mkdir -p. */
static void make_prefix_dirs(void)
{
	char *dirs;

	if (!co.base_len)
		return;
	dirs = xstrdup(co.prefix);
	dirs[co.base_len] = '\0';
	if (create_leading_dirs(dirs) < 0)
		die_errno("create directories of prefix '%s'", co.prefix);
	free(dirs);
}

int main(int argc, char **argv)
{
	const char *prefix = "";
	int all = 0, force = 0, errs = 0, i;

	setup_tool(argv[0]);
	handle_help(argc, argv, checkout_cache_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-a"))
			all = 1;
		else if (!strcmp(arg, "-f"))
			force = 1;
		else if (!strcmp(arg, "-q"))
			quiet = 1;
		else if (!strcmp(arg, "-u"))
			update_index = 1;
		else if (!strncmp(arg, "--prefix=", 9))
			prefix = arg + 9;
		else
			usage(checkout_cache_usage);
	}
	if (all && i < argc) {
		error("-a cannot be used with paths");
		usage(checkout_cache_usage);
	}
	if (update_index && *prefix) {
		error("-u cannot be used with --prefix");
		usage(checkout_cache_usage);
	}
	checkout_init(&co, prefix);
	co.force = force;
	co.quiet = quiet;
	co.refresh = update_index;

	if (setup_repository() < 0)
		exit(128);
	if (update_index && hold_index_lock() < 0)
		die("cannot lock the index");
	index_entries_kept();	/* files out, stat data in: nothing else */
	if (read_cache() < 0)
		die("cannot read the index");
	make_prefix_dirs();
	if (all)
		errs = checkout_all();
	for (; i < argc; i++)
		if (checkout_path(argv[i]) < 0)
			errs++;
	errs += checkout_finish(&co);
	if (update_index && commit_index() < 0)
		die("cannot write the index");
	finish_stdout();
	return errs ? 1 : 0;
}
