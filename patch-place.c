/*
 * patch-place.c: the work-tree files of a patch set.  A new content
 * goes to a temporary file first, named ".apply-XXXXXX" in the file's
 * directory (or, when that directory does not exist yet, in the
 * nearest one above it that does), and is renamed over the file once
 * the whole set has applied: a reader sees the old file or the new
 * one, a symlink at the path is replaced, never written through, and
 * a set that fails removes its temporary files and leaves the tree as
 * it was.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "patch-internal.h"

/*
 * The last directory existing_dir_of found real all the way down (with
 * its slash), so that the files of one directory, which come one after
 * the other, cost one lstat of each leading directory, not one each.
 * Forgotten when this file removes or moves anything.
 */
static char *real_dir;
static size_t real_len;

static void forget_real_dir(void)
{
	free(real_dir);
	real_dir = NULL;
	real_len = 0;
}

static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/*
 * The deepest directory above path that exists now as a real
 * directory, with its slash ("" for the top), malloc'd.  The walk goes
 * down from the top and stops at the first component that is not a
 * directory: a temporary file never goes through a symlink, not even
 * one the set is about to remove.
 */
static char *existing_dir_of(const char *path)
{
	char *dir, *slash, *last;
	size_t len = dir_len(path);
	struct stat st;

	if (real_dir && len == real_len && !memcmp(path, real_dir, len))
		return xstrdup(real_dir);
	dir = xstrdup(path);
	last = dir;
	for (slash = strchr(dir, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			break;
		*slash = '/';
		last = slash + 1;
	}
	*last = '\0';
	if ((size_t)(last - dir) == len) {
		free(real_dir);
		real_dir = xstrdup(dir);
		real_len = len;
	}
	return dir;
}

/*
 * Every temporary file made, for a signal's cleanup: apply killed while
 * it writes them must not leave them in the work tree.  Names are
 * appended under a lock and read by the handler without one: a name is
 * whole before its slot points to it, and it is never freed or reused
 * (one placed or dropped since is simply not there to unlink; names
 * are our pid's and a serial).  The other threads go on while the
 * handler runs: it first stops new files (dying), waits for those
 * other threads are making to be remembered (creating), then removes
 * them all and the one its own thread was making, if any (making).
 */
#define TMP_SLOTS 1024

struct tmp_names {
	struct tmp_names *next;
	char *name[TMP_SLOTS];
};

static struct tmp_names first_names, *last_names = &first_names;
static size_t nr_in_last;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static int dying, creating;
static __thread const char *volatile making;

static void remove_tmp_names(void)
{
	struct tmp_names *n = &first_names;
	struct timespec ms = { 0, 1000000 };
	const char *mine = making;
	size_t i;
	int wait;

	__atomic_store_n(&dying, 1, __ATOMIC_SEQ_CST);
	for (wait = 0; wait < 1000; wait++) {
		if (__atomic_load_n(&creating, __ATOMIC_SEQ_CST) <= !!mine)
			break;
		nanosleep(&ms, NULL);
	}
	if (mine)
		unlink(mine);

	for (; n; n = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE))
		for (i = 0; i < TMP_SLOTS; i++) {
			char *name = __atomic_load_n(&n->name[i],
						     __ATOMIC_ACQUIRE);

			if (name)
				unlink(name);
		}
}

static void watch_tmp_names(void)
{
	at_signal_cleanup(remove_tmp_names);
}

/*
 * 0 when the temporary file name may be made (until end_tmp); -1,
 * quietly, once a signal is ending the process.
 */
static int start_tmp(const char *name)
{
	making = name;
	__atomic_add_fetch(&creating, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&dying, __ATOMIC_SEQ_CST))
		return 0;
	__atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
	making = NULL;
	return -1;
}

static void end_tmp(void)
{
	__atomic_sub_fetch(&creating, 1, __ATOMIC_SEQ_CST);
	making = NULL;
}

static void remember_tmp(const char *name)
{
	char *copy = xstrdup(name);

	pthread_mutex_lock(&names_lock);
	if (nr_in_last == TMP_SLOTS) {
		struct tmp_names *n = xcalloc(1, sizeof(*n));

		__atomic_store_n(&last_names->next, n, __ATOMIC_RELEASE);
		last_names = n;
		nr_in_last = 0;
	}
	__atomic_store_n(&last_names->name[nr_in_last++], copy,
			 __ATOMIC_RELEASE);
	pthread_mutex_unlock(&names_lock);
}

static int write_tmp_link(const char *dir, const char *target, char **tmp)
{
	int i;

	for (i = 0; i < 100; i++) {
		char *name = xmalloc(strlen(dir) + 40);

		sprintf(name, "%s.apply-%ld-%d", dir, (long)getpid(), i);
		if (start_tmp(name) < 0) {
			free(name);
			return -1;
		}
		if (!symlink(target, name)) {
			remember_tmp(name);
			end_tmp();
			*tmp = name;
			return 0;
		}
		end_tmp();
		free(name);
		if (errno != EEXIST)
			break;
	}
	return error_errno("symlink in '%s'", *dir ? dir : ".");
}

