/*
 * dir.c: the files of the work tree that the index does not know, as
 * git ls-files -o finds them.  One readdir per directory, the type
 * from d_type (lstat only where the file system does not say), one
 * binary search of the index per name; directories the index has
 * files in, or that are merely untracked, are entered, excluded ones
 * only when the excluded files are wanted, nested repositories never
 * (they are listed as "dir/").
 */
#define _GNU_SOURCE
#include <errno.h>
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
};

static void add_name(struct dir_walk *w, const char *name, size_t len)
{
	char *copy = xmalloc(len + 1);

	memcpy(copy, name, len);
	copy[len] = '\0';
	ALLOC_GROW(w->names, w->nr + 1, w->alloc);
	w->names[w->nr++] = copy;
}

static int get_dtype(struct dirent *de, const char *path)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type;
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
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (base) {
		ALLOC_GROW(p->buf, base + 2, p->alloc);
		p->buf[base++] = '/';
		p->buf[base] = '\0';
	}
	p->base = base;
	d = opendir(base ? p->buf : ".");
	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES)
			return 0;	/* gone meanwhile, or closed to us */
		return error_errno("cannot open directory '%s'",
				   base ? p->buf : ".");
	}
	while (!ret && (de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		size_t nlen = strlen(n);

		if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, ".git") ||
		    (!base && !strcmp(n, DEFAULT_GIT_DIR)))
			continue;
		ALLOC_GROW(p->buf, base + nlen + 2, p->alloc);
		memcpy(p->buf + base, n, nlen + 1);
		p->len = base + nlen;
		ret = treat_entry(w, p, get_dtype(de, p->buf));
	}
	closedir(d);
	return ret;
}

static int compare_names(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return cache_name_compare(x, strlen(x), 0, y, strlen(y), 0);
}

int read_directory(struct dir_walk *w)
{
	struct walk_path p = { NULL, 0, 0, 0, 0, active_nr };
	int ret;

	ALLOC_GROW(p.buf, 256, p.alloc);
	p.buf[0] = '\0';
	ret = walk_dir(w, &p);
	free(p.buf);
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
