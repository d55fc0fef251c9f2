/*
 * index-read.c: read_cache, the index file loaded whole (a split index
 * with its shared index), and what it held then, so that the cache
 * tree's directories whose paths changed are known when it is written.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "index-internal.h"

/*
 * What the index held when read, for the cache tree: an entry whose
 * path, stage, mode, id or intent-to-add flag is not as it was makes
 * its directories' trees invalid when the index is written.  Kept as
 * an 8-byte digest of each entry (not the entries: 0.6 MB rather than
 * 6 MB for a kernel's index), keyed afresh in each process so that no
 * one can choose two entries that collide.  An entry gone from the
 * index leaves no digest to find it by: remove_cache_entry_at and
 * replace_cache_entries invalidate its path as it goes, as git does.
 * Kept only when there is a cache tree to keep true.
 */
static uint64_t *snap;
static unsigned int snap_nr;

static void forget_snapshot(void)
{
	free(snap);
	snap = NULL;
	snap_nr = 0;
}

/* The tool changes stat data only (index_entries_kept): no snapshot. */
static int entries_kept;

void index_entries_kept(void)
{
	entries_kept = 1;
}

void index_read_only(void)
{
	entries_kept = 1;
	index_not_written = 1;
}

#define MIX_K 0x9e3779b97f4a7c15ULL

static uint64_t mix_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * MIX_K;
	return h << 31 | h >> 33;
}

