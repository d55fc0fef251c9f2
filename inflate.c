/*
 * inflate.c: a zlib stream inflated whole, in memory, to a size known
 * before it starts (a pack entry's header gives it).
 *
 * zlib's inflate() is written for streams that come in pieces: it keeps
 * its state between calls, decodes the last few hundred bytes of every
 * buffer in a slow state machine, and allocates that state each time.
 * A pack entry is in memory whole and its size is known, so this
 * decoder reads the input 8 bytes at a time into a 64-bit bit buffer,
 * writes straight into the result, and copies matches by words; while
 * enough input and output remain, in a loop that checks no bound (the
 * careful one takes the last bytes of each).  It
 * accepts exactly the streams zlib accepts (fuzz/fuzz-inflate compares
 * them) and does not compute the Adler-32 of the result unless asked:
 * every reader hashes what it hands out against its id, a stronger
 * check of the same bytes; fsck-cache asks, to report what git fsck
 * reports.
 *
 * RFC 1950 (the zlib wrapper) and RFC 1951 (DEFLATE).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cache.h"
#include "rfc1951.h"

static int check_adler32;	/* set_inflate_checksum() */

void set_inflate_checksum(int on)
{
	check_adler32 = on;
}

#define MAX_CODE_BITS 15
#define LITLEN_SYMS 288
#define DIST_SYMS 32
#define LITLEN_ROOT 10
#define DIST_ROOT 8
#define CODES_ROOT 7

/*
 * A table entry: bits 0-7 the bits it takes at its level, extra bits
 * included (a first-level entry that points to a second-level table:
 * the root bits; a second-level entry: the code's bits past the root),
 * 8-11 the code's own bits at its level (for SUB: the second-level
 * table's index bits), 16-30 its value (a byte, a base, or where the
 * second-level table starts).  A literal has bit 31; the end code, a
 * pointer to a second-level table and a code that is not one (bad)
 * have bit 15, and bit 13, bit 14 or neither; a base has none of them.
 * Extra bits then come as the bits between the code's and the total.
 * So an entry's bits can be taken before what it is is known.
 */
#define F_LIT 0x80000000u
#define F_EXC 0x8000u
#define F_SUB 0x4000u
#define F_END 0x2000u
/*
 * In the code length code's table: repeat the previous length.  Its
 * repeat codes are entries with a base and extra bits, as lengths are.
 */
#define F_PREV F_END

#define E_TOTAL(e) ((e) & 0xff)
#define E_CODE(e) (((e) >> 8) & 15)
#define E_VALUE(e) (((e) >> 16) & 0x7fff)

/* Room for the first-level table and every second-level one. */
#define LITLEN_ENTRIES ((1 << LITLEN_ROOT) + LITLEN_SYMS * \
			(1 << (MAX_CODE_BITS - LITLEN_ROOT)))
#define DIST_ENTRIES ((1 << DIST_ROOT) + DIST_SYMS * \
		      (1 << (MAX_CODE_BITS - DIST_ROOT)))

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

struct bits {
	const unsigned char *p, *start, *end;
	uint64_t buf;		/* the next bits, lowest first */
	unsigned int count;	/* how many of them are valid */
};

struct tables {
	uint32_t litlen[LITLEN_ENTRIES];
	uint32_t dist[DIST_ENTRIES];
};

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

/* ---- bits ---- */

/*
 * At least 56 bits in the buffer.  Near the end, bytes past the input
 * read as zeros; read_past_end() tells whether any of them was used.
 */
static inline void refill(struct bits *b)
{
	if (b->end - b->p >= 8) {
		/* the bits above count are the next bytes': ORed again */
		b->buf |= load_le64(b->p) << b->count;
		b->p += (63 - b->count) >> 3;
		b->count |= 56;
		return;
	}
	while (b->count <= 56) {
		uint64_t c = b->p < b->end ? *b->p : 0;

		b->buf |= c << b->count;
		b->p++;
		b->count += 8;
	}
}

