/*
 * commit-write.c: trees and commit objects, for every tool that
 * makes a commit.
 *
 * Trees: the index is sorted by the bytes of full paths, so the
 * entries under one directory form one contiguous run, and that order
 * is also git's order for tree entries (a tree sorts as if its name
 * ended in '/', which is the byte that follows the directory name in
 * its entries' paths).  One pass over the index, recursing at each
 * directory, writes every tree in O(n).
 *
 * Commits: the text of a commit object from its tree, parents and the
 * identities of ident.c.
 */
#define _GNU_SOURCE		/* memrchr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "commit-write.h"

/* ---- trees ---- */

/*
 * One tree being built: its entries as they will be stored, and the
 * file names a later directory of the same name could clash with.
 */
struct tree_buf {
	char *buf;
	size_t len, alloc;
	struct df_check df;
};

/* mode in octal, no leading zero, as a tree has it: its length. */
static int octal_mode(char *out, unsigned int mode)
{
	char digits[12];
	int n = 0, i;

	do {
		digits[n++] = '0' + (mode & 7);
		mode >>= 3;
	} while (mode);
	for (i = 0; i < n; i++)
		out[i] = digits[n - 1 - i];
	return n;
}

/* One entry (a kernel index makes 84,000: no snprintf for each). */
static void add_entry(struct tree_buf *t, unsigned int mode,
		      const char *name, size_t len, const unsigned char *sha1)
{
	char mode_str[16];
	int mlen = octal_mode(mode_str, mode);

	ALLOC_GROW(t->buf, t->len + mlen + len + 2 + the_hash->rawsz, t->alloc);
	memcpy(t->buf + t->len, mode_str, mlen);
	t->buf[t->len + mlen] = ' ';
	t->len += mlen + 1;
	memcpy(t->buf + t->len, name, len);
	t->buf[t->len + len] = '\0';
	t->len += len + 1;
	memcpy(t->buf + t->len, sha1, the_hash->rawsz);
	t->len += the_hash->rawsz;
}

static int in_dir(const struct cache_entry *ce, const char *base,
		  size_t baselen)
{
	return ce->ce_namelen > baselen && !memcmp(ce->name, base, baselen);
}

/*
 * The trees this process has written or found stored already: a
 * series of commits rewrites every tree of the index each time, and
 * all but the few a patch touched are the same objects again, which
 * need not be hashed into the store (and checked against it) twice.
 */
static unsigned char (*known_trees)[HASH_MAX_RAWSZ];
static size_t known_nr, known_alloc;

static size_t known_slot(const unsigned char *sha1)
{
	size_t i = ((size_t)sha1[0] << 16 | sha1[1] << 8 | sha1[2]) &
		   (known_alloc - 1);

	while (!hasheq(known_trees[i], sha1) &&
	       !is_null_hash(known_trees[i]))
		i = (i + 1) & (known_alloc - 1);
	return i;
}

static int tree_is_known(const unsigned char *sha1)
{
	return known_alloc && hasheq(known_trees[known_slot(sha1)], sha1);
}

static void remember_tree(const unsigned char *sha1)
{
	if (known_nr * 2 >= known_alloc) {
		unsigned char (*old)[HASH_MAX_RAWSZ] = known_trees;
		size_t i, old_alloc = known_alloc;

		known_alloc = old_alloc ? old_alloc * 2 : 1024;
		known_trees = xcalloc(known_alloc, sizeof(*known_trees));
		for (i = 0; i < old_alloc; i++)
			if (!is_null_hash(old[i]))
				hashcpy(known_trees[known_slot(old[i])], old[i]);
		free(old);
	}
	hashcpy(known_trees[known_slot(sha1)], sha1);
	known_nr++;
}

/* After a failed write: what was remembered may not be stored. */
static void forget_known_trees(void)
{
	if (known_alloc)
		memset(known_trees, 0, known_alloc * sizeof(*known_trees));
	known_nr = 0;
}

/*
 * The tree of each directory as last written, with the number of index
 * entries under it (applymbox's cache-tree): a directory no path of
 * which changed since is its memo, and its entries are skipped whole,
 * so a commit of a few files hashes the few trees on their paths.
 * Only a caller that tells of every change it makes to the index
 * turns it on; a directory is forgotten as soon as a path below it
 * changes.
 */
