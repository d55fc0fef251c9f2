/*
 * pack.h: git's pack files, the store's packed source, in layers:
 * the idx (pack-idx.c), the delta-base cache (pack-cache.c), the pack
 * file mapped (pack-map.c), the list of the store's packs
 * (pack-list.c), objects read out of them (pack-read.c), a pack
 * verified whole (pack-check.c), pack-objects' delta search
 * (pack-delta.c, above pack-write.c) and, above the store's writers, a
 * pack read whole with no idx (pack-resolve.c).  The one reader (object-read.c) asks
 * them as a source; fsck-cache, verify-pack and unpack-objects use the
 * lower-level calls below.  A file calls only the sections above its
 * own, and those of cache.h up to the store (loose.c, alternates.c).
 */
#ifndef PACK_H
#define PACK_H

#include <pthread.h>
#include <stdint.h>

#include "cache.h"

/* The entry types of a pack, beside OBJ_COMMIT..OBJ_TAG. */
#define OBJ_OFS_DELTA 6
#define OBJ_REF_DELTA 7

struct pack_window;

/*
 * One pack: its idx mapped whole (28 bytes an object, 40 for sha256), the
 * pack itself mapped in windows as entries are read.  Everything is
 * checked before use; a pack whose idx does not parse is never listed.
 */
struct packed_git {
	struct packed_git *next;
	char *pack_name;		/* .../pack-<hex>.pack */
	char *idx_name;
	const unsigned char *idx;	/* the idx file, mapped */
	size_t idx_size;
	int idx_version;		/* 1 or 2 */
	uint32_t nr;			/* objects listed */
	const unsigned char *names;	/* v1: rawsz + 4-byte rows; v2: rawsz */
	const unsigned char *crcs;	/* v2 only */
	const unsigned char *offsets;	/* v2 only: 4-byte offsets */
	const unsigned char *offsets64;	/* v2 only */
	size_t nr_offsets64;

	pthread_mutex_t lock;		/* the fields below */
	int fd;				/* -1 until the pack is opened */
	uint64_t pack_size;
	struct pack_window *windows;
	size_t mapped;
	uint64_t tick;			/* the windows' last use */
	uint64_t *by_offset;		/* sorted: offset << 32 | idx pos */
	size_t read_since_trim;		/* zlib bytes read since the last trim */
	unsigned char *touched;		/* 64 KiB blocks touched since then */
};

/* A big-endian 32-bit number, as idx and pack files keep them. */
static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* ---- pack-idx.c: the idx, checked and searched ---- */

/*
 * Check p->idx (p->idx_size bytes) as an idx and fill the fields that
 * point into it: NULL when it may be used, else what is wrong.  The
 * sizes and the fan-out are checked; the order of the ids is checked
 * by each lookup on its path (find_pack_pos), and whole by
 * check_pack_idx_order (pack_order, so verify-pack and fsck-cache).
 */
const char *check_pack_idx(struct packed_git *p);
/*
 * The hash an idx names objects by, for a tool reading an idx file
 * named outside the store (verify-pack, show-index): the_hash, or the
 * other when the idx's sizes fit only the other's ids (they never fit
 * both).  head is the idx's first 1032 bytes, size the whole file's;
 * guess_idx_file_hash reads them from the file (the_hash when it
 * cannot).
 */
const struct hash_algo *guess_idx_hash(const unsigned char *head,
				       size_t size);
const struct hash_algo *guess_idx_file_hash(const char *idx_name);
/* NULL when every id is in its fan-out bucket and above the one before. */
const char *check_pack_idx_order(const struct packed_git *p);
/* The id, offset and CRC32 (v2; 0 for v1) of the nth object of the idx. */
const unsigned char *nth_packed_sha1(const struct packed_git *p, uint32_t n);
/* The offset; UINT64_MAX for a 64-bit one missing from its table. */
uint64_t nth_packed_offset(const struct packed_git *p, uint32_t n);
uint32_t nth_packed_crc(const struct packed_git *p, uint32_t n);
/*
 * The position of sha1 in p's idx, -1 when it is not there, -2 when
 * the search met ids out of order or sha1 twice (a corrupt idx).
 */
int64_t find_pack_pos(const struct packed_git *p, const unsigned char *sha1);
/* A pack of this idx file, nothing read yet (free with close_pack). */
struct packed_git *new_packed_git(const char *idx_name);
/* Map and check p's idx: 0, or -1 after error() (p stays empty). */
int load_pack_idx(struct packed_git *p);