/* refill() when at least 8 bytes of input are left: no branch. */
static inline void refill_fast(struct bits *b)
{
	b->buf |= load_le64(b->p) << b->count;
	b->p += (63 - b->count) >> 3;
	b->count |= 56;
}

static inline int read_past_end(const struct bits *b)
{
	return b->p > b->end &&
	       (size_t)(b->p - b->start) * 8 - b->count >
	       (size_t)(b->end - b->start) * 8;
}

static inline unsigned int take(struct bits *b, unsigned int n)
{
	unsigned int v = (unsigned int)(b->buf & ((1u << n) - 1));

	b->buf >>= n;
	b->count -= n;
	return v;
}

/* The first-level entry for the next bits (nothing taken). */
static inline uint32_t peek(const struct bits *b, const uint32_t *table,
			    unsigned int root)
{
	return table[b->buf & ((1u << root) - 1)];
}

/* Take the bits e says it takes. */
static inline void take_bits(struct bits *b, uint32_t e)
{
	b->buf >>= E_TOTAL(e);
	b->count -= E_TOTAL(e);
}

/*
 * The entry of the next code, from first-level entry e: if e points
 * to a second-level table, its root bits are taken and the entry is
 * looked up there (nothing more taken).
 */
static inline uint32_t resolve(struct bits *b, const uint32_t *table,
			       uint32_t e)
{
	if (e & F_SUB) {
		take_bits(b, e);
		e = table[E_VALUE(e) + (b->buf & ((1u << E_CODE(e)) - 1))];
	}
	return e;
}

/* e's value plus its extra bits, from saved: the bits e took. */
static inline unsigned int value_of(uint64_t saved, uint32_t e)
{
	return E_VALUE(e) + (((uint32_t)saved & ((1u << E_TOTAL(e)) - 1)) >>
			     E_CODE(e));
}

/* Take the next code and its extra bits: its entry, *v its value. */
static inline uint32_t decode(struct bits *b, const uint32_t *table,
			      unsigned int root, unsigned int *v)
{
	uint32_t e = resolve(b, table, peek(b, table, root));
	uint64_t saved = b->buf;

	take_bits(b, e);
	*v = value_of(saved, e);
	return e;
}

/* Back to a byte boundary, the bytes still in the buffer given back. */
static void align_to_byte(struct bits *b)
{
	take(b, b->count & 7);
	b->p -= b->count >> 3;
	b->buf = 0;
	b->count = 0;
}

/* ---- blocks ---- */

struct out {
	unsigned char *buf;
	size_t pos, size;
};

/*
 * Copy length bytes from dist back.  Eight at a time when the source
 * is that far behind: up to 7 bytes past the end are written, which
 * the caller's slack holds.
 */
static inline void copy_match(unsigned char *dst, unsigned int dist,
			      unsigned int length)
{
	const unsigned char *src = dst - dist;
	unsigned char *end = dst + length;

	if (dist >= 8) {
		do {
			memcpy(dst, src, 8);
			dst += 8;
			src += 8;
		} while (dst < end);
	} else if (dist == 1) {
		memset(dst, *src, length);
	} else {
		while (dst < end)
			*dst++ = *src++;
	}
}

/*
 * copy_match() with room for FAST_SLOP bytes past the end: sixteen at
 * a time when the source is that far behind, eight when it is eight,
 * and a short distance's pattern eight bytes a store.  The first 32
 * (24) bytes are copied whatever the length, most matches' all: only
 * a longer match takes a branch that depends on its length.
 */
#define FAST_SLOP 32

