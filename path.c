/*
 * path.c: paths in the work tree and the index.  The rules a path must
 * pass to enter the index or the work tree, the normal form of a
 * command-line path, the one check for symlinks in leading directories,
 * and the one pathspec matcher every tool that takes paths uses, with
 * git's semantics: a path names itself and everything below it, "dir/"
 * names a directory only, and "*", "?" and "[...]" are globs in which
 * "*" crosses "/".
 */
#define _GNU_SOURCE		/* memrchr */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"

char *path_join(const char *dir, const char *file)
{
	size_t len = strlen(dir) + strlen(file) + 2;
	char *p = xmalloc(len);

	snprintf(p, len, "%s/%s", dir, file);
	return p;
}

/* ---- the rules for a path in the index ---- */

/*
 * Bytes of an HFS+ ignorable code point at p (UTF-8), or 0: HFS+ drops
 * U+200C..U+200F, U+202A..U+202E, U+206A..U+206F and U+FEFF from
 * names, so ".g\u200cit" opens ".git" on a Mac.
 */
static size_t hfs_ignorable(const unsigned char *p, const unsigned char *end)
{
	if (end - p < 3)
		return 0;
	if (p[0] == 0xe2 && p[1] == 0x80 &&
	    ((p[2] >= 0x8c && p[2] <= 0x8f) || (p[2] >= 0xaa && p[2] <= 0xae)))
		return 3;
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xaa && p[2] <= 0xaf)
		return 3;
	if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		return 3;
	return 0;
}

/* Is name, ignorables dropped and ASCII case folded, the word? */
static int hfs_equals(const char *name, size_t len, const char *word)
{
	const unsigned char *p = (const unsigned char *)name, *end = p + len;

	while (p < end) {
		size_t skip = hfs_ignorable(p, end);

		if (skip) {
			p += skip;
			continue;
		}
		if (!*word || tolower(*p) != *word)
			return 0;
		p++;
		word++;
	}
	return !*word;
}

/*
 * Does name open the directory "word" on NTFS?  There a name ends at
 * a backslash, trailing dots and spaces are dropped, ":stream" names
 * an alternate data stream of it, and short is its 8.3 name.
 */
static int ntfs_equals(const char *name, size_t len, const char *word,
		       const char *short_name)
{
	const char *bs = memchr(name, '\\', len);
	size_t n, i;

	if (bs)
		len = bs - name;
	if (len >= (n = strlen(word)) && !strncasecmp(name, word, n))
		;
	else if (len >= (n = strlen(short_name)) &&
		 !strncasecmp(name, short_name, n))
		;
	else
		return 0;
	for (i = n; i < len && name[i] != ':'; i++)
		if (name[i] != '.' && name[i] != ' ')
			return 0;
	return 1;
}

/*
 * Can name be one of the words at all?  Every index load checks every
 * new path component, so most must fail here, on a byte or two: both
 * words start with a dot, an HFS ignorable with 0xe2 or 0xef, and only
 * the short names (git~1, dircac~1) with a letter, followed by a '~'
 * at a fixed place.
 */
static int may_be_dotgit(const unsigned char *name, size_t len)
{
	/* ASCII letters fold to lower case with 0x20, as tolower's do */
	switch (name[0] | 0x20) {
	case '.':
		return len > 1 && ((name[1] | 0x20) == 'g' ||
				   (name[1] | 0x20) == 'd' ||
				   name[1] == 0xe2 || name[1] == 0xef);
	case 'g':
		return len >= 5 && name[3] == '~';
	case 'd':
		return len >= 8 && name[6] == '~';
	case 0xe2:
	case 0xef:
		return 1;
	}
	return 0;
}

int is_dotgit_name(const char *name, size_t len)
{
	if (!len || !may_be_dotgit((const unsigned char *)name, len))
		return 0;
	if (hfs_equals(name, len, ".git") ||
	    ntfs_equals(name, len, ".git", "git~1"))
		return DOTGIT;
	if (hfs_equals(name, len, ".dircache") ||
	    ntfs_equals(name, len, ".dircache", "dircac~1"))
		return DOTDIRCACHE;
	return 0;
}

static int bad_component(const char *c, size_t len)
{
	if (!len)
		return 1;
	if (c[0] == '.' && (len == 1 || (len == 2 && c[1] == '.')))
		return 1;
	return is_dotgit_name(c, len) != 0;
}

