/*
 * tree-list.c: trees read whole into lists of entries in index order,
 * and the lookups read-tree's merges make in them (unpack.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unpack.h"

/* Longest full path accepted; also bounds the depth of the walk. */
#define MAX_PATH_LEN 4096

void entry_list_append(struct entry_list *l, struct cache_entry *ce)
{
	ALLOC_GROW(l->ces, l->nr + 1, l->alloc);
	l->ces[l->nr++] = ce;
}

void entry_list_clear(struct entry_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free_cache_entry(l->ces[i]);
	free(l->ces);
	l->ces = NULL;
	l->nr = l->alloc = 0;
}

/* ---- reading a tree into a list ---- */

/*
 * "tree <id>" or "tree <id> at 'dir'" for messages (static buffer); a
 * long dir is cut to its last bytes, so the reason still fits a line.
 */
static const char *describe_tree(const unsigned char *sha1, const char *dir,
				 size_t dirlen)
{
	static char buf[512];
	size_t len = dirlen ? dirlen - 1 : 0;	/* without the '/' */
	size_t skip = len > 200 ? len - 200 : 0;

	if (!len)
		snprintf(buf, sizeof(buf), "tree %s", sha1_to_hex(sha1));
	else
		snprintf(buf, sizeof(buf), "tree %s at '%s%.*s'",
			 sha1_to_hex(sha1), skip ? "..." : "",
			 (int)(len - skip), dir + skip);
	return buf;
}

static struct cache_entry *tree_entry_ce(const char *path, size_t len,
					 const struct name_entry *e)
{
	struct cache_entry *ce = make_cache_entry(path, len);

	ce->ce_mode = e->mode;
	memcpy(ce->sha1, e->sha1, 20);
	return ce;
}

/*
 * A recursive walk in tree order yields index order: a tree sorts a
 * directory "d" as "d/", and every full path below it starts with
 * "d/".  path has room for MAX_PATH_LEN bytes and a NUL; len bytes of
 * it (empty, or ending in '/') lead to this tree.
 */
static int read_tree_rec(const unsigned char *sha1, const void *buf,
			 size_t size, char *path, size_t len,
			 struct entry_list *l)
{
	const char *bad = check_tree(buf, size);
	struct tree_desc desc;
	struct name_entry e;

	if (bad)
		return error("%s: %s", describe_tree(sha1, path, len), bad);
	init_tree_desc(&desc, buf, size);
	while (tree_entry_next(&desc, &e) > 0) {
		size_t full = len + e.pathlen;
		int ret;

		if (full + 1 > MAX_PATH_LEN)
			return error("%s: entry '%.*s' makes a path longer "
				     "than %d bytes",
				     describe_tree(sha1, path, len),
				     (int)(e.pathlen > 64 ? 64 : e.pathlen),
				     e.path, MAX_PATH_LEN - 1);
		memcpy(path + len, e.path, e.pathlen);
		path[full] = '\0';
		if (!verify_path(path, full))
			return error("%s: invalid path '%s'",
				     describe_tree(sha1, path, len), path);
		if (S_ISDIR(e.mode)) {
			size_t sub_size;
			void *sub = read_object_of_type(e.sha1, OBJ_TREE,
							&sub_size);

			if (!sub)
				return error("%s: cannot read subtree '%s'",
					     describe_tree(sha1, path, len),
					     path);
			path[full] = '/';
			ret = read_tree_rec(e.sha1, sub, sub_size, path,
					    full + 1, l);
			free(sub);
			if (ret < 0)
				return -1;
			continue;
		}
		if (!S_ISGITLINK(e.mode) && !has_sha1_file_listed(e.sha1))
			return error("%s: entry '%s' names blob %s, which is "
				     "missing", describe_tree(sha1, path, len),
				     path, sha1_to_hex(e.sha1));
		entry_list_append(l, tree_entry_ce(path, full, &e));
	}
	return 0;
}

int read_tree_list(const unsigned char *sha1, struct entry_list *l)
{
	unsigned char tree_sha1[20];
	char *path;
	size_t size;
	void *buf = read_tree_ish(sha1, &size, tree_sha1);
	int ret;

	if (!buf)
		return -1;
	path = xmalloc(MAX_PATH_LEN + 1);
	path[0] = '\0';
	ret = read_tree_rec(tree_sha1, buf, size, path, 0, l);
	free(path);
	free(buf);
	return ret;
}

/* ---- looking paths up in a list ---- */

/* The first entry of l not before name (len bytes), in byte order. */
size_t lower_bound(const struct entry_list *l, const char *name,
			  size_t len)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cache_entry *ce = l->ces[mid];

		if (cache_name_compare(ce->name, ce->ce_namelen, 0, name,
				       len, 0) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int list_has_file(const struct entry_list *l, const char *name,
			 size_t len)
{
	size_t pos = lower_bound(l, name, len);

	return pos < l->nr && l->ces[pos]->ce_namelen == len &&
	       !memcmp(l->ces[pos]->name, name, len);
}

/* Is there an entry below "name/"? */
int list_has_dir(const struct entry_list *l, const char *name,
			size_t len)
{
	char *key = xmalloc(len + 1);
	size_t pos;
	int ret;

	memcpy(key, name, len);
	key[len] = '/';
	pos = lower_bound(l, key, len + 1);
	ret = pos < l->nr && l->ces[pos]->ce_namelen > len + 1 &&
	      !memcmp(l->ces[pos]->name, key, len + 1);
	free(key);
	return ret;
}

/* Does l hold a file at a leading directory of name? */
int list_has_file_above(const struct entry_list *l, const char *name,
			       size_t len)
{
	const char *slash = name, *end = name + len;

	while ((slash = memchr(slash, '/', end - slash)) != NULL) {
		if (list_has_file(l, name, slash - name))
			return 1;
		slash++;
	}
	return 0;
}

