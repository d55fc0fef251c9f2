/*
 * inflate-huffman.c: the decode loops of our inflate (inflate.c): a
 * Huffman block's literals and matches into the output, in a loop that
 * checks no bound while enough input and output remain (a BMI2 build of
 * it where the CPU has BMI2), then one code at a time to the block's
 * end; and a stored block's bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "inflate.h"

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

int inflate_stored_block(struct bits *b, struct out *o)
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

static fast_fn *huffman_fast;	/* inflate_choose_loop() */

void inflate_choose_loop(void)
{
	huffman_fast = pick_fast();
}

/*
 * Literals and matches with the block's tables, to its end code: the
 * fast loop while its margins hold, then one code at a time with every
 * bound checked.  The bits and the output position are local copies:
 * through b and o, every byte written would make the compiler load
 * them again (a char may alias anything); a local struct whose address
 * does not escape the inlined helpers is kept in registers.
 */
int inflate_huffman_block(struct bits *b, struct out *o,
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
