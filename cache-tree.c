/*
 * cache-tree.c: the index's TREE extension (git's "cache tree"), the
 * tree id of each directory as last written, with the number of index
 * entries it covers.  A directory none of whose paths changed since is
 * still that tree, so write-tree can take its id without hashing it;
 * any change below a directory makes it, and every directory above,
 * invalid (entry count -1), as git marks them.
 *
 * On disk (gitformat-index): for each node, depth first, its path
 * component and a NUL, the entry count and the number of subtrees in
 * ASCII ("-1 2\n"), then the tree id when the count is not negative.
 * Subtrees are kept in git's order: shorter names first, then bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

struct cache_tree_sub {
	struct cache_tree *tree;
	size_t namelen;
	char name[];
};

struct cache_tree {
	int entry_count;	/* -1: invalid */
	int used;		/* met by the last write-tree */
	unsigned char sha1[HASH_MAX_RAWSZ];
	unsigned int subtree_nr;
	size_t subtree_alloc;
	struct cache_tree_sub **down;
};

struct cache_tree *cache_tree_new(void)
{
	struct cache_tree *it = xcalloc(1, sizeof(*it));

	it->entry_count = -1;
	return it;
}

void cache_tree_free(struct cache_tree *it)
{
	unsigned int i;

	if (!it)
		return;
	for (i = 0; i < it->subtree_nr; i++) {
		cache_tree_free(it->down[i]->tree);
		free(it->down[i]);
	}
	free(it->down);
	free(it);
}

static int subtree_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return memcmp(a, b, alen);
}

/* The subtree's slot, or -1 - where it would go. */
static int subtree_pos(const struct cache_tree *it, const char *name,
		       size_t len)
{
	int lo = 0, hi = it->subtree_nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct cache_tree_sub *s = it->down[mid];
		int cmp = subtree_cmp(name, len, s->name, s->namelen);

		if (!cmp)
			return mid;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -lo - 1;
}

/* Put tree in it as name (not there yet). */
static void insert_sub(struct cache_tree *it, int pos, const char *name,
		       size_t len, struct cache_tree *tree)
{
	struct cache_tree_sub *s = xcalloc(1, sizeof(*s) + len + 1);

	memcpy(s->name, name, len);
	s->namelen = len;
	s->tree = tree;
	ALLOC_GROW(it->down, it->subtree_nr + 1, it->subtree_alloc);
	memmove(it->down + pos + 1, it->down + pos,
		(it->subtree_nr - pos) * sizeof(*it->down));
	it->down[pos] = s;
	it->subtree_nr++;
}

static struct cache_tree *subtree(struct cache_tree *it, const char *name,
				  size_t len, int create)
{
	int pos = subtree_pos(it, name, len);

	if (pos >= 0)
		return it->down[pos]->tree;
	if (!create)
		return NULL;
	insert_sub(it, -pos - 1, name, len, cache_tree_new());
	return it->down[-pos - 1]->tree;
}

/* ---- reading and writing the extension ---- */

/* A decimal number (with an optional '-') up to stop; -2 when bad. */
static long parse_count(const unsigned char **p, const unsigned char *end,
			int stop)
{
	const unsigned char *q = *p;
	int neg = 0;
	long v = 0;

	if (q < end && *q == '-') {
		neg = 1;
		q++;
	}
	if (q >= end || *q < '0' || *q > '9')
		return -2;
	while (q < end && *q >= '0' && *q <= '9') {
		v = v * 10 + (*q++ - '0');
		if (v > 0x7fffffff)
			return -2;
	}
	if (q >= end || *q != stop)
		return -2;
	*p = q + 1;
	return neg ? -v : v;
}

static struct cache_tree *read_node(const unsigned char **p,
				    const unsigned char *end, int depth)
{
	struct cache_tree *it;
	const unsigned char *nul = memchr(*p, '\0', end - *p);
	long count, subs, i;
	int pos;

	if (!nul || depth > 4096)
		return NULL;
	*p = nul + 1;
	count = parse_count(p, end, ' ');
	subs = parse_count(p, end, '\n');
	if (count < -1 || subs < 0 || subs > end - *p)
		return NULL;
	it = cache_tree_new();
	it->entry_count = count;
	if (count >= 0) {
		if (end - *p < (ptrdiff_t)the_hash->rawsz)
			goto bad;
		hashcpy(it->sha1, *p);
		*p += the_hash->rawsz;
	}
	for (i = 0; i < subs; i++) {
		const unsigned char *name = *p;
		struct cache_tree *sub;
		size_t len;

		nul = memchr(name, '\0', end - name);
		if (!nul)
			goto bad;
		len = nul - name;
		sub = read_node(p, end, depth + 1);
		pos = subtree_pos(it, (const char *)name, len);
		if (!sub || pos >= 0) {
			cache_tree_free(sub);
			goto bad;
		}
		insert_sub(it, -pos - 1, (const char *)name, len, sub);
	}
	return it;
bad:
	cache_tree_free(it);
	return NULL;
}

