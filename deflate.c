/*
 * deflate.c: an object deflated whole, in memory, into one zlib stream.
 *
 * Adding a tree is bound by deflate: zlib's level 1 runs at 115-160
 * MB/s a core here, against 1.4 GB/s for SHA-1 and a page cache that
 * gives every file of a kernel in about a second.  An object is in
 * memory whole before it is stored, so this compressor needs none of
 * zlib's streaming: a greedy LZ77 over the whole buffer with a
 * one-entry hash table of 4-byte sequences (positions kept from one
 * object to the next and told apart by an offset, so the table is not
 * cleared for each object), matches extended 8 bytes at a time, and
 * for each block of symbols the smallest of a Huffman code built for
 * it, the fixed code, or the bytes stored.
 *
 * The result is a valid zlib stream (RFC 1950, 1951) that any inflater
 * reads (fuzz/fuzz-deflate inflates each one with zlib and compares);
 * it is not the same bytes zlib's level 1 would write, and a little
 * bigger (a few percent on source code).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cache.h"

#define WINDOW_SIZE 32768
#define MIN_MATCH 4		/* what the table finds; deflate allows 3 */
#define MAX_MATCH 258
#define HASH_BITS 15
#define BLOCK_ITEMS 16384	/* symbols of one block */
#define LITLEN_SYMS 286
#define FIXED_LITLEN_SYMS 288	/* 286 and 287 have codes, never used */
#define DIST_SYMS 30
#define CODELEN_SYMS 19
#define MAX_BITS 15
#define MAX_CODELEN_BITS 7
#define END_OF_BLOCK 256
#define STORED_MAX 65535

/* One symbol of a block: a byte (< 256), or length << 16 | distance. */
#define MATCH_ITEM(len, dist) ((uint32_t)(len) << 16 | (dist))

struct huffman {
	uint16_t code[FIXED_LITLEN_SYMS];	/* bit-reversed, as sent */
	uint8_t len[FIXED_LITLEN_SYMS];
};

/* Bits go out least significant first; fewer than 8 wait in bits. */
struct bit_out {
	unsigned char *out;
	uint64_t bits;
	unsigned int nr_bits;
};

struct deflate_state {
	uint32_t head[1 << HASH_BITS];	/* position + base, or stale */
	uint32_t base;
	uint32_t items[BLOCK_ITEMS];
	unsigned int nr_items;
	uint32_t litlen_freq[LITLEN_SYMS];
	uint32_t dist_freq[DIST_SYMS];
	struct bit_out bo;	/* the stream being written */
	unsigned char *out_buf;
	size_t out_alloc;
};

/* ---- the code tables of RFC 1951, built once ---- */

static const uint16_t length_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
};
static const uint8_t length_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
};
static const uint16_t dist_base[DIST_SYMS] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
	16385, 24577
};
static const uint8_t dist_extra[DIST_SYMS] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
};
/* The order the code-length code's lengths are sent in. */
static const uint8_t codelen_order[CODELEN_SYMS] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

static uint8_t length_sym[MAX_MATCH + 1];	/* minus 257 */
static uint8_t dist_sym_near[256];	/* by distance - 1 */
static uint8_t dist_sym_far[256];	/* by (distance - 1) >> 7 */
static struct huffman fixed_litlen, fixed_dist;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static uint8_t reversed_byte[256];

static unsigned int reverse_bits(unsigned int code, unsigned int len)
{
	unsigned int r = reversed_byte[code & 0xff] << 8 |
			 reversed_byte[code >> 8 & 0xff];

	return r >> (16 - len);
}

/* Canonical codes (RFC 1951 3.2.2) for the lengths in h->len. */
static void assign_codes(struct huffman *h, unsigned int nsyms)
{
	unsigned int count[MAX_BITS + 1] = { 0 }, next[MAX_BITS + 1];
	unsigned int len, sym, code = 0;

	for (sym = 0; sym < nsyms; sym++)
		count[h->len[sym]]++;
	count[0] = 0;
	for (len = 1; len <= MAX_BITS; len++) {
		code = (code + count[len - 1]) << 1;
		next[len] = code;
	}
	for (sym = 0; sym < nsyms; sym++)
		if (h->len[sym])
			h->code[sym] = reverse_bits(next[h->len[sym]]++,
						    h->len[sym]);
}

