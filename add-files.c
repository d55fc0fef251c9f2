/*
 * add-files: what "dircache add" does, as git add 2.x does it, in one
 * process that reads and writes the index once.
 *
 * The paths are pathspecs (relative to --prefix, the directory the
 * command was run from): the tracked files they match are brought up
 * to date (a file gone from the work tree leaves the index), and the
 * files the index does not know below them are added, those that
 * .gitignore, info/exclude or core.excludesFile exclude left out (-f
 * adds them too).  -A with no path is the whole tree, -u only the
 * tracked files.  A path named on the command line that is ignored is
 * refused with git's message, the others added, exit 1.
 *
 * Only what changed is read: every entry is lstat'ed on every core,
 * and a file is hashed only when its stat data differ from the index's
 * (or it is racily clean, git's rule); the object store is written,
 * with its collision check, only for content it does not hold under
 * the entry's id.  One index.lock, one write, none when nothing changed.
 *
 * --write-tree is "dircache commit"'s one pass (with -u, commit -a's):
 * after the adding, the index is stored as trees (the cache tree's
 * valid directories not hashed again), the index written once with its
 * cache tree brought up to date, and the root tree's id printed.  With
 * no pathspec and neither -A nor -u nothing is added first.  An index
 * with unmerged entries is left as it was: their paths are printed,
 * one a line, and the exit status is 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "commit-write.h"
#include "exclude.h"

static const char add_files_usage[] =
	"add-files [-A | -u] [-f] [--write-tree] [--prefix=<dir>/] [--] "
	"[<pathspec>...]";

static int all, update_only, force, write_tree;
static const char *prefix = "";
static struct pathspec pathspec;
static char **args;		/* the pathspecs, relative to the top */
static int nr_args;

/* Test hook: DIRCACHE_TEST_HASH_LOG names a file each hashed path goes to. */
static FILE *hash_log;

/* ---- paths ---- */

/* arg (relative to the prefix) relative to the top, ".." resolved. */
static char *prefix_path(const char *arg)
{
	struct mbuf b = MBUF_INIT;
	const char *p = arg, *end;
	size_t len;

	if (*arg == '/')
		die("'%s' is outside the repository", arg);
	mbuf_addstr(&b, prefix);
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		len = end - p;
		if (!len || (len == 1 && *p == '.'))
			continue;
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash;

			if (!b.len)
				die("'%s' is outside the repository", arg);
			b.buf[b.len - 1] = '\0';
			slash = strrchr(b.buf, '/');
			mbuf_setlen(&b, slash ? (size_t)(slash - b.buf + 1) : 0);
			continue;
		}
		mbuf_add(&b, p, len);
		mbuf_addch(&b, '/');
	}
	if (b.len && arg[strlen(arg) - 1] != '/')
		mbuf_setlen(&b, b.len - 1);
	if (!b.len)
		mbuf_addstr(&b, ".");
	if (b.failed)
		die("out of memory");
	return mbuf_detach(&b, NULL);
}

static int wanted(const char *name)
{
	return match_pathspec(&pathspec, name, strlen(name));
}

/* ---- what to hash ---- */

enum job_kind { JOB_NEW, JOB_TRACKED };

struct hash_job {
	struct cache_entry *ce;
	enum job_kind kind;
	int failed;		/* could not be read: an error was printed */
	int gone;		/* vanished or not a file meanwhile */
	int changed;		/* the entry's id, mode or stat data moved */
};

static struct hash_job *jobs;
static size_t nr_jobs, alloc_jobs;
static struct cache_entry **new_entries;
static size_t nr_new, alloc_new;
static int index_dirty;

static void queue_job(struct cache_entry *ce, enum job_kind kind)
{
	ALLOC_GROW(jobs, nr_jobs + 1, alloc_jobs);
	memset(&jobs[nr_jobs], 0, sizeof(*jobs));
	jobs[nr_jobs].ce = ce;
	jobs[nr_jobs++].kind = kind;
}

static void log_hashed(const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	if (!hash_log)
		return;
	pthread_mutex_lock(&lock);
	fprintf(hash_log, "%s\n", name);
	pthread_mutex_unlock(&lock);
}

