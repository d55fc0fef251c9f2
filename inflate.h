/*
 * inflate.h: what the three files of our inflate share: inflate.c (the
 * zlib wrapper, the blocks of a stream, the first block kept per
 * thread, Adler-32), inflate-table.c (decoding tables from code
 * lengths, a dynamic block's header) and inflate-huffman.c (the decode
 * loops).  Only those three include it; the codec's interface is in
 * cache.h.
 */
#ifndef INFLATE_H
#define INFLATE_H

#include <stdint.h>
#include <string.h>

#include "rfc1951.h"

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

struct bits {
	const unsigned char *p, *start, *end;
	uint64_t buf;		/* the next bits, lowest first */
	unsigned int count;	/* how many of them are valid */
};

struct tables {
	uint32_t litlen[LITLEN_ENTRIES];
	uint32_t dist[DIST_ENTRIES];
};

struct out {
	unsigned char *buf;
	size_t pos, size;
};

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
static inline void align_to_byte(struct bits *b)
{
	take(b, b->count & 7);
	b->p -= b->count >> 3;
	b->buf = 0;
	b->count = 0;
}

/* ---- inflate-table.c ---- */

/* The symbols' entries and the fixed code's tables, into fixed (once). */
void inflate_fixed_tables(struct tables *fixed);
/* A dynamic block's code lengths, and its tables from them, into t. */
int inflate_dynamic_tables(struct bits *b, struct tables *t);

/* ---- inflate-huffman.c ---- */

/* Choose the decode loop this CPU runs best (once, with the tables). */
void inflate_choose_loop(void);
/* A stored block's bytes, into o. */
int inflate_stored_block(struct bits *b, struct out *o);
/* A Huffman block's literals and matches, to its end code, into o. */
int inflate_huffman_block(struct bits *b, struct out *o,
			  const uint32_t *litlen, const uint32_t *dist);

#endif
