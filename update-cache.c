/*
 * update-cache: put work-tree files into the object store and the
 * index.  Regular files become blobs (100644, or 100755 when
 * executable), symlinks become blobs of their target (120000).
 *
 * The options apply to every path: --add allows paths the index does
 * not hold yet, --remove drops entries whose file is gone, --refresh
 * re-stats every entry.  --stdin reads the paths from standard input
 * (one a line, or NUL-separated with -z) so that a 75,000-file tree
 * needs no xargs.  Every path is checked before the index changes:
 * one refusal (a directory, a missing file without --remove, a path
 * that breaks the rules) leaves the index exactly as it was.
 *
 * Files are hashed and compressed on every core: zlib and SHA-1 are
 * the whole cost of adding a tree, and each file is independent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

static const char update_cache_usage[] =
	"update-cache [--add] [--remove] [--refresh] "
	"[--cacheinfo <mode> <id> <path>] [--stdin [-z]] [--] <path>...";

static int allow_add, allow_remove, refresh, from_stdin, nul_term;

struct path_list {
	char **items;
	size_t nr, alloc;
};

static struct path_list paths;
static struct cache_entry **pending;
static size_t pending_nr, pending_alloc;

/*
 * Files to hash into the store: the entry, and the type and size lstat
 * saw (not all of struct stat: 78,000 of those would be 11 MB).
 */
struct hash_job {
	struct cache_entry *ce;
	off_t size;
	mode_t mode;
	int failed;
};

static struct hash_job *jobs;
static size_t nr_jobs, alloc_jobs;

static void add_path(const char *path)
{
	ALLOC_GROW(paths.items, paths.nr + 1, paths.alloc);
	paths.items[paths.nr++] = normalize_path(path);
}

static void read_stdin_paths(void)
{
	int term = nul_term ? '\0' : '\n';
	char *line = NULL;
	size_t size = 0;
	ssize_t len;

	while ((len = getdelim(&line, &size, term, stdin)) > 0) {
		if (line[len - 1] == term)
			line[--len] = '\0';
		if (len)
			add_path(line);
	}
	if (ferror(stdin))
		die_errno("read standard input");
	free(line);
}

static void queue_entry(struct cache_entry *ce)
{
	ALLOC_GROW(pending, pending_nr + 1, pending_alloc);
	pending[pending_nr++] = ce;
}

/* A gone file: drop its entry with --remove, else refuse. */
static void remove_path(const char *path)
{
	if (!allow_remove)
		die("'%s' does not exist and --remove not passed", path);
	remove_file_from_cache(path);
}

/*
 * What lstat said of each path, asked on every core before the paths
 * are checked in order (the checks and their refusals stay in order;
 * only the system calls overlap).
 */
struct path_stat {
	struct cache_entry *ce;	/* made for a regular file or a symlink */
	int err;		/* lstat's errno, or 0 */
	int beyond_link;	/* has_symlink_leading_path said so */
	mode_t mode;
	off_t size;
};

static struct path_stat *path_stats;

/* Paths a thread takes at a time, its directories kept open over them. */
#define STAT_RUN 256

static void stat_one_path(struct work_dirs *wd, size_t i)
{
	struct path_stat *ps = &path_stats[i];
	const char *path = paths.items[i];
	size_t len = strlen(path);
	struct stat st;

	/* a file above the path: it is gone (ENOTDIR), as git sees it */
	ps->beyond_link = has_symlink_leading_path(path, len) == 1;
	if (lstat_in_work_dirs(wd, path, len, &st) < 0) {
		ps->err = errno;
		return;
	}
	ps->mode = st.st_mode;
	ps->size = st.st_size;
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
		ps->ce = make_cache_entry(path, len);
		fill_stat_cache_info(ps->ce, &st);
	}
}

static size_t stat_run(void *data, size_t run)
{
	size_t i = run * STAT_RUN, end = i + STAT_RUN;
	struct work_dirs wd;

	(void)data;
	if (end > paths.nr)
		end = paths.nr;
	init_work_dirs(&wd);
	for (; i < end; i++)
		stat_one_path(&wd, i);
	close_work_dirs(&wd);
	return 1;
}

/*
 * A path beyond a symlink reads as missing here; update_path refuses
 * it before it looks at that (beyond_link).  Each thread remembers
 * the last leading directory it found real, as the main thread did.
 */