/* A tracked file whose stat data moved: same content, or new content. */
static void hash_tracked(struct hash_job *job, const struct stat *st)
{
	struct cache_entry *ce = job->ce;
	unsigned int changed = ce_match_stat_basic(ce, st);
	unsigned char now[HASH_MAX_RAWSZ];

	log_hashed(ce->name);
	if (!(changed & (TYPE_CHANGED | MODE_CHANGED)) &&
	    !((changed & DATA_CHANGED) && ce->ce_size)) {
		if (index_path(ce->name, st, 0, now) < 0) {
			job->failed = 1;
			return;
		}
		if (hasheq(now, ce->sha1)) {
			if (changed) {
				fill_stat_cache_info(ce, st);
				job->changed = 1;
			}
			return;
		}
	}
	if (index_path(ce->name, st, 1, now) < 0) {
		job->failed = 1;
		return;
	}
	hashcpy(ce->sha1, now);
	fill_stat_cache_info(ce, st);
	job->changed = 1;
}

static size_t hash_one(void *data, size_t i)
{
	struct hash_job *job = (struct hash_job *)data + i;
	struct stat st;

	if (lstat(job->ce->name, &st) < 0 ||
	    (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))) {
		job->gone = 1;
		return 1;
	}
	if (job->kind == JOB_TRACKED) {
		hash_tracked(job, &st);
		return 1;
	}
	log_hashed(job->ce->name);
	fill_stat_cache_info(job->ce, &st);
	if (index_path(job->ce->name, &st, 1, job->ce->sha1) < 0)
		job->failed = 1;
	job->changed = 1;
	return 1;
}

/*
 * So many files to hash that their new objects go to the store as one
 * pack (promise.c), deflated on every core at the end, not as as many
 * loose files: creating 78,000 files is most of the system time of
 * adding a kernel tree.  Fewer stay loose, so that everyday adds do
 * not make a pack each.
 */
#define PACK_JOBS 1000

static void hash_jobs(void)
{
	struct progress *progress;
	size_t i;
	int failed = 0;

	if (!nr_jobs)
		return;
	if (nr_jobs >= PACK_JOBS)
		promise_writes(1);
	progress = start_progress("Adding files", nr_jobs);
	run_parallel(0, nr_jobs, hash_one, jobs, progress, 0);
	stop_progress(&progress);
	if (promising_writes() && flush_to_disk(-1) < 0)
		die("cannot store the new objects");
	promise_writes(0);
	for (i = 0; i < nr_jobs; i++) {
		if (jobs[i].failed) {
			error("unable to index file '%s'", jobs[i].ce->name);
			failed = 1;
		}
		if (jobs[i].changed)
			index_dirty = 1;
	}
	if (failed)
		die("adding files failed");
}

/* ---- the tracked files ---- */

/* Entries to drop (their files are gone), by name. */
static char **gone;
static size_t nr_gone, alloc_gone;

static void drop_later(const char *name)
{
	ALLOC_GROW(gone, nr_gone + 1, alloc_gone);
	gone[nr_gone++] = xstrdup(name);
}

/* An unmerged path: its file, at stage 0, resolves it; none removes it. */
static unsigned int resolve_unmerged(unsigned int i)
{
	const struct cache_entry *ce = active_cache[i];
	struct stat st;

	if (lstat_work_path(ce->name, &st) < 0) {
		drop_later(ce->name);
	} else {
		struct cache_entry *new = make_cache_entry(ce->name,
							   ce->ce_namelen);

		ALLOC_GROW(new_entries, nr_new + 1, alloc_new);
		new_entries[nr_new++] = new;
		queue_job(new, JOB_NEW);
	}
	while (i + 1 < active_nr &&
	       active_cache[i + 1]->ce_namelen == ce->ce_namelen &&
	       !memcmp(active_cache[i + 1]->name, ce->name, ce->ce_namelen))
		i++;
	return i + 1;
}