/* ---- pack-cache.c: the delta-base cache ---- */

/*
 * A copy (malloc'd, NUL after it) of the object kept for offset of p,
 * or NULL when none is kept.  Thread-safe, as are the three below.
 */
unsigned char *get_cached_base(struct packed_git *p, uint64_t offset,
			       enum object_type *type, size_t *size);
/*
 * The object kept for offset of p itself (size bytes and a NUL, not to
 * be written), or NULL when none is kept; *ref keeps it alive, even
 * evicted, until release_cached_base(*ref).
 */
struct cached_base;
const unsigned char *ref_cached_base(struct packed_git *p, uint64_t offset,
				    enum object_type *type, size_t *size,
				    struct cached_base **ref);
void release_cached_base(struct cached_base *ref);	/* NULL allowed */
/* Keep buf (malloc'd, size bytes and a NUL): the cache owns it now. */
void give_cached_base(struct packed_git *p, uint64_t offset,
		      enum object_type type, unsigned char *buf, size_t size);
/* Keep a copy of buf (size bytes and a NUL); the caller keeps buf. */
void put_cached_base(struct packed_git *p, uint64_t offset,
		     enum object_type type, const unsigned char *buf,
		     size_t size);
/* Drop what the cache keeps of p (it is being closed). */
void forget_cached_pack(struct packed_git *p);

/* ---- pack-map.c: the pack file, opened and mapped in windows ---- */

/*
 * At most this much of one pack mapped at once (default 1 GiB, at
 * least two windows): a reader going through a pack in order needs
 * little, and every page it keeps mapped counts in its memory.
 */
void set_pack_mapped_limit(size_t bytes);
/*
 * Give back the pages of a pack's windows each time this many bytes of
 * it have been read (default 32 MiB; 0: never), for the tests.
 */
void set_pack_trim_bytes(size_t bytes);
/*
 * Open the pack of an idx file named on the command line (verify-pack),
 * outside the store's list.  NULL after error().
 */
struct packed_git *open_pack_index(const char *idx_name);
/* Unmap and free p and what the cache keeps of it (NULL allowed). */
void close_pack(struct packed_git *p);
/*
 * The bytes of the entry at offset, mapped until unuse_pack(*w): *len
 * of them, from its header to the next entry when the table of
 * offsets is built (pack_order; a pack too big to map whole), else
 * to the pack's trailer; *exact (if not NULL) says which.  NULL (f)
 * when offset is outside the entries, or (table built) no entry
 * starts there, or the pack cannot be opened.
 */
const unsigned char *use_pack_entry(struct packed_git *p, uint64_t offset,
				    size_t *len, int *exact,
				    struct pack_window **w, struct fault *f);
/* Let go of the window use_pack_entry gave (NULL allowed). */
void unuse_pack(struct pack_window *w);
/* The same, after reading bytes of the entry (see set_pack_trim_bytes). */
void unuse_pack_read(struct pack_window *w, size_t bytes);
/*
 * Give back the pages of p's windows now (a reader that touched many
 * entries' headers, which unuse_pack_read does not count).  They are
 * read in again from the page cache when touched.  Thread-safe.
 */
void trim_pack(struct packed_git *p);
/* trim_pack on the pack of window w (a reader of one big entry). */
void trim_window_pack(struct pack_window *w);
/*
 * The idx positions in pack order (static to p); NULL (f) on failure.
 * Building it checks every offset and the order of every id.
 */
const uint64_t *pack_order(struct packed_git *p, struct fault *f);

/* ---- pack-list.c: the packs of the store ---- */

/* The packs of the store and of its alternates (scanned once). */
struct packed_git *get_packs(void);
/* Look again in the pack directories; 1 when a pack came. */
int rescan_packs(void);
/* A pack holding sha1 and its position there: 0, or -1 when none does. */
int find_packed(const unsigned char *sha1, struct packed_git **p,
		uint32_t *pos);
/* Call fn for every object of every pack; a non-zero return stops. */
int for_each_packed_object(int (*fn)(const unsigned char *sha1,
				     struct packed_git *p, uint32_t n,
				     void *data), void *data);
/*
 * Abbreviations: call fn for every packed id starting with the hex
 * prefix (len digits, lowercase); a non-zero return stops.
 */
int for_each_packed_prefix(const char *hex, size_t len,
			   int (*fn)(const unsigned char *sha1, void *data),
			   void *data);
/* unique_abbrev_len's count of the digits sha1 shares with packed ids. */
int packed_abbrev_len(const unsigned char *sha1, int len);

