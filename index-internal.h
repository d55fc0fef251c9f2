/*
 * index-internal.h: what the files of the index file share, below
 * cache.h's read_cache and commit_index: read-cache.c (entries in
 * memory), index-ondisk.c (one entry on disk), index-parse.c (a file's
 * bytes checked into entries), index-split.c (the split index),
 * index-read.c (read_cache) and index-write.c (commit_index).  No tool
 * includes it.
 */
#ifndef INDEX_INTERNAL_H
#define INDEX_INTERNAL_H

#include "cache.h"

#define CACHE_SIGNATURE 0x44495243	/* "DIRC" */
#define HEADER_SIZE 12
#define ONDISK_ID 40			/* the id's offset in an entry */
/* Stat data, id and flags: 62 bytes with 20-byte ids, 74 with 32. */
#define ONDISK_FIXED(rawsz) (ONDISK_ID + (rawsz) + 2)
/* The least an entry takes: fixed, a 1-byte name (v4: its varint), NUL. */
#define MIN_ONDISK_ENTRY(rawsz) (ONDISK_FIXED(rawsz) + 2)
/* Far beyond any real index (a 75,000-file tree needs ~8 MiB). */
#define MAX_INDEX_SIZE ((off_t)1 << 31)

/* Big-endian numbers at p (pack.h has its own get_be32). */
static inline uint16_t get_be16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get_be64(const unsigned char *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/* ---- read-cache.c: entries in memory ---- */

/* The bytes an entry with a name of len bytes takes. */
size_t ce_size_for(size_t len);
/*
 * The one block a file's entries are parsed into (size bytes; dies
 * when memory runs out); free_cache_entry leaves its entries alone.
 */
char *alloc_entry_block(size_t size);
/* The array of entries and the entry block freed, the index empty. */
void forget_entry_array(void);
/* A malloc'd copy of ce named name (len bytes). */
struct cache_entry *dup_entry(const struct cache_entry *ce,
			      const char *name, size_t len);
/* The index file's mtime, for ce_is_racy (read_cache sets it). */
void set_index_mtime(const struct stat *st);

/* ---- index-ondisk.c: one entry on disk, v2 to v4 ---- */

/* Bytes at the start of a and b (n bytes each) that are the same. */
size_t common_prefix(const char *a, const char *b, size_t n);
/*
 * Parse the v2/v3 entry at p (avail bytes) into ce, whose name has
 * room for name_room bytes; returns its size on disk, or 0 if bad.
 */
size_t parse_entry(const unsigned char *p, size_t avail, int version,
		   struct cache_entry *ce, size_t name_room);
/*
 * Parse the v4 entry at p, its name prev's less a prefix (prev NULL
 * for the first); *cep is allocated.  Its size on disk, or 0 if bad.
 */
size_t parse_entry_v4(const unsigned char *p, size_t avail,
		      const struct cache_entry *prev,
		      struct cache_entry **cep);
/* Write ce as a v2/v3 entry: 0, or -1 (the hashfile has failed). */
int write_ondisk_entry(struct hashfile *w, const struct cache_entry *ce);
/* Write ce as a v4 entry after prev (NULL for the first): 0 or -1. */
int write_ondisk_entry_v4(struct hashfile *w, const struct cache_entry *ce,
			  const struct cache_entry *prev);
/* The header of an index file of nr entries, then the entries: 0 or -1. */
int write_entries(struct hashfile *w, unsigned int version,
		  struct cache_entry *const *ces, unsigned int nr);

/* ---- index-parse.c: an index file's bytes into active_cache ---- */

/*
 * The extensions of the index last read: REUC kept whole (its header
 * too), the version, the "link" extension (in the buffer being read;
 * NULL when there was none or once it is applied), whether "sdir" was
 * there.
 */
extern unsigned char *kept_reuc;
extern size_t kept_reuc_len;
/* UNTR kept whole (its header too), or NULL. */
extern unsigned char *kept_untr;
extern size_t kept_untr_len;
/* Are the index's paths (and stages) still those it was read with? */
int index_paths_unchanged(void);
extern int index_version;	/* as read; 0 when there was no index */
/* index_read_only: TREE, REUC and UNTR are not parsed, only skipped. */
extern int index_not_written;
extern const unsigned char *link_ext;
extern size_t link_len;
extern int sdir_seen;
/*
 * Did the last parse_index meet a directory entry (of a sparse index)?
 * Then check_sparse looks for the one without "sdir"; else it need not
 * touch the entries again.
 */
extern int sparse_dir_parsed;

/* ce's mode, path and order after prev (NULL: first): 0, or -1. */
int check_entry(const struct cache_entry *ce,
		const struct cache_entry *prev, const char *file);
/*
 * Parse buf (an index file of size bytes) into active_cache and check
 * its checksum; a shared index (shared) has no extensions read.  -1
 * after error().
 */
int parse_checked(const void *buf, size_t size, const char *name,
		  int shared);
/*
 * parse_checked on the mapping of the index file (map, size bytes),
 * but for a big index the checksum may still be computed when it
 * returns: 1 then, and the mapping is finish_deferred_check's to
 * unmap; else 0 (checked), or -1 after error() (the caller unmaps).
 */
int parse_deferring(void *map, size_t size, const char *name);
/*
 * Wait for parse_deferring's checksum, if one runs, and unmap: 0, or
 * -1 (after error() the first time) once a bad checksum was found.
 */
int finish_deferred_check(void);
/* Map an index file: 0, 1 when there is none, or -1 after error(). */
int map_index_file(const char *file, void **map, size_t *size,
		   struct stat *st);

/* ---- index-split.c: the split index ---- */

/*
 * active_cache holds a split index's own entries (link_ext is set):
 * read its shared index and apply the split file's entries and
 * bitmaps to it.  0, or -1 after error().
 */
int merge_split_index(const char *file);
/* The shared index kept from the read dropped (discard_cache). */
void forget_split_index(void);

/*
 * What commit_index writes when the index is to be split (it came
 * split and core.splitIndex is not false, or core.splitIndex is
 * true): the entries for the split file (the replacing ones nameless,
 * then the added ones) and its "link" extension.  split 0: write the
 * index whole.
 */
struct split_plan {
	int split;
	struct cache_entry **ces;
	unsigned int nr, owned;		/* the first owned are malloc'd */
	struct mbuf link;
};
/*
 * Plan the write against the shared index read; a new shared index
 * is written first (in version) when there is none or when more than
 * splitIndex.maxPercentChange (20) of the entries are not in it.
 * 0, or -1 after error().
 */
int plan_split_index(struct split_plan *plan, unsigned int version);
void release_split_plan(struct split_plan *plan);

/* ---- index-read.c: read_cache ---- */

/* Invalidate, in active_cache_tree, the paths changed since the read. */
void invalidate_changed(void);

#endif