struct tree_memo {
	struct tree_memo *next;
	unsigned char sha1[HASH_MAX_RAWSZ];
	unsigned int nr;	/* index entries under the directory */
	int valid;
	size_t len;
	char dir[];		/* with its '/', "" for the root */
};

static struct tree_memo **memo;
static size_t memo_size;	/* buckets, a power of 2 (0: memo off) */

static size_t memo_hash(const char *dir, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*dir++) * 16777619u;
	return h & (memo_size - 1);
}

static struct tree_memo *memo_find(const char *dir, size_t len, int create)
{
	size_t b = memo_hash(dir, len);
	struct tree_memo *m;

	for (m = memo[b]; m; m = m->next)
		if (m->len == len && !memcmp(m->dir, dir, len))
			return m;
	if (!create)
		return NULL;
	m = xcalloc(1, sizeof(*m) + len + 1);
	memcpy(m->dir, dir, len);
	m->len = len;
	m->next = memo[b];
	memo[b] = m;
	return m;
}

void remember_index_trees(void)
{
	if (!memo_size) {
		memo_size = 1 << 14;
		memo = xcalloc(memo_size, sizeof(*memo));
	}
}

static void forget_dir(const char *dir, size_t len)
{
	struct tree_memo *m = memo_find(dir, len, 0);

	if (m)
		m->valid = 0;
}

void forget_index_trees(const char *path)
{
	const char *slash;
	struct tree_memo *m;
	size_t i;

	if (!memo_size)
		return;
	if (!path) {
		for (i = 0; i < memo_size; i++)
			for (m = memo[i]; m; m = m->next)
				m->valid = 0;
		return;
	}
	forget_dir(path, 0);
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/'))
		forget_dir(path, slash - path + 1);
}

/* The directory's memo when its tree is known; *pos moved past it. */
static int use_memo(unsigned int *pos, const char *base, size_t baselen,
		    unsigned char *sha1)
{
	struct tree_memo *m;

	if (!memo_size || !(m = memo_find(base, baselen, 0)) || !m->valid ||
	    *pos + m->nr > active_nr)
		return 0;
	if (sha1)
		hashcpy(sha1, m->sha1);
	*pos += m->nr;
	return 1;
}

static void set_memo(const char *base, size_t baselen, unsigned int nr,
		     const unsigned char *sha1)
{
	struct tree_memo *m;

	if (!memo_size)
		return;
	m = memo_find(base, baselen, 1);
	hashcpy(m->sha1, sha1);
	m->nr = nr;
	m->valid = 1;
}

/*
 * The index's own cache tree (TREE, as git wrote it or we kept it): a
 * valid node whose tree is in the store is the directory's tree, as a
 * memo is, for write-tree.  Without the memo, the walk also brings it
 * up to date (update_ct), as git's write-tree does: every directory
 * hashed is set, every one kept is marked, the others are dropped.
 */
static struct cache_tree *index_ct;
static int update_ct;

/*
 * Is the cache tree's tree of a directory stored?  An index whose
 * cache tree names trees the store does not hold (a store that lost
 * them, or a fresh one, as the bench makes) cost a failed stat for
 * each of a kernel's 5,100 directories, twice, one after the other.
 * After a few misses in a big index the fan-out directories are
 * listed at once, on every core (check_objects wants the listings for
 * the blobs anyway), and a tree the listings say is new is taken as
 * absent without a stat: at worst it is hashed and written again.
 */
#define LIST_ALL_AT_LEAST 4096
#define CT_MISSES_TO_LIST 32
static unsigned int ct_misses;
static int ct_listed;

static int ct_tree_stored(const unsigned char *id)
{
	if (ct_listed)
		return !sha1_file_unlisted(id) && has_sha1_file_listed(id);
	if (has_sha1_file(id))
		return 1;
	if (++ct_misses >= CT_MISSES_TO_LIST &&
	    active_nr >= LIST_ALL_AT_LEAST) {
		list_loose_objects();
		ct_listed = 1;
	}
	return 0;
}

static int use_cache_tree(unsigned int *pos, const char *base,
			  size_t baselen, unsigned char *sha1)
{
	size_t dirlen = baselen ? baselen - 1 : 0;
	unsigned char id[HASH_MAX_RAWSZ];
	unsigned int nr;

	if (!index_ct || !cache_tree_lookup(index_ct, base, dirlen, id, &nr) ||
	    !nr || *pos + nr > active_nr || !ct_tree_stored(id))
		return 0;
	if (sha1)
		hashcpy(sha1, id);
	if (sha1 && update_ct)
		cache_tree_keep(index_ct, base, dirlen);
	*pos += nr;
	return 1;
}