int verify_path_from(const char *path, size_t len, size_t start)
{
	const char *p = path + start, *end = path + len;

	if (!len || start > len || memchr(p, '\0', end - p))
		return 0;
	for (;;) {
		const char *slash = memchr(p, '/', end - p);
		const char *c_end = slash ? slash : end;

		if (bad_component(p, c_end - p))
			return 0;
		if (!slash)
			return 1;
		p = slash + 1;
	}
}

int verify_path(const char *path, size_t len)
{
	return verify_path_from(path, len, 0);
}

/*
 * A name in git's C quotes at p (up to end), as git writes paths with
 * core.quotePath and reads them in patches and alternates: its bytes
 * (malloc'd) and in *taken the bytes read, or NULL when the quoting is
 * broken.
 */
char *unquote_c(const char *p, const char *end, size_t *taken)
{
	static const char from[] = "abtnvfr\"\\", to[] = "\a\b\t\n\v\f\r\"\\";
	char *out = xmalloc(end - p + 1), *o = out;
	const char *s = p + 1;

	while (s < end && *s != '"' && *s != '\n') {
		const char *e;

		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		if (++s >= end)
			break;
		if (*s >= '0' && *s <= '3' && end - s >= 3 &&
		    s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
			*o++ = (s[0] - '0') << 6 | (s[1] - '0') << 3 |
			       (s[2] - '0');
			s += 3;
		} else if (*s && (e = strchr(from, *s)) != NULL) {
			*o++ = to[e - from];
			s++;
		} else {
			break;
		}
	}
	if (s >= end || *s != '"') {
		free(out);
		return NULL;
	}
	*o = '\0';
	*taken = s + 1 - p;
	return out;
}

char *normalize_path(const char *path)
{
	char *out = xmalloc(strlen(path) + 2), *o = out;
	const char *p = path;

	if (*p == '/')
		*o++ = '/';	/* kept, for verify_path to refuse */
	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n && !(n == 1 && p[0] == '.')) {
			if (o > out && o[-1] != '/')
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n;
		if (*p)
			p++;
	}
	*o = '\0';
	return out;
}

/* ---- leading directories ---- */

/*
 * The last directory found real, per thread: an index walked in order
 * asks about the same directories again and again, and each is then
 * lstat'ed once.  Only tools that never change directories use it.
 */
static __thread char known_dir[4096];
static __thread size_t known_len;

/* How much of the directory part (len bytes) of path is known real. */
static size_t known_prefix(const char *path, size_t len)
{
	if (!known_len || known_len > len || memcmp(path, known_dir, known_len))
		return 0;
	return known_len == len || path[known_len] == '/' ? known_len : 0;
}

static void remember_dir(const char *path, size_t len)
{
	if (len >= sizeof(known_dir))
		return;
	memcpy(known_dir, path, len);
	known_len = len;
}

/*
 * One lstat a leading directory not known already; a missing one ends
 * the walk, as nothing below it can exist either.
 */
int has_symlink_leading_path(const char *path, size_t len)
{
	const char *end = memrchr(path, '/', len), *slash;
	size_t dirlen = end ? (size_t)(end - path) : 0, known;
	char *buf;
	int ret = 0;

	if (!dirlen)
		return 0;
	known = known_prefix(path, dirlen);
	if (known == dirlen)
		return 0;
	buf = xmalloc(dirlen + 1);
	slash = path + (known ? known + 1 : 0);
	for (;;) {
		const char *next = memchr(slash, '/', end - slash);
		size_t n = (next ? next : end) - path;
		struct stat st;

		memcpy(buf, path, n);
		buf[n] = '\0';
		if (lstat(buf, &st) < 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				ret = -1;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			ret = S_ISLNK(st.st_mode) ? 1 : 2;
			break;
		}
		if (!next) {
			remember_dir(path, dirlen);
			break;
		}
		slash = next + 1;
	}
	free(buf);
	return ret;
}

int lstat_work_path(const char *path, struct stat *st)
{
	int beyond = has_symlink_leading_path(path, strlen(path));

	if (beyond > 0) {
		errno = ENOENT;
		return -1;
	}
	return beyond < 0 ? -1 : lstat(path, st);
}

/* ---- leading directories kept open ---- */

void init_work_dirs(struct work_dirs *wd)
{
	wd->depth = 0;
}

void close_work_dirs(struct work_dirs *wd)
{
	while (wd->depth)
		close(wd->fd[--wd->depth]);
}

/* Close the open directories that do not lead to path (dirlen bytes). */
static void pop_work_dirs(struct work_dirs *wd, const char *path,
			  size_t dirlen)
{
	while (wd->depth) {
		size_t end = wd->end[wd->depth - 1];

		if (end <= dirlen && (end == dirlen || path[end] == '/') &&
		    !memcmp(wd->path, path, end))
			return;
		close(wd->fd[--wd->depth]);
	}
}