static inline void copy_match_fast(unsigned char *dst, unsigned int dist,
				   unsigned int length)
{
	const unsigned char *src = dst - dist;
	unsigned char *end = dst + length;
	uint64_t v;

	if (dist >= 16) {
		memcpy(dst, src, 16);
		memcpy(dst + 16, src + 16, 16);
		while ((dst += 32) < end) {
			src += 32;
			memcpy(dst, src, 16);
			memcpy(dst + 16, src + 16, 16);
		}
	} else if (dist >= 8) {
		memcpy(dst, src, 8);
		memcpy(dst + 8, src + 8, 8);
		memcpy(dst + 16, src + 16, 8);
		while ((dst += 24) < end) {
			src += 24;
			memcpy(dst, src, 8);
			memcpy(dst + 8, src + 8, 8);
			memcpy(dst + 16, src + 16, 8);
		}
	} else if (dist == 1) {
		v = 0x0101010101010101ull * *src;
		do {
			memcpy(dst, &v, 8);
			memcpy(dst + 8, &v, 8);
			dst += 16;
		} while (dst < end);
	} else {
		/* the first dist bytes of v are the pattern */
		memcpy(&v, src, 8);
		do {
			memcpy(dst, &v, 8);
			dst += dist;
		} while (dst < end);
	}
}

static int stored_block(struct bits *b, struct out *o)
{
	unsigned int len, nlen;

	align_to_byte(b);
	if (b->p > b->end || b->end - b->p < 4)
		return INFLATE_TRUNCATED;
	len = b->p[0] | b->p[1] << 8;
	nlen = b->p[2] | b->p[3] << 8;
	if (len != (~nlen & 0xffff))
		return INFLATE_CORRUPT;
	b->p += 4;
	if ((size_t)(b->end - b->p) < len)
		return INFLATE_TRUNCATED;
	if (len > o->size - o->pos)
		return INFLATE_LONGER;
	memcpy(o->buf + o->pos, b->p, len);
	b->p += len;
	o->pos += len;
	return 0;
}

/*
 * The fast loop's margins: 8 bytes of input (its one refill loads 8)
 * and 3 bytes of output (three literals); a match is copied fast when
 * it and the copy's slop fit, else carefully, and the loop stops.
 * Within them no bit read is past the input and no write past the
 * output (its slack), so only the code itself can be wrong.
 */
#define FAST_IN 8
#define FAST_OUT 3

/*
 * The fast loop's own bit helpers.  Its count is right in its low byte
 * only: an entry is subtracted whole (its low byte is the bits it
 * takes, and the count is never below them, so nothing borrows from
 * the low byte), which saves extracting the byte every code; the loop
 * clears the rest when it leaves.  Shifts by an entry take its low 6
 * bits, as the machine does anyway.
 */
static inline void fast_refill(struct bits *b)
{
	b->buf |= load_le64(b->p) << (b->count & 63);
	b->p += 7 - ((b->count >> 3) & 7);
	b->count |= 56;
}

static inline void fast_take(struct bits *b, uint32_t e)
{
	b->buf >>= e & 63;
	b->count -= e;
}

static inline uint32_t fast_resolve(struct bits *b, const uint32_t *table,
				    uint32_t e)
{
	if (e & F_SUB) {
		fast_take(b, e);
		e = table[(e >> 16) + (b->buf & ((1u << E_CODE(e)) - 1))];
	}
	return e;
}

/* value_of() for a length or a distance: no literal's bit 31 to mask. */
static inline unsigned int fast_value(uint64_t saved, uint32_t e)
{
	return (e >> 16) + (((uint32_t)saved & ((1u << (e & 31)) - 1)) >>
			    ((e >> 8) & 31));
}

/*
 * Literals and matches while the margins hold: one refill for a match
 * (15 + 5 + 15 + 13 = 48 bits of the 56) or for up to three literals
 * (15 bits each).  An entry's bits are taken before its kind is
 * tested, and the next code's entry is looked up as soon as its bits
 * are there, so that the lookup does not wait for the branch.
 * Returns 0 at the margins (*end 0) or at the block's end (*end 1),
 * INFLATE_CORRUPT, or INFLATE_LONGER for a match past the output.
 */
