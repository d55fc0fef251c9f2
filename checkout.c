/*
 * checkout.c: write index entries into the work tree, safely.
 *
 * Nothing is ever written outside the work tree, even from a hostile
 * index: each path is checked again with verify_path, and every
 * leading component is checked with lstat, so a symlink is never
 * followed (only the directories of the prefix are trusted).
 *
 * A file that exists and differs from the entry is kept unless force:
 * "'f' already exists, no checkout".  With force, a file or symlink
 * where a directory must go is replaced by a directory, and a
 * directory where a file must go is removed with all it holds.
 *
 * A file whose name is free is made nameless in its directory
 * (O_TMPFILE) and linked under its name once whole; any other is
 * written under a temporary name in its own directory,
 * ".<name>.tmp-<pid>-<n>", and renamed into place.  Either way an
 * interrupted checkout leaves a file complete or absent under its real
 * name (a nameless file is not left at all).  In a directory the
 * checkout made itself, a name is free without an lstat to say so.
 *
 * Queued entries have their directories made and their paths checked
 * at the flush, in index order, a batch at a time; the files of a batch
 * are inflated and written on every core while the next batch is
 * checked, as nothing but whole files linked or renamed into checked
 * directories is left to do.  A rename never replaces a
 * directory and a link never replaces anything, so
 * even a hostile index that names "a" and "a/x" cannot make a write go
 * through anything but a checked directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkout.h"

/* Room the temporary name keeps for the file's own name (NAME_MAX 255). */
#define TMP_NAME_ROOM 200
/* No directory fd: a file goes by its path. */
#define NO_DIR (-1)

void checkout_init(struct checkout *co, const char *prefix)
{
	const char *slash;

	memset(co, 0, sizeof(*co));
	co->prefix = prefix ? prefix : "";
	slash = strrchr(co->prefix, '/');
	co->base_len = slash ? (size_t)(slash - co->prefix) + 1 : 0;
	co->fresh_len = SIZE_MAX;
}

static int dir_is_verified(struct checkout *co, const char *dir, size_t len)
{
	return co->verified_len >= len && !memcmp(co->verified, dir, len) &&
	       (co->verified_len == len || co->verified[len] == '/');
}

static void remember_verified(struct checkout *co, const char *dir,
			      size_t len)
{
	ALLOC_GROW(co->verified, len + 1, co->verified_alloc);
	memcpy(co->verified, dir, len);
	co->verified[len] = '\0';
	co->verified_len = len;
}

/*
 * Make dir a real directory; a link or file there goes only with force.
 * 1 when it made it, 0 when one was there, -1 after reporting why not.
 */
static int make_one_dir(struct checkout *co, const char *dir,
			const char *name)
{
	struct stat st;

	if (!lstat(dir, &st)) {
		if (S_ISDIR(st.st_mode))
			return 0;
		if (!co->force)
			return error("'%s': leading path '%s' is a %s, not a "
				     "directory; not checked out", name, dir,
				     S_ISLNK(st.st_mode) ? "symbolic link" :
				     "file");
		if (unlink(dir) < 0)
			return error_errno("unlink '%s'", dir);
	} else if (errno != ENOENT) {
		return error_errno("lstat '%s'", dir);
	}
	if (mkdir(dir, 0777) < 0)
		return error_errno("mkdir '%s'", dir);
	return 1;
}

/*
 * A directory inside one this checkout made is empty but for what the
 * checkout puts there: mkdir it straight away, and look first only
 * when something is there after all.
 */
static int make_dir_in_fresh(struct checkout *co, const char *dir,
			     const char *name)
{
	if (!mkdir(dir, 0777))
		return 1;
	if (errno != EEXIST)
		return error_errno("mkdir '%s'", dir);
	return make_one_dir(co, dir, name);
}

/*
 * Create and check the leading directories of full (a writable copy).
 * 1 when the file's directory is fresh (made by this checkout, so
 * nothing but this checkout's entries can be in it), 0 when not, -1
 * when a directory cannot be made.
 *
 * Every directory under a fresh one is fresh, so the fresh ones of
 * co->verified are those at least co->fresh_len long.
 */
