/*
 * pack-read.c: objects out of pack files.  Each entry's header is
 * parsed with every number checked (a size or offset that overflows,
 * a base offset at or after the entry).  An entry stored whole is
 * handed out as a stream inflated from the mapped pack, so a big blob
 * never sits in memory.  A delta is resolved: its chain is walked down
 * to a whole entry (or to a base still in the cache) without
 * recursion, remembering the offsets passed, then the deltas are
 * applied on the way back up, each checked by apply_delta.  A chain
 * that comes back to an entry it passed loops and is refused; so is a
 * REF_DELTA whose base is not in the pack.
 *
 * The bases met on the way are kept in the delta-base cache
 * (pack-cache.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pack.h"

/* ---- entry headers ---- */

/*
 * Parse the header of the entry at offset (len bytes at buf): its type,
 * the size of its data inflated, and a delta's base.  Returns the
 * header's length, or -1 (f).
 */
int parse_pack_entry(const unsigned char *buf, size_t len, uint64_t offset,
		     struct pack_entry_info *e, struct fault *f)
{
	size_t i = 1;
	unsigned int shift = 4;
	uint64_t size, back;
	unsigned char c;

	memset(e, 0, sizeof(*e));
	e->offset = offset;
	e->length = len;
	if (!len)
		return set_fault(f, FAULT_CORRUPT, "empty entry");
	c = buf[0];
	e->type = (c >> 4) & 7;
	size = c & 15;
	while (c & 0x80) {
		if (i >= len)
			return set_fault(f, FAULT_CORRUPT, "entry header is "
					 "truncated");
		c = buf[i++];
		if (shift > 63 || ((uint64_t)(c & 0x7f) << shift) >> shift !=
		    (uint64_t)(c & 0x7f) || shift > 8 * sizeof(size_t) - 7)
			return set_fault(f, FAULT_CORRUPT, "entry size "
					 "overflows");
		size += (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	e->size = size;
	switch (e->type) {
	case OBJ_COMMIT: case OBJ_TREE: case OBJ_BLOB: case OBJ_TAG:
		return i;
	case OBJ_REF_DELTA:
		if (len - i < the_hash->rawsz)
			return set_fault(f, FAULT_CORRUPT, "entry header is "
					 "truncated");
		hashcpy(e->base_sha1, buf + i);
		return i + the_hash->rawsz;
	case OBJ_OFS_DELTA:
		if (i >= len)
			return set_fault(f, FAULT_CORRUPT, "entry header is "
					 "truncated");
		c = buf[i++];
		back = c & 0x7f;
		while (c & 0x80) {
			if (i >= len)
				return set_fault(f, FAULT_CORRUPT, "entry "
						 "header is truncated");
			if (back >= (UINT64_MAX >> 7) - 1)
				return set_fault(f, FAULT_CORRUPT, "delta base "
						 "offset overflows");
			c = buf[i++];
			back = ((back + 1) << 7) | (c & 0x7f);
		}
		if (!back)
			return set_fault(f, FAULT_CORRUPT, "delta base offset "
					 "points to the delta itself");
		if (back > offset - 12)
			return set_fault(f, FAULT_CORRUPT, "delta base offset "
					 "is out of bound");
		e->base_offset = offset - back;
		return i;
	default:
		return set_fault(f, FAULT_CORRUPT, "unknown object type %d at "
				 "offset %llu", e->type,
				 (unsigned long long)offset);
	}
}

/* ---- whole entries ---- */

/*
 * Inflate an entry's zlib data (len bytes) into exactly size bytes
 * (malloc'd, NUL after them); the stream must end there, and use all
 * of len when len is exact (not merely a bound).  NULL (f) otherwise.
 * *used: the bytes of data read (0 when none were).
 */
static unsigned char *inflate_entry(const unsigned char *data, size_t len,
				    int exact, size_t size, size_t *used,
				    struct fault *f)
{
	unsigned char *buf;
	int ret;

	*used = 0;
	/* deflate cannot shrink more than 1032 to 1: more is a lie */
	if (size / 1032 > len || size >= UINT32_MAX) {
		set_fault(f, FAULT_CORRUPT, "entry claims more bytes than its "
			  "data can hold");
		return NULL;
	}
	buf = malloc(size + 1 + INFLATE_SLACK);
	if (!buf) {
		set_fault(f, FAULT_IO, "out of memory for %zu bytes", size);
		return NULL;
	}
	ret = inflate_whole(data, len, buf, size, used, 0);
	if (ret || (exact && *used != len)) {
		free(buf);
		set_fault(f, ret == INFLATE_NOMEM ? FAULT_IO : FAULT_CORRUPT,
			  "%s", ret ? inflate_error(ret) :
			  "garbage after the zlib stream");
		return NULL;
	}
	buf[size] = '\0';
	return buf;
}

/* The data of the entry at offset, inflated, and its header. */
static unsigned char *read_entry_data(struct packed_git *p, uint64_t offset,
				      struct pack_entry_info *e,
				      struct fault *f)
{
	struct pack_window *w;
	unsigned char *data = NULL;
	size_t len;
	int exact;
	const unsigned char *buf = use_pack_entry(p, offset, &len, &exact, &w,
						  f);
	size_t used = 0;
	int hdr;

	if (!buf)
		return NULL;
	hdr = parse_pack_entry(buf, len, offset, e, f);
	if (hdr >= 0)
		data = inflate_entry(buf + hdr, len - hdr, exact, e->size,
				     &used, f);
	unuse_pack_read(w, used);
	return data;
}

/* ---- delta chains ---- */

struct chain {
	uint64_t *offsets;
	size_t nr, alloc;
};

static int in_chain(const struct chain *c, uint64_t offset)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->offsets[i] == offset)
			return 1;
	return 0;
}

