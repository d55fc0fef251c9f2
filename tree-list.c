/*
 * tree-list.c: trees read whole into lists of entries in index order,
 * and the lookups read-tree's merges make in them (tree-merge.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree-merge.h"

/* Longest full path accepted; also bounds the depth of the walk. */
#define MAX_PATH_LEN 4096
/* Lists read before that a tree may share entries with: read-tree's. */
#define MAX_PREV 3

void entry_list_append(struct entry_list *l, struct cache_entry *ce)
{
	ALLOC_GROW(l->ces, l->nr + 1, l->alloc);
	l->ces[l->nr++] = ce;
}

void entry_list_clear(struct entry_list *l)
{
	size_t i;

	for (i = 0; !l->borrowed && i < l->nr; i++)
		free_cache_entry(l->ces[i]);
	free(l->ces);
	for (i = 0; i < l->dirs_nr; i++)
		free(l->dirs[i].path);
	free(l->dirs);
	memset(l, 0, sizeof(*l));
}

/*
 * The subtree of l at path (len bytes, ending in '/'), or NULL.  The
 * spans are in walk order, which is byte order of their paths.
 */
static const struct subtree_span *find_span(const struct entry_list *l,
					    const char *path, size_t len)
{
	size_t lo = 0, hi = l->dirs_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct subtree_span *d = &l->dirs[mid];
		int cmp = cache_name_compare(d->path, d->len, 0, path, len, 0);

		if (!cmp)
			return d;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Take the subtree sha1 at path from a list read before, if one has
 * it: the entries themselves, not copies (a tree is its id, and the
 * lists never change their entries' names, modes or ids), so three
 * trees that share most of their subtrees cost little more memory
 * than one.
 */
static int reuse_subtree(const unsigned char *sha1, const char *path,
			 size_t len, const struct entry_list *prev,
			 int nr_prev, struct entry_list *l)
{
	int j;

	for (j = 0; j < nr_prev; j++) {
		const struct subtree_span *d = find_span(&prev[j], path, len);
		size_t i;

		if (!d || !hasheq(d->sha1, sha1))
			continue;
		ALLOC_GROW(l->ces, l->nr + (d->end - d->start), l->alloc);
		for (i = d->start; i < d->end; i++)
			l->ces[l->nr++] = prev[j].ces[i];
		l->borrowed = 1;
		return 1;
	}
	return 0;
}

/*
 * A directory that changed still holds mostly files that did not: its
 * files are looked up in the earlier lists that read the same
 * directory, and one with the same path, mode and id is shared too.
 * A cursor per list walks the directory's span there in step.
 */
struct prev_cursor {
	const struct entry_list *l;
	size_t pos, end;
};

/* Cursors on the span of path (len bytes, "" or ending in '/'). */
static int open_cursors(const struct entry_list *prev, int nr_prev,
			const char *path, size_t len, struct prev_cursor *c)
{
	int j, nr = 0;

	for (j = 0; j < nr_prev; j++) {
		const struct subtree_span *d =
			len ? find_span(&prev[j], path, len) : NULL;

		if (len && !d)
			continue;
		c[nr].l = &prev[j];
		c[nr].pos = d ? d->start : 0;
		c[nr].end = d ? d->end : prev[j].nr;
		nr++;
	}
	return nr;
}

/* The entry of an earlier list at path (len bytes) like e, or NULL. */
static struct cache_entry *shared_file(struct prev_cursor *c, int nr,
				       const char *path, size_t len,
				       const struct name_entry *e)
{
	int j;

	for (j = 0; j < nr; j++) {
		struct cache_entry *const *ces = c[j].l->ces;
		size_t lo = c[j].pos, hi = c[j].end;
		struct cache_entry *ce;

		/* Most often the next entry; else a search past subtrees. */
		while (lo < hi) {
			size_t mid = lo == c[j].pos ? lo : lo + (hi - lo) / 2;

			ce = ces[mid];
			if (cache_name_compare(ce->name, ce->ce_namelen, 0,
					       path, len, 0) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		c[j].pos = lo;
		if (lo == c[j].end)
			continue;
		ce = ces[lo];
		if (ce->ce_namelen == len && !memcmp(ce->name, path, len) &&
		    ce->ce_mode == e->mode && hasheq(ce->sha1, e->sha1))
			return ce;
	}
	return NULL;
}

static struct subtree_span *add_span(struct entry_list *l,
				     const unsigned char *sha1,
				     const char *path, size_t len)
{
	struct subtree_span *d;

	ALLOC_GROW(l->dirs, l->dirs_nr + 1, l->dirs_alloc);
	d = &l->dirs[l->dirs_nr++];
	d->path = xmalloc(len + 1);
	memcpy(d->path, path, len);
	d->path[len] = '\0';
	d->len = len;
	hashcpy(d->sha1, sha1);
	d->start = l->nr;
	d->end = l->nr;
	return d;
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
	hashcpy(ce->sha1, e->sha1);
	ce->ce_state = CE_LISTED;
	return ce;
}

/*
 * A recursive walk in tree order yields index order: a tree sorts a
 * directory "d" as "d/", and every full path below it starts with
 * "d/".  path has room for MAX_PATH_LEN bytes and a NUL; len bytes of
 * it (empty, or ending in '/') lead to this tree.
 */
struct tree_reader {
	struct entry_list *l;
	const struct entry_list *prev;
	int nr_prev;
	int check_blobs;
};

static int read_tree_rec(const unsigned char *sha1, const void *buf,
			 size_t size, char *path, size_t len,
			 struct tree_reader *r)
{
	struct entry_list *l = r->l;
	const char *bad = check_tree(buf, size);
	struct prev_cursor cursors[MAX_PREV];
	struct tree_desc desc;
	struct name_entry e;
	int nr_cursors;

	if (bad)
		return error("%s: %s", describe_tree(sha1, path, len), bad);
	nr_cursors = open_cursors(r->prev, r->nr_prev, path, len, cursors);
	init_tree_desc(&desc, buf, size);
	while (tree_entry_next(&desc, &e) > 0) {
		size_t full = len + e.pathlen;
		struct cache_entry *ce;
		int ret;

		if (full + 1 > MAX_PATH_LEN)
			return error("%s: entry '%.*s' makes a path longer "
				     "than %d bytes",
				     describe_tree(sha1, path, len),
				     (int)(e.pathlen > 64 ? 64 : e.pathlen),
				     e.path, MAX_PATH_LEN - 1);
		/*
		 * No verify_path(path): check_tree refused any name with a
		 * '/', ".", ".." or a .git in disguise, here and in every
		 * tree above, which is all it would look at again.
		 */
		memcpy(path + len, e.path, e.pathlen);
		path[full] = '\0';
		if (S_ISDIR(e.mode)) {
			size_t sub_size, span;
			void *sub;

			path[full] = '/';
			if (reuse_subtree(e.sha1, path, full + 1, r->prev,
					  r->nr_prev, l))
				continue;
			path[full] = '\0';
			sub = read_object_of_type(e.sha1, OBJ_TREE, &sub_size);
			if (!sub)
				return error("%s: cannot read subtree '%s'",
					     describe_tree(sha1, path, len),
					     path);
			path[full] = '/';
			span = add_span(l, e.sha1, path, full + 1) - l->dirs;
			ret = read_tree_rec(e.sha1, sub, sub_size, path,
					    full + 1, r);
			l->dirs[span].end = l->nr;
			free(sub);
			if (ret < 0)
				return -1;
			continue;
		}
		if (r->check_blobs && !S_ISGITLINK(e.mode) &&
		    !has_sha1_file_listed(e.sha1))
			return error("%s: entry '%s' names blob %s, which is "
				     "missing", describe_tree(sha1, path, len),
				     path, sha1_to_hex(e.sha1));
		ce = shared_file(cursors, nr_cursors, path, full, &e);
		if (ce)
			l->borrowed = 1;
		else
			ce = tree_entry_ce(path, full, &e);
		entry_list_append(l, ce);
	}
	return 0;
}

int read_tree_list(const unsigned char *sha1, struct entry_list *l,
		   const struct entry_list *prev, int nr_prev, int check_blobs)
{
	struct tree_reader r = { l, prev, nr_prev, check_blobs };
	unsigned char tree_sha1[HASH_MAX_RAWSZ];
	char *path;
	size_t size;
	void *buf;
	int ret;

	if (nr_prev > MAX_PREV)
		return error("internal error: %d trees read before", nr_prev);
	buf = read_tree_ish(sha1, &size, tree_sha1);
	if (!buf)
		return -1;
	path = xmalloc(MAX_PATH_LEN + 1);
	path[0] = '\0';
	ret = read_tree_rec(tree_sha1, buf, size, path, 0, &r);
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