struct cache_tree *cache_tree_parse(const unsigned char *buf, size_t len)
{
	const unsigned char *p = buf, *end = buf + len;
	struct cache_tree *it;

	if (!len || buf[0])	/* the root's name is empty */
		return NULL;
	it = read_node(&p, end, 0);
	if (it && p != end) {
		cache_tree_free(it);
		return NULL;
	}
	return it;
}

static int write_node(struct mbuf *b, const struct cache_tree *it,
		      const char *name, size_t len)
{
	unsigned int i;

	mbuf_add(b, name, len);
	mbuf_addch(b, '\0');
	mbuf_addf(b, "%d %u\n", it->entry_count, it->subtree_nr);
	if (it->entry_count >= 0)
		mbuf_add(b, it->sha1, the_hash->rawsz);
	for (i = 0; i < it->subtree_nr; i++)
		write_node(b, it->down[i]->tree, it->down[i]->name,
			   it->down[i]->namelen);
	return b->failed ? -1 : 0;
}

int cache_tree_write(struct mbuf *b, const struct cache_tree *it)
{
	return write_node(b, it, "", 0);
}

/* ---- keeping it true ---- */

void cache_tree_invalidate_path(struct cache_tree *it, const char *path,
				size_t len)
{
	while (it) {
		const char *slash = memchr(path, '/', len);
		int pos;

		it->entry_count = -1;
		if (!slash) {
			/* a file where a directory was: that tree is gone */
			pos = subtree_pos(it, path, len);
			if (pos >= 0) {
				cache_tree_free(it->down[pos]->tree);
				free(it->down[pos]);
				it->subtree_nr--;
				memmove(it->down + pos, it->down + pos + 1,
					(it->subtree_nr - pos) *
					sizeof(*it->down));
			}
			return;
		}
		it = subtree(it, path, slash - path, 0);
		len -= slash + 1 - path;
		path = slash + 1;
	}
}

/* The node of directory dir (len bytes, no trailing '/'; "" the root). */
static struct cache_tree *find_dir(struct cache_tree *it, const char *dir,
				   size_t len, int create)
{
	while (it && len) {
		const char *slash = memchr(dir, '/', len);
		size_t n = slash ? (size_t)(slash - dir) : len;

		it = subtree(it, dir, n, create);
		if (!slash)
			break;
		len -= n + 1;
		dir += n + 1;
	}
	return it;
}

int cache_tree_lookup(struct cache_tree *it, const char *dir, size_t len,
		      unsigned char *sha1, unsigned int *nr)
{
	it = find_dir(it, dir, len, 0);
	if (!it || it->entry_count < 0)
		return 0;
	hashcpy(sha1, it->sha1);
	*nr = it->entry_count;
	return 1;
}

void cache_tree_set(struct cache_tree *it, const char *dir, size_t len,
		    const unsigned char *sha1, int nr)
{
	it = find_dir(it, dir, len, 1);
	hashcpy(it->sha1, sha1);
	it->entry_count = nr;
	it->used = 1;
}

/* ---- write-tree's pass: what it met is kept, the rest dropped ---- */

static void set_used(struct cache_tree *it, int used)
{
	unsigned int i;

	it->used = used;
	for (i = 0; i < it->subtree_nr; i++)
		set_used(it->down[i]->tree, used);
}

void cache_tree_clear_used(struct cache_tree *it)
{
	set_used(it, 0);
}

void cache_tree_keep(struct cache_tree *it, const char *dir, size_t len)
{
	it = find_dir(it, dir, len, 0);
	if (it)
		set_used(it, 1);
}

void cache_tree_drop_unused(struct cache_tree *it)
{
	unsigned int i, n = 0;

	for (i = 0; i < it->subtree_nr; i++) {
		struct cache_tree_sub *s = it->down[i];

		if (!s->tree->used) {
			cache_tree_free(s->tree);
			free(s);
			continue;
		}
		cache_tree_drop_unused(s->tree);
		it->down[n++] = s;
	}
	it->subtree_nr = n;
}

int cache_tree_fully_valid(const struct cache_tree *it)
{
	unsigned int i;

	if (!it || it->entry_count < 0 || !has_sha1_file(it->sha1))
		return 0;
	for (i = 0; i < it->subtree_nr; i++)
		if (!cache_tree_fully_valid(it->down[i]->tree))
			return 0;
	return 1;
}

/* ---- made again from the entries, as a merge leaves it ---- */

