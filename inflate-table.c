/*
 * inflate-table.c: the decoding tables of our inflate (inflate.c): each
 * code's entry from its length, the tables of a set of code lengths,
 * and a dynamic block's header, whose code lengths are themselves
 * Huffman coded.  RFC 1951 section 3.2.2 (canonical codes), 3.2.6-7
 * (the fixed code, a dynamic block's header).
 */
#include <stdint.h>
#include <string.h>

#include "cache.h"
#include "inflate.h"

const uint16_t deflate_length_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
};
const uint8_t deflate_length_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
};
const uint16_t deflate_dist_base[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
	8193, 12289, 16385, 24577
};
const uint8_t deflate_dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
};
/* The order in which the code length code's lengths are stored. */
const uint8_t deflate_codelen_order[19] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

/*
 * Each symbol's entry without its code's length (which build_table
 * adds, as len * 0x101, to the total and to the code's own length).
 */
static uint32_t litlen_entry[LITLEN_SYMS], dist_entry[DIST_SYMS],
		codes_entry[19];

static void make_entries(void)
{
	unsigned int sym;

	for (sym = 0; sym < 256; sym++)
		litlen_entry[sym] = F_LIT | sym << 16;
	litlen_entry[256] = F_EXC | F_END;
	for (sym = 257; sym < 286; sym++)
		litlen_entry[sym] = (uint32_t)deflate_length_base[sym - 257]
				    << 16 | deflate_length_extra[sym - 257];
	litlen_entry[286] = litlen_entry[287] = F_EXC;
	for (sym = 0; sym < 30; sym++)
		dist_entry[sym] = (uint32_t)deflate_dist_base[sym] << 16 |
				  deflate_dist_extra[sym];
	dist_entry[30] = dist_entry[31] = F_EXC;
	for (sym = 0; sym < 16; sym++)
		codes_entry[sym] = F_LIT | sym << 16;
	codes_entry[16] = F_PREV | 3 << 16 | 2;
	codes_entry[17] = 3 << 16 | 3;
	codes_entry[18] = 11 << 16 | 7;
}

/* The next code of len bits after code, both bit-reversed. */
static inline unsigned int next_code(unsigned int code, unsigned int len)
{
	unsigned int bit = 1u << (31 - __builtin_clz(code ^ ((1u << len) - 1)));

	return (code & (bit - 1)) | bit;
}

/* Fill entries i, i + step, ... below end with e. */
static void fill(uint32_t *table, unsigned int i, unsigned int step,
		 unsigned int end, uint32_t e)
{
	for (; i < end; i += step)
		table[i] = e;
}

/*
 * The lengths of n symbols, counted and checked: 0 and the longest in
 * *max, -1 for lengths zlib refuses: over-subscribed, or incomplete
 * unless they are one code of one bit (of literals/lengths or
 * distances, single set).  No lengths at all are taken.
 */
static int count_lengths(const uint8_t *lens, unsigned int n, int single,
			 unsigned int *count, unsigned int *max,
			 int *incomplete)
{
	unsigned int sym, len;
	int left = 1;

	for (sym = 0; sym < n; sym++)
		count[lens[sym]]++;
	*max = 0;
	for (len = 1; len <= MAX_CODE_BITS; len++) {
		left = left * 2 - (int)count[len];
		if (left < 0)
			return -1;
		if (count[len])
			*max = len;
	}
	*incomplete = !*max || left > 0;
	if (*max && left > 0 && (!single || *max != 1))
		return -1;
	return 0;
}

/*
 * Build the decoding table of n code lengths, the first level indexed
 * by root bits (room entries in all), the entries of the symbols from
 * entries.  Returns 0, or -1 for lengths zlib refuses (count_lengths).
 * No lengths at all give a table on which every lookup fails, as
 * zlib's does.
 *
 * The first level is built a length at a time: the codes of length
 * len in the first 2^len entries, which are then copied above
 * themselves for the next length, so a short code is in every entry
 * its bits begin.  Codes longer than root bits go to second-level
 * tables, one for each first root bits they share, each as big as the
 * longest code needs.  Canonical codes in order of length and value
 * have their first bits in order too, so the codes sharing them come
 * one after another.
 */