/* The offset of the base of e, a delta; 0 (f) when there is none. */
static uint64_t base_of(struct packed_git *p, const struct pack_entry_info *e,
			struct fault *f)
{
	int64_t pos;

	if (e->type == OBJ_OFS_DELTA)
		return e->base_offset;
	pos = find_pack_pos(p, e->base_sha1);
	if (pos == -2) {
		set_fault(f, FAULT_CORRUPT, "index file %s is corrupt: ids "
			  "are duplicated or out of order", p->idx_name);
		return 0;
	}
	if (pos < 0) {
		set_fault(f, FAULT_CORRUPT, "delta base %s is missing from "
			  "%s", sha1_to_hex(e->base_sha1), p->pack_name);
		return 0;
	}
	return nth_packed_offset(p, pos);
}

/* The base a chain ends in: owned (inflated here) or the cache's. */
struct chain_base {
	const unsigned char *buf;
	unsigned char *owned;		/* buf, malloc'd: not in the cache */
	struct cached_base *ref;	/* buf is the cache's: release it */
	uint64_t at;			/* its offset */
};

static void release_chain_base(struct chain_base *b)
{
	free(b->owned);
	release_cached_base(b->ref);
	b->buf = b->owned = NULL;
	b->ref = NULL;
}

/*
 * Walk down from offset, noting each delta in c, to a base: a cached
 * one (a reference) or an entry stored whole, inflated (owned: not in
 * the cache yet), into b.  Returns 0, -1 (f).
 */