/* The entries of ces[0..nr) below base (baselen bytes, ending in '/'). */
static unsigned int entries_below(struct cache_entry **ces, unsigned int nr,
				  const char *base, size_t baselen)
{
	unsigned int i = 0;

	while (i < nr && ces[i]->ce_namelen > baselen &&
	       !memcmp(ces[i]->name, base, baselen))
		i++;
	return i;
}

/*
 * it's tree from the entries and its subtrees' trees: kept when that
 * tree is in the store, -1 when not; -1 returned (it left invalid)
 * when a subtree is invalid or an entry's object is missing.
 */
static int repair_level(struct cache_tree *it, struct cache_entry **ces,
			unsigned int nr, size_t baselen)
{
	struct mbuf b = MBUF_INIT;
	unsigned char id[HASH_MAX_RAWSZ];
	unsigned int i = 0;
	int invalid = 0, ret = -1;

	while (i < nr) {
		const struct cache_entry *ce = ces[i];
		const char *name = ce->name + baselen;
		const char *slash = strchr(name, '/');
		const unsigned char *sha1 = ce->sha1;
		unsigned int mode = ce->ce_mode, n = 1;
		int sub_invalid = 0;

		if (slash) {
			struct cache_tree *sub = subtree(it, name,
							 slash - name, 0);

			sha1 = sub->sha1;
			mode = 040000;
			n = entries_below(ces + i, nr - i, ce->name,
					  slash + 1 - ce->name);
			if (sub->entry_count < 0) {
				/* git goes on only when it knows an id */
				if (is_null_hash(sha1))
					goto out;
				invalid = sub_invalid = 1;
			}
		} else if (is_null_hash(sha1) ||
			   (mode != 0160000 && !has_sha1_file(sha1))) {
			error("invalid object %06o %s for '%s'", mode,
			      sha1_to_hex(sha1), ce->name);
			goto out;
		}
		i += n;
		if (!slash && (ce->ce_ext_flags & CE_INTENT_TO_ADD)) {
			invalid = 1;
			continue;
		}
		if (sub_invalid && !hashcmp(sha1, the_hash->empty_tree))
			continue;
		mbuf_addf(&b, "%o %.*s", mode, slash ? (int)(slash - name) :
			  (int)strlen(name), name);
		mbuf_addch(&b, '\0');
		mbuf_add(&b, sha1, the_hash->rawsz);
	}
	if (b.failed)
		goto out;
	/* the empty tree is always there for git */
	if (!hash_sha1_file(b.buf ? b.buf : "", b.len, OBJ_TREE, id) &&
	    (!hashcmp(id, the_hash->empty_tree) || has_sha1_file(id)))
		hashcpy(it->sha1, id);
	else
		invalid = 1;
	it->entry_count = invalid ? -1 : (int)nr;
	ret = 0;
out:
	free(b.buf);
	return ret;
}

/*
 * The node of base (baselen bytes, "" or ending in '/') over the nr
 * entries below it: the subtrees first, depth first in index order,
 * then its own level, as git's update_one; -1 stops at the first
 * level that cannot be made, leaving the nodes above it invalid.
 */
static int repair_node(struct cache_tree *it, struct cache_entry **ces,
		       unsigned int nr, size_t baselen)
{
	unsigned int i = 0;

	if (nr && ce_sparse_dir(ces[0]) && ces[0]->ce_namelen == baselen) {
		hashcpy(it->sha1, ces[0]->sha1);
		it->entry_count = 1;
		return 0;
	}
	while (i < nr) {
		const char *name = ces[i]->name + baselen;
		const char *slash = strchr(name, '/');
		unsigned int n;

		if (!slash) {
			i++;
			continue;
		}
		n = entries_below(ces + i, nr - i, ces[i]->name,
				  slash + 1 - ces[i]->name);
		if (repair_node(subtree(it, name, slash - name, 1), ces + i,
				n, slash + 1 - ces[i]->name) < 0)
			return -1;
		i += n;
	}
	return repair_level(it, ces, nr, baselen);
}

/* Are there unmerged entries, or a path both a file and a directory? */
static int unfit_for_trees(struct cache_entry **ces, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (ces[i]->ce_flags & CE_STAGEMASK)
			return 1;
	for (i = 0; i + 1 < nr; i++) {
		const struct cache_entry *a = ces[i], *b = ces[i + 1];

		if (a->ce_namelen < b->ce_namelen &&
		    b->name[a->ce_namelen] == '/' &&
		    !memcmp(a->name, b->name, a->ce_namelen))
			return 1;
	}
	return 0;
}

struct cache_tree *cache_tree_repair(struct cache_entry **ces,
				     unsigned int nr)
{
	struct cache_tree *it;

	if (unfit_for_trees(ces, nr))
		return NULL;
	it = cache_tree_new();
	repair_node(it, ces, nr, 0);
	return it;
}