/* Record base's tree in the cache tree, when it is being brought up. */
static void set_cache_tree(const char *base, size_t baselen,
			   const unsigned char *sha1, int nr)
{
	if (update_ct)
		cache_tree_set(index_ct, base, baselen ? baselen - 1 : 0, sha1,
			       nr);
}

/*
 * Trees hashed and waiting to be stored.  The walk only hashes (a
 * parent needs its subtrees' ids, not their files); the trees are then
 * deflated and written on every core, where a kernel's 5,000 trees
 * would otherwise take turns on one, each waiting for its file to be
 * created.  Nothing is written unless the whole index could be turned
 * into trees.
 */
struct pending_tree {
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *buf;
	size_t len;
	const char *base;	/* the directory, in an index entry's name */
	size_t baselen;
	int unlisted;		/* new to the store: written without a lookup */
	int failed;
};

static struct pending_tree *pending_trees;
static size_t pending_nr, pending_alloc;
/*
 * Loose trees written for write_index_as_trees, which syncs at once,
 * get their names only after their bytes are durable (object-write.c
 * hold_object_names); they are fewer than TREE_PACK_AT_LEAST, written
 * one after the other in the walk's order, children first.
 */
static int hold_names;

/*
 * As many new trees as this or more are stored as one pack, as git
 * keeps a fetched pack of 100 objects or more (transfer.unpackLimit):
 * a fresh kernel index makes 5,100 trees, and a loose object is a file
 * created, a directory entry and, to be durable, its data written
 * back before its name may be trusted.  A pack is two files written
 * whole under temporary names, each synced before it is renamed, the
 * idx last (pack-write.c): no reader and no crash sees one tree of it
 * without the others.  A commit of a few files writes its few trees
 * loose, so small packs do not pile up.
 */
#define TREE_PACK_AT_LEAST 100

/* Take t's bytes into the queue. */
static void queue_tree(struct tree_buf *t, const unsigned char *sha1,
		       const char *base, size_t baselen)
{
	struct pending_tree *p;

	ALLOC_GROW(pending_trees, pending_nr + 1, pending_alloc);
	p = &pending_trees[pending_nr++];
	hashcpy(p->sha1, sha1);
	p->buf = t->buf;
	p->len = t->len;
	p->base = base;
	p->baselen = baselen;
	p->failed = 0;
	t->buf = NULL;
}

static size_t write_one_tree(void *data, size_t i)
{
	struct pending_tree *p = (struct pending_tree *)data + i;
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (p->unlisted)
		p->failed = write_new_object(p->buf, p->len, OBJ_TREE,
					     p->sha1) < 0;
	else
		p->failed = write_sha1_file(p->buf, p->len, OBJ_TREE,
					    sha1) < 0;
	return 1;
}

/* Drop the queue, written or not. */
static void clear_pending_trees(void)
{
	size_t i;

	for (i = 0; i < pending_nr; i++)
		free(pending_trees[i].buf);
	free(pending_trees);
	pending_trees = NULL;
	pending_nr = pending_alloc = 0;
}

/*
 * The new trees (unlisted: in no listing, no pack, no promise), each
 * once, into one pack, when they are many; they are then taken out of
 * the queue.  1 when there were too few to pack, 0 when packed, -1
 * after error() (nothing of them stored).
 */
static int compare_ids(const void *a, const void *b)
{
	return hashcmp(a, b);
}

/* How many different trees of the queue are new to the store. */
static size_t count_new_trees(void)
{
	unsigned char (*ids)[HASH_MAX_RAWSZ];
	size_t i, nr = 0, distinct = 0;

	ids = xmalloc((pending_nr + 1) * sizeof(*ids));
	for (i = 0; i < pending_nr; i++)
		if (pending_trees[i].unlisted)
			hashcpy(ids[nr++], pending_trees[i].sha1);
	qsort(ids, nr, sizeof(*ids), compare_ids);
	for (i = 0; i < nr; i++)
		distinct += !i || !hasheq(ids[i - 1], ids[i]);
	free(ids);
	return distinct;
}