/* Two words into one: the halves of their 128-bit product folded. */
static uint64_t mum(uint64_t a, uint64_t b)
{
	__extension__ unsigned __int128 r = (unsigned __int128)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static uint64_t load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

static uint64_t load32(const unsigned char *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
	return w;
}

/* The last n (< 16) bytes at p, in two words, read within them. */
static void load_tail(const unsigned char *p, size_t n, uint64_t *a,
		      uint64_t *b)
{
	if (n >= 8) {
		*a = load64(p);
		*b = load64(p + n - 8);
	} else if (n >= 4) {
		*a = load32(p);
		*b = load32(p + n - 4);
	} else {
		*a = n ? (uint64_t)p[0] << 16 | (uint64_t)p[n / 2] << 8 |
			 p[n - 1] : 0;
		*b = 0;
	}
}

/* The per-process keys: snap_key[0] nonzero once chosen. */
static uint64_t snap_key[4];

static uint64_t entry_digest(const struct cache_entry *ce)
{
	const unsigned char *name = (const unsigned char *)ce->name;
	size_t len = ce->ce_namelen, i;
	uint64_t h, meta, a, b;

	meta = (uint64_t)ce->ce_mode << 32 | (ce->ce_flags & CE_STAGEMASK) |
	       (ce->ce_ext_flags & CE_INTENT_TO_ADD);
	h = mum(meta ^ snap_key[0], load64(ce->sha1) ^ snap_key[1]);
	h = mum(h ^ load64(ce->sha1 + 8),
		(load32(ce->sha1 + 16) | (uint64_t)len << 32) ^ snap_key[2]);
	if (the_hash->rawsz > 20)	/* the rest of a SHA-256 id */
		h = mum(h ^ load64(ce->sha1 + 20) ^ snap_key[3],
			load32(ce->sha1 + 28) ^ snap_key[0]);
	for (i = 0; i + 16 <= len; i += 16)
		h = mum(h ^ load64(name + i) ^ snap_key[1],
			load64(name + i + 8) ^ snap_key[3]);
	load_tail(name + i, len - i, &a, &b);
	h = mum(h ^ a ^ snap_key[2], b ^ snap_key[3]);
	return mum(h ^ snap_key[0], h ^ snap_key[1] ^ len);
}

/* Keys no one knows beforehand: the clock, the pid, where we live. */
static void choose_key(void)
{
	struct timespec ts;
	uint64_t h;
	int i;

	if (snap_key[0])
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	h = mix_word((uint64_t)ts.tv_nsec << 32 ^ (uint64_t)ts.tv_sec,
		     (uint64_t)getpid() << 40 ^ (uintptr_t)&ts);
	for (i = 3; i >= 0; i--) {
		h = mix_word(h, (uintptr_t)snap_key + i);
		snap_key[i] = h | 1;
	}
}

static void take_snapshot(void)
{
	unsigned int i;

	forget_snapshot();
	if (entries_kept)
		return;
	choose_key();
	snap = xmalloc((active_nr + 1) * sizeof(*snap));
	for (i = 0; i < active_nr; i++)
		snap[i] = entry_digest(active_cache[i]);
	snap_nr = active_nr;
}

/*
 * Where the snapshot holds digest d, for the entries the walk below
 * does not meet in their old place: a table of positions, made once.
 */
struct snap_table {
	uint32_t *slot;
	size_t mask;
};

static void fill_table(struct snap_table *t)
{
	size_t size = 16, i;

	while (size < 2 * (size_t)snap_nr)
		size <<= 1;
	t->mask = size - 1;
	t->slot = xmalloc(size * sizeof(*t->slot));
	memset(t->slot, 0xff, size * sizeof(*t->slot));
	for (i = 0; i < snap_nr; i++) {
		size_t k = snap[i] & t->mask;

		while (t->slot[k] != UINT32_MAX)
			k = (k + 1) & t->mask;
		t->slot[k] = i;
	}
}

/* The position of d in the snapshot, or -1. */
static long find_digest(struct snap_table *t, uint64_t d)
{
	size_t k;

	if (!t->slot)
		fill_table(t);
	for (k = d & t->mask; t->slot[k] != UINT32_MAX; k = (k + 1) & t->mask)
		if (snap[t->slot[k]] == d)
			return t->slot[k];
	return -1;
}

/*
 * Each entry not in the snapshot invalidates its path.  The entries
 * are met in order, so an unchanged one is most often where the last
 * one found was followed: the table is made only when one is not.
 */
void invalidate_changed(void)
{
	struct snap_table t = { NULL, 0 };
	unsigned int i = 0, j;

	if (entries_kept)
		return;	/* nothing the cache tree depends on changed */

	for (j = 0; j < active_nr; j++) {
		const struct cache_entry *ce = active_cache[j];
		uint64_t d = entry_digest(ce);
		long pos;

		if (i < snap_nr && snap[i] == d) {
			i++;
			continue;
		}
		pos = snap_nr ? find_digest(&t, d) : -1;
		if (pos >= 0)
			i = pos + 1;
		else
			cache_tree_invalidate_path(active_cache_tree, ce->name,
						   ce->ce_namelen);
	}
	free(t.slot);
}

void index_entry_removed(const struct cache_entry *ce)
{
	if (active_cache_tree)
		cache_tree_invalidate_path(active_cache_tree, ce->name,
					   ce->ce_namelen);
}

void drop_resolve_undo(void)
{
	free(kept_reuc);
	kept_reuc = NULL;
	kept_reuc_len = 0;
}

struct cache_tree *index_cache_tree(void)
{
	if (active_cache_tree)
		invalidate_changed();
	return active_cache_tree;
}

struct cache_tree *index_cache_tree_or_new(void)
{
	if (!active_cache_tree) {
		active_cache_tree = cache_tree_new();
		take_snapshot();
	}
	return index_cache_tree();
}

void index_cache_tree_synced(void)
{
	if (active_cache_tree)
		take_snapshot();
}

/*
 * Directory entries need the "sdir" extension that announces them.
 * Unless the parse met one (or merged a split index), no entry is read
 * again: that pass over a kernel's 78,000 entries, cold in the cache,
 * was 8% of the parse's thread.
 */
static int check_sparse(const char *name, int split)
{
	unsigned int i;

	if (!split && !sparse_dir_parsed)
		return 0;
	for (i = 0; !sdir_seen && i < active_nr; i++)
		if (ce_sparse_dir(active_cache[i]))
			return error("index '%s' is corrupt: directory entry "
				     "'%s' without the sdir extension", name,
				     active_cache[i]->name);
	return 0;
}

/*
 * A digest of the index's paths and stages, to tell when one came or
 * went since the read (FNV-1a over each name, its stage and the count).
 */
static uint64_t read_paths;

static uint64_t paths_digest(void)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned int i;
	size_t k;

	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		for (k = 0; k < ce->ce_namelen; k++)
			h = (h ^ (unsigned char)ce->name[k]) * 1099511628211ULL;
		h = (h ^ (0x100 | ce_stage(ce))) * 1099511628211ULL;
	}
	return (h ^ active_nr) * 1099511628211ULL;
}

/* 1 when the paths are those read (an index with an untracked cache). */
int index_paths_unchanged(void)
{
	return paths_digest() == read_paths;
}