static inline __attribute__((always_inline)) int
fast_loop(struct bits *b, unsigned char *out, size_t *at, size_t size,
	  const uint32_t *litlen, const uint32_t *dist, int *end)
{
	struct bits in = *b;
	unsigned char *op = out + *at, *out_last, *out_end = out + size;
	const unsigned char *in_last;
	uint32_t e;
	int ret = 0;

	if (in.end - in.p < FAST_IN || size - *at < FAST_OUT)
		return 0;
	in_last = in.end - FAST_IN;
	out_last = out + size - FAST_OUT;
	fast_refill(&in);
	e = peek(&in, litlen, LITLEN_ROOT);
	for (;;) {
		uint64_t saved;
		uint32_t d;
		unsigned int length, back;

		if (e & F_LIT) {
			fast_take(&in, e);
			*op++ = (unsigned char)(e >> 16);
			e = peek(&in, litlen, LITLEN_ROOT);
			if (e & F_LIT) {
				fast_take(&in, e);
				*op++ = (unsigned char)(e >> 16);
				e = peek(&in, litlen, LITLEN_ROOT);
				if (e & F_LIT) {
					fast_take(&in, e);
					*op++ = (unsigned char)(e >> 16);
					/* 45 bits may be gone: look again */
					if (in.p > in_last || op > out_last)
						break;
					fast_refill(&in);
					e = peek(&in, litlen, LITLEN_ROOT);
					continue;
				}
			}
			if (in.p > in_last || op > out_last)
				break;
			fast_refill(&in);
			continue;
		}
		e = fast_resolve(&in, litlen, e);
		saved = in.buf;
		fast_take(&in, e);
		if (e & (F_LIT | F_EXC)) {
			if (e & F_LIT) {
				*op++ = (unsigned char)(e >> 16);
				goto next;
			}
			if (e & F_END)
				*end = 1;
			else
				ret = INFLATE_CORRUPT;
			break;
		}
		length = fast_value(saved, e);
		d = fast_resolve(&in, dist, peek(&in, dist, DIST_ROOT));
		saved = in.buf;
		fast_take(&in, d);
		back = fast_value(saved, d);
		if ((d & F_EXC) || back > (size_t)(op - out)) {
			ret = INFLATE_CORRUPT;
			break;
		}
		if (length + FAST_SLOP > (size_t)(out_end - op)) {
			if (length > (size_t)(out_end - op)) {
				ret = INFLATE_LONGER;
				break;
			}
			copy_match(op, back, length);
			op += length;
			break;
		}
		/*
		 * The next entry before the copy: a copy's branch that
		 * goes wrong then does not take the lookup with it.
		 */
		if (in.p > in_last) {
			copy_match_fast(op, back, length);
			op += length;
			break;
		}
		fast_refill(&in);
		e = peek(&in, litlen, LITLEN_ROOT);
		copy_match_fast(op, back, length);
		op += length;
		continue;
next:
		if (in.p > in_last || op > out_last)
			break;
		fast_refill(&in);
		e = peek(&in, litlen, LITLEN_ROOT);
	}
	in.count &= 0xff;
	*b = in;
	*at = op - out;
	return ret;
}

typedef int fast_fn(struct bits *b, unsigned char *out, size_t *at,
		    size_t size, const uint32_t *litlen, const uint32_t *dist,
		    int *end);

static int fast_plain(struct bits *b, unsigned char *out, size_t *at,
		      size_t size, const uint32_t *litlen,
		      const uint32_t *dist, int *end)
{
	return fast_loop(b, out, at, size, litlen, dist, end);
}

/*
 * DIRCACHE_TEST_INFLATE_PLAIN, for the tests only: the plain loop even
 * where the BMI2 one would run, so that both are tested here.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__BMI2__)
/*
 * The same loop with BMI2's shifts and masks by any register (shrx,
 * bzhi): a shift by a count held in %cl costs moves, and the loop
 * shifts by an entry's counts several times a code.
 */
__attribute__((target("bmi2")))
static int fast_bmi2(struct bits *b, unsigned char *out, size_t *at,
		     size_t size, const uint32_t *litlen,
		     const uint32_t *dist, int *end)
{
	return fast_loop(b, out, at, size, litlen, dist, end);
}

static fast_fn *pick_fast(void)
{
	if (getenv("DIRCACHE_TEST_INFLATE_PLAIN"))
		return fast_plain;
	return cpu_has_bmi2() ? fast_bmi2 : fast_plain;
}
#else
static fast_fn *pick_fast(void)
{
	return fast_plain;
}
#endif