static void build_tables(void)
{
	unsigned int code, i, bit;

	for (i = 0; i < 256; i++)
		for (bit = 0; bit < 8; bit++)
			if (i & 1u << bit)
				reversed_byte[i] |= 0x80 >> bit;

	for (code = 0; code < 29; code++)
		for (i = length_base[code];
		     i < length_base[code] + (1u << length_extra[code]) &&
		     i <= MAX_MATCH; i++)
			length_sym[i] = code;
	length_sym[MAX_MATCH] = 28;	/* 258 has a code of its own */
	for (code = 0; code < DIST_SYMS; code++)
		for (i = dist_base[code] - 1;
		     i < dist_base[code] - 1 + (1u << dist_extra[code]); i++) {
			if (i < 256)
				dist_sym_near[i] = code;
			else
				dist_sym_far[i >> 7] = code;
		}
	for (i = 0; i < FIXED_LITLEN_SYMS; i++)
		fixed_litlen.len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	assign_codes(&fixed_litlen, FIXED_LITLEN_SYMS);
	for (i = 0; i < DIST_SYMS; i++)
		fixed_dist.len[i] = 5;
	assign_codes(&fixed_dist, DIST_SYMS);
}

static unsigned int dist_sym(unsigned int dist)
{
	return dist <= 256 ? dist_sym_near[dist - 1] :
			     dist_sym_far[(dist - 1) >> 7];
}

/* ---- Huffman code lengths ---- */

/*
 * Keys freq << 9 | symbol, made in symbol order, sorted by frequency
 * (under 2^23: a block has at most BLOCK_ITEMS symbols): a radix sort
 * a byte of the frequency at a time, one pass when all are under 256,
 * stable, so equal frequencies stay in symbol order.
 */
static void sort_keys(uint32_t *key, unsigned int n, uint32_t max_freq)
{
	uint32_t tmp[LITLEN_SYMS], *from = key, *to = tmp;
	unsigned int shift, i;

	for (shift = 9; shift < 25; shift += 8) {
		unsigned int count[256] = { 0 }, sum = 0, c;

		for (i = 0; i < n; i++)
			count[from[i] >> shift & 0xff]++;
		for (i = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[from[i] >> shift & 0xff]++] = from[i];
		from = to;
		to = from == key ? tmp : key;
		if (max_freq < 256)
			break;
	}
	if (from != key)
		memcpy(key, from, n * sizeof(*key));
}

/*
 * Depths of an optimal prefix code for n >= 2 weights in ascending
 * order, computed in place (Moffat and Katajainen, "In-place
 * calculation of minimum-redundancy codes", 1995): a[i] becomes the
 * depth of the i-th weight.
 */
static void huffman_depths(uint32_t *a, int n)
{
	int root = 0, leaf = 2, next, avail, used, depth;

	a[0] += a[1];
	for (next = 1; next < n - 1; next++) {
		if (leaf >= n || a[root] < a[leaf]) {
			a[next] = a[root];
			a[root++] = next;
		} else {
			a[next] = a[leaf++];
		}
		if (leaf >= n || (root < next && a[root] < a[leaf])) {
			a[next] += a[root];
			a[root++] = next;
		} else {
			a[next] += a[leaf++];
		}
	}
	a[n - 2] = 0;
	for (next = n - 3; next >= 0; next--)
		a[next] = a[a[next]] + 1;
	avail = 1;
	used = depth = 0;
	root = n - 2;
	next = n - 1;
	while (avail > 0) {
		while (root >= 0 && (int)a[root] == depth) {
			used++;
			root--;
		}
		while (avail > used) {
			a[next--] = depth;
			avail--;
		}
		avail = 2 * used;
		depth++;
		used = 0;
	}
}

/*
 * Move leaves deeper than limit up to it, then lengthen the shortest
 * codes below it until the lengths fit a prefix code again (the sum of
 * 2^-len is 1 once more).
 */
static void limit_depths(unsigned int *count, unsigned int max_depth,
			 unsigned int limit)
{
	uint32_t total = 0;
	unsigned int len;

	for (len = limit + 1; len <= max_depth; len++) {
		count[limit] += count[len];
		count[len] = 0;
	}
	for (len = 1; len <= limit; len++)
		total += count[len] << (limit - len);
	while (total > (1u << limit) && count[limit]) {
		count[limit]--;
		for (len = limit - 1; len > 0; len--) {
			if (count[len]) {
				count[len]--;
				count[len + 1] += 2;
				break;
			}
		}
		total--;
	}
}

/*
 * Code lengths of at most limit bits for freq[0..nsyms), into h, and
 * their codes.  At least two symbols get a code, so that the code is
 * complete (a single code of one bit is legal, but not every inflater
 * of the past takes it).
 */
