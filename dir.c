/*
 * dir.c: the files of the work tree that the index does not know, as
 * git ls-files -o finds them.  One read per directory, the type
 * from d_type (lstat only where the file system does not say), one
 * binary search of the index per name; directories the index has
 * files in, or that are merely untracked, are entered, excluded ones
 * only when the excluded files are wanted, nested repositories never
 * (they are listed as "dir/").  The directories are walked on every
 * core: the top ones are cut into tasks, each walked by one thread
 * with names of its own, and the names are sorted at the end.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "exclude.h"

/*
 * Does path (len bytes, room after them) hold a repository of its own,
 * a ".git" directory with HEAD, objects and refs, or a ".git" file?
 */
static int is_nested_repository(const char *path, size_t len)
{
	static const char *const parts[] = { "HEAD", "objects", "refs" };
	char *p = xmalloc(len + 20);
	struct stat st;
	size_t i;
	int ok;

	memcpy(p, path, len);
	strcpy(p + len, "/.git");
	ok = !lstat(p, &st) && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
	if (ok && S_ISDIR(st.st_mode))
		for (i = 0; i < 3 && ok; i++) {
			sprintf(p + len, "/.git/%s", parts[i]);
			ok = !lstat(p, &st) &&
			     (i ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
		}
	free(p);
	return ok;
}

/*
 * The path being walked, and the index entries below its directory:
 * active_cache[lo..hi), all starting with the first base bytes of buf
 * (the directory and its '/'), so that each name read is looked up in
 * them alone, its directory's bytes not compared again.
 */
struct walk_path {
	char *buf;
	size_t len, alloc, base;
	unsigned int lo, hi;
	struct dir_tasks *defer;	/* directories go here, not entered */
};

/* A directory to walk, found but not entered, and what its walk found. */
struct dir_task {
	char *path;
	size_t len;
	unsigned int lo, hi;
	char **names;
	size_t nr;
	int ret;
};

struct dir_tasks {
	struct dir_task *v;
	size_t nr, alloc;
	const struct dir_walk *w;
};

static void defer_dir(struct dir_tasks *t, const struct walk_path *p,
		      unsigned int lo, unsigned int hi)
{
	struct dir_task *task;

	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	task = &t->v[t->nr++];
	memset(task, 0, sizeof(*task));
	task->path = xmalloc(p->len + 1);
	memcpy(task->path, p->buf, p->len + 1);
	task->len = p->len;
	task->lo = lo;
	task->hi = hi;
}

static void add_name(struct dir_walk *w, const char *name, size_t len)
{
	char *copy = xmalloc(len + 1);

	memcpy(copy, name, len);
	copy[len] = '\0';
	ALLOC_GROW(w->names, w->nr + 1, w->alloc);
	w->names[w->nr++] = copy;
}

/*
 * Reading a directory.  On Linux with getdents64 straight into a
 * buffer of our own: opendir() fstat()s each directory to size its
 * buffer, a fifth of the system calls of ls-files -o on a kernel tree
 * (5,100 of 25,500).  Elsewhere opendir and readdir.
 */
#if defined(__linux__) && defined(__GLIBC__) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 30))
#define DIR_BUF (32 * 1024)

struct dir_reader {
	int fd;
	long pos, len;
	char *buf;
};

static int dir_open(struct dir_reader *r, const char *path)
{
	r->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0)
		return -1;
	r->pos = r->len = 0;
	r->buf = xmalloc(DIR_BUF);
	return 0;
}

/* The next entry's name and type (DT_UNKNOWN if not known); NULL at the end. */
static const char *dir_next(struct dir_reader *r, int *dtype)
{
	struct dirent64 *de;

	if (r->pos >= r->len) {
		ssize_t n = getdents64(r->fd, r->buf, DIR_BUF);

		if (n <= 0)
			return NULL;	/* the end, or an error: as readdir */
		r->len = n;
		r->pos = 0;
	}
	de = (struct dirent64 *)(r->buf + r->pos);
	r->pos += de->d_reclen;
	*dtype = de->d_type;
	return de->d_name;
}

static void dir_close(struct dir_reader *r)
{
	close(r->fd);
	free(r->buf);
}
#else
struct dir_reader {
	DIR *d;
};

static int dir_open(struct dir_reader *r, const char *path)
{
	r->d = opendir(path);
	return r->d ? 0 : -1;
}

static const char *dir_next(struct dir_reader *r, int *dtype)
{
	struct dirent *de = readdir(r->d);

	if (!de)
		return NULL;
#ifdef DT_UNKNOWN
	*dtype = de->d_type;
#else
	*dtype = DT_UNKNOWN;
#endif
	return de->d_name;
}