/*
 * The pack of new trees, written but not yet synced and renamed into
 * place when write_index_as_trees_unplaced asked for it to be held:
 * the caller then writes its index while the pack's pages go to disk.
 */
static struct pack_tmp held_pack;
static unsigned char held_pack_sha1[HASH_MAX_RAWSZ];
static int hold_pack, pack_held;

static int write_tree_pack(const struct pack_object *objs, size_t nr)
{
	if (!hold_pack)
		return write_pack_objects(objs, nr);
	if (write_pack_objects_unplaced(&held_pack, held_pack_sha1, objs,
					nr) < 0) {
		remove_pack_tmp(&held_pack);
		return -1;
	}
	pack_held = 1;
	return 0;
}

/*
 * Called once, when the trees are hashed and the cache tree is up to
 * date, as their pack starts: write-tree writes its index meanwhile.
 */
static void (*while_packing)(void *data);
static void *while_packing_data;

void call_while_packing_trees(void (*fn)(void *data), void *data)
{
	while_packing = fn;
	while_packing_data = data;
}

static void start_while_packing(void)
{
	void (*fn)(void *data) = while_packing;

	while_packing = NULL;
	if (fn)
		fn(while_packing_data);
}

static int write_pending_loose(void);

/*
 * The trees of the queue already stored (they only need their lookup)
 * go first, then the pack: nothing but the pack is written once
 * while_packing has started.
 */
static int pack_new_trees(void)
{
	struct pack_object *objs;
	size_t i, nr = 0, kept = 0;
	int ret;

	for (i = 0; i < pending_nr; i++)
		nr += pending_trees[i].unlisted;
	if (nr < TREE_PACK_AT_LEAST || count_new_trees() < TREE_PACK_AT_LEAST)
		return 1;
	objs = xcalloc(nr, sizeof(*objs));
	nr = 0;
	for (i = 0; i < pending_nr; i++) {
		struct pending_tree *p = &pending_trees[i];

		if (!p->unlisted) {
			pending_trees[kept++] = *p;
			continue;
		}
		if (tree_is_known(p->sha1)) {	/* two directories alike */
			free(p->buf);
			continue;
		}
		remember_tree(p->sha1);
		hashcpy(objs[nr].sha1, p->sha1);
		objs[nr].type = OBJ_TREE;
		objs[nr].buf = p->buf;
		objs[nr].len = p->len;
		objs[nr].fd = -1;
		p->buf = NULL;
		nr++;
	}
	pending_nr = kept;
	ret = write_pending_loose();
	if (!ret) {
		start_while_packing();
		ret = write_tree_pack(objs, nr);
	}
	if (ret < 0)
		forget_known_trees();
	for (i = 0; i < nr; i++)
		free(objs[i].buf);
	free(objs);
	return ret;
}

/*
 * Store the queued trees; the ones stored are known from then on.  On
 * a failure the memo is dropped too, as it may name a tree that is not
 * there.
 */
static int write_pending_trees(void)
{
	size_t i;
	int ret;

	/* The listings are made here, before the threads. */
	for (i = 0; i < pending_nr; i++)
		pending_trees[i].unlisted =
			sha1_file_unlisted(pending_trees[i].sha1);
	ret = pack_new_trees();
	if (ret > 0)
		ret = write_pending_loose();
	else if (ret < 0)
		error("unable to write the new trees as a pack");
	if (ret)
		forget_index_trees(NULL);
	clear_pending_trees();
	return ret ? -1 : 0;
}

/* The queue's trees, each a loose object; the queue is emptied. */
static int write_pending_loose(void)
{
	size_t i;
	int ret = 0;

	if (hold_names) {
		/* named in this order: a subtree before the tree naming it */
		hold_object_names(1);
		for (i = 0; i < pending_nr; i++)
			write_one_tree(pending_trees, i);
		hold_object_names(0);
	} else {
		run_parallel(0, pending_nr, write_one_tree, pending_trees,
			     NULL, 0);
	}
	for (i = 0; i < pending_nr; i++) {
		struct pending_tree *p = &pending_trees[i];

		if (!p->failed) {
			remember_tree(p->sha1);
			continue;
		}
		ret = error("unable to write the tree of '%.*s'",
			    p->baselen ? (int)p->baselen - 1 : 1,
			    p->baselen ? p->base : ".");
		break;
	}
	for (i = 0; i < pending_nr; i++)
		free(pending_trees[i].buf);
	pending_nr = 0;
	return ret;
}