static void build_code(struct huffman *h, const uint32_t *freq,
		       unsigned int nsyms, unsigned int limit)
{
	uint32_t key[LITLEN_SYMS], depth[LITLEN_SYMS], max_freq = 0;
	unsigned int count[LITLEN_SYMS + 1] = { 0 };
	unsigned int n = 0, i, len, max_depth = 0;

	memset(h->len, 0, nsyms);
	for (i = 0; i < nsyms; i++) {
		if (freq[i]) {
			key[n++] = freq[i] << 9 | i;
			if (freq[i] > max_freq)
				max_freq = freq[i];
		}
	}
	for (i = 0; n < 2; i++)
		if (!freq[i])
			key[n++] = i;	/* weight 0: sorts first */
	sort_keys(key, n, max_freq);
	for (i = 0; i < n; i++)
		depth[i] = key[i] >> 9;
	huffman_depths(depth, n);
	for (i = 0; i < n; i++) {
		count[depth[i]]++;
		if (depth[i] > max_depth)
			max_depth = depth[i];
	}
	limit_depths(count, max_depth, limit);
	/* the longest codes to the rarest symbols */
	i = 0;
	for (len = limit; len > 0; len--)
		while (count[len]--)
			h->len[key[i++] & 511] = len;
	assign_codes(h, nsyms);
}

/* ---- bits out ---- */

static inline void put_bits(struct bit_out *b, uint64_t value,
			    unsigned int n)
{
	b->bits |= value << b->nr_bits;
	b->nr_bits += n;
}

/* Whole bytes out; fewer than 8 bits stay.  Needs 8 bytes of room. */
static inline void flush_bits(struct bit_out *b)
{
	uint64_t w = b->bits;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(b->out, &w, 8);
	b->out += b->nr_bits >> 3;
	b->bits >>= b->nr_bits & ~7u;
	b->nr_bits &= 7;
}

/* To the next byte boundary, the padding bits zero. */
static void align_bits(struct bit_out *b)
{
	flush_bits(b);
	if (b->nr_bits) {
		*b->out++ = b->bits;
		b->bits = 0;
		b->nr_bits = 0;
	}
}

/* ---- blocks ---- */

/* The input: the object header, then its data, as one byte sequence. */
struct deflate_input {
	const unsigned char *hdr, *data;
	size_t hdrlen, len;
};

static void copy_input(unsigned char *out, const struct deflate_input *in,
		       size_t pos, size_t n)
{
	if (pos < in->hdrlen) {
		size_t k = in->hdrlen - pos < n ? in->hdrlen - pos : n;

		memcpy(out, in->hdr + pos, k);
		out += k;
		pos += k;
		n -= k;
	}
	memcpy(out, in->data + (pos - in->hdrlen), n);
}

static void put_stored(struct deflate_state *s,
		       const struct deflate_input *in, size_t start,
		       size_t end, int last)
{
	do {
		size_t n = end - start < STORED_MAX ? end - start : STORED_MAX;

		unsigned char *out;

		put_bits(&s->bo, last && start + n == end, 3);
		align_bits(&s->bo);
		out = s->bo.out;
		out[0] = n & 0xff;
		out[1] = n >> 8;
		out[2] = ~n & 0xff;
		out[3] = (~n >> 8) & 0xff;
		copy_input(out + 4, in, start, n);
		s->bo.out += 4 + n;
		start += n;
	} while (start < end);
}

/* The block's symbols and its end, in the codes given. */
static void put_symbols(struct deflate_state *s, const struct huffman *lit,
			const struct huffman *dist)
{
	const uint32_t *item = s->items, *end = item + s->nr_items;
	struct bit_out b = s->bo;

	for (; item < end; item++) {
		uint32_t v = *item;

		if (v < 256) {
			put_bits(&b, lit->code[v], lit->len[v]);
		} else {
			unsigned int len = v >> 16, d = v & 0xffff;
			unsigned int ls = length_sym[len], ds = dist_sym(d);

			put_bits(&b, lit->code[257 + ls], lit->len[257 + ls]);
			put_bits(&b, len - length_base[ls], length_extra[ls]);
			put_bits(&b, dist->code[ds], dist->len[ds]);
			put_bits(&b, d - dist_base[ds], dist_extra[ds]);
		}
		flush_bits(&b);
	}
	put_bits(&b, lit->code[END_OF_BLOCK], lit->len[END_OF_BLOCK]);
	flush_bits(&b);
	s->bo = b;
}