static void dir_close(struct dir_reader *r)
{
	closedir(r->d);
}
#endif

static int get_dtype(int dtype, const char *path)
{
	struct stat st;

	if (dtype != DT_UNKNOWN)
		return dtype;
	if (lstat(path, &st))
		return DT_UNKNOWN;
	if (S_ISREG(st.st_mode))
		return DT_REG;
	if (S_ISDIR(st.st_mode))
		return DT_DIR;
	if (S_ISLNK(st.st_mode))
		return DT_LNK;
	return DT_UNKNOWN;
}

static int excluded(struct dir_walk *w, const char *path, int dtype)
{
	return w->exclude && is_excluded(w->exclude, path, dtype);
}

static int walk_dir(struct dir_walk *w, struct walk_path *p);

/* Is the file p names (p->len bytes) in the index at any stage? */
static int in_index(const struct walk_path *p)
{
	unsigned int pos = index_lower_bound(p->lo, p->hi, p->buf, p->len,
					     p->base);

	return pos < p->hi && active_cache[pos]->ce_namelen == p->len &&
	       !memcmp(active_cache[pos]->name + p->base, p->buf + p->base,
		       p->len - p->base);
}

enum dir_in_index {
	DIR_NOT_IN_INDEX,
	DIR_HAS_ENTRIES,	/* some "name/..." is indexed */
	DIR_IS_GITLINK,
};

/*
 * Where the directory p names stands in the index; its entries, if it
 * has any, are [*lo, *hi).  p->buf has room for a byte after p->len.
 */
static enum dir_in_index directory_in_index(struct walk_path *p,
					    unsigned int *lo,
					    unsigned int *hi)
{
	unsigned int pos;

	p->buf[p->len] = '/';
	*lo = index_lower_bound(p->lo, p->hi, p->buf, p->len + 1, p->base);
	p->buf[p->len] = '0';	/* the byte after '/': past "name/..." */
	*hi = index_lower_bound(*lo, p->hi, p->buf, p->len + 1, p->base);
	p->buf[p->len] = '\0';
	if (*lo < *hi)
		return DIR_HAS_ENTRIES;
	pos = index_lower_bound(p->lo, *lo, p->buf, p->len, p->base);
	if (pos < *lo && active_cache[pos]->ce_namelen == p->len &&
	    !ce_stage(active_cache[pos]) &&
	    S_ISGITLINK(active_cache[pos]->ce_mode) &&
	    !memcmp(active_cache[pos]->name + p->base, p->buf + p->base,
		    p->len - p->base))
		return DIR_IS_GITLINK;
	return DIR_NOT_IN_INDEX;
}

/* A directory: entered with the index entries below it. */
static int treat_dir(struct dir_walk *w, struct walk_path *p)
{
	unsigned int lo, hi, outer_lo = p->lo, outer_hi = p->hi;
	size_t outer_base = p->base;
	int ex = excluded(w, p->buf, DT_DIR), ret;

	if (ex && !w->show_ignored)
		return 0;
	switch (directory_in_index(p, &lo, &hi)) {
	case DIR_IS_GITLINK:
		return 0;
	case DIR_NOT_IN_INDEX:
		if (is_nested_repository(p->buf, p->len)) {
			if (ex == w->show_ignored) {
				p->buf[p->len] = '/';
				add_name(w, p->buf, p->len + 1);
			}
			return 0;
		}
		break;
	case DIR_HAS_ENTRIES:
		break;
	}
	if (p->defer) {
		defer_dir(p->defer, p, lo, hi);
		return 0;
	}
	p->lo = lo;
	p->hi = hi;
	ret = walk_dir(w, p);
	p->lo = outer_lo;
	p->hi = outer_hi;
	p->base = outer_base;
	return ret;
}

/* One directory entry: p holds its path (p->len bytes). */
static int treat_entry(struct dir_walk *w, struct walk_path *p, int dtype)
{
	if (w->pathspec && pathspec_interest(w->pathspec, p->buf, p->len,
					     dtype == DT_DIR) ==
			   NOT_INTERESTING)
		return 0;
	if (dtype == DT_DIR)
		return treat_dir(w, p);
	if ((dtype != DT_REG && dtype != DT_LNK) || in_index(p))
		return 0;
	if (excluded(w, p->buf, dtype) == w->show_ignored)
		add_name(w, p->buf, p->len);
	return 0;
}