static int find_base(struct packed_git *p, uint64_t offset, struct chain *c,
		     enum object_type *type, size_t *size,
		     struct chain_base *b, struct fault *f)
{
	for (;;) {
		struct pack_entry_info e;
		struct pack_window *w;
		const unsigned char *buf;
		size_t len;
		int hdr, exact;

		b->at = offset;
		b->owned = NULL;
		if (c->nr && (b->buf = ref_cached_base(p, offset, type, size,
						       &b->ref)))
			return 0;
		buf = use_pack_entry(p, offset, &len, &exact, &w, f);
		if (!buf)
			return -1;
		hdr = parse_pack_entry(buf, len, offset, &e, f);
		if (hdr >= 0 && e.type <= OBJ_TAG) {
			size_t used;

			b->owned = inflate_entry(buf + hdr, len - hdr, exact,
						 e.size, &used, f);
			b->buf = b->owned;
			unuse_pack_read(w, used);
			*type = e.type;
			*size = e.size;
			return b->buf ? 0 : -1;
		}
		unuse_pack(w);
		if (hdr < 0)
			return -1;
		ALLOC_GROW(c->offsets, c->nr + 1, c->alloc);
		c->offsets[c->nr++] = offset;
		offset = base_of(p, &e, f);
		if (!offset)
			return -1;
		if (in_chain(c, offset)) {
			set_fault(f, FAULT_CORRUPT, "delta chain loops at "
				  "offset %llu of %s",
				  (unsigned long long)offset, p->pack_name);
			return -1;
		}
	}
}

/* The copies of the delta (len bytes) of the object dc is on, from base. */
static void note_copies(struct delta_copies *dc, uint64_t base,
			const unsigned char *delta, size_t len)
{
	if (delta_copies(delta, len, &dc->v, &dc->nr, &dc->alloc) < 0) {
		dc->nr = 0;
		return;
	}
	dc->base = base;
}

/*
 * The object of the delta at offset, resolved, into b (owned); -1 (f).
 * Each base the chain went through is left in the cache: handed over
 * once its delta is applied (no copy), unless it came from there.
 */
static int resolve_chain(struct packed_git *p, uint64_t offset,
			 enum object_type *type, size_t *size,
			 struct chain_base *b, struct delta_copies *dc,
			 struct fault *f)
{
	struct chain c = { NULL, 0, 0 };
	int ok = !find_base(p, offset, &c, type, size, b, f);

	while (ok && c.nr) {
		uint64_t at = c.offsets[--c.nr];
		struct pack_entry_info e;
		unsigned char *delta = read_entry_data(p, at, &e, f);
		unsigned char *result = NULL;
		size_t base_size = *size;
		const char *why;

		if (delta) {
			result = apply_delta(b->buf, base_size, delta, e.size,
					     size, &why);
			if (!result)
				set_fault(f, FAULT_CORRUPT, "delta at offset "
					  "%llu of %s: %s",
					  (unsigned long long)at, p->pack_name,
					  why);
		}
		if (dc && result && !c.nr)
			note_copies(dc, b->at, delta, e.size);
		free(delta);
		if (b->owned && result) {
			give_cached_base(p, b->at, *type, b->owned, base_size);
			b->owned = NULL;
		}
		release_chain_base(b);
		b->buf = b->owned = result;
		b->at = at;
		ok = result != NULL;
	}
	free(c.offsets);
	if (ok && !b->owned) {	/* not a delta after all: a cached entry */
		b->owned = malloc(*size + 1);
		if (b->owned) {
			memcpy(b->owned, b->buf, *size + 1);
		} else {
			set_fault(f, FAULT_IO, "out of memory for %zu bytes",
				  *size);
			ok = 0;
		}
		release_cached_base(b->ref);
		b->ref = NULL;
		b->buf = b->owned;
	}
	if (!ok) {
		release_chain_base(b);
		return -1;
	}
	return 0;
}

/*
 * The object of the delta at offset, resolved; NULL (f).  The result
 * is copied into the cache too: a delta of it may come next (pack
 * order).
 */
static unsigned char *resolve_delta(struct packed_git *p, uint64_t offset,
				    enum object_type *type, size_t *size,
				    struct fault *f)
{
	struct chain_base b = { NULL, NULL, NULL, 0 };

	if (resolve_chain(p, offset, type, size, &b, NULL, f) < 0)
		return NULL;
	put_cached_base(p, offset, *type, b.owned, *size);
	return b.owned;
}

/* ---- type and size alone ---- */

/*
 * The result size a delta's data (len bytes of zlib, size inflated)
 * starts with, inflating only its first bytes.
 */