/*
 * A sparse index's directory entry for base stands for its whole tree
 * (as in git's cache tree): its id, and *pos moved past it.
 */
static int sparse_dir_at(unsigned int *pos, const char *base, size_t baselen,
			 unsigned char *sha1)
{
	const struct cache_entry *ce;

	if (!baselen || *pos >= active_nr)
		return 0;
	ce = active_cache[*pos];
	if (!ce_sparse_dir(ce) || ce->ce_namelen != baselen ||
	    memcmp(ce->name, base, baselen))
		return 0;
	if (sha1)
		hashcpy(sha1, ce->sha1);
	(*pos)++;
	return 1;
}

/*
 * Write the tree for the entries from *pos on whose paths start with
 * base (baselen bytes, ending in '/' unless empty).  Advances *pos
 * past them.
 */
static int write_tree(unsigned int *pos, const char *base, size_t baselen,
		      int dry_run, unsigned char *sha1)
{
	struct tree_buf t = { NULL, 0, 0, { NULL, 0, 0 } };
	unsigned int start = *pos;
	int ret = 0;

	if (sparse_dir_at(pos, base, baselen, sha1)) {
		set_cache_tree(base, baselen, sha1, 1);
		return 0;
	}
	if (!dry_run && (use_memo(pos, base, baselen, sha1) ||
			 use_cache_tree(pos, base, baselen, sha1)))
		return 0;

	while (!ret && *pos < active_nr) {
		const struct cache_entry *ce = active_cache[*pos];
		const char *name, *slash;
		unsigned char sub[HASH_MAX_RAWSZ];
		size_t len;

		if (!in_dir(ce, base, baselen))
			break;
		name = ce->name + baselen;
		len = ce->ce_namelen - baselen;
		slash = memchr(name, '/', len);
		if (!slash) {
			add_entry(&t, ce->ce_mode, name, len, ce->sha1);
			df_check_file(&t.df, name, len);
			(*pos)++;
			continue;
		}
		len = slash - name;
		if (df_check_dir(&t.df, name, len))
			ret = error("'%.*s' is both a file and a directory in "
				    "the index", (int)(baselen + len), ce->name);
		else
			ret = write_tree(pos, ce->name, baselen + len + 1,
					 dry_run, sub);
		if (!ret)
			add_entry(&t, 040000, name, len, sub);
	}
	if (!ret && hash_sha1_file(t.buf, t.len, OBJ_TREE, sha1) < 0)
		ret = sha1_collision_error(sha1_to_hex(sha1));
	if (!ret && !dry_run && !tree_is_known(sha1))
		queue_tree(&t, sha1, base, baselen);
	if (!ret && !dry_run)
		set_memo(base, baselen, *pos - start, sha1);
	if (!ret && !dry_run)
		set_cache_tree(base, baselen, sha1, *pos - start);
	free(t.buf);
	df_check_clear(&t.df);
	return ret;
}

/*
 * Report every unmerged path (once), every file/directory clash and
 * every missing object before giving up, so that one run shows all
 * there is to fix.
 */
/* The bytes of name's directory part ("" for a top-level name). */
static size_t dir_len(const struct cache_entry *ce)
{
	const char *slash = memrchr(ce->name, '/', ce->ce_namelen);

	return slash ? (size_t)(slash - ce->name) : 0;
}

/*
 * The entries whose objects must be in the store, gathered by the
 * checks below and looked up together: when they are many, every
 * fan-out directory is listed first, on every core (a fresh kernel
 * index names 78,000 blobs, and listing the 256 directories one after
 * the other was a third of write-tree's time).
 */
static const struct cache_entry **to_check;
static size_t to_check_nr, to_check_alloc;

static void to_check_add(const struct cache_entry *ce)
{
	ALLOC_GROW(to_check, to_check_nr + 1, to_check_alloc);
	to_check[to_check_nr++] = ce;
}

/* Report every missing object of to_check, which is emptied. */
static int check_objects(void)
{
	size_t i;
	int bad = 0;

	if (to_check_nr >= LIST_ALL_AT_LEAST)
		list_loose_objects();
	for (i = 0; i < to_check_nr; i++) {
		const struct cache_entry *ce = to_check[i];

		if (!has_sha1_file_listed(ce->sha1))
			bad = error("'%s' names object %s, which does not "
				    "exist", ce->name, sha1_to_hex(ce->sha1));
	}
	free(to_check);
	to_check = NULL;
	to_check_nr = to_check_alloc = 0;
	return bad;
}

