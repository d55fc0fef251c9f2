/*
 * deflate-block.c: the blocks of a DEFLATE stream (RFC 1951) from the
 * symbols deflate.c gathers: for each block a Huffman code built for
 * its symbols (lengths by Moffat and Katajainen's in-place method,
 * limited to 15 bits), the fixed code, or the bytes stored, whichever
 * takes fewest bits.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "cache.h"
#include "rfc1951.h"
#include "deflate.h"

#define FIXED_LITLEN_SYMS 288	/* 286 and 287 have codes, never used */
#define CODELEN_SYMS 19
#define MAX_BITS 15
#define MAX_CODELEN_BITS 7
#define END_OF_BLOCK 256
#define STORED_MAX 65535

struct huffman {
	uint16_t code[FIXED_LITLEN_SYMS];	/* bit-reversed, as sent */
	uint8_t len[FIXED_LITLEN_SYMS];
};

/* ---- the code tables of RFC 1951, built once ---- */

uint8_t deflate_length_sym[MAX_MATCH + 1];
uint8_t deflate_dist_near[256];
uint8_t deflate_dist_far[256];
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
		for (i = deflate_length_base[code];
		     i < deflate_length_base[code] +
			 (1u << deflate_length_extra[code]) && i <= MAX_MATCH;
		     i++)
			deflate_length_sym[i] = code;
	deflate_length_sym[MAX_MATCH] = 28;	/* 258: a code of its own */
	for (code = 0; code < DIST_SYMS; code++)
		for (i = deflate_dist_base[code] - 1;
		     i < deflate_dist_base[code] - 1 +
			 (1u << deflate_dist_extra[code]); i++) {
			if (i < 256)
				deflate_dist_near[i] = code;
			else
				deflate_dist_far[i >> 7] = code;
		}
	for (i = 0; i < FIXED_LITLEN_SYMS; i++)
		fixed_litlen.len[i] = i < 144 ? 8 : i < 256 ? 9 :
				      i < 280 ? 7 : 8;
	assign_codes(&fixed_litlen, FIXED_LITLEN_SYMS);
	for (i = 0; i < DIST_SYMS; i++)
		fixed_dist.len[i] = 5;
	assign_codes(&fixed_dist, DIST_SYMS);
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

/* ---- blocks ---- */

static void put_stored(struct deflate_state *s, const unsigned char *data,
		       size_t start, size_t end, int last)
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
		memcpy(out + 4, data + start, n);
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
			unsigned int ls = deflate_length_sym[len];
			unsigned int ds = dist_sym(d);

			put_bits(&b, lit->code[257 + ls], lit->len[257 + ls]);
			put_bits(&b, len - deflate_length_base[ls],
				 deflate_length_extra[ls]);
			put_bits(&b, dist->code[ds], dist->len[ds]);
			put_bits(&b, d - deflate_dist_base[ds],
				 deflate_dist_extra[ds]);
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
		bits += (uint64_t)s->litlen_freq[257 + i] *
			deflate_length_extra[i];
	for (i = 0; i < DIST_SYMS; i++)
		bits += (uint64_t)s->dist_freq[i] * deflate_dist_extra[i];
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
	     c->ncodelen > 4 &&
	     !c->codelen.len[deflate_codelen_order[c->ncodelen - 1]];
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
		put_bits(b, c->codelen.len[deflate_codelen_order[i]], 3);
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

/* The smallest of the three ways (deflate.h). */
void put_block(struct deflate_state *s, const unsigned char *data,
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
		put_stored(s, data, start, end, last);
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

void deflate_tables_init(void)
{
	pthread_once(&tables_once, build_tables);
}