static int delta_result_size(const unsigned char *data, size_t len,
			     size_t size, size_t *result, struct fault *f)
{
	unsigned char head[HASH_MAX_RAWSZ];
	size_t base_size, want = size < sizeof(head) ? size : sizeof(head);
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return set_fault(f, FAULT_IO, "zlib: inflateInit failed");
	z.next_in = (unsigned char *)data;
	z.avail_in = len > UINT32_MAX ? UINT32_MAX : len;
	z.next_out = head;
	z.avail_out = want;
	do
		ret = inflate(&z, Z_SYNC_FLUSH);
	while (ret == Z_OK && z.avail_out && z.avail_in);
	inflateEnd(&z);
	if ((ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) ||
	    get_delta_sizes(head, want - z.avail_out, &base_size, result) < 0)
		return set_fault(f, FAULT_CORRUPT, "delta header is cut "
				 "short or damaged");
	return 0;
}

/*
 * The type and size of the nth object of p from headers alone, as
 * cat-file -t and -s want them: a delta's size is in the first bytes
 * of its own data, its type is that of the entry stored whole at the
 * bottom of its chain, reached through headers: nothing is inflated
 * but the delta's first bytes.  A size its data cannot hold is
 * refused; a delta that does not apply is found only by reading it,
 * as in git.
 */
int pack_object_info(struct packed_git *p, uint32_t n,
		     enum object_type *type, size_t *size, struct fault *f)
{
	struct chain c = { NULL, 0, 0 };
	uint64_t offset = nth_packed_offset(p, n);
	int ret = -1;

	for (;;) {
		struct pack_entry_info e;
		struct pack_window *w;
		size_t len;
		const unsigned char *buf = use_pack_entry(p, offset, &len,
							  NULL, &w, f);
		int hdr;

		if (!buf)
			break;
		hdr = parse_pack_entry(buf, len, offset, &e, f);
		/* deflate cannot shrink more than 1032 to 1: more is a lie */
		if (hdr >= 0 && e.size / 1032 > len - hdr)
			hdr = set_fault(f, FAULT_CORRUPT, "entry claims more "
					"bytes than its data can hold");
		if (hdr >= 0 && !c.nr)
			hdr = e.type <= OBJ_TAG ? (*size = e.size, hdr) :
			      delta_result_size(buf + hdr, len - hdr, e.size,
						size, f);
		unuse_pack(w);
		if (hdr < 0)
			break;
		if (e.type <= OBJ_TAG) {
			*type = e.type;
			ret = 0;
			break;
		}
		ALLOC_GROW(c.offsets, c.nr + 1, c.alloc);
		c.offsets[c.nr++] = offset;
		offset = base_of(p, &e, f);
		if (!offset)
			break;
		if (in_chain(&c, offset)) {
			set_fault(f, FAULT_CORRUPT, "delta chain loops at "
				  "offset %llu of %s",
				  (unsigned long long)offset, p->pack_name);
			break;
		}
	}
	free(c.offsets);
	return ret;
}

/*
 * fn(p, n, data, f) for each pack holding sha1 until one answers: 0, or
 * the first pack's failure, or FAULT_MISSING.  A pack removed under us
 * (a gc beside us) is not there.
 */
static int in_packs(const unsigned char *sha1,
		    int (*fn)(struct packed_git *p, uint32_t n, void *data,
			      struct fault *f),
		    void *data, struct fault *f)
{
	struct packed_git *p;
	struct fault first;
	int found = 0;

	for (p = get_packs(); p; p = p->next) {
		int64_t n = p->nr ? find_pack_pos(p, sha1) : -1;

		if (n == -1)
			continue;
		if (n == -2)
			set_fault(f, FAULT_CORRUPT, "index file %s is corrupt: "
				  "ids are duplicated or out of order",
				  p->idx_name);
		else if (!fn(p, (uint32_t)n, data, f))
			return 0;
		if (f->code == FAULT_IO && f->err == ENOENT)
			continue;
		if (!found++)
			first = *f;
	}
	if (found) {
		*f = first;
		return -1;
	}
	return set_fault(f, FAULT_MISSING, "not found");
}