/*
 * A new file in dir, made with its final permissions (the umask
 * applies to them as to any file made), so no chmod follows.
 */
static int write_tmp_file(const char *dir, const char *buf, size_t size,
			  unsigned int mode, char **tmp)
{
	static unsigned int serial;
	mode_t perm = (mode & 0100) ? 0777 : 0666;
	char *name = xmalloc(strlen(dir) + 40);
	long pid = getpid();
	int fd = -1, i;

	for (i = 0; i < 100 && fd < 0; i++) {
		sprintf(name, "%s.apply-%ld-%u", dir, pid,
			__atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED));
		if (start_tmp(name) < 0) {
			free(name);
			return -1;
		}
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, perm);
		if (fd >= 0)
			remember_tmp(name);
		end_tmp();
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		error_errno("create a file in '%s'", *dir ? dir : ".");
		free(name);
		return -1;
	}
	if (write_in_full(fd, buf, size) < 0 || close(fd) < 0) {
		error_errno("write '%s'", name);
		close(fd);
		unlink(name);
		free(name);
		return -1;
	}
	*tmp = name;
	return 0;
}

int write_patch_tmp(const char *path, const char *buf, size_t size,
		    unsigned int mode, char **tmp)
{
	char *dir;
	int ret;

	*tmp = NULL;
	pthread_once(&names_once, watch_tmp_names);
	if (S_ISLNK(mode) && memchr(buf, '\0', size))
		return error("'%s': a symlink target cannot hold a NUL", path);
	dir = existing_dir_of(path);
	ret = S_ISLNK(mode) ? write_tmp_link(dir, buf, tmp) :
			      write_tmp_file(dir, buf, size, mode, tmp);
	free(dir);
	return ret;
}

/*
 * Work on many files, spread over the cores by directory: the files of
 * one directory go to one thread, in order.  Making or renaming a file
 * holds its directory's lock in the kernel, so threads that take the
 * files one by one, all in the same directory, wait for each other (or
 * spin for the lock) and bring nothing.  runs[r] is where the r-th
 * directory's files start, runs[nr_runs] their end.
 */
int patch_threads(size_t nr)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (cores > 8)
		cores = 8;
	if (cores < 1)
		cores = 1;
	return (size_t)cores < nr ? (int)cores : nr ? (int)nr : 1;
}

struct dir_runs {
	size_t *runs;
	size_t nr_runs;
	size_t (*fn)(void *data, size_t i);
	void *data;
};

static size_t do_dir_run(void *data, size_t r)
{
	struct dir_runs *dr = data;
	size_t i;

	for (i = dr->runs[r]; i < dr->runs[r + 1]; i++)
		dr->fn(dr->data, i);
	return 1;
}

/* fn(data, i) for each i < nr, dir(data, i) naming i's directory. */
static void run_by_dir(size_t nr, size_t (*fn)(void *data, size_t i),
		       const char *(*dir)(void *data, size_t i,
					  size_t *len),
		       void *data)
{
	struct dir_runs dr = { xcalloc(nr + 1, sizeof(size_t)), 0, fn, data };
	const char *last = NULL, *d;
	size_t i, last_len = 0, len;

	for (i = 0; i < nr; i++) {
		d = dir(data, i, &len);
		if (!last || len != last_len || memcmp(d, last, len))
			dr.runs[dr.nr_runs++] = i;
		last = d;
		last_len = len;
	}
	dr.runs[dr.nr_runs] = nr;
	run_parallel_threads(patch_threads(dr.nr_runs), 0, dr.nr_runs,
			     do_dir_run, &dr, NULL, 0);
	free(dr.runs);
}

/* write_tmp_file or write_tmp_link for one job, on any thread. */
static size_t write_tmp_job(void *data, size_t i)
{
	struct tmp_job *j = (struct tmp_job *)data + i;

	j->tmp = NULL;
	j->failed = (S_ISLNK(j->mode) ?
		     write_tmp_link(j->dir, j->buf, &j->tmp) :
		     write_tmp_file(j->dir, j->buf, j->size, j->mode,
				    &j->tmp)) < 0;
	return 1;
}

static const char *tmp_job_dir(void *data, size_t i, size_t *len)
{
	struct tmp_job *j = (struct tmp_job *)data + i;

	*len = strlen(j->dir);
	return j->dir;
}