/* Code lengths run-length coded with symbols 16, 17 and 18. */
struct codelen_runs {
	uint8_t sym[LITLEN_SYMS + DIST_SYMS];
	uint8_t extra[LITLEN_SYMS + DIST_SYMS];
	unsigned int nr;
	uint32_t freq[CODELEN_SYMS];
};

static void add_run(struct codelen_runs *r, unsigned int sym,
		    unsigned int extra)
{
	r->sym[r->nr] = sym;
	r->extra[r->nr++] = extra;
	r->freq[sym]++;
}

static void encode_lengths(struct codelen_runs *r, const uint8_t *lens,
			   unsigned int n)
{
	unsigned int i = 0;

	while (i < n) {
		unsigned int v = lens[i], run = 1, k;

		while (i + run < n && lens[i + run] == v)
			run++;
		i += run;
		if (!v) {
			for (; run >= 11; run -= k) {
				k = run < 138 ? run : 138;
				add_run(r, 18, k - 11);
			}
			if (run >= 3) {
				add_run(r, 17, run - 3);
				run = 0;
			}
		} else {
			add_run(r, v, 0);
			for (run--; run >= 3; run -= k) {
				k = run < 6 ? run : 6;
				add_run(r, 16, k - 3);
			}
		}
		while (run--)
			add_run(r, v, 0);
	}
}

static uint64_t symbol_bits(const struct huffman *h, const uint32_t *freq,
			    unsigned int nsyms)
{
	uint64_t bits = 0;
	unsigned int i;

	for (i = 0; i < nsyms; i++)
		bits += (uint64_t)freq[i] * h->len[i];
	return bits;
}

/* Bits of the length and distance extra fields, any code. */
static uint64_t extra_bits(const struct deflate_state *s)
{
	uint64_t bits = 0;
	unsigned int i;

	for (i = 0; i < 29; i++)
		bits += (uint64_t)s->litlen_freq[257 + i] * length_extra[i];
	for (i = 0; i < DIST_SYMS; i++)
		bits += (uint64_t)s->dist_freq[i] * dist_extra[i];
	return bits;
}

struct dynamic_code {
	struct huffman lit, dist, codelen;
	struct codelen_runs runs;
	unsigned int nlit, ndist, ncodelen;
};

/* The block's own code, and the bits its header and symbols take. */
static uint64_t build_dynamic(struct deflate_state *s, struct dynamic_code *c)
{
	uint8_t lens[LITLEN_SYMS + DIST_SYMS];
	static const uint8_t run_extra[3] = { 2, 3, 7 };
	uint64_t bits;
	unsigned int i;

	build_code(&c->lit, s->litlen_freq, LITLEN_SYMS, MAX_BITS);
	build_code(&c->dist, s->dist_freq, DIST_SYMS, MAX_BITS);
	for (c->nlit = LITLEN_SYMS; !c->lit.len[c->nlit - 1]; c->nlit--)
		;
	for (c->ndist = DIST_SYMS; !c->dist.len[c->ndist - 1]; c->ndist--)
		;
	memcpy(lens, c->lit.len, c->nlit);
	memcpy(lens + c->nlit, c->dist.len, c->ndist);
	memset(&c->runs, 0, sizeof(c->runs));
	encode_lengths(&c->runs, lens, c->nlit + c->ndist);
	build_code(&c->codelen, c->runs.freq, CODELEN_SYMS,
		   MAX_CODELEN_BITS);
	for (c->ncodelen = CODELEN_SYMS;
	     c->ncodelen > 4 && !c->codelen.len[codelen_order[c->ncodelen - 1]];
	     c->ncodelen--)
		;
	bits = 3 + 5 + 5 + 4 + 3 * c->ncodelen;
	bits += symbol_bits(&c->codelen, c->runs.freq, CODELEN_SYMS);
	for (i = 0; i < 3; i++)
		bits += (uint64_t)c->runs.freq[16 + i] * run_extra[i];
	bits += symbol_bits(&c->lit, s->litlen_freq, LITLEN_SYMS);
	return bits + symbol_bits(&c->dist, s->dist_freq, DIST_SYMS);
}

