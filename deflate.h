/*
 * deflate.h: what deflate.c (matches, the stream) and deflate-block.c
 * (Huffman codes, blocks, bits) share.  Only those two include it.
 */
#ifndef DEFLATE_H
#define DEFLATE_H

#include <stdint.h>
#include <string.h>

#define WINDOW_SIZE 32768
#define MAX_MATCH 258
#define HASH_BITS 14
#define BLOCK_ITEMS 16384	/* symbols of one block */
#define LITLEN_SYMS 286
#define DIST_SYMS 30

/* One symbol of a block: a byte (< 256), or length << 16 | distance. */
#define MATCH_ITEM(len, dist) ((uint32_t)(len) << 16 | (dist))

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
	unsigned char *out_buf;	/* OUT_SIZE bytes */
	unsigned char *in_buf;	/* BUF_SIZE bytes, the writer's */
};

/* Length code (minus 257) of each match length; distance codes. */
extern uint8_t deflate_length_sym[MAX_MATCH + 1];
extern uint8_t deflate_dist_near[256];	/* by distance - 1 */
extern uint8_t deflate_dist_far[256];	/* by (distance - 1) >> 7 */

static inline unsigned int dist_sym(unsigned int dist)
{
	return dist <= 256 ? deflate_dist_near[dist - 1] :
			     deflate_dist_far[(dist - 1) >> 7];
}

/* The tables above and the fixed codes, built once; any thread. */
void deflate_tables_init(void);

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
static inline void align_bits(struct bit_out *b)
{
	flush_bits(b);
	if (b->nr_bits) {
		*b->out++ = b->bits;
		b->bits = 0;
		b->nr_bits = 0;
	}
}

/*
 * The block of the symbols gathered in s, covering data[start, end):
 * with its own code, the fixed one, or stored, whichever is smallest;
 * the symbols are cleared for the next.  last marks the final block.
 */
void put_block(struct deflate_state *s, const unsigned char *data,
	       size_t start, size_t end, int last);

#endif