static void stat_paths(void)
{
	path_stats = xcalloc(paths.nr + 1, sizeof(*path_stats));
	run_parallel(0, (paths.nr + STAT_RUN - 1) / STAT_RUN, stat_run, NULL,
		     NULL, 0);
}

static void update_path(size_t n)
{
	const char *path = paths.items[n];
	const struct path_stat *ps = &path_stats[n];
	size_t len = strlen(path);

	if (!verify_path(path, len))
		die("invalid path '%s'", path);
	if (ps->beyond_link)
		die("'%s' is beyond a symbolic link", path);
	if (ps->err) {
		errno = ps->err;
		if (errno != ENOENT && errno != ENOTDIR)
			die_errno("lstat '%s'", path);
		remove_path(path);
		return;
	}
	if (S_ISDIR(ps->mode))
		die("'%s' is a directory; add the files in it instead", path);
	if (!ps->ce)
		die("'%s' is not a regular file or a symlink", path);
	ALLOC_GROW(jobs, nr_jobs + 1, alloc_jobs);
	jobs[nr_jobs].ce = ps->ce;
	jobs[nr_jobs].size = ps->size;
	jobs[nr_jobs].mode = ps->mode;
	jobs[nr_jobs].failed = 0;
	nr_jobs++;
	queue_entry(ps->ce);
}

/* Set by the first failure, so a broken store gives one message. */
static int hash_failed;

/*
 * The order jobs are handed out in: the biggest files first, so that
 * no core is left with one at the end while the other waits, then the
 * rest as they came (directory by directory).
 */
static size_t *job_order;

static int bigger_first(const void *a, const void *b)
{
	const struct hash_job *x = &jobs[*(const size_t *)a];
	const struct hash_job *y = &jobs[*(const size_t *)b];

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Files over this size go first; the rest keep their order. */
#define BIG_JOB (256 * 1024)

static void order_jobs(void)
{
	size_t i, nr_big = 0, next;

	job_order = xmalloc(nr_jobs * sizeof(*job_order));
	for (i = 0; i < nr_jobs; i++)
		if (jobs[i].size > BIG_JOB)
			job_order[nr_big++] = i;
	qsort(job_order, nr_big, sizeof(*job_order), bigger_first);
	next = nr_big;
	for (i = 0; i < nr_jobs; i++)
		if (jobs[i].size <= BIG_JOB)
			job_order[next++] = i;
}

static size_t hash_one_job(void *data, size_t i)
{
	struct hash_job *job = (struct hash_job *)data + job_order[i];
	struct stat st = { .st_mode = job->mode, .st_size = job->size };

	if (__atomic_load_n(&hash_failed, __ATOMIC_RELAXED))
		return 1;
	if (index_path(job->ce->name, &st, 1, job->ce->sha1) < 0) {
		job->failed = 1;
		__atomic_store_n(&hash_failed, 1, __ATOMIC_RELAXED);
	}
	return 1;
}

/* Hash and store every queued file; die naming the first failure. */
static void hash_jobs(void)
{
	struct progress *progress;
	size_t i;

	if (!nr_jobs)
		return;
	order_jobs();
	progress = start_progress("Adding files", nr_jobs);
	run_parallel(0, nr_jobs, hash_one_job, jobs, progress, 0);
	stop_progress(&progress);
	free(job_order);
	for (i = 0; i < nr_jobs; i++)
		if (jobs[i].failed)
			die("unable to add '%s' to the object store",
			    jobs[i].ce->name);
}

static void add_cacheinfo(const char *mode_arg, const char *id,
			  const char *path)
{
	size_t len = strlen(path);
	struct cache_entry *ce;
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	unsigned long mode;
	size_t size;
	char *end;

	mode = strtoul(mode_arg, &end, 8);
	if (*end || (mode != 0100644 && mode != 0100755 && mode != 0120000 &&
		     mode != S_IFGITLINK))
		die("--cacheinfo: bad mode '%s'", mode_arg);
	if (strlen(id) != the_hash->hexsz || get_sha1_hex(id, sha1) < 0)
		die("--cacheinfo: '%s' is not a %u-digit object id", id,
		    the_hash->hexsz);
	if (!verify_path(path, len))
		die("invalid path '%s'", path);
	if (!S_ISGITLINK(mode)) {
		if (sha1_object_info(sha1, &type, &size) < 0)
			die("--cacheinfo: no object %s", id);
		if (type != OBJ_BLOB)
			die("--cacheinfo: object %s is a %s, not a blob", id,
			    type_name(type));
	}
	ce = make_cache_entry(path, len);
	hashcpy(ce->sha1, sha1);
	ce->ce_mode = mode;
	queue_entry(ce);
}

static int refresh_cache(void)
{
	unsigned int i;
	int stale = 0;

	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];

		if (ce_stage(ce)) {
			printf("%s: needs merge\n", ce->name);
			stale = 1;
			while (i + 1 < active_nr &&
			       !strcmp(active_cache[i + 1]->name, ce->name))
				i++;
		} else if (refresh_cache_entry(ce, 0)) {
			printf("%s: needs update\n", ce->name);
			stale = 1;
		}
	}
	return stale;
}