static int check_index(void)
{
	const char *last_unmerged = NULL;
	const struct cache_entry *clean_dir = NULL;
	unsigned int i;
	size_t len;
	int bad = 0;

	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		if (ce_stage(ce)) {
			if (!last_unmerged || strcmp(last_unmerged, ce->name))
				error("'%s' is unmerged", ce->name);
			last_unmerged = ce->name;
			bad = -1;
			continue;
		}
		/*
		 * Whether a leading directory is a file depends on the
		 * directory part alone: one search per directory, not one
		 * per entry, when the entry before found none.
		 */
		len = dir_len(ce);
		if (!clean_dir || dir_len(clean_dir) != len ||
		    memcmp(clean_dir->name, ce->name, len)) {
			len = index_has_file_above(ce->name);
			if (len)
				bad = error("'%.*s' is both a file and a "
					    "directory in the index", (int)len,
					    ce->name);
			else
				clean_dir = ce;
		}
		if (!S_ISGITLINK(ce->ce_mode))
			to_check_add(ce);
	}
	return check_objects() | bad;
}

/*
 * check_index for the memo's caller: the entries of the directories
 * whose trees are not known (the others were checked when written).
 */
static int check_changed(unsigned int *pos, const char *base, size_t baselen)
{
	struct df_check df = { NULL, 0, 0 };
	const char *last_unmerged = NULL;
	int bad = 0;

	if (sparse_dir_at(pos, base, baselen, NULL) ||
	    use_memo(pos, base, baselen, NULL) ||
	    use_cache_tree(pos, base, baselen, NULL))
		return 0;
	while (*pos < active_nr) {
		const struct cache_entry *ce = active_cache[*pos];
		const char *name = ce->name + baselen, *slash;
		size_t len = ce->ce_namelen - baselen;

		if (!in_dir(ce, base, baselen))
			break;
		slash = memchr(name, '/', len);
		if (slash) {
			len = slash - name;
			if (df_check_dir(&df, name, len))
				bad = error("'%.*s' is both a file and a "
					    "directory in the index",
					    (int)(baselen + len), ce->name);
			bad |= check_changed(pos, ce->name, baselen + len + 1);
			continue;
		}
		df_check_file(&df, name, len);
		(*pos)++;
		if (ce_stage(ce)) {
			if (!last_unmerged || strcmp(last_unmerged, ce->name))
				error("'%s' is unmerged", ce->name);
			last_unmerged = ce->name;
			bad = -1;
		} else if (!S_ISGITLINK(ce->ce_mode)) {
			to_check_add(ce);
		}
	}
	df_check_clear(&df);
	return bad;
}

/* Hash every tree, then store the new ones. */
static int write_all_trees(int dry_run, unsigned char *sha1)
{
	unsigned int pos = 0;

	if (update_ct)
		cache_tree_clear_used(index_ct);
	if (write_tree(&pos, "", 0, dry_run, sha1) < 0) {
		clear_pending_trees();
		return -1;
	}
	/* Up to date before the trees are stored: see while_packing. */
	if (update_ct) {
		cache_tree_drop_unused(index_ct);
		index_cache_tree_synced();
	}
	return write_pending_trees();
}

int write_index_tree(unsigned char *sha1, int dry_run)
{
	unsigned int pos = 0;

	index_ct = dry_run ? NULL : index_cache_tree();
	update_ct = index_ct && !memo_size;
	if ((memo_size || index_ct) && !dry_run) {
		if ((check_changed(&pos, "", 0) | check_objects()) < 0)
			return error("index cannot be written as a tree; "
				     "nothing written");
		return write_all_trees(0, sha1);
	}
	if (check_index() < 0)
		return error("index cannot be written as a tree; nothing "
			     "written");
	return write_all_trees(dry_run, sha1);
}

/*
 * Entries added with "git add -N" are not in the tree git writes (nor
 * is a directory that holds nothing else): they are taken out while
 * the trees are made, and put back before the index is written (their
 * directories' cache-tree nodes then invalid, as in git).
 */