#ifndef O_PATH
#define O_PATH O_RDONLY		/* POSIX: a plain directory open */
#endif

/*
 * Open the leading directories of path (dirlen bytes) not open yet,
 * one component at a time, never through a link: a symlink or a file
 * where a directory should be is ENOENT (or ENOTDIR), as it is for
 * lstat_work_path.  1 when too deep to keep open, else 0 or -1.
 */
static int push_work_dirs(struct work_dirs *wd, const char *path,
			  size_t dirlen)
{
	size_t start = wd->depth ? wd->end[wd->depth - 1] + 1 : 0;

	while (start < dirlen) {
		const char *slash = memchr(path + start, '/', dirlen - start);
		size_t end = slash ? (size_t)(slash - path) : dirlen;
		int fd;

		if (wd->depth == WORK_DIRS_DEPTH)
			return 1;
		memcpy(wd->path + start, path + start, end - start);
		wd->path[end] = '\0';
		fd = openat(wd->depth ? wd->fd[wd->depth - 1] : AT_FDCWD,
			    wd->path + start,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ELOOP)	/* a symlink, without O_PATH */
				errno = ENOENT;
			return -1;
		}
		wd->path[end] = '/';
		wd->fd[wd->depth] = fd;
		wd->end[wd->depth++] = end;
		start = end + 1;
	}
	return 0;
}

int lstat_in_work_dirs(struct work_dirs *wd, const char *path, size_t len,
		       struct stat *st)
{
	const char *slash = memrchr(path, '/', len);
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	int ret;

	if (dirlen >= sizeof(wd->path))
		return lstat_work_path(path, st);
	pop_work_dirs(wd, path, dirlen);
	ret = push_work_dirs(wd, path, dirlen);
	if (ret > 0)
		return lstat_work_path(path, st);
	if (ret < 0)
		return -1;
	return fstatat(wd->depth ? wd->fd[wd->depth - 1] : AT_FDCWD,
		       dirlen ? slash + 1 : path, st, AT_SYMLINK_NOFOLLOW);
}

void forget_known_dirs(void)
{
	known_len = 0;
}

/* nftw(3) takes no data pointer: find_in_the_way's, for way_one. */
static int (*way_may_go)(const char *name, size_t len, void *data);
static void *way_data;
static char *way_found;

static int way_one(const char *name, const struct stat *st, int flag,
		   struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_D || flag == FTW_DP ||
	    way_may_go(name, strlen(name), way_data))
		return 0;
	way_found = xstrdup(name);
	return 1;
}

enum in_the_way find_in_the_way(const char *path,
				int (*may_go)(const char *name, size_t len,
					      void *data),
				void *data, char **found)
{
	const char *slash = path;
	struct stat st;

	*found = NULL;
	while ((slash = strchr(slash, '/')) != NULL) {
		size_t len = slash - path;
		char *dir = xmalloc(len + 1);
		int ret;

		memcpy(dir, path, len);
		dir[len] = '\0';
		ret = lstat(dir, &st);
		if (ret < 0 || (!S_ISDIR(st.st_mode) && may_go(dir, len, data))) {
			free(dir);
			return WAY_CLEAR;
		}
		if (!S_ISDIR(st.st_mode)) {
			*found = dir;
			return WAY_LEADING_FILE;
		}
		free(dir);
		slash++;
	}
	if (lstat(path, &st) < 0)
		return WAY_CLEAR;
	if (!S_ISDIR(st.st_mode)) {
		*found = xstrdup(path);
		return WAY_FILE;
	}
	way_may_go = may_go;
	way_data = data;
	way_found = NULL;
	if (!nftw(path, way_one, 16, FTW_PHYS))
		return WAY_CLEAR;
	*found = way_found ? way_found : xstrdup(path);
	return WAY_UNDER_DIR;
}

int create_leading_dirs(char *path)
{
	char *slash = path;

	while ((slash = strchr(slash + 1, '/')) != NULL) {
		*slash = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			int err = errno;
			struct stat st;

			if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
				*slash = '/';
				errno = err;
				return -1;
			}
		}
		*slash = '/';
	}
	return 0;
}

void remove_empty_leading_dirs(const char *path)
{
	char *dir = xstrdup(path), *slash;

	while ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		if (rmdir(dir) < 0)
			break;
	}
	free(dir);
}

/* ---- pathspecs ---- */