static fast_fn *huffman_fast;	/* set with the tables */

/*
 * Literals and matches with the block's tables, to its end code: the
 * fast loop while its margins hold, then one code at a time with every
 * bound checked.  The bits and the output position are local copies:
 * through b and o, every byte written would make the compiler load
 * them again (a char may alias anything); a local struct whose address
 * does not escape the inlined helpers is kept in registers.
 */
static int huffman_block(struct bits *b, struct out *o,
			 const uint32_t *litlen, const uint32_t *dist)
{
	struct bits in = *b;
	unsigned char *out = o->buf;
	size_t pos = o->pos, size = o->size;
	int ret, end = 0;

	ret = huffman_fast(&in, out, &pos, size, litlen, dist, &end);
	while (!ret && !end) {
		uint32_t e, d;
		unsigned int length, back;

		refill(&in);
		if (read_past_end(&in)) {
			ret = INFLATE_TRUNCATED;
			break;
		}
		/* 15 + 5 bits here, 15 + 13 below: 48 of the 56 */
		e = decode(&in, litlen, LITLEN_ROOT, &length);
		if (e & F_LIT) {
			if (pos == size) {
				ret = INFLATE_LONGER;
				break;
			}
			out[pos++] = (unsigned char)length;
			continue;
		}
		if (e & F_END) {
			if (read_past_end(&in))
				ret = INFLATE_TRUNCATED;
			break;
		}
		if (e & F_EXC) {
			ret = INFLATE_CORRUPT;
			break;
		}
		d = decode(&in, dist, DIST_ROOT, &back);
		if (d & F_EXC) {
			ret = INFLATE_CORRUPT;
			break;
		}
		if (read_past_end(&in)) {
			ret = INFLATE_TRUNCATED;
			break;
		}
		if (back > pos) {
			ret = INFLATE_CORRUPT;
			break;
		}
		if (length > size - pos) {
			ret = INFLATE_LONGER;
			break;
		}
		copy_match(out + pos, back, length);
		pos += length;
	}
	*b = in;
	o->pos = pos;
	return ret;
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
static int read_dynamic_tables(struct bits *b, struct tables *t)
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

static struct tables fixed;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static pthread_key_t first_key;	/* each thread's first_block */
static int have_first_key;

/* The symbols' entries, and the fixed code's tables from them. */
static void make_tables(void)
{
	uint8_t lens[LITLEN_SYMS];

	make_entries();
	huffman_fast = pick_fast();
	have_first_key = !pthread_key_create(&first_key, free);

	memset(lens, 8, 144);
	memset(lens + 144, 9, 112);
	memset(lens + 256, 7, 24);
	memset(lens + 280, 8, 8);
	build_table(fixed.litlen, LITLEN_ENTRIES, litlen_entry, lens,
		    LITLEN_SYMS, LITLEN_ROOT, 1);
	memset(lens, 5, DIST_SYMS);
	build_table(fixed.dist, DIST_ENTRIES, dist_entry, lens, DIST_SYMS,
		    DIST_ROOT, 1);
}

/*
 * The Adler-32 of len bytes (RFC 1950): s1 is 1 plus the bytes, s2 the
 * sum of s1 after each, both modulo 65521.  With SSE2 (every x86-64),
 * 16 bytes a step: the block's bytes add to s1 (psadbw), and to s2
 * each weighted by how many of s2's sums in the block it is in, 16 for
 * the first down to 1 (pmaddwd), with 16 times s1 at the block's start
 * (the sums of the blocks before, kept apart and added at the end).
 * Reduced every ADLER_NMAX bytes, as zlib does, before a 32-bit lane
 * could overflow.  Elsewhere, zlib's.
 */
#define ADLER_MOD 65521
#define ADLER_NMAX 5552

#ifdef __SSE2__
#include <emmintrin.h>

static uint64_t sum_lanes(__m128i v)
{
	uint32_t l[4];

	_mm_storeu_si128((__m128i *)l, v);
	return (uint64_t)l[0] + l[1] + l[2] + l[3];
}

static uint32_t adler32_of(const unsigned char *p, size_t len)
{
	const __m128i zero = _mm_setzero_si128();
	const __m128i w_lo = _mm_set_epi16(9, 10, 11, 12, 13, 14, 15, 16);
	const __m128i w_hi = _mm_set_epi16(1, 2, 3, 4, 5, 6, 7, 8);
	uint64_t s1 = 1, s2 = 0;

	while (len) {
		size_t n = len < ADLER_NMAX ? len : ADLER_NMAX, blocks = n / 16;
		__m128i vs1 = zero, vs2 = zero, before = zero;
		size_t k;

		len -= n;
		for (k = 0; k < blocks; k++, p += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)p);

			before = _mm_add_epi32(before, vs1);
			vs1 = _mm_add_epi32(vs1, _mm_sad_epu8(v, zero));
			vs2 = _mm_add_epi32(vs2, _mm_madd_epi16(
				_mm_unpacklo_epi8(v, zero), w_lo));
			vs2 = _mm_add_epi32(vs2, _mm_madd_epi16(
				_mm_unpackhi_epi8(v, zero), w_hi));
		}
		s2 += 16 * (blocks * s1 + sum_lanes(before)) + sum_lanes(vs2);
		s1 += sum_lanes(vs1);
		for (n -= blocks * 16; n; n--) {
			s1 += *p++;
			s2 += s1;
		}
		s1 %= ADLER_MOD;
		s2 %= ADLER_MOD;
	}
	return (uint32_t)(s2 << 16 | s1);
}
#else
static uint32_t adler32_of(const unsigned char *p, size_t len)
{
	return adler32_z(adler32(0, NULL, 0), p, len);
}
#endif

