/*
 * diff-delta.c: make a delta in git's format (see patch-delta.c for
 * the format and its reader) that turns a base into a target.
 *
 * The base is cut into blocks of BLOCK bytes and each block is filed
 * in a hash table under a rolling hash of its bytes.  The target is
 * scanned with the same rolling hash over a window of BLOCK bytes: at
 * each position the bases blocks filed under the window's hash are
 * tried, each match is grown forward as far as the bytes agree and
 * backward into the bytes not yet written, and the longest one
 * becomes a copy; without one, the byte goes into an insert.  Greedy
 * and one pass: not the smallest delta, but near it for the usual
 * case (a file edited in places), and linear on the rest.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

#define BLOCK 16		/* bytes of base per index entry */
#define MAX_TRIES 64		/* blocks tried per target position */
#define GOOD_ENOUGH 4096	/* a match this long ends the tries */
#define MAX_COPY 0x10000	/* bytes one copy instruction takes */
#define MAX_INSERT 127		/* bytes one insert instruction takes */
#define ROLL_MUL 0x01000193U	/* the rolling hash's multiplier */

/*
 * The base's blocks by hash: a chain of block numbers per bucket.
 * Made once per base and read only after: pack-objects tries one base
 * against many targets, from many threads.
 */
struct delta_index {
	const unsigned char *base;
	size_t size;
	uint32_t *head;		/* per bucket: block number + 1, or 0 */
	uint32_t *next;		/* per block: the next one in its chain */
	uint32_t *val;		/* per block: its whole hash */
	uint64_t *bits;		/* a bit per 1/8 bucket: some block is there */
	uint32_t bits_mask;
	uint32_t mask;
};

/* The delta being written, refused past max bytes. */
struct delta_out {
	unsigned char *buf;
	size_t len, alloc, max;
	int too_big;
};

/* ROLL_MUL to the power BLOCK - 1: what the oldest byte was worth. */
static uint32_t roll_out_factor(void)
{
	uint32_t f = 1;
	int i;

	for (i = 0; i < BLOCK - 1; i++)
		f *= ROLL_MUL;
	return f;
}

static uint32_t window_hash(const unsigned char *p)
{
	uint32_t h = 0;
	int i;

	for (i = 0; i < BLOCK; i++)
		h = h * ROLL_MUL + p[i];
	return h;
}

/* The bucket of a hash: its well-mixed high bits, masked. */
static uint32_t bucket_of(const struct delta_index *ix, uint32_t h)
{
	return (uint32_t)((h * 0x9e3779b97f4a7c15ULL) >> 32) & ix->mask;
}

/*
 * The same bits, more of them: most target positions match no block,
 * and a bitmap eight times the buckets (an eighth of their bytes,
 * in the first level of cache) tells so without reading the buckets.
 */
static uint32_t bit_of(const struct delta_index *ix, uint32_t h)
{
	return (uint32_t)((h * 0x9e3779b97f4a7c15ULL) >> 32) & ix->bits_mask;
}

static int may_match(const struct delta_index *ix, uint32_t h)
{
	uint32_t bit = bit_of(ix, h);

	return (ix->bits[bit >> 6] >> (bit & 63)) & 1;
}

/*
 * File every whole block of the base, the last ones first so that
 * each chain tries the earliest block first.
 */
static void index_base(struct delta_index *ix, const void *base,
		       size_t size)
{
	size_t blocks = size / BLOCK, buckets = 16, b;

	while (buckets < blocks)
		buckets *= 2;
	ix->base = base;
	ix->size = size;
	ix->head = xcalloc(buckets, sizeof(*ix->head));
	ix->next = xmalloc((blocks ? blocks : 1) * sizeof(*ix->next));
	ix->val = xmalloc((blocks ? blocks : 1) * sizeof(*ix->val));
	ix->mask = buckets - 1;
	ix->bits_mask = 8 * buckets - 1;
	ix->bits = xcalloc(buckets / 8, sizeof(*ix->bits));
	for (b = blocks; b-- > 0;) {
		uint32_t h = window_hash(ix->base + b * BLOCK);
		uint32_t k = bucket_of(ix, h), bit = bit_of(ix, h);

		ix->bits[bit >> 6] |= (uint64_t)1 << (bit & 63);
		ix->val[b] = h;
		ix->next[b] = ix->head[k];
		ix->head[k] = b + 1;
	}
}

static void release_index(struct delta_index *ix)
{
	free(ix->head);
	free(ix->next);
	free(ix->val);
	free(ix->bits);
}

static void put_bytes(struct delta_out *d, const void *p, size_t n)
{
	if (d->too_big)
		return;
	if (d->max && d->len + n > d->max) {
		d->too_big = 1;
		return;
	}
	ALLOC_GROW(d->buf, d->len + n, d->alloc);
	memcpy(d->buf + d->len, p, n);
	d->len += n;
}

/* A size as the header writes it: 7 bits a byte, low bits first. */
static void put_size(struct delta_out *d, size_t size)
{
	unsigned char c;

	do {
		c = size & 0x7f;
		size >>= 7;
		if (size)
			c |= 0x80;
		put_bytes(d, &c, 1);
	} while (size);
}

/* Literal bytes, in instructions of at most MAX_INSERT. */
static void put_insert(struct delta_out *d, const unsigned char *p,
		       size_t n)
{
	while (n) {
		unsigned char len = n > MAX_INSERT ? MAX_INSERT : n;

		put_bytes(d, &len, 1);
		put_bytes(d, p, len);
		p += len;
		n -= len;
	}
}