static int build_table(uint32_t *table, size_t room, const uint32_t *entries,
		       const uint8_t *lens, unsigned int n, unsigned int root,
		       int single)
{
	unsigned int count[MAX_CODE_BITS + 1] = { 0 };
	unsigned int offs[MAX_CODE_BITS + 2];
	uint16_t sorted[LITLEN_SYMS];
	unsigned int sym, len, max, code = 0, i = 0, end;
	unsigned int cur = ~0u, sub_bits, last;
	size_t used = (size_t)1 << root, sub_at = 0;
	int incomplete;

	if (count_lengths(lens, n, single, count, &max, &incomplete) < 0)
		return -1;
	offs[1] = 0;
	for (len = 1; len <= MAX_CODE_BITS; len++)
		offs[len + 1] = offs[len] + count[len];
	for (sym = 0; sym < n; sym++)
		if (lens[sym])
			sorted[offs[lens[sym]]++] = sym;
	last = offs[MAX_CODE_BITS + 1];	/* how many codes */

	if (incomplete) {
		/* nothing, or one code of one bit: the rest is bad */
		fill(table, 0, 1, 1u << root, F_EXC + 0x101);
		if (last)
			fill(table, 0, 2, 1u << root,
			     entries[sorted[0]] + 0x101);
		return 0;
	}
	for (len = 1, end = 2; len <= root; len++, end <<= 1) {
		unsigned int k;

		for (k = 0; k < count[len]; k++, i++) {
			table[code] = entries[sorted[i]] + len * 0x101;
			if (i + 1 < last)
				code = next_code(code, len);
		}
		if (len < root)
			memcpy(table + end, table, end * sizeof(*table));
	}
	sub_bits = max > root ? max - root : 0;
	for (; len <= max; len++) {
		unsigned int k;

		for (k = 0; k < count[len]; k++, i++) {
			unsigned int low = code & ((1u << root) - 1);

			if (low != cur) {
				if (used + ((size_t)1 << sub_bits) > room)
					return -1;
				cur = low;
				sub_at = used;
				used += (size_t)1 << sub_bits;
				table[low] = F_EXC | F_SUB | root |
					     sub_bits << 8 | sub_at << 16;
			}
			fill(table + sub_at, code >> root, 1u << (len - root),
			     1u << sub_bits,
			     entries[sorted[i]] + (len - root) * 0x101);
			if (i + 1 < last)
				code = next_code(code, len);
		}
	}
	return 0;
}

/*
 * One code length (or a run of them) into lens at *i, n in all: at
 * most 7 + 7 bits, which the caller has.
 */
static inline __attribute__((always_inline))
int read_length(struct bits *b, const uint32_t *codes, uint8_t *lens,
		unsigned int *i, unsigned int n)
{
	unsigned int v;
	uint8_t fill_with = 0;
	uint32_t e = decode(b, codes, CODES_ROOT, &v);

	if (e & F_LIT) {
		lens[(*i)++] = v;
		return 0;
	}
	if (e & F_EXC)
		return INFLATE_CORRUPT;
	if (e & F_PREV) {
		if (!*i)
			return INFLATE_CORRUPT;
		fill_with = lens[*i - 1];
	}
	if (v > n - *i)
		return INFLATE_CORRUPT;
	memset(lens + *i, fill_with, v);
	*i += v;
	return 0;
}

/*
 * The code lengths of a dynamic block, and its tables from them.  Four
 * lengths a refill while the bits are all the input's; one a refill,
 * checked, near its end.
 */
int inflate_dynamic_tables(struct bits *b, struct tables *t)
{
	uint32_t codes[1 << CODES_ROOT];
	uint8_t code_lens[19] = { 0 };
	uint8_t lens[286 + 30];
	unsigned int nlen, ndist, ncodes, i, n;
	int ret;

	refill(b);
	nlen = take(b, 5) + 257;
	ndist = take(b, 5) + 1;
	ncodes = take(b, 4) + 4;
	if (nlen > 286 || ndist > 30)
		return INFLATE_CORRUPT;
	for (i = 0; i < ncodes; i++) {
		refill(b);
		code_lens[deflate_codelen_order[i]] = take(b, 3);
	}
	if (build_table(codes, 1 << CODES_ROOT, codes_entry, code_lens, 19,
			CODES_ROOT, 0) < 0)
		return INFLATE_CORRUPT;
	n = nlen + ndist;
	for (i = 0; i < n;) {
		refill(b);
		if (read_past_end(b))
			return INFLATE_TRUNCATED;
		if ((ret = read_length(b, codes, lens, &i, n)))
			return ret;
		if (b->end - b->p < 8)
			continue;
		/* the refill took 8 bytes of input: 56 bits, 4 lengths */
		if ((i < n && (ret = read_length(b, codes, lens, &i, n))) ||
		    (i < n && (ret = read_length(b, codes, lens, &i, n))) ||
		    (i < n && (ret = read_length(b, codes, lens, &i, n))))
			return ret;
	}
	if (read_past_end(b))
		return INFLATE_TRUNCATED;
	if (!lens[256] ||
	    build_table(t->litlen, LITLEN_ENTRIES, litlen_entry, lens, nlen,
			LITLEN_ROOT, 1) < 0 ||
	    build_table(t->dist, DIST_ENTRIES, dist_entry, lens + nlen, ndist,
			DIST_ROOT, 1) < 0)
		return INFLATE_CORRUPT;
	return 0;
}

void inflate_fixed_tables(struct tables *fixed)
{
	uint8_t lens[LITLEN_SYMS];

	make_entries();
	memset(lens, 8, 144);
	memset(lens + 144, 9, 112);
	memset(lens + 256, 7, 24);
	memset(lens + 280, 8, 8);
	build_table(fixed->litlen, LITLEN_ENTRIES, litlen_entry, lens,
		    LITLEN_SYMS, LITLEN_ROOT, 1);
	memset(lens, 5, DIST_SYMS);
	build_table(fixed->dist, DIST_ENTRIES, dist_entry, lens, DIST_SYMS,
		    DIST_ROOT, 1);
}