static int walk_dir(struct dir_walk *w, struct walk_path *p)
{
	size_t base = p->len;
	struct dir_reader d;
	const char *n;
	int ret = 0, dtype;

	if (base) {
		ALLOC_GROW(p->buf, base + 2, p->alloc);
		p->buf[base++] = '/';
		p->buf[base] = '\0';
	}
	p->base = base;
	if (dir_open(&d, base ? p->buf : ".") < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES)
			return 0;	/* gone meanwhile, or closed to us */
		return error_errno("cannot open directory '%s'",
				   base ? p->buf : ".");
	}
	while (!ret && (n = dir_next(&d, &dtype)) != NULL) {
		size_t nlen = strlen(n);

		if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, ".git") ||
		    (!base && !strcmp(n, DEFAULT_GIT_DIR)))
			continue;
		ALLOC_GROW(p->buf, base + nlen + 2, p->alloc);
		memcpy(p->buf + base, n, nlen + 1);
		p->len = base + nlen;
		ret = treat_entry(w, p, get_dtype(dtype, p->buf));
	}
	dir_close(&d);
	return ret;
}

static int compare_names(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return cache_name_compare(x, strlen(x), 0, y, strlen(y), 0);
}

/*
 * Walk the directory of task (on this thread, or with defer set only
 * its own entries, its directories deferred) into w's names.
 */
static int walk_task(struct dir_walk *w, const struct dir_task *task,
		     struct dir_tasks *defer)
{
	struct walk_path p = { NULL, task->len, 0, 0, task->lo, task->hi,
			       defer };
	int ret;

	ALLOC_GROW(p.buf, task->len + 256, p.alloc);
	memcpy(p.buf, task->path, task->len + 1);
	ret = walk_dir(w, &p);
	free(p.buf);
	return ret;
}

/* run_parallel's item: one task, with names and excludes of its own. */
static size_t walk_task_alone(void *data, size_t i)
{
	struct dir_tasks *t = data;
	struct dir_task *task = &t->v[i];
	struct dir_walk w = *t->w;
	struct exclude_set fork;

	if (!task->path)
		return 0;	/* cut into smaller tasks already */
	if (w.exclude) {
		fork_exclude_set(&fork, w.exclude);
		w.exclude = &fork;
	}
	w.names = NULL;
	w.nr = w.alloc = 0;
	task->ret = walk_task(&w, task, NULL);
	task->names = w.names;
	task->nr = w.nr;
	if (w.exclude)
		clear_exclude_fork(&fork);
	return 1;
}

/*
 * A task holding more than this share of the index is cut into the
 * tasks of its subdirectories (its own files walked at once), so that
 * one big directory does not leave a core idle at the end.
 */
#define TASK_SHARE 64

/* The tasks of the whole tree: the top cut down to size. */
static int cut_tasks(struct dir_walk *w, struct dir_tasks *t)
{
	struct dir_task top = { (char *)"", 0, 0, active_nr, NULL, 0, 0 };
	unsigned int limit = active_nr / TASK_SHARE;
	size_t i;
	int ret = walk_task(w, &top, t);

	for (i = 0; !ret && i < t->nr; i++) {
		struct dir_task task = t->v[i];

		if (task.hi - task.lo <= limit)
			continue;
		t->v[i].path = NULL;
		ret = walk_task(w, &task, t);
		free(task.path);
	}
	return ret;
}

/* Each task's names into w's, and the first failure. */
static int gather_tasks(struct dir_walk *w, struct dir_tasks *t, int ret)
{
	size_t i, j;

	for (i = 0; i < t->nr; i++) {
		struct dir_task *task = &t->v[i];

		if (!ret)
			ret = task->ret;
		ALLOC_GROW(w->names, w->nr + task->nr, w->alloc);
		for (j = 0; j < task->nr; j++)
			w->names[w->nr++] = task->names[j];
		free(task->names);
		free(task->path);
	}
	free(t->v);
	return ret;
}

int read_directory(struct dir_walk *w)
{
	struct dir_tasks t = { NULL, 0, 0, w };
	int ret = cut_tasks(w, &t);

	if (!ret)
		run_parallel(0, t.nr, walk_task_alone, &t, NULL, 0);
	ret = gather_tasks(w, &t, ret);
	if (w->nr)
		qsort(w->names, w->nr, sizeof(*w->names), compare_names);
	return ret;
}

void clear_dir_walk(struct dir_walk *w)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		free(w->names[i]);
	free(w->names);
	w->names = NULL;
	w->nr = w->alloc = 0;
}