int write_patch_tmps(struct tmp_job *jobs, size_t nr)
{
	size_t i;
	int ret = 0;

	pthread_once(&names_once, watch_tmp_names);	/* before the threads */
	/* The directories here, one thread: existing_dir_of remembers. */
	for (i = 0; i < nr; i++) {
		struct tmp_job *j = &jobs[i];

		j->tmp = NULL;
		j->dir = NULL;
		j->failed = S_ISLNK(j->mode) && memchr(j->buf, '\0', j->size);
		if (j->failed)
			error("'%s': a symlink target cannot hold a NUL",
			      j->path);
		else
			j->dir = existing_dir_of(j->path);
	}
	for (i = 0; i < nr && !jobs[i].failed; i++)
		;
	if (i == nr)
		run_by_dir(nr, write_tmp_job, tmp_job_dir, jobs);
	for (i = 0; i < nr; i++) {
		free(jobs[i].dir);
		jobs[i].dir = NULL;
		if (jobs[i].failed)
			ret = -1;
	}
	return ret;
}

/* rename, over an empty directory too (one the set emptied). */
static int rename_into_place(const char *tmp, const char *path)
{
	struct stat st;

	if (!rename(tmp, path))
		return 0;
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || rmdir(path) < 0)
		return -1;
	return rename(tmp, path);
}

int place_patch_tmp(const char *tmp, const char *path)
{
	size_t len = dir_len(path);

	forget_real_dir();
	/* A temporary file in path's own directory: that one exists. */
	if (dir_len(tmp) != len || memcmp(tmp, path, len)) {
		char *copy = xstrdup(path);
		int ret = create_leading_dirs(copy);

		free(copy);
		if (ret < 0)
			return error_errno("create leading directories of "
					   "'%s'", path);
	}
	if (rename_into_place(tmp, path) < 0)
		return error_errno("rename '%s' to '%s'", tmp, path);
	return 0;
}

/*
 * A temporary file in its path's own directory is renamed on any
 * thread (the renames of one set are of different paths), a
 * directory's files on one; the others, which make directories, here.
 */
struct place_job {
	char **tmps;
	const char **paths;
	int *failed;
};

static int tmp_is_beside(const char *tmp, const char *path)
{
	size_t len = dir_len(path);

	return dir_len(tmp) == len && !memcmp(tmp, path, len);
}

static size_t place_beside(void *data, size_t i)
{
	struct place_job *pj = data;

	if (!tmp_is_beside(pj->tmps[i], pj->paths[i]))
		return 0;
	pj->failed[i] = rename_into_place(pj->tmps[i], pj->paths[i]) < 0;
	if (pj->failed[i])
		error_errno("rename '%s' to '%s'", pj->tmps[i], pj->paths[i]);
	return 1;
}

static const char *place_job_dir(void *data, size_t i, size_t *len)
{
	struct place_job *pj = data;

	*len = dir_len(pj->paths[i]);
	return pj->paths[i];
}

int place_patch_tmps(char **tmps, const char **paths, size_t nr)
{
	struct place_job pj = { tmps, paths, NULL };
	size_t i;
	int ret = 0;

	forget_real_dir();
	pj.failed = xcalloc(nr ? nr : 1, sizeof(*pj.failed));
	run_by_dir(nr, place_beside, place_job_dir, &pj);
	for (i = 0; i < nr; i++) {
		if (!pj.failed[i] && !tmp_is_beside(tmps[i], paths[i]))
			pj.failed[i] = place_patch_tmp(tmps[i], paths[i]) < 0;
		if (pj.failed[i]) {
			ret = -1;
			break;
		}
		free(tmps[i]);
		tmps[i] = NULL;
	}
	free(pj.failed);
	return ret;
}

int write_patch_file(const char *path, const char *buf, size_t size,
		     unsigned int mode)
{
	char *tmp;
	int ret = write_patch_tmp(path, buf, size, mode, &tmp);

	if (!ret && (ret = place_patch_tmp(tmp, path)) < 0)
		unlink(tmp);
	free(tmp);
	return ret;
}

int remove_patch_file(const char *path)
{
	forget_real_dir();
	if (unlink(path) < 0 && errno != ENOENT)
		return error_errno("unlink '%s'", path);
	remove_empty_leading_dirs(path);
	return 0;
}

int write_patch_rejects(const struct patch *patch)
{
	const char *old = patch->old_name ? patch->old_name : patch->new_name;
	const char *new = patch->new_name ? patch->new_name : patch->old_name;
	const struct patch_hunk *h;
	struct mbuf text = MBUF_INIT, path = MBUF_INIT;
	int ret = -1;

	mbuf_addf(&text, "diff a/%s b/%s\t(rejected hunks)\n", old, new);
	for (h = patch->hunks; h; h = h->next)
		if (h->rejected)
			mbuf_add(&text, h->header,
				 h->text + h->size - h->header);
	if (text.failed || mbuf_addf(&path, "%s.rej", new) < 0)
		error("cannot write '%s.rej': out of memory", new);
	else
		ret = write_patch_file(path.buf, text.buf, text.len, 0100644);
	mbuf_release(&text);
	mbuf_release(&path);
	return ret;
}