/*
 * A copy of base bytes [off, off + n), in instructions of at most
 * MAX_COPY: an opcode saying which offset and size bytes follow (zero
 * bytes are left out; a size of MAX_COPY is written as no size).
 */
static void put_copy(struct delta_out *d, size_t off, size_t n)
{
	while (n) {
		size_t len = n > MAX_COPY ? MAX_COPY : n;
		unsigned char op[8];
		int i, k = 1;

		op[0] = 0x80;
		for (i = 0; i < 4; i++)
			if ((off >> (8 * i)) & 0xff) {
				op[0] |= 1 << i;
				op[k++] = (off >> (8 * i)) & 0xff;
			}
		for (i = 0; i < 3 && len != MAX_COPY; i++)
			if ((len >> (8 * i)) & 0xff) {
				op[0] |= 0x10 << i;
				op[k++] = (len >> (8 * i)) & 0xff;
			}
		put_bytes(d, op, k);
		off += len;
		n -= len;
	}
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* How many bytes a and b have in common from the start, up to max. */
static size_t common_length(const unsigned char *a, const unsigned char *b,
			    size_t max)
{
	size_t n = 0;

	/* Eight bytes at a time: the first that differs is the lowest. */
	while (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && n + 8 <= max) {
		uint64_t x, y;

		memcpy(&x, a + n, 8);
		memcpy(&y, b + n, 8);
		if (x != y)
			return n + (__builtin_ctzll(x ^ y) >> 3);
		n += 8;
	}
	while (n < max && a[n] == b[n])
		n++;
	return n;
}

struct match {
	size_t off;		/* where in the base */
	size_t back;		/* bytes it reaches before the position */
	size_t len;		/* bytes from there on, back included */
};

/*
 * The longest match of the target at pos among the blocks filed
 * under hash h; it may reach back into the pending bytes (at most
 * `pending` before pos).  0 when none holds a whole block.
 */
static size_t find_match(const struct delta_index *ix, uint32_t h,
			 const unsigned char *t, size_t t_size, size_t pos,
			 size_t pending, struct match *best)
{
	uint32_t b = ix->head[bucket_of(ix, h)];
	int tries;

	best->len = 0;
	for (tries = 0; b && tries < MAX_TRIES; b = ix->next[b - 1], tries++) {
		size_t off = (size_t)(b - 1) * BLOCK, back = 0, n;

		if (ix->val[b - 1] != h)
			continue;
		n = common_length(ix->base + off, t + pos,
				  min_size(ix->size - off, t_size - pos));
		if (n < BLOCK)
			continue;
		while (back < pending && back < off &&
		       ix->base[off - back - 1] == t[pos - back - 1])
			back++;
		if (n + back > best->len) {
			best->off = off - back;
			best->back = back;
			best->len = n + back;
		}
		if (best->len >= GOOD_ENOUGH)
			break;
	}
	return best->len;
}

/* Scan the target, writing copies and inserts. */
static void encode(struct delta_out *d, const struct delta_index *ix,
		   const unsigned char *t, size_t t_size)
{
	uint32_t out_factor = roll_out_factor(), h = 0;
	size_t pos = 0, start = 0;	/* bytes [start, pos) wait */
	struct match m;

	if (t_size >= BLOCK)
		h = window_hash(t);
	while (pos + BLOCK <= t_size && !d->too_big) {
		if (may_match(ix, h) &&
		    find_match(ix, h, t, t_size, pos, pos - start, &m)) {
			put_insert(d, t + start, pos - m.back - start);
			put_copy(d, m.off, m.len);
			pos += m.len - m.back;
			start = pos;
			if (pos + BLOCK <= t_size)
				h = window_hash(t + pos);
			continue;
		}
		if (pos + BLOCK < t_size)
			h = (h - t[pos] * out_factor) * ROLL_MUL +
				t[pos + BLOCK];
		pos++;
		/* As git does: pending bytes count as written already. */
		if (d->max && d->len + (pos - start) > d->max)
			d->too_big = 1;
	}
	put_insert(d, t + start, t_size - start);
}

struct delta_index *create_delta_index(const void *base, size_t size)
{
	struct delta_index *ix;

	if (size > 0xffffffffUL)
		return NULL;	/* copy offsets have 32 bits */
	ix = xmalloc(sizeof(*ix));
	index_base(ix, base, size);
	return ix;
}

size_t sizeof_delta_index(const struct delta_index *ix)
{
	size_t blocks = ix->size / BLOCK;

	return sizeof(*ix) + (ix->mask + 1) * sizeof(*ix->head) +
		(blocks ? blocks : 1) * 2 * sizeof(*ix->next) +
		(ix->mask + 1) / 8 * sizeof(*ix->bits);
}

void free_delta_index(struct delta_index *ix)
{
	if (!ix)
		return;
	release_index(ix);
	free(ix);
}

void *create_delta_from_index(const struct delta_index *ix,
			      const void *target, size_t target_size,
			      size_t max_size, size_t *delta_size)
{
	struct delta_out d = { NULL, 0, 0, max_size, 0 };

	*delta_size = 0;
	put_size(&d, ix->size);
	put_size(&d, target_size);
	encode(&d, ix, target, target_size);
	if (d.too_big) {
		free(d.buf);
		return NULL;
	}
	*delta_size = d.len;
	return d.buf;
}

void *create_delta(const void *base, size_t base_size, const void *target,
		   size_t target_size, size_t max_size, size_t *delta_size)
{
	struct delta_index *ix = create_delta_index(base, base_size);
	void *delta;

	*delta_size = 0;
	if (!ix)
		return NULL;
	delta = create_delta_from_index(ix, target, target_size, max_size,
					delta_size);
	free_delta_index(ix);
	return delta;
}