static struct cache_entry **intent;
static unsigned int intent_nr;
static size_t intent_alloc;

void take_out_intent_to_add(void)
{
	unsigned int i = 0;

	while (i < active_nr) {
		struct cache_entry *ce = active_cache[i];
		struct cache_entry *copy;

		if (!(ce->ce_ext_flags & CE_INTENT_TO_ADD)) {
			i++;
			continue;
		}
		copy = make_cache_entry(ce->name, ce->ce_namelen);
		memcpy(copy, ce, sizeof(*ce));
		ALLOC_GROW(intent, intent_nr + 1, intent_alloc);
		intent[intent_nr++] = copy;
		remove_cache_entry_at(i);
	}
}

int put_back_intent_to_add(void)
{
	static const unsigned char null_id[HASH_MAX_RAWSZ];
	unsigned int i;
	int ret = 0;

	for (i = 0; i < intent_nr; i++) {
		const char *slash = memrchr(intent[i]->name, '/',
					    intent[i]->ce_namelen);

		if (slash && active_cache_tree)
			cache_tree_set(active_cache_tree, intent[i]->name,
				       slash - intent[i]->name, null_id, -1);
		if (!ret && add_cache_entry(intent[i], ADD_CACHE_OK_TO_ADD) < 0)
			ret = -1;
	}
	intent_nr = 0;
	return ret;
}

/* ---- commits ---- */

static void add_text(char **buf, size_t *len, size_t *alloc,
		     const char *text, size_t n)
{
	ALLOC_GROW(*buf, *len + n + 1, *alloc);
	memcpy(*buf + *len, text, n);
	*len += n;
}

static void add_line(char **buf, size_t *len, size_t *alloc,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_line(char **buf, size_t *len, size_t *alloc,
		     const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	ALLOC_GROW(*buf, *len + n + 1, *alloc);
	va_start(ap, fmt);
	vsnprintf(*buf + *len, n + 1, fmt, ap);
	va_end(ap);
	*len += n;
}

int write_commit_object(const unsigned char *tree,
			const unsigned char (*parents)[HASH_MAX_RAWSZ], size_t nr,
			const struct ident *author,
			const struct ident *committer,
			const char *msg, size_t msg_len, unsigned char *sha1)
{
	size_t len = 0, alloc = 0, i;
	char *buf = NULL;
	int ret = 0;

	add_line(&buf, &len, &alloc, "tree %s\n", sha1_to_hex(tree));
	for (i = 0; i < nr; i++)
		add_line(&buf, &len, &alloc, "parent %s\n",
			 sha1_to_hex(parents[i]));
	add_line(&buf, &len, &alloc, "author %s <%s> %s\n", author->name,
		 author->email, author->date);
	add_line(&buf, &len, &alloc, "committer %s <%s> %s\n\n",
		 committer->name, committer->email, committer->date);
	add_text(&buf, &len, &alloc, msg, msg_len);
	if (write_sha1_file(buf, len, OBJ_COMMIT, sha1) < 0)
		ret = error("unable to write the commit");
	free(buf);
	return ret;
}

/* The held pack, if any, in place; then every tree written synced. */
int place_index_trees(void)
{
	int ret = 0;

	if (pack_held) {
		pack_held = 0;
		ret = place_new_pack(&held_pack, held_pack_sha1);
		if (ret < 0) {
			forget_known_trees();
			forget_index_trees(NULL);
		}
	}
	if (ret < 0) {
		flush_to_disk(-1);	/* the trees written are whole */
		return error("unable to write the new trees as a pack");
	}
	if (flush_to_disk(-1) < 0)
		return error("unable to make the trees durable");
	return 0;
}

int write_index_as_trees_unplaced(unsigned char *sha1)
{
	int ret;

	take_out_intent_to_add();
	index_cache_tree_or_new();
	hold_names = !promising_writes();
	hold_pack = 1;
	ret = write_index_tree(sha1, 0);
	hold_names = hold_pack = 0;
	if (ret < 0) {
		if (pack_held)
			remove_pack_tmp(&held_pack);
		pack_held = 0;
		forget_known_trees();
		flush_to_disk(-1);	/* the trees written are whole */
		return -1;
	}
	return 0;
}

int write_index_as_trees(unsigned char *sha1)
{
	if (write_index_as_trees_unplaced(sha1) < 0)
		return -1;
	return place_index_trees();
}