static void put_dynamic_header(struct deflate_state *s,
			       const struct dynamic_code *c, int last)
{
	static const uint8_t run_extra[3] = { 2, 3, 7 };
	unsigned int i;

	struct bit_out *b = &s->bo;

	put_bits(b, last | 2 << 1, 3);
	put_bits(b, c->nlit - 257, 5);
	put_bits(b, c->ndist - 1, 5);
	put_bits(b, c->ncodelen - 4, 4);
	flush_bits(b);
	for (i = 0; i < c->ncodelen; i++) {
		put_bits(b, c->codelen.len[codelen_order[i]], 3);
		flush_bits(b);
	}
	for (i = 0; i < c->runs.nr; i++) {
		unsigned int sym = c->runs.sym[i];

		put_bits(b, c->codelen.code[sym], c->codelen.len[sym]);
		if (sym >= 16)
			put_bits(b, c->runs.extra[i], run_extra[sym - 16]);
		flush_bits(b);
	}
}

/*
 * The block of the symbols gathered, covering input [start, end): with
 * its own code, the fixed one, or stored, whichever is smallest.
 */
static void put_block(struct deflate_state *s, const struct deflate_input *in,
		      size_t start, size_t end, int last)
{
	struct dynamic_code c;
	uint64_t dynamic, fixed, stored, extra;

	s->litlen_freq[END_OF_BLOCK]++;
	extra = extra_bits(s);
	dynamic = build_dynamic(s, &c) + extra;
	fixed = 3 + extra + symbol_bits(&fixed_litlen, s->litlen_freq,
					LITLEN_SYMS) +
		symbol_bits(&fixed_dist, s->dist_freq, DIST_SYMS);
	stored = ((end - start) + 5 * ((end - start) / STORED_MAX + 1)) * 8 + 7;
	if (stored < dynamic && stored < fixed) {
		put_stored(s, in, start, end, last);
	} else if (fixed <= dynamic) {
		put_bits(&s->bo, last | 1 << 1, 3);
		put_symbols(s, &fixed_litlen, &fixed_dist);
	} else {
		put_dynamic_header(s, &c, last);
		put_symbols(s, &c.lit, &c.dist);
	}
	s->nr_items = 0;
	memset(s->litlen_freq, 0, sizeof(s->litlen_freq));
	memset(s->dist_freq, 0, sizeof(s->dist_freq));
}

/* ---- matches ---- */

static uint32_t load_le32(const unsigned char *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap32(w);
#endif
	return w;
}

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

static uint32_t hash4(uint32_t seq)
{
	return (seq * 0x9e3779b1u) >> (32 - HASH_BITS);
}

/* How far a (at least MIN_MATCH bytes) equals b, up to max. */
static unsigned int match_length(const unsigned char *a,
				 const unsigned char *b, unsigned int max)
{
	unsigned int n = MIN_MATCH;

	while (n + 8 <= max) {
		uint64_t x = load_le64(a + n) ^ load_le64(b + n);

		if (x)
			return n + (__builtin_ctzll(x) >> 3);
		n += 8;
	}
	while (n < max && a[n] == b[n])
		n++;
	return n;
}

/*
 * Past this many bytes without a match, look at every other position,
 * then every third...: incompressible data goes through fast.
 */
#define SKIP_SHIFT 6
#define SKIP_MAX 64

/*
 * The data's symbols, putting out a block each time the items fill.
 * The state's counts are kept in locals: its arrays are uint32_t too,
 * and every store to one would make the compiler load them again.
 */
static void compress_data(struct deflate_state *s,
			  const struct deflate_input *in, size_t *block_start)
{
	const unsigned char *data = in->data;
	size_t len = in->len, i = 0, misses = 0;
	uint32_t base = s->base, *head = s->head, *items = s->items;
	uint32_t *lit_freq = s->litlen_freq, *dist_freq = s->dist_freq;
	unsigned int nr = s->nr_items;

	while (i + MIN_MATCH <= len) {
		uint32_t seq = load_le32(data + i);
		uint32_t *slot = &head[hash4(seq)];
		uint32_t dist = base + i - *slot;

		*slot = base + i;
		if (dist - 1 < WINDOW_SIZE && load_le32(data + i - dist) == seq) {
			unsigned int max = len - i < MAX_MATCH ? len - i :
								MAX_MATCH;
			unsigned int n = match_length(data + i, data + i - dist,
						      max);

			items[nr++] = MATCH_ITEM(n, dist);
			lit_freq[257 + length_sym[n]]++;
			dist_freq[dist_sym(dist)]++;
			/* the match's end, for the next repeat of it */
			if (i + n + 2 <= len)
				head[hash4(load_le32(data + i + n - 2))] =
					base + i + n - 2;
			i += n;
			misses = 0;
		} else {
			size_t step = 1 + (misses++ >> SKIP_SHIFT);

			if (step > SKIP_MAX)
				step = SKIP_MAX;
			for (; step && i < len; step--) {
				items[nr++] = data[i];
				lit_freq[data[i++]]++;
			}
		}
		if (nr > BLOCK_ITEMS - SKIP_MAX) {
			s->nr_items = nr;
			put_block(s, in, *block_start, in->hdrlen + i, 0);
			*block_start = in->hdrlen + i;
			nr = 0;
		}
	}
	for (; i < len; i++) {
		items[nr++] = data[i];
		lit_freq[data[i]]++;
	}
	s->nr_items = nr;
}