struct info_want {
	enum object_type *type;
	size_t *size;
};

static int info_in_pack(struct packed_git *p, uint32_t n, void *data,
			struct fault *f)
{
	struct info_want *w = data;

	return pack_object_info(p, n, w->type, w->size, f);
}

int packed_object_info(const unsigned char *sha1, enum object_type *type,
		       size_t *size, struct fault *f)
{
	struct info_want w = { type, size };

	return in_packs(sha1, info_in_pack, &w, f);
}

/* ---- streams ---- */

static void release_window(struct object_stream *st)
{
	unuse_pack_read(st->source, st->z.total_in);
}

/* A big entry read a piece at a time: the pages read given back. */
static void trim_fed(struct object_stream *st)
{
	trim_window_pack(st->source);
}

int open_pack_entry(struct object_stream *st, struct packed_git *p,
		    uint32_t n, struct fault *f)
{
	uint64_t offset = nth_packed_offset(p, n);
	struct pack_entry_info e;
	struct pack_window *w;
	enum object_type type;
	unsigned char *data;
	const unsigned char *buf;
	size_t len, size;
	int hdr, exact;

	memset(st, 0, sizeof(*st));
	buf = use_pack_entry(p, offset, &len, &exact, &w, f);
	if (!buf)
		return -1;
	hdr = parse_pack_entry(buf, len, offset, &e, f);
	/*
	 * An entry stored whole that was read before as a base (diff-tree
	 * reads an old tree, a delta of the new one, then the new one; a
	 * checkout meets a file after a delta of it): copied, not
	 * inflated again.
	 */
	if (hdr >= 0 && e.type <= OBJ_TAG &&
	    (data = get_cached_base(p, offset, &type, &size))) {
		unuse_pack(w);
		open_memory_stream(st, data, type, size);
		st->owned = data;
		return 0;
	}
	if (hdr >= 0 && e.type <= OBJ_TAG && e.size <= WHOLE_INFLATE_MAX) {
		size_t used;

		data = inflate_entry(buf + hdr, len - hdr, exact, e.size, &used,
				     f);
		unuse_pack_read(w, used);
		if (!data)
			return -1;
		open_memory_stream(st, data, e.type, e.size);
		st->owned = data;
		return 0;
	}
	if (hdr >= 0 && e.type <= OBJ_TAG) {
		if (open_raw_stream(st, buf + hdr, len - hdr, exact, e.type,
				    e.size, f) < 0) {
			close_object_stream(st);
			unuse_pack(w);
			memset(st, 0, sizeof(*st));
			return -1;
		}
		st->source = w;
		st->release = release_window;
		st->fed = trim_fed;
		return 0;
	}
	unuse_pack(w);
	if (hdr < 0)
		return -1;
	data = resolve_delta(p, offset, &type, &size, f);
	if (!data)
		return -1;
	open_memory_stream(st, data, type, size);
	st->owned = data;
	return 0;
}

static int stream_in_pack(struct packed_git *p, uint32_t n, void *data,
			  struct fault *f)
{
	return open_pack_entry(data, p, n, f);
}

int open_packed_stream(struct object_stream *st, const unsigned char *sha1,
		       struct fault *f)
{
	return in_packs(sha1, stream_in_pack, st, f);
}

void release_packed_ref(struct packed_ref *r)
{
	free(r->owned);
	release_cached_base(r->ref);
	memset(r, 0, sizeof(*r));
}

/* Whole entries and big objects: read as a stream would read them. */
static int read_ref_whole(struct packed_git *p, uint32_t n,
			  struct packed_ref *r, struct fault *f)
{
	struct object_stream st;

	if (open_pack_entry(&st, p, n, f) < 0)
		return -1;
	r->owned = read_object_stream_whole(&st, f);
	r->buf = r->owned;
	r->type = st.type;
	r->size = st.size;
	close_object_stream(&st);
	return r->buf ? 0 : -1;
}

struct ref_want {
	struct packed_ref *r;
	struct delta_copies *dc;	/* NULL: not wanted */
};

