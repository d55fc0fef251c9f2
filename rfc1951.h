/*
 * rfc1951.h: what our inflate (inflate.c) and deflate (deflate.c,
 * deflate-block.c) share of RFC 1951: the base values and extra bits of
 * the length and distance codes, the order of the code-length codes,
 * and the little-endian loads DEFLATE's bit streams are read and
 * written with.  Only the codec's files include it; the codec's
 * interface is in cache.h (inflate.c, deflate.c).
 */
#ifndef RFC1951_H
#define RFC1951_H

#include <stdint.h>
#include <string.h>

/* The tables, defined in inflate-table.c. */
extern const uint16_t deflate_length_base[29];	/* length codes 257-285 */
extern const uint8_t deflate_length_extra[29];
extern const uint16_t deflate_dist_base[30];
extern const uint8_t deflate_dist_extra[30];
extern const uint8_t deflate_codelen_order[19];

/* Little-endian loads of unaligned bytes, as DEFLATE reads and writes. */
static inline uint32_t load_le32(const unsigned char *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap32(w);
#endif
	return w;
}

static inline uint64_t load_le64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

#endif