static void scan_tracked(void)
{
	unsigned int i = 0;

	preload_index(pathspec.match_all ? NULL : wanted);
	while (i < active_nr) {
		struct cache_entry *ce = active_cache[i];
		struct stat st;

		if (!pathspec.match_all && !wanted(ce->name)) {
			i++;
			continue;
		}
		if (ce_stage(ce)) {
			i = resolve_unmerged(i);
			continue;
		}
		i++;
		if ((ce->ce_state & CE_UPTODATE) ||
		    (ce->ce_ext_flags & CE_SKIP_WORKTREE))
			continue;
		if (lstat_work_path(ce->name, &st) < 0 ||
		    (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode) &&
		     !S_ISGITLINK(ce->ce_mode))) {
			drop_later(ce->name);
			continue;
		}
		if (S_ISGITLINK(ce->ce_mode))
			continue;	/* a submodule is committed in it */
		if (ce_is_racy(ce))
			index_dirty = 1;	/* written, it is racy no more */
		if (!ce_match_stat_basic(ce, &st) && !ce_is_racy(ce) &&
		    !(ce->ce_ext_flags & CE_INTENT_TO_ADD))
			continue;
		if (ce->ce_ext_flags & CE_INTENT_TO_ADD) {
			ce->ce_ext_flags &= ~CE_INTENT_TO_ADD;
			index_dirty = 1;
		}
		queue_job(ce, JOB_TRACKED);
	}
}

/* ---- the untracked files ---- */

static struct exclude_set excludes;

/* Is name inside a .dircache directory below the top (a store)? */
static int in_nested_store(const char *name)
{
	const char *p = strstr(name, "/" DEFAULT_GIT_DIR "/");

	return p != NULL;
}

static void find_new_files(void)
{
	struct dir_walk w;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.exclude = force ? NULL : &excludes;
	w.pathspec = pathspec.match_all ? NULL : &pathspec;
	if (read_directory(&w) < 0)
		exit(128);
	for (i = 0; i < w.nr; i++) {
		const char *name = w.names[i];
		size_t len = strlen(name);
		struct cache_entry *ce;

		if (len && name[len - 1] == '/') {
			warning("not adding '%s': a repository of its own",
				name);
			continue;
		}
		if (!pathspec.match_all && !wanted(name))
			continue;
		if (in_nested_store(name))
			continue;	/* never content, as .git */
		if (!verify_path(name, len))
			die("invalid path '%s'", name);
		ce = make_cache_entry(name, len);
		ALLOC_GROW(new_entries, nr_new + 1, alloc_new);
		new_entries[nr_new++] = ce;
		queue_job(ce, JOB_NEW);
	}
	clear_dir_walk(&w);
}

/* ---- the pathspecs named ---- */

/* Is anything at or below path (len bytes) in the index? */
static int index_knows(const char *path, size_t len)
{
	unsigned int pos = index_lower_bound(0, active_nr, path, len, 0);
	const struct cache_entry *ce;

	if (pos >= active_nr)
		return 0;
	ce = active_cache[pos];
	return ce->ce_namelen >= len && !memcmp(ce->name, path, len) &&
	       (ce->ce_namelen == len || ce->name[len] == '/');
}

/* Is path ignored, by itself or by a directory above it? */
static int path_ignored(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return 0;
	return is_excluded(&excludes, path,
			   S_ISDIR(st.st_mode) ? DT_DIR : DT_UNKNOWN);
}

/*
 * Each literal pathspec must name something (else git's "did not
 * match any files", nothing added); the ignored ones are listed, as
 * git does, and make the exit status 1.
 */
static int check_named_paths(void)
{
	int i, ignored = 0;

	for (i = 0; i < nr_args; i++) {
		const char *p = args[i];
		size_t len = strlen(p);
		struct stat st;

		if (!strcmp(p, ".") || strpbrk(p, "*?["))
			continue;
		while (len > 1 && p[len - 1] == '/')
			len--;
		if (index_knows(p, len))
			continue;
		if (has_symlink_leading_path(p, len) > 0)
			die("pathspec '%s' is beyond a symbolic link", p);
		if (lstat(p, &st) < 0)
			die("pathspec '%s' did not match any files", p);
		if (force || !path_ignored(p))
			continue;
		if (!ignored++)
			fprintf(stderr, "The following paths are ignored by "
				"one of your .gitignore files:\n");
		fprintf(stderr, "%.*s\n", (int)len, p);
	}
	if (ignored)
		fprintf(stderr, "hint: Use -f if you really want to add them.\n");
	return ignored ? 1 : 0;
}