/* ---- the stream ---- */

size_t deflate_whole_bound(size_t len)
{
	/* stored blocks at worst, each block a few bytes of framing */
	return len + len / 1024 + 64;
}

static void compress_object(struct deflate_state *s,
			    const struct deflate_input *in)
{
	uint32_t adler = 1;
	size_t i, block_start = 0;

	/* adler32() of a NULL buffer is the initial value, whatever len */
	if (in->hdrlen)
		adler = adler32(adler, in->hdr, in->hdrlen);
	if (in->len)
		adler = adler32(adler, in->data, in->len);
	/* the positions of the last object are all out of the window */
	if (s->base > UINT32_MAX - in->len - 2 * WINDOW_SIZE) {
		memset(s->head, 0, sizeof(s->head));
		s->base = WINDOW_SIZE + 1;
	}
	s->bo.out = s->out_buf;
	s->bo.bits = 0;
	s->bo.nr_bits = 0;
	*s->bo.out++ = 0x78;	/* deflate, 32 KiB window */
	*s->bo.out++ = 0x01;	/* fastest, no dictionary, check bits */
	for (i = 0; i < in->hdrlen; i++) {
		s->items[s->nr_items++] = in->hdr[i];
		s->litlen_freq[in->hdr[i]]++;
	}
	compress_data(s, in, &block_start);
	put_block(s, in, block_start, in->hdrlen + in->len, 1);
	align_bits(&s->bo);
	s->base += in->len + WINDOW_SIZE + 1;
	*s->bo.out++ = adler >> 24;
	*s->bo.out++ = adler >> 16;
	*s->bo.out++ = adler >> 8;
	*s->bo.out++ = adler;
}

/*
 * States kept for the next object, as stream.c keeps zlib's: a few
 * slots taken and given back with atomic exchanges.
 */
#define SPARE_STATES 8
static struct deflate_state *spare_states[SPARE_STATES];

static struct deflate_state *get_state(size_t len)
{
	struct deflate_state *s = NULL;
	size_t need = deflate_whole_bound(len) + 8;
	int i;

	pthread_once(&tables_once, build_tables);
	for (i = 0; i < SPARE_STATES && !s; i++)
		s = __atomic_exchange_n(&spare_states[i], NULL,
					__ATOMIC_ACQUIRE);
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->base = WINDOW_SIZE + 1;
	}
	if (s->out_alloc < need) {
		free(s->out_buf);
		s->out_alloc = need;
		s->out_buf = xmalloc(need);
	}
	return s;
}

static void put_state(struct deflate_state *s)
{
	int i;

	/* a buffer for a big object is not kept */
	if (s->out_alloc > 4 * WHOLE_INFLATE_MAX) {
		free(s->out_buf);
		s->out_buf = NULL;
		s->out_alloc = 0;
	}
	for (i = 0; i < SPARE_STATES; i++) {
		struct deflate_state *none = NULL;

		if (__atomic_compare_exchange_n(&spare_states[i], &none, s, 0,
						__ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
	}
	free(s->out_buf);
	free(s);
}

unsigned char *deflate_whole(const void *hdr, size_t hdrlen,
			     const void *data, size_t len, size_t *zlen)
{
	struct deflate_input in = { hdr, data, hdrlen, len };
	struct deflate_state *s = get_state(hdrlen + len);
	unsigned char *out;

	compress_object(s, &in);
	*zlen = s->bo.out - s->out_buf;
	out = xmalloc(*zlen);
	memcpy(out, s->out_buf, *zlen);
	put_state(s);
	return out;
}

int write_deflated(int fd, const void *hdr, size_t hdrlen, const void *data,
		   size_t len)
{
	struct deflate_input in = { hdr, data, hdrlen, len };
	struct deflate_state *s = get_state(hdrlen + len);
	int ret;

	compress_object(s, &in);
	ret = write_in_full(fd, s->out_buf, s->bo.out - s->out_buf);
	put_state(s);
	return ret < 0 ? -1 : 0;
}