/* ---- pack-read.c: objects out of packs ---- */

/*
 * The source of the store: a stream on sha1 from the first pack that
 * lists it (FAULT_MISSING when none does).  A delta is resolved into
 * memory, its chain walked without recursion, each delta checked; an
 * entry stored whole is inflated as it is read.
 */
int open_packed_stream(struct object_stream *st, const unsigned char *sha1,
		       struct fault *f);
/*
 * An object of the packs, read only, not checked against its id (the
 * caller hashes it): a delta's result is left in the delta-base cache
 * and referenced from there, not copied out.  Release it in any case.
 */
struct packed_ref {
	const unsigned char *buf;	/* size bytes and a NUL */
	size_t size;
	enum object_type type;
	unsigned char *owned;		/* buf, when it is not the cache's */
	struct cached_base *ref;	/* buf, when it is */
};
int read_packed_ref(const unsigned char *sha1, struct packed_ref *r,
		    struct fault *f);
/*
 * Where read_packed_copies found an object, and what of its delta base
 * it copies: the runs of the base's bytes that its delta copies, in
 * the order of the result.  The caller keeps one and frees v.
 */
struct delta_copies {
	struct packed_git *pack;	/* NULL: not read from a pack */
	uint64_t offset;		/* of the object's entry */
	uint64_t base;			/* of its delta base's entry; 0: none */
	struct delta_copy *v;
	size_t nr, alloc;
};
/* read_packed_ref, telling where the object is and what it copies. */
int read_packed_copies(const unsigned char *sha1, struct packed_ref *r,
		       struct delta_copies *dc, struct fault *f);
void release_packed_ref(struct packed_ref *r);
/* The same on the nth object of p. */
int open_pack_entry(struct object_stream *st, struct packed_git *p,
		    uint32_t n, struct fault *f);
/*
 * The type and size of sha1 from the first pack that lists it, from
 * headers alone: a delta's chain is walked down for the type, never
 * resolved (FAULT_MISSING when no pack lists it).
 */
int packed_object_info(const unsigned char *sha1, enum object_type *type,
		       size_t *size, struct fault *f);
/* The same on the nth object of p. */
int pack_object_info(struct packed_git *p, uint32_t n,
		     enum object_type *type, size_t *size, struct fault *f);

/* What an entry is (its header), for verify-pack -v. */
struct pack_entry_info {
	uint64_t offset, length;	/* where it is in the pack, and size */
	int type;			/* as stored: 1-4, OFS or REF delta */
	size_t size;			/* in its header */
	uint64_t base_offset;		/* of a delta's base */
	unsigned char base_sha1[HASH_MAX_RAWSZ];	/* of a REF_DELTA's base */
};
/*
 * Parse the header of the entry at offset (len bytes at buf, up to the
 * next entry): its type, the size of its data inflated, a delta's
 * base.  The header's length, or -1 (f).
 */
int parse_pack_entry(const unsigned char *buf, size_t len, uint64_t offset,
		     struct pack_entry_info *e, struct fault *f);
/* The entry at idx position n; -1 (f) when it does not parse. */
int pack_entry_info(struct packed_git *p, uint32_t n,
		    struct pack_entry_info *e, struct fault *f);
/*
 * Check the nth object's raw bytes against its CRC32 in the idx (v2;
 * 0 for v1).  -1 (f) when they differ or cannot be read.
 */
int check_pack_crc(struct packed_git *p, uint32_t n, struct fault *f);

/* ---- pack-check.c: a pack verified whole ---- */

/*
 * Verify a pack whole (pack-check.c): the checksums of idx and pack,
 * the pack's header against the idx, each entry's CRC32 (idx v2) and
 * that the entries fill the pack exactly.  say gets each problem in
 * git fsck's words; returns the number of problems.  Objects
 * themselves are checked by reading them (open_pack_entry).
 */
int verify_pack_checksums(struct packed_git *p,
			  void (*say)(void *data, const char *fmt, ...),
			  void *data);

/* ---- pack-resolve.c: a pack read whole, with no idx ---- */

/* An entry of a pack read whole (struct pack_in). */
struct pack_in_entry {
	uint64_t offset;
	size_t size;			/* in its header: object or delta */
	uint32_t crc;			/* CRC32 of its raw bytes, as idx v2 */
	unsigned char sha1[HASH_MAX_RAWSZ];		/* the object's id, once resolved */
	unsigned char hdr_len;		/* its header's length */
	signed char in_type;		/* as stored: 1-4, OFS or REF delta */
	signed char type;		/* the object's; OBJ_NONE unresolved */
	signed char claimed;		/* a delta taken by a thread */
};