static int make_leading_dirs(struct checkout *co, char *full, size_t len,
			     const char *name)
{
	char *end = full + len, *s = full + co->base_len, *slash;
	size_t last = 0, fresh_from = SIZE_MAX;

	while ((slash = memchr(s, '/', end - s)) != NULL) {
		size_t dlen = slash - full;
		int ret;

		if (dir_is_verified(co, full, dlen)) {
			if (fresh_from == SIZE_MAX && dlen >= co->fresh_len)
				fresh_from = co->fresh_len;
		} else {
			*slash = '\0';
			ret = fresh_from != SIZE_MAX ?
			      make_dir_in_fresh(co, full, name) :
			      make_one_dir(co, full, name);
			*slash = '/';
			if (ret < 0)
				return -1;
			if (ret == 0)
				fresh_from = SIZE_MAX;
			else if (fresh_from == SIZE_MAX)
				fresh_from = dlen;
		}
		last = dlen;
		s = slash + 1;
	}
	if (!last)
		return 0;
	remember_verified(co, full, last);
	co->fresh_len = fresh_from;
	return fresh_from != SIZE_MAX;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP ? rmdir(path) : unlink(path))
		return error_errno("remove '%s'", path);
	return 0;
}

/* Remove a directory and all it holds, never following a symlink. */
static int remove_tree(struct checkout *co, const char *dir)
{
	co->verified_len = 0;
	co->fresh_len = SIZE_MAX;
	if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return error("cannot remove directory '%s' in the way", dir);
	return 0;
}

/*
 * A temporary name beside full: ".<name>.tmp-<pid>-<n>" (malloc'd).
 * Created with O_EXCL (or symlink), so it never replaces anything.
 */
static char *temp_name(const char *full, size_t len)
{
	static unsigned int counter;
	unsigned int n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
	const char *slash = memrchr(full, '/', len);
	size_t dirlen = slash ? (size_t)(slash - full) + 1 : 0;
	size_t baselen = len - dirlen;
	char *tmp = xmalloc(dirlen + TMP_NAME_ROOM + 64);

	if (baselen > TMP_NAME_ROOM)
		baselen = TMP_NAME_ROOM;
	snprintf(tmp, dirlen + TMP_NAME_ROOM + 64, "%.*s.%.*s.tmp-%x-%x",
		 (int)dirlen, full, (int)baselen, full + dirlen,
		 (unsigned int)getpid(), n);
	return tmp;
}

/*
 * Create tmp as the entry's file (or symlink to target): 0 when done,
 * 1 when the name is taken (try another), -1 after reporting why not.
 * tmp is gone on failure.
 */