static int zlib_header(const unsigned char *in, size_t len)
{
	if (len < 2)
		return INFLATE_TRUNCATED;
	if ((in[0] << 8 | in[1]) % 31 || (in[0] & 15) != 8 || in[0] >> 4 > 7 ||
	    in[1] & 0x20)
		return INFLATE_CORRUPT;
	return 0;
}

const char *inflate_error(int ret)
{
	switch (ret) {
	case INFLATE_LONGER:
		return "longer than its header says";
	case INFLATE_SHORTER:
		return "shorter than its header says";
	case INFLATE_NOMEM:
		return "out of memory";
	case INFLATE_CHECKSUM:
		return "zlib checksum (adler32) mismatch";
	default:
		return "truncated or damaged zlib stream";
	}
}

/*
 * A loose object is inflated twice: its first bytes for its header
 * (inflate_prefix, to learn its size), then whole (inflate_whole), and
 * both would read its first block's code lengths and build its tables.
 * So the prefix keeps, per thread, the tables of a first block that is
 * dynamic and the bits after its code lengths, with the input they
 * came from: every byte the bit reader had passed (FIRST_MAX at most)
 * and the stream's length.  A whole inflate of a stream with the same
 * length that starts with the same bytes is in the same state there,
 * so it takes them instead of building them again.
 */
#define FIRST_MAX 320

struct first_block {
	size_t len;		/* the stream's length */
	size_t loaded;		/* its first bytes, kept below; 0: none */
	unsigned char start[FIRST_MAX];
	uint64_t buf;		/* the bits after the code lengths */
	unsigned int count;
	int last;		/* the block's last-block bit */
	struct tables t;
};

enum { FIRST_NONE, FIRST_KEEP, FIRST_TAKE };

/* This thread's first_block, allocated when keep is set; or NULL. */
static struct first_block *first_block(int keep)
{
	struct first_block *f;

	if (!have_first_key)
		return NULL;
	f = pthread_getspecific(first_key);
	if (!f && keep && (f = malloc(sizeof(*f)))) {
		f->loaded = 0;
		if (pthread_setspecific(first_key, f)) {
			free(f);
			f = NULL;
		}
	}
	return f;
}

