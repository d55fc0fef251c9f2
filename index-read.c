/*
 * index-read.c: read_cache, the index file loaded whole (a split index
 * with its shared index), and what it held then, so that the cache
 * tree's directories whose paths changed are known when it is written.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "index-internal.h"

/*
 * What the index held when read, for the cache tree: the paths that
 * differ when it is written are the ones whose trees changed.  Kept
 * only when there is a cache tree to keep true.
 */
struct entry_snap {
	size_t name;		/* offset in snap_names */
	uint32_t namelen;
	uint32_t mode;
	uint16_t flags;		/* stage, intent-to-add */
	unsigned char sha1[20];
};

static struct entry_snap *snap;
static char *snap_names;
static unsigned int snap_nr;

static uint16_t snap_flags(const struct cache_entry *ce)
{
	return (ce->ce_flags & CE_STAGEMASK) |
	       (ce->ce_ext_flags & CE_INTENT_TO_ADD);
}

static void forget_snapshot(void)
{
	free(snap);
	free(snap_names);
	snap = NULL;
	snap_names = NULL;
	snap_nr = 0;
}

/* The tool changes stat data only (index_entries_kept): no snapshot. */
static int entries_kept;

void index_entries_kept(void)
{
	entries_kept = 1;
}

static void take_snapshot(void)
{
	size_t names = 0, off = 0;
	unsigned int i;

	forget_snapshot();
	if (entries_kept)
		return;
	for (i = 0; i < active_nr; i++)
		names += active_cache[i]->ce_namelen;
	snap = xcalloc(active_nr + 1, sizeof(*snap));
	snap_names = xmalloc(names + 1);
	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		snap[i].name = off;
		snap[i].namelen = ce->ce_namelen;
		snap[i].mode = ce->ce_mode;
		snap[i].flags = snap_flags(ce);
		memcpy(snap[i].sha1, ce->sha1, 20);
		memcpy(snap_names + off, ce->name, ce->ce_namelen);
		off += ce->ce_namelen;
	}
	snap_nr = active_nr;
}

static int snap_cmp(const struct entry_snap *s, const struct cache_entry *ce)
{
	size_t n = s->namelen < ce->ce_namelen ? s->namelen : ce->ce_namelen;
	int cmp = memcmp(snap_names + s->name, ce->name, n);

	if (cmp)
		return cmp;
	if (s->namelen != ce->ce_namelen)
		return s->namelen < ce->ce_namelen ? -1 : 1;
	return (int)(s->flags & CE_STAGEMASK) -
	       (int)(ce->ce_flags & CE_STAGEMASK);
}

void invalidate_changed(void)
{
	unsigned int i = 0, j = 0;

	if (entries_kept)
		return;	/* nothing the cache tree depends on changed */

	while (i < snap_nr || j < active_nr) {
		const struct entry_snap *s = i < snap_nr ? &snap[i] : NULL;
		const struct cache_entry *ce = j < active_nr ?
			active_cache[j] : NULL;
		int cmp = !s ? 1 : !ce ? -1 : snap_cmp(s, ce);

		if (cmp < 0)
			cache_tree_invalidate_path(active_cache_tree,
						   snap_names + s->name,
						   s->namelen);
		else if (cmp > 0 || s->mode != ce->ce_mode ||
			 s->flags != snap_flags(ce) ||
			 memcmp(s->sha1, ce->sha1, 20))
			cache_tree_invalidate_path(active_cache_tree, ce->name,
						   ce->ce_namelen);
		i += cmp <= 0;
		j += cmp >= 0;
	}
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

/* Directory entries need the "sdir" extension that announces them. */
static int check_sparse(const char *name)
{
	unsigned int i;

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
	int ret, deferred = 0;

	discard_cache();
	free(kept_reuc);	/* the index read brings its own */
	kept_reuc = NULL;
	kept_reuc_len = 0;
	free(kept_untr);
	kept_untr = NULL;
	kept_untr_len = 0;
	link_ext = NULL;
	sdir_seen = 0;
	ret = map ? parse_deferring(map, size, name) :
		    parse_checked(buf, size, name, 0);
	if (ret > 0) {
		deferred = 1;
		ret = 0;
	}
	if (!ret && link_ext)
		ret = merge_split_index(name);
	link_ext = NULL;
	if (!ret)
		ret = check_sparse(name);
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
	/* The unmap first: the snapshot below adds to the peak. */
	if (ret == 0 || ret == -1)
		munmap(map, size);
	if (ret > 0 && !overlap && finish_index_check() < 0) {
		discard_cache();
		return -1;
	}
	if (ret < 0)
		return -1;
	if (active_cache_tree)
		take_snapshot();
	read_paths = kept_untr ? paths_digest() : 0;
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

void replace_cache_entries(struct cache_entry **ces, unsigned int nr,
			   size_t alloc)
{
	unsigned int i;

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