static int write_temp_file(const char *tmp, const struct cache_entry *ce,
			   const char *target)
{
	unsigned int mode = (ce->ce_mode & 0100) ? 0777 : 0666;
	int fd;

	if (target) {
		if (!symlink(target, tmp))
			return 0;
		return errno == EEXIST ? 1 : error_errno("symlink '%s'", tmp);
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, mode);
	if (fd < 0)
		return errno == EEXIST ? 1 : error_errno("create '%s'", tmp);
	if (stream_blob_to_new_file(fd, tmp, ce->sha1) < 0) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) < 0) {
		error_errno("close '%s'", tmp);
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* A symlink's target: a blob that is not empty and holds no NUL. */
static char *read_link_target(const struct cache_entry *ce)
{
	size_t size;
	char *buf = read_object_of_type(ce->sha1, OBJ_BLOB, &size);

	if (buf && (!size || memchr(buf, '\0', size))) {
		error("'%s': blob %s is not a valid symlink target", ce->name,
		      sha1_to_hex(ce->sha1));
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Write the entry (a symlink to target, when not NULL) under a fresh
 * temporary name; returns it (malloc'd), or NULL after reporting why
 * it could not.
 */
static char *write_temp(const struct cache_entry *ce, const char *target,
			const char *full, size_t len)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		char *tmp = temp_name(full, len);
		int ret = write_temp_file(tmp, ce, target);

		if (!ret)
			return tmp;
		free(tmp);
		if (ret < 0)
			return NULL;
	}
	error("cannot find a free temporary name beside '%s'", full);
	return NULL;
}

/* Write the entry under a temporary name and rename it into place. */
static int write_and_rename(const struct cache_entry *ce, const char *target,
			    const char *full, size_t len)
{
	char *tmp = write_temp(ce, target, full, len);
	int ret = 0;

	if (!tmp)
		return -1;
	if (rename(tmp, full) < 0) {
		ret = error_errno("rename '%s' to '%s'", tmp, full);
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

/*
 * Write ce's blob to a nameless file and link it as full, which was
 * free: 0 when done, 1 when full is taken after all, 2 when it cannot
 * be done this way here (write it the temporary way), -1 after
 * reporting why not.  Nothing is left behind but on success.  dirfd
 * is full's directory when not NO_DIR: the file is made and linked
 * there, without a walk of its path.
 */
static int write_nameless(const struct cache_entry *ce, const char *full,
			  size_t len, int dirfd)
{
	unsigned int mode = (ce->ce_mode & 0100) ? 0777 : 0666;
	const char *slash = memrchr(full, '/', len);
	size_t dirlen = slash ? (size_t)(slash - full) + 1 : 0;
	int fd, ret = 0;

	fd = dirfd != NO_DIR ? open_nameless_at(dirfd, mode) :
	     open_nameless(full, dirlen, mode);
	if (fd < 0) {
		if (nameless_files_work())
			return error_errno("create a file beside '%s'", full);
		return 2;
	}
	if (stream_blob_to_new_file(fd, full, ce->sha1) < 0) {
		close(fd);
		return -1;
	}
	if ((dirfd != NO_DIR ? link_nameless_at(fd, dirfd, full + dirlen) :
	     link_nameless(fd, full)) < 0)
		ret = errno == EEXIST ? 1 : 2;
	if (close(fd) < 0 && !ret) {
		error_errno("close '%s'", full);
		unlink(full);
		return -1;
	}
	return ret;
}

static int already_exists(const struct checkout *co, const char *full)
{
	if (!co->quiet)
		error("'%s' already exists, no checkout", full);
	return -1;
}

/* The file at full is the entry's already, by its stat data. */
static int entry_is_there(const struct checkout *co,
			  const struct cache_entry *ce, const char *full)
{
	struct stat st;

	return !*co->prefix && !lstat(full, &st) && !ce_match_stat(ce, &st);
}

/*
 * Write the entry as full; absent says the name was free when looked
 * at (or is in a directory made by this checkout): then it is made in
 * one step, not a create and a rename.  A name taken since is left
 * alone unless force.
 */
static int write_entry(const struct checkout *co,
		       const struct cache_entry *ce, const char *full,
		       size_t len, int absent, int dirfd)
{
	char *target = NULL;
	int ret = 2;

	if (S_ISGITLINK(ce->ce_mode)) {
		if (mkdir(full, 0777) < 0 && errno != EEXIST)
			return error_errno("mkdir '%s'", full);
		return 0;
	}
	if (S_ISLNK(ce->ce_mode)) {
		target = read_link_target(ce);
		if (!target)
			return error("'%s' not checked out", ce->name);
		if (absent)
			ret = !symlink(target, full) ? 0 : errno == EEXIST ? 1 :
			      error_errno("symlink '%s'", full);
	} else if (absent) {
		ret = write_nameless(ce, full, len, dirfd);
	}
	if (ret == 1 && !co->force) {
		free(target);
		return entry_is_there(co, ce, full) ? 0 :
		       already_exists(co, full);
	}
	if (ret > 0)
		ret = write_and_rename(ce, target, full, len);
	free(target);
	if (ret < 0)
		return error("'%s' not checked out", ce->name);
	return 0;
}

/*
 * Clear the way for ce at full: 2 when nothing is there, 1 when ce may
 * be written over what is, 0 when the file there is already the
 * entry's, -1 when it must not be written.
 */
static int clear_the_way(struct checkout *co, const struct cache_entry *ce,
			 const char *full)
{
	struct stat st;

	if (lstat(full, &st) < 0) {
		if (errno == ENOENT)
			return 2;
		return error_errno("lstat '%s'", full);
	}
	if (S_ISGITLINK(ce->ce_mode) && S_ISDIR(st.st_mode))
		return 0;
	/* With a prefix the stat data describe another file. */
	if (!*co->prefix && !ce_match_stat(ce, &st))
		return 0;
	if (!co->force)
		return already_exists(co, full);
	if (S_ISDIR(st.st_mode))
		return remove_tree(co, full) < 0 ? -1 : 2;
	if (S_ISGITLINK(ce->ce_mode) && unlink(full) < 0)
		return error_errno("unlink '%s'", full);
	return 1;
}

static int record_stat(struct cache_entry *ce, const char *full)
{
	unsigned int mode = ce->ce_mode;
	struct stat st;

	if (S_ISGITLINK(mode))
		return 0;
	if (lstat(full, &st) < 0)
		return error_errno("lstat '%s'", full);
	fill_stat_cache_info(ce, &st);
	ce->ce_mode = mode;	/* the index keeps what the tree says */
	return 0;
}

/*
 * Check ce's path and make its directories: with the full path in
 * *fullp (malloc'd), 2 when the file must be written and its name is
 * free, 1 when it must be written over what is there; 0 when it is
 * already there, -1 when it must not be written.  In a directory this
 * checkout made, the name is free without looking.
 */
static int prepare_entry(struct checkout *co, const struct cache_entry *ce,
			 char **fullp)
{
	size_t plen = strlen(co->prefix), len = plen + ce->ce_namelen;
	char *full;
	int ret;

	*fullp = NULL;
	if (!verify_path(ce->name, ce->ce_namelen))
		return error("invalid path '%s' in the index", ce->name);
	full = xmalloc(len + 1);
	memcpy(full, co->prefix, plen);
	memcpy(full + plen, ce->name, ce->ce_namelen + 1);
	ret = make_leading_dirs(co, full, len, ce->name);
	if (!ret)
		ret = clear_the_way(co, ce, full);
	else if (ret > 0)
		ret = 2;
	if (ret <= 0) {
		free(full);
		return ret;
	}
	*fullp = full;
	return ret;
}

/*
 * Safe on many threads at once: touches only ce and the file.  dirfd:
 * full's directory, or NO_DIR.
 */
static int finish_entry(const struct checkout *co, struct cache_entry *ce,
			const char *full, int absent, int dirfd)
{
	if (write_entry(co, ce, full, strlen(full), absent, dirfd) < 0)
		return -1;
	if (co->refresh)
		return record_stat(ce, full);
	return 0;
}

int checkout_entry(struct checkout *co, struct cache_entry *ce)
{
	char *full;
	int ret = prepare_entry(co, ce, &full);

	if (ret <= 0)
		return ret;
	ret = finish_entry(co, ce, full, ret == 2, NO_DIR);
	free(full);
	return ret;
}

/*
 * The queued files, written on every core in groups of one
 * directory's files (at most GROUP_MAX, so that a huge directory still
 * shares out), one group to a thread: two threads creating and
 * renaming files in one directory wait on its lock.  Profiles of a
 * kernel checkout: 9.5% of the time in that wait with files handed out
 * one by one, 5.9% with groups of 64 (on a file system slowed by mass
 * deletes, so roughly).
 *
 * Entries are prepared (paths checked, directories made) at the flush,
 * in index order, a batch at a time: the first FIRST_BATCH alone, each
 * next one by one thread while the others write the batch before it,
 * so no core waits for the directories of the whole index to be made.
 * A prepared batch is written whole before the next batch is; an
 * entry with a file of the index above it (only a hostile index has
 * one) waits, to be prepared alone, until all before it are written.
 *
 * A thread that finds no group left to start helps with those still
 * being written, a file at a time, so that a batch does not end with
 * one core writing a directory of big files alone: in a kernel tree,
 * drivers/gpu/drm/amd/include/asic_reg/dcn is 28 files and 121 MB.
 */
#define GROUP_MAX 512
#define FIRST_BATCH 512
#define BATCH_MAX 8192

struct write_job {
	struct cache_entry *ce;
	char *full;
	int absent;		/* the name was free */
};

struct job_list {
	struct write_job *jobs;
	size_t nr, alloc;
};

struct checkout_queue {
	struct checkout *co;
	struct cache_entry **ces;	/* queued, in index order */
	size_t nr_ces, alloc_ces;
	size_t next_ce;		/* the first not yet prepared */
	int wait_for_writes;	/* next_ce waits for all before it */
	struct job_list ready;	/* prepared, being written */
	struct job_list batch;	/* being prepared */
	size_t *groups;		/* groups[g]: first job of group g in ready */
	size_t nr_groups, alloc_groups;
	size_t *next_job;	/* next_job[g]: group g's first not taken */
	size_t alloc_next_job;
	int nr_threads;		/* writing this batch */
	int prepare_beside;	/* item 0 of a round prepares the batch */
	unsigned int failed;
	size_t done;		/* for the progress */
};

static void count_failure(struct checkout_queue *q)
{
	__atomic_fetch_add(&q->failed, 1, __ATOMIC_RELAXED);
}

/*
 * Prepare queued entries into q->batch, up to limit jobs.  alone says
 * no file is being written meanwhile: only then may an entry with a
 * file of the index above it be prepared, and only first in a batch.
 */
static void prepare_batch(struct checkout_queue *q, size_t limit, int alone)
{
	struct job_list *b = &q->batch;

	while (q->next_ce < q->nr_ces && b->nr < limit) {
		struct cache_entry *ce = q->ces[q->next_ce];
		char *full;
		int ret;

		if ((!alone || b->nr) && index_has_file_above(ce->name)) {
			q->wait_for_writes = 1;
			return;
		}
		q->next_ce++;
		ret = prepare_entry(q->co, ce, &full);
		if (ret < 0)
			count_failure(q);
		if (ret <= 0)
			continue;
		ALLOC_GROW(b->jobs, b->nr + 1, b->alloc);
		b->jobs[b->nr].ce = ce;
		b->jobs[b->nr].absent = ret == 2;
		b->jobs[b->nr++].full = full;
	}
}

static int same_dir(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	if (!sa || !sb)
		return !sa && !sb;
	return sa - a == sb - b && !memcmp(a, b, sa - a);
}

/* Group the ready jobs; groups[nr_groups] is the end. */
static void group_jobs(struct checkout_queue *q)
{
	struct write_job *jobs = q->ready.jobs;
	size_t i, start = 0;

	q->nr_groups = 0;
	for (i = 0; i < q->ready.nr; i++) {
		if (i > start && (i - start == GROUP_MAX ||
				  !same_dir(jobs[i].full, jobs[start].full))) {
			ALLOC_GROW(q->groups, q->nr_groups + 1,
				   q->alloc_groups);
			q->groups[q->nr_groups++] = start;
			start = i;
		}
	}
	ALLOC_GROW(q->groups, q->nr_groups + 2, q->alloc_groups);
	q->groups[q->nr_groups++] = start;
	q->groups[q->nr_groups] = q->ready.nr;
	ALLOC_GROW(q->next_job, q->nr_groups, q->alloc_next_job);
	memcpy(q->next_job, q->groups, q->nr_groups * sizeof(*q->groups));
}

/*
 * The directory of a group whose files are new, opened once for all of
 * them (O_PATH: for the *at calls alone), so that no file's creation
 * and link walk its path again: NO_DIR when none is new or it cannot
 * be opened (each file then goes by its path).  The directory was
 * checked and made by prepare_entry, as for a path.
 */
static int open_group_dir(const struct checkout_queue *q, size_t g)
{
	const struct write_job *job = &q->ready.jobs[q->groups[g]];
	const char *slash = strrchr(job->full, '/');
	size_t i, len;
	char *dir;
	int fd;

	for (i = q->groups[g]; i < q->groups[g + 1]; i++)
		if (q->ready.jobs[i].absent)
			break;
	if (i == q->groups[g + 1] || !nameless_files_work())
		return NO_DIR;
	if (!slash)
		return AT_FDCWD;
	len = slash - job->full + 1;
	dir = xmalloc(len + 1);
	memcpy(dir, job->full, len);	/* with its '/': "/" stays the root */
	dir[len] = '\0';
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd < 0 ? NO_DIR : fd;
}

/*
 * Write the files of group g not yet taken, taking one at a time, the
 * new ones in dirfd (or by their paths with NO_DIR); the number
 * written here.  The paths stay until the batch is written: a helper
 * names the group's directory by its first.
 */
static size_t write_taken(struct checkout_queue *q, size_t g, int dirfd)
{
	size_t i, n = 0;

	while ((i = __atomic_fetch_add(&q->next_job[g], 1, __ATOMIC_RELAXED)) <
	       q->groups[g + 1]) {
		struct write_job *job = &q->ready.jobs[i];

		if (finish_entry(q->co, job->ce, job->full, job->absent,
				 job->absent ? dirfd : NO_DIR) < 0)
			count_failure(q);
		n++;
	}
	return n;
}

static size_t write_group(struct checkout_queue *q, size_t g)
{
	int dirfd = open_group_dir(q, g);
	size_t n = write_taken(q, g, dirfd);

	if (dirfd >= 0)
		close(dirfd);
	return n;
}

/* Help with the groups still being written, each in its own dirfd. */
static size_t help_groups(struct checkout_queue *q)
{
	size_t g, n = 0;

	for (g = 0; g < q->nr_groups; g++)
		if (__atomic_load_n(&q->next_job[g], __ATOMIC_RELAXED) <
		    q->groups[g + 1])
			n += write_group(q, g);
	return n;
}

/*
 * Item 0 prepares the next batch when prepare_beside; then one item
 * per group, then one per thread that helps with what is left.
 */
static size_t run_item(void *data, size_t i)
{
	struct checkout_queue *q = data;

	if (q->prepare_beside && !i)
		prepare_batch(q, BATCH_MAX, 0);
	else if (i - q->prepare_beside < q->nr_groups)
		return write_group(q, i - q->prepare_beside);
	else
		return help_groups(q);
	return 0;
}

/* Write the prepared batch, preparing the next one beside it. */
static void write_batch(struct checkout_queue *q)
{
	struct job_list tmp = q->ready;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;

	q->ready = q->batch;
	q->batch = tmp;
	q->batch.nr = 0;
	group_jobs(q);
	q->prepare_beside = q->next_ce < q->nr_ces && !q->wait_for_writes;
	q->nr_threads = cores > 8 ? 8 : cores > 1 ? cores : 1;
	if (q->prepare_beside && cores > 1)
		q->done = run_parallel_threads(q->nr_threads, 0, q->nr_groups +
					       1 + q->nr_threads, run_item, q,
					       q->co->progress, q->done);
	else
		q->done = run_parallel(0, q->nr_groups + q->prepare_beside +
				       q->nr_threads, run_item, q,
				       q->co->progress, q->done);
	for (i = 0; i < q->ready.nr; i++)
		free(q->ready.jobs[i].full);
	q->ready.nr = 0;
}

unsigned int checkout_flush(struct checkout *co)
{
	struct checkout_queue *q = co->queue;
	unsigned int failed;

	if (!q)
		return 0;
	for (;;) {
		if (!q->batch.nr) {
			q->wait_for_writes = 0;
			prepare_batch(q, FIRST_BATCH, 1);
		}
		if (!q->batch.nr)
			break;
		write_batch(q);
	}
	q->nr_ces = q->next_ce = 0;
	failed = q->failed;
	q->failed = 0;
	return failed;
}

int checkout_queue_entry(struct checkout *co, struct cache_entry *ce)
{
	struct checkout_queue *q = co->queue;

	if (!q) {
		q = co->queue = xcalloc(1, sizeof(*co->queue));
		q->co = co;
	}
	ALLOC_GROW(q->ces, q->nr_ces + 1, q->alloc_ces);
	q->ces[q->nr_ces++] = ce;
	return 0;
}

unsigned int checkout_finish(struct checkout *co)
{
	unsigned int failed = checkout_flush(co);

	if (co->queue) {
		free(co->queue->ces);
		free(co->queue->ready.jobs);
		free(co->queue->batch.jobs);
		free(co->queue->groups);
		free(co->queue->next_job);
		free(co->queue);
		co->queue = NULL;
	}
	free(co->verified);
	co->verified = NULL;
	co->verified_len = co->verified_alloc = 0;
	return failed;
}