/* The first block kept, if the stream b starts with it: into b. */
static struct first_block *take_first(struct bits *b)
{
	struct first_block *f = first_block(0);

	if (!f || !f->loaded || f->len != (size_t)(b->end - b->start) ||
	    memcmp(f->start, b->start, f->loaded))
		return NULL;
	b->p = b->start + f->loaded;
	b->buf = f->buf;
	b->count = f->count;
	return f;
}

/* Keep the state of b, its code lengths just read into f->t. */
static void keep_first(struct first_block *f, const struct bits *b, int last)
{
	size_t loaded = b->p - b->start;

	if (b->p > b->end || loaded > FIRST_MAX)
		return;
	memcpy(f->start, b->start, loaded);
	f->len = b->end - b->start;
	/* bits above the count may come from bytes past p: not kept */
	f->buf = b->count < 64 ? b->buf & ((1ull << b->count) - 1) : b->buf;
	f->count = b->count;
	f->last = last;
	f->loaded = loaded;
}

/*
 * The blocks of a stream whose zlib header b has passed, into o; the
 * first block's tables kept or taken as first says.
 */
static int inflate_blocks(struct bits *b, struct out *o, int first)
{
	struct tables *t = NULL;
	struct first_block *f;
	int ret = 0, last = 0;

	pthread_once(&tables_once, make_tables);
	if (first == FIRST_TAKE && (f = take_first(b))) {
		last = f->last;
		ret = huffman_block(b, o, f->t.litlen, f->t.dist);
	}
	while (!ret && !last) {
		unsigned int type;

		refill(b);
		last = take(b, 1);
		type = take(b, 2);
		if (type == 0) {
			ret = stored_block(b, o);
		} else if (type == 1) {
			ret = huffman_block(b, o, fixed.litlen, fixed.dist);
		} else if (type == 2 && first == FIRST_KEEP &&
			   (f = first_block(1))) {
			f->loaded = 0;
			ret = read_dynamic_tables(b, &f->t);
			if (!ret)
				keep_first(f, b, last);
			if (!ret)
				ret = huffman_block(b, o, f->t.litlen,
						    f->t.dist);
		} else if (type == 2) {
			if (!t && !(t = malloc(sizeof(*t))))
				return INFLATE_NOMEM;
			ret = read_dynamic_tables(b, t);
			if (!ret)
				ret = huffman_block(b, o, t->litlen, t->dist);
		} else {
			ret = INFLATE_CORRUPT;
		}
		first = FIRST_NONE;
	}
	free(t);
	return ret;
}

int inflate_prefix(const void *in, size_t len, unsigned char *out,
		   size_t want, size_t *got)
{
	struct bits b = { in, in, (const unsigned char *)in + len, 0, 0 };
	struct out o = { out, 0, want };
	int ret = zlib_header(in, len);

	*got = 0;
	if (ret)
		return ret;
	b.p += 2;
	ret = inflate_blocks(&b, &o, FIRST_KEEP);
	*got = o.pos;
	return ret == INFLATE_LONGER ? 0 : ret;
}

int inflate_whole(const void *in, size_t len, unsigned char *out,
		  size_t size, size_t *used, int check)
{
	struct bits b = { in, in, (const unsigned char *)in + len, 0, 0 };
	struct out o = { out, 0, size };
	int ret = zlib_header(in, len);

	*used = 0;
	if (ret)
		return ret;
	b.p += 2;
	ret = inflate_blocks(&b, &o, FIRST_TAKE);
	if (ret)
		return ret;
	/* the Adler-32 of the result: only when asked (see the top) */
	align_to_byte(&b);
	if (b.p > b.end || b.end - b.p < 4)
		return INFLATE_TRUNCATED;
	*used = b.p + 4 - b.start;
	if (o.pos < size)
		return INFLATE_SHORTER;
	if ((check || check_adler32) && adler32_of(out, size) !=
	    ((uint32_t)b.p[0] << 24 | b.p[1] << 16 | b.p[2] << 8 | b.p[3]))
		return INFLATE_CHECKSUM;
	return 0;
}