/*
 * A pack checked whole, with no idx: the caller fills the first
 * fields; read_pack_in the rest.  fn (may be NULL) gets every object
 * once its id is known, its content in buf (size bytes, NUL after
 * them), or buf NULL for a big whole object that is not a type
 * want_content (a bit mask, 1 << type) names: called on many threads
 * at once; -1 (f filled) stops the reading.  piece (may be NULL) gets
 * such a big object's content before that, a piece at a time as it is
 * inflated (size bytes at buf; e's type and size set, not its id),
 * in order, on one thread; -1 (f filled) stops the reading.
 */
struct pack_in {
	int thin;			/* REF_DELTA bases may be in the store */
	int progress;			/* "Indexing objects" etc. on a tty */
	unsigned int want_content;
	int (*fn)(void *data, const struct pack_in_entry *e, const void *buf,
		  size_t size, struct fault *f);
	int (*piece)(void *data, const struct pack_in_entry *e,
		     const void *buf, size_t size, struct fault *f);
	void *data;

	uint64_t pack_size;
	uint32_t nr;
	struct pack_in_entry *entries;	/* in pack order; malloc'd */
	unsigned char sha1[HASH_MAX_RAWSZ];		/* the pack's trailer */
};
/*
 * Read the pack in file fd and check it whole: header, trailer, every
 * entry's header, zlib stream and size, every delta applied (depth
 * first from its base, on every core, a bounded set of bases held),
 * every id computed.  0, entries filled (the caller frees them); or
 * -1 with f saying what is wrong (FAULT_CORRUPT) or failed.
 */
int read_pack_in(struct pack_in *p, int fd, struct fault *f);
/*
 * The bases one thread of read_pack_in holds at most (default 32 MiB)
 * before it lets the oldest go, to make them again when needed.
 */
void set_pack_bases_held(size_t bytes);

/* ---- pack-delta.c: pack-objects' delta search ---- */

/* How an object goes into the new pack. */
enum reuse_kind {
	REUSE_NONE,		/* read it, deflate it (or its new delta) */
	REUSE_WHOLE,		/* copy its zlib bytes out of in_pack */
	REUSE_DELTA,		/* copy its delta out of in_pack */
};

/* One object of the pack being made. */
struct object_entry {
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	uint32_t name_hash;	/* pack_name_hash of its path */
	size_t size;		/* of its content */
	uint32_t order;		/* its place in the list given */

	struct packed_git *in_pack;	/* where it is stored, or NULL */
	uint32_t in_pos;		/* its idx position there */
	struct pack_entry_info in;	/* its entry there */
	unsigned int in_hdr_len;	/* the entry's header, base included */
	enum reuse_kind reuse;

	struct object_entry *delta;	/* its base in the new pack */
	unsigned char *delta_data;	/* a new delta, deflated */
	size_t delta_size, delta_zlen;	/* its size, and deflated */
	unsigned int depth;		/* deltas down to a whole entry */
	unsigned int height;		/* reused deltas hanging below it */

	uint64_t offset;		/* in the new pack; 0 until written */
	uint32_t crc;
};

/*
 * git's hash of a path for the delta search's order: whitespace left
 * out, each byte shifts the ones before down by two bits, so the last
 * sixteen weigh the most and "x.c" files sort together.
 */
uint32_t pack_name_hash(const char *path);

struct delta_search {
	int window;		/* bases tried per object */
	int depth;		/* longest chain of deltas */
	int threads;
	int level;		/* zlib level of the deltas kept */
	int reuse_delta;	/* a pack's choice of whole entries stands */
	size_t window_memory;	/* bytes a thread's window holds; 0: any */
	struct progress *progress;
};
/*
 * Find a base for each of the nr entries, as git does: sorted by type,
 * name hash and size (biggest first), each tried against the window
 * before it, a delta kept only when smaller than what the whole object
 * would cost at its depth; the list is cut in pieces at name changes,
 * searched on opt->threads threads.  Sets delta, delta_data (deflated)
 * and depth.  -1 after error() when an object cannot be read.
 */
int find_deltas(struct object_entry **list, size_t nr,
		const struct delta_search *opt);
/* len bytes deflated by zlib at level (malloc'd, *zlen); NULL after error(). */
unsigned char *zlib_deflate(const void *buf, size_t len, int level,
			    size_t *zlen);

#endif