/* ---- the index ---- */

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void apply_changes(void)
{
	size_t i, n = 0;

	if (nr_gone)
		qsort(gone, nr_gone, sizeof(*gone), compare_names);
	for (i = 0; i < nr_gone; i++) {
		remove_file_from_cache(gone[i]);
		free(gone[i]);
		index_dirty = 1;
	}
	for (i = 0; i < nr_jobs; i++)
		if (jobs[i].kind == JOB_TRACKED && jobs[i].gone)
			index_dirty |= remove_file_from_cache(jobs[i].ce->name);
	for (i = 0; i < nr_new; i++) {
		struct cache_entry *ce = new_entries[i];

		if (!ce->ce_mode) {	/* gone before it was hashed */
			free_cache_entry(ce);
			continue;
		}
		new_entries[n++] = ce;
	}
	if (!n)
		return;
	index_dirty = 1;
	sort_cache_entries(new_entries, n);
	for (i = 0; i < n; i++)
		if (add_cache_entry(new_entries[i], ADD_CACHE_OK_TO_ADD |
				    ADD_CACHE_OK_TO_REPLACE) < 0)
			die("cannot add '%s' to the index",
			    new_entries[i]->name);
}

/* ---- --write-tree ---- */

/* The unmerged paths, each once, on stdout; how many. */
static int list_unmerged(void)
{
	const char *last = NULL;
	unsigned int i;
	int n = 0;

	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		if (!ce_stage(ce) || (last && !strcmp(last, ce->name)))
			continue;
		printf("%s\n", ce->name);
		last = ce->name;
		n++;
	}
	return n;
}

/*
 * The index as trees, written back once with its cache tree (not at
 * all when nothing changed and the cache tree was whole already).
 */
static void write_index_and_tree(void)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	int was_valid = cache_tree_fully_valid(index_cache_tree());

	if (write_index_as_trees(sha1) < 0)
		exit(128);
	if (put_back_intent_to_add() < 0)
		die("cannot put the intent-to-add entries back");
	if (!index_dirty && was_valid)
		rollback_index_lock();
	else if (commit_index() < 0)
		die("unable to write the index");
	printf("%s\n", sha1_to_hex(sha1));
}

/* ---- main ---- */

static int parse_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--"))
			return i + 1;
		if (arg[0] != '-' || !arg[1])
			return i;
		if (!strcmp(arg, "-A") || !strcmp(arg, "--all"))
			all = 1;
		else if (!strcmp(arg, "-u") || !strcmp(arg, "--update"))
			update_only = 1;
		else if (!strcmp(arg, "-f") || !strcmp(arg, "--force"))
			force = 1;
		else if (!strcmp(arg, "--write-tree"))
			write_tree = 1;
		else if (!strncmp(arg, "--prefix=", 9))
			prefix = arg + 9;
		else
			usage(add_files_usage);
	}
	return i;
}

int main(int argc, char **argv)
{
	int i, first, ret;
	const char *log;

	setup_tool(argv[0]);
	handle_help(argc, argv, add_files_usage);
	first = parse_options(argc, argv);
	if (all && update_only)
		die("-A and -u are mutually incompatible");
	if (first == argc && !all && !update_only && !write_tree)
		die("nothing specified, nothing added");
	nr_args = argc - first;
	args = xcalloc(nr_args + 1, sizeof(*args));
	for (i = 0; i < nr_args; i++)
		args[i] = prefix_path(argv[first + i]);
	if (setup_repository() < 0)
		exit(128);
	log = getenv("DIRCACHE_TEST_HASH_LOG");
	if (log && !(hash_log = fopen(log, "a")))
		die_errno("open '%s'", log);
	if (parse_pathspec(&pathspec, args, nr_args) < 0)
		exit(128);
	init_exclude_set(&excludes);
	if (add_standard_excludes(&excludes) < 0)
		exit(128);

	if (hold_index_lock() < 0)
		exit(128);
	if (read_cache() < 0)
		die("unable to read the index");
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	if (write_tree && list_unmerged()) {
		rollback_index_lock();
		finish_stdout();
		return 1;
	}
	ret = check_named_paths();
	if (nr_args || all || update_only) {
		scan_tracked();
		if (!update_only)
			find_new_files();
		hash_jobs();
		apply_changes();
	}
	if (write_tree)
		write_index_and_tree();
	else if (!index_dirty)
		rollback_index_lock();
	else if (commit_index() < 0)
		die("unable to write the index");
	if (hash_log && fclose(hash_log))
		die_errno("close '%s'", log);
	if (write_tree)
		finish_stdout();
	return ret;
}