/*
 * Load the index from buf: 0, or -1 after error().  With map (buf is
 * the index file's mapping, size bytes), a big index's checksum may
 * still be computed on return: 1 then, and the mapping is
 * finish_deferred_check's, as it is after a failure that returns -2.
 */
static int load_index(const void *buf, void *map, size_t size,
		      const char *name)
{
	int ret, deferred = 0, split;

	discard_cache();
	free(kept_reuc);	/* the index read brings its own */
	kept_reuc = NULL;
	kept_reuc_len = 0;
	free(kept_untr);
	kept_untr = NULL;
	kept_untr_len = 0;
	link_ext = NULL;
	sdir_seen = 0;
	sparse_dir_parsed = 0;
	ret = map ? parse_deferring(map, size, name) :
		    parse_checked(buf, size, name, 0);
	if (ret > 0) {
		deferred = 1;
		ret = 0;
	}
	split = !ret && link_ext;
	if (split)
		ret = merge_split_index(name);
	link_ext = NULL;
	if (!ret)
		ret = check_sparse(name, split);
	if (ret < 0) {
		discard_cache();	/* waits for the checksum */
		return deferred ? -2 : -1;
	}
	return deferred;
}

int read_index_from_buffer(const void *buf, size_t size, const char *name)
{
	if (load_index(buf, NULL, size, name) < 0)
		return -1;
	if (active_cache_tree)
		take_snapshot();
	/* Only an untracked cache asks; most indexes have none. */
	read_paths = kept_untr ? paths_digest() : 0;
	return active_nr;
}

static int load_cache(int overlap)
{
	const char *file = get_index_file();
	struct stat st;
	void *map;
	size_t size;
	int ret;

	if (active_cache)
		return active_nr;
	ret = map_index_file(file, &map, &size, &st);
	if (ret)
		return ret > 0 ? 0 : -1;
	ret = load_index(map, map, size, file);
	if (ret == 0 || ret == -1)
		munmap(map, size);
	if (ret < 0)
		return -1;
	/*
	 * The snapshot and the digest of the paths are taken while the
	 * checksum may still be computed: they are dropped with the
	 * entries if it is wrong.
	 */
	if (active_cache_tree)
		take_snapshot();
	read_paths = kept_untr ? paths_digest() : 0;
	if (ret > 0 && !overlap && finish_index_check() < 0) {
		discard_cache();
		return -1;
	}
	set_index_mtime(&st);
	return active_nr;
}

int read_cache(void)
{
	return load_cache(0);
}

int read_cache_overlapped(void)
{
	return load_cache(1);
}

int finish_index_check(void)
{
	return finish_deferred_check();
}

/* Index order: the names' bytes, then their lengths, then stages. */
static int entry_cmp(const struct cache_entry *a, const struct cache_entry *b)
{
	size_t n = a->ce_namelen < b->ce_namelen ? a->ce_namelen :
		   b->ce_namelen;
	int cmp = memcmp(a->name, b->name, n);

	if (cmp)
		return cmp;
	if (a->ce_namelen != b->ce_namelen)
		return a->ce_namelen < b->ce_namelen ? -1 : 1;
	return (int)ce_stage(a) - (int)ce_stage(b);
}

/* The entries of the index that ces (sorted) has not: gone from it. */
static void invalidate_leaving(struct cache_entry **ces, unsigned int nr)
{
	unsigned int i = 0, j = 0;

	if (!active_cache_tree)
		return;
	while (i < active_nr) {
		int cmp = j < nr ? entry_cmp(active_cache[i], ces[j]) : -1;

		if (cmp < 0)
			index_entry_removed(active_cache[i]);
		i += cmp <= 0;
		j += cmp >= 0;
	}
}

void replace_cache_entries(struct cache_entry **ces, unsigned int nr,
			   size_t alloc)
{
	unsigned int i;

	invalidate_leaving(ces, nr);
	for (i = 0; i < active_nr; i++)
		free_cache_entry(active_cache[i]);
	forget_entry_array();
	active_cache = ces;
	active_nr = nr;
	active_alloc = alloc;
}

void discard_cache(void)
{
	unsigned int i;

	finish_deferred_check();

	for (i = 0; i < active_nr; i++)
		free_cache_entry(active_cache[i]);
	forget_entry_array();
	cache_tree_free(active_cache_tree);
	active_cache_tree = NULL;
	forget_snapshot();
	forget_split_index();
}
