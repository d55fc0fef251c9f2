/*
 * path.c: paths in the work tree and the index.  The rules a path must
 * pass to enter the index or the work tree, the normal form of a
 * command-line path, the one check for symlinks in leading directories,
 * and the one pathspec matcher every tool that takes paths uses, with
 * git's semantics: a path names itself and everything below it, "dir/"
 * names a directory only, and "*", "?" and "[...]" are globs in which
 * "*" crosses "/".
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cache.h"

char *path_join(const char *dir, const char *file)
{
	size_t len = strlen(dir) + strlen(file) + 2;
	char *p = xmalloc(len);

	snprintf(p, len, "%s/%s", dir, file);
	return p;
}

/* ---- the rules for a path in the index ---- */

static int bad_component(const char *c, size_t len)
{
	if (!len)
		return 1;
	if (c[0] != '.')
		return 0;
	return len == 1 || (len == 2 && c[1] == '.') ||
	       (len == 4 && !strncasecmp(c, ".git", 4)) ||
	       (len == 9 && !strncasecmp(c, ".dircache", 9));
}

int verify_path(const char *path, size_t len)
{
	const char *p = path, *end = path + len;

	if (!len || memchr(path, '\0', len))
		return 0;
	for (;;) {
		const char *slash = memchr(p, '/', end - p);
		const char *stop = slash ? slash : end;

		if (bad_component(p, stop - p))
			return 0;
		if (!slash)
			return 1;
		p = slash + 1;
	}
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
 * One lstat a leading directory; a missing one ends the walk, as
 * nothing below it can exist either.
 */
int has_symlink_leading_path(const char *path, size_t len)
{
	char *buf = xmalloc(len + 1);
	const char *end = path + len, *slash = path;
	int ret = 0;

	while ((slash = memchr(slash, '/', end - slash)) != NULL) {
		struct stat st;

		memcpy(buf, path, slash - path);
		buf[slash - path] = '\0';
		if (lstat(buf, &st) < 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				ret = -1;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			ret = 1;
			break;
		}
		slash++;
	}
	free(buf);
	return ret;
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