/* The last of several entries for one path wins, as if added in turn. */
static void drop_duplicate_pending(void)
{
	size_t i, n = 0;

	for (i = 0; i < pending_nr; i++) {
		if (n && !strcmp(pending[n - 1]->name, pending[i]->name)) {
			free(pending[n - 1]);
			pending[n - 1] = pending[i];
			continue;
		}
		pending[n++] = pending[i];
	}
	pending_nr = n;
}

/* --cacheinfo <mode> <id> <path>, kept until the index is locked. */
struct cacheinfo {
	const char *mode, *id, *path;
};

static struct cacheinfo *cacheinfos;
static size_t nr_cacheinfos, alloc_cacheinfos;

/* Take the options and their arguments; returns the index of the first path. */
static int parse_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--"))
			return i + 1;
		if (arg[0] != '-')
			return i;
		if (!strcmp(arg, "--add"))
			allow_add = 1;
		else if (!strcmp(arg, "--remove"))
			allow_remove = 1;
		else if (!strcmp(arg, "--refresh"))
			refresh = 1;
		else if (!strcmp(arg, "--stdin"))
			from_stdin = 1;
		else if (!strcmp(arg, "-z"))
			nul_term = 1;
		else if (!strcmp(arg, "--cacheinfo") && i + 3 < argc) {
			ALLOC_GROW(cacheinfos, nr_cacheinfos + 1,
				   alloc_cacheinfos);
			cacheinfos[nr_cacheinfos].mode = argv[++i];
			cacheinfos[nr_cacheinfos].id = argv[++i];
			cacheinfos[nr_cacheinfos++].path = argv[++i];
		} else
			usage(update_cache_usage);
	}
	return i;
}

/*
 * A path below a sparse index's directory entry needs the entries of
 * that directory (as git's update-index expands the index then); the
 * index stays sparse otherwise.
 */
static int needs_full_index(void)
{
	size_t n;

	for (n = 0; n < paths.nr; n++)
		if (path_in_sparse_dir(paths.items[n], strlen(paths.items[n])))
			return 1;
	for (n = 0; n < nr_cacheinfos; n++)
		if (path_in_sparse_dir(cacheinfos[n].path,
				       strlen(cacheinfos[n].path)))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int i, first, stale = 0;
	size_t n;

	setup_tool(argv[0]);
	handle_help(argc, argv, update_cache_usage);
	first = parse_options(argc, argv);
	if (nul_term && !from_stdin)
		usage(update_cache_usage);
	for (i = first; i < argc; i++)
		add_path(argv[i]);
	if (from_stdin)
		read_stdin_paths();
	if (setup_repository() < 0)
		exit(128);

	/* Lock first: an index read before the lock could be stale. */
	if (hold_index_lock() < 0)
		exit(128);
	if (read_cache() < 0)
		die("unable to read the index");
	if (needs_full_index() && expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	if (refresh)
		stale = refresh_cache();
	for (n = 0; n < nr_cacheinfos; n++)
		add_cacheinfo(cacheinfos[n].mode, cacheinfos[n].id,
			      cacheinfos[n].path);
	stat_paths();
	for (n = 0; n < paths.nr; n++)
		update_path(n);
	free(path_stats);
	hash_jobs();
	sort_cache_entries(pending, pending_nr);
	drop_duplicate_pending();
	if (add_cache_entries(pending, pending_nr,
			      allow_add ? ADD_CACHE_OK_TO_ADD : 0) < 0)
		exit(128);
	if (commit_index() < 0)
		die("unable to write the index");
	finish_stdout();
	return stale;
}