static int ref_in_pack(struct packed_git *p, uint32_t n, void *data,
		       struct fault *f)
{
	struct ref_want *want = data;
	struct packed_ref *r = want->r;
	struct delta_copies *dc = want->dc;
	uint64_t offset = nth_packed_offset(p, n);
	struct chain_base b = { NULL, NULL, NULL, 0 };
	struct pack_entry_info e;
	struct pack_window *w;
	size_t len;
	const unsigned char *buf = use_pack_entry(p, offset, &len, NULL, &w,
						  f);
	int hdr;

	memset(r, 0, sizeof(*r));
	if (!buf)
		return -1;
	hdr = parse_pack_entry(buf, len, offset, &e, f);
	unuse_pack(w);
	if (hdr < 0)
		return -1;
	if (dc) {
		dc->pack = p;
		dc->offset = offset;
		dc->base = 0;
		dc->nr = 0;
	}
	if (e.type <= OBJ_TAG)
		return read_ref_whole(p, n, r, f);
	if (resolve_chain(p, offset, &r->type, &r->size, &b, dc, f) < 0)
		return -1;
	/* the result goes to the cache, and is read from there */
	give_cached_base(p, offset, r->type, b.owned, r->size);
	r->buf = ref_cached_base(p, offset, &r->type, &r->size, &r->ref);
	if (r->buf)
		return 0;
	return read_ref_whole(p, n, r, f);	/* too big to be kept */
}

int read_packed_ref(const unsigned char *sha1, struct packed_ref *r,
		    struct fault *f)
{
	struct ref_want want = { r, NULL };

	memset(r, 0, sizeof(*r));
	return in_packs(sha1, ref_in_pack, &want, f);
}

int read_packed_copies(const unsigned char *sha1, struct packed_ref *r,
		       struct delta_copies *dc, struct fault *f)
{
	struct ref_want want = { r, dc };

	memset(r, 0, sizeof(*r));
	dc->pack = NULL;
	dc->base = 0;
	dc->nr = 0;
	return in_packs(sha1, ref_in_pack, &want, f);
}

int pack_entry_info(struct packed_git *p, uint32_t n,
		    struct pack_entry_info *e, struct fault *f)
{
	uint64_t offset = nth_packed_offset(p, n);
	struct pack_window *w;
	size_t len;
	const unsigned char *buf = use_pack_entry(p, offset, &len, NULL, &w,
						  f);
	int hdr;

	if (!buf)
		return -1;
	hdr = parse_pack_entry(buf, len, offset, e, f);
	unuse_pack(w);
	if (hdr < 0)
		return -1;
	if (e->type == OBJ_REF_DELTA) {
		int64_t pos = find_pack_pos(p, e->base_sha1);

		e->base_offset = pos < 0 ? 0 : nth_packed_offset(p, pos);
	}
	return 0;
}

int check_pack_crc(struct packed_git *p, uint32_t n, struct fault *f)
{
	uint64_t offset = nth_packed_offset(p, n);
	struct pack_window *w;
	size_t len;
	const unsigned char *buf;
	uLong crc = crc32(0, NULL, 0);

	if (p->idx_version < 2)
		return 0;
	/* The CRC covers the entry exactly: the table of offsets is needed. */
	if (!pack_order(p, f))
		return -1;
	buf = use_pack_entry(p, offset, &len, NULL, &w, f);
	if (!buf)
		return -1;
	/* in pieces, a big entry's pages given back after each */
	while (len) {
		uInt piece = len > (8 << 20) ? 8 << 20 : len;

		crc = crc32(crc, buf, piece);
		buf += piece;
		len -= piece;
		if (len)
			trim_window_pack(w);
	}
	unuse_pack(w);
	if (crc != nth_packed_crc(p, n))
		return set_fault(f, FAULT_CORRUPT, "index CRC mismatch for "
				 "object %s from %s at offset %llu",
				 sha1_to_hex(nth_packed_sha1(p, n)),
				 p->pack_name, (unsigned long long)offset);
	return 0;
}