/* Does a normalized path climb out of the tree ("/x", "..", "a/../..")? */
static int outside_tree(const char *path)
{
	const char *p = path;

	if (*p == '/')
		return 1;
	for (;;) {
		if (p[0] == '.' && p[1] == '.' && (!p[2] || p[2] == '/'))
			return 1;
		p = strchr(p, '/');
		if (!p)
			return 0;
		p++;
	}
}

/* Bytes of pattern before its first glob character. */
static size_t literal_prefix_len(const char *pattern)
{
	return strcspn(pattern, "*?[\\");
}

static int add_pathspec_item(struct pathspec *ps, const char *arg)
{
	size_t len = strlen(arg);
	struct pathspec_item *item;
	char *path;

	if (!len)
		return error("empty string is not a valid path; use . for "
			     "all paths");
	path = normalize_path(arg);
	if (outside_tree(path)) {
		free(path);
		return error("path '%s' is outside the tree", arg);
	}
	if (!*path) {		/* "." and the like */
		ps->match_all = 1;
		free(path);
		return 0;
	}
	ALLOC_GROW(ps->items, ps->nr + 1, ps->alloc);
	item = &ps->items[ps->nr++];
	item->match = path;
	item->len = strlen(path);
	item->literal_len = literal_prefix_len(path);
	item->dir_only = arg[len - 1] == '/';
	return 0;
}

int parse_pathspec(struct pathspec *ps, char *const *argv, int argc)
{
	int i;

	memset(ps, 0, sizeof(*ps));
	for (i = 0; i < argc; i++)
		if (add_pathspec_item(ps, argv[i]) < 0) {
			clear_pathspec(ps);
			return -1;
		}
	if (!ps->nr)
		ps->match_all = 1;
	return 0;
}

void clear_pathspec(struct pathspec *ps)
{
	size_t i;

	for (i = 0; i < ps->nr; i++)
		free(ps->items[i].match);
	free(ps->items);
	memset(ps, 0, sizeof(*ps));
}

static int is_glob(const struct pathspec_item *item)
{
	return item->literal_len < item->len;
}

/* fnmatch on a path that is not NUL-terminated at len. */
static int glob_matches(const struct pathspec_item *item, const char *path,
			size_t len)
{
	char stack[256], *copy = len < sizeof(stack) ? stack : xmalloc(len + 1);
	int ret;

	memcpy(copy, path, len);
	copy[len] = '\0';
	ret = !fnmatch(item->match, copy, 0);
	if (copy != stack)
		free(copy);
	return ret;
}

/*
 * How much of path (a directory when is_dir) one item selects.  A
 * literal item selects the path it names and all below it, and makes
 * the directories above it worth entering; a glob selects what it
 * matches, and every directory its literal prefix allows may hold a
 * match.
 */
static enum interest item_interest(const struct pathspec_item *item,
				   const char *path, size_t len, int is_dir)
{
	size_t lit = item->literal_len;

	if (len >= item->len && !memcmp(path, item->match, item->len) &&
	    !is_glob(item)) {
		if (len == item->len)
			return is_dir || !item->dir_only ? ALL_INTERESTING :
			       NOT_INTERESTING;
		return path[item->len] == '/' ? ALL_INTERESTING :
		       NOT_INTERESTING;
	}
	if (!is_glob(item))
		return is_dir && len < item->len && item->match[len] == '/' &&
		       !memcmp(path, item->match, len) ? SOME_INTERESTING :
		       NOT_INTERESTING;
	if (len < lit)
		return is_dir && item->match[len] == '/' &&
		       !memcmp(path, item->match, len) ? SOME_INTERESTING :
		       NOT_INTERESTING;
	if (memcmp(path, item->match, lit))
		return NOT_INTERESTING;
	if (is_dir)
		return SOME_INTERESTING;
	return !item->dir_only && glob_matches(item, path, len) ?
	       ALL_INTERESTING : NOT_INTERESTING;
}

enum interest pathspec_interest(const struct pathspec *ps, const char *path,
				size_t len, int is_dir)
{
	enum interest best = NOT_INTERESTING;
	size_t i;

	if (ps->match_all)
		return ALL_INTERESTING;
	for (i = 0; i < ps->nr && best != ALL_INTERESTING; i++) {
		enum interest in = item_interest(&ps->items[i], path, len,
						 is_dir);

		if (in != NOT_INTERESTING)
			best = in;
	}
	return best;
}

int match_pathspec(const struct pathspec *ps, const char *path, size_t len)
{
	return pathspec_interest(ps, path, len, 0) == ALL_INTERESTING;
}
