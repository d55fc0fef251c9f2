/*
 * index-ondisk.c: one index entry on disk, in git's formats: stat
 * data, id and flags (two more bytes of flags in v3), then the name
 * NUL-padded to 8 bytes (v2, v3), or in v4 the bytes of the previous
 * name to drop and the rest of this one, unpadded.  Parsing trusts
 * nothing: every size is checked against the bytes there are.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "index-internal.h"

/*
 * The entry's layout hangs on the id's size (rawsz, 20 or 32): the
 * parsers are written once, inline, and made twice with a constant
 * size, so that a SHA-1 index is parsed as fast as when 20 was the
 * only size (the id copied in two moves, the offsets constants).
 */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* The stat data, id and flags of the on-disk entry at p. */
static ALWAYS_INLINE void fill_ondisk_fields(struct cache_entry *ce,
					     const unsigned char *p,
					     uint16_t flags, size_t fixed,
					     unsigned int rawsz)
{
	ce->ce_ctime.sec = get_be32(p);
	ce->ce_ctime.nsec = get_be32(p + 4);
	ce->ce_mtime.sec = get_be32(p + 8);
	ce->ce_mtime.nsec = get_be32(p + 12);
	ce->ce_dev = get_be32(p + 16);
	ce->ce_ino = get_be32(p + 20);
	ce->ce_mode = get_be32(p + 24);
	ce->ce_uid = get_be32(p + 28);
	ce->ce_gid = get_be32(p + 32);
	ce->ce_size = get_be32(p + 36);
	memcpy(ce->sha1, p + ONDISK_ID, rawsz);
	ce->ce_flags = flags & ~CE_EXTENDED;
	ce->ce_ext_flags = fixed > ONDISK_FIXED(rawsz) ?
			   get_be16(p + ONDISK_FIXED(rawsz)) : 0;
	ce->ce_state = 0;
}

static ALWAYS_INLINE size_t parse_entry_sized(const unsigned char *p,
					      size_t avail, int version,
					      struct cache_entry *ce,
					      size_t name_room,
					      unsigned int rawsz)
{
	size_t fixed = ONDISK_FIXED(rawsz), namelen, total;
	uint16_t flags;
	const unsigned char *name;

	if (avail < fixed + 2)
		return 0;
	flags = get_be16(p + fixed - 2);
	if (flags & CE_EXTENDED) {
		if (version < 3)
			return 0;
		fixed += 2;
	}
	name = p + fixed;
	namelen = flags & CE_NAMEMASK;
	if (namelen == CE_NAMEMASK) {
		const unsigned char *nul = memchr(name, '\0', avail - fixed);

		if (!nul)
			return 0;
		namelen = nul - name;
	}
	total = (fixed + namelen + 8) & ~(size_t)7;
	if (total > avail || name[namelen] != '\0' || namelen > name_room)
		return 0;
	ce->ce_namelen = namelen;
	memcpy(ce->name, name, namelen);
	ce->name[namelen] = '\0';
	fill_ondisk_fields(ce, p, flags, fixed, rawsz);
	return total;
}

/* Parse one on-disk entry at p (avail bytes); returns its size or 0. */
size_t parse_entry(const unsigned char *p, size_t avail, int version,
		   struct cache_entry *ce, size_t name_room)
{
	if (the_hash->rawsz == 20)
		return parse_entry_sized(p, avail, version, ce, name_room, 20);
	return parse_entry_sized(p, avail, version, ce, name_room,
				 HASH_MAX_RAWSZ);
}

/* git's offset varint: 7 bits a byte, each continuation adding one. */
static int get_varint(const unsigned char **p, const unsigned char *end,
		      size_t *value)
{
	size_t v;
	unsigned char c;

	if (*p >= end)
		return -1;
	c = *(*p)++;
	v = c & 127;
	while (c & 128) {
		if (*p >= end || v > (SIZE_MAX >> 8))
			return -1;
		c = *(*p)++;
		v = ((v + 1) << 7) | (c & 127);
	}
	*value = v;
	return 0;
}

/*
 * Index v4: each name is the previous one less its last N bytes, then
 * a NUL-terminated suffix, and entries are not padded.  The entry is
 * allocated on its own (*cep); returns the bytes used, or 0.
 */
static ALWAYS_INLINE size_t parse_entry_v4_sized(const unsigned char *p,
						 size_t avail,
						 const struct cache_entry *prev,
						 struct cache_entry **cep,
						 unsigned int rawsz)
{
	const unsigned char *q, *nul, *end = p + avail;
	size_t fixed = ONDISK_FIXED(rawsz), strip, keep, prev_len;
	struct cache_entry *ce;
	uint16_t flags;

	if (avail < fixed + 2)
		return 0;
	flags = get_be16(p + fixed - 2);
	if (flags & CE_EXTENDED)
		fixed += 2;
	q = p + fixed;
	prev_len = prev ? prev->ce_namelen : 0;
	if (get_varint(&q, end, &strip) < 0 || strip > prev_len)
		return 0;
	nul = memchr(q, '\0', end - q);
	if (!nul)
		return 0;
	keep = prev_len - strip;
	ce = make_cache_entry("", 0);
	ce = xrealloc(ce, sizeof(*ce) + keep + (nul - q) + 1);
	memcpy(ce->name, prev ? prev->name : "", keep);
	memcpy(ce->name + keep, q, nul - q);
	ce->ce_namelen = keep + (nul - q);
	ce->name[ce->ce_namelen] = '\0';
	fill_ondisk_fields(ce, p, flags, fixed, rawsz);
	*cep = ce;
	return nul + 1 - p;
}

size_t parse_entry_v4(const unsigned char *p, size_t avail,
		      const struct cache_entry *prev,
		      struct cache_entry **cep)
{
	if (the_hash->rawsz == 20)
		return parse_entry_v4_sized(p, avail, prev, cep, 20);
	return parse_entry_v4_sized(p, avail, prev, cep, HASH_MAX_RAWSZ);
}

/* Bytes at the start of a and b that are the same. */
size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the first byte that differs is the lowest set byte of x ^ y */
	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (__builtin_ctzll(x ^ y) >> 3);
	}
#endif
	while (i + 8 <= n && !memcmp(a + i, b + i, 8))
		i += 8;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * The stat data, id and flags; returns their size (ONDISK_FIXED, or 2
 * more with extended flags).
 */
static size_t fill_ondisk(unsigned char *e, const struct cache_entry *ce)
{
	size_t fixed = ONDISK_FIXED(the_hash->rawsz);
	const uint32_t f[10] = {
		ce->ce_ctime.sec, ce->ce_ctime.nsec, ce->ce_mtime.sec,
		ce->ce_mtime.nsec, ce->ce_dev, ce->ce_ino, ce->ce_mode,
		ce->ce_uid, ce->ce_gid, ce->ce_size,
	};
	uint16_t flags = ce->ce_flags & ~(CE_EXTENDED | CE_NAMEMASK);
	size_t i;

	flags |= ce->ce_namelen < CE_NAMEMASK ? ce->ce_namelen : CE_NAMEMASK;
	if (ce->ce_ext_flags)
		flags |= CE_EXTENDED;
	for (i = 0; i < 10; i++)
		put_be32(e + 4 * i, f[i]);
	hashcpy(e + ONDISK_ID, ce->sha1);
	e[fixed - 2] = flags >> 8;
	e[fixed - 1] = flags;
	e[fixed] = ce->ce_ext_flags >> 8;
	e[fixed + 1] = ce->ce_ext_flags;
	return ce->ce_ext_flags ? fixed + 2 : fixed;
}

/* The fixed part, the name, and the NULs that pad it to 8 bytes. */
int write_ondisk_entry(struct hashfile *w, const struct cache_entry *ce)
{
	static const unsigned char zeros[8];
	unsigned char e[ONDISK_FIXED(HASH_MAX_RAWSZ) + 2];
	size_t fixed = fill_ondisk(e, ce);
	size_t total = (fixed + ce->ce_namelen + 8) & ~(size_t)7;

	if (hashwrite(w, e, fixed) < 0 ||
	    hashwrite(w, ce->name, ce->ce_namelen) < 0)
		return -1;
	return hashwrite(w, zeros, total - fixed - ce->ce_namelen);
}

/* git's offset varint, the inverse of get_varint; returns its bytes. */
static size_t put_varint(unsigned char *out, size_t value)
{
	unsigned char tmp[16];
	size_t pos = sizeof(tmp) - 1;

	tmp[pos] = value & 127;
	while (value >>= 7)
		tmp[--pos] = 128 | (--value & 127);
	memcpy(out, tmp + pos, sizeof(tmp) - pos);
	return sizeof(tmp) - pos;
}

/* v4: the bytes of prev's name to drop, then the rest of ce's, a NUL. */
int write_ondisk_entry_v4(struct hashfile *w, const struct cache_entry *ce,
			  const struct cache_entry *prev)
{
	unsigned char e[ONDISK_FIXED(HASH_MAX_RAWSZ) + 2 + 16];
	size_t fixed = fill_ondisk(e, ce), same = 0;

	if (prev)
		same = common_prefix(prev->name, ce->name,
				     prev->ce_namelen < ce->ce_namelen ?
				     prev->ce_namelen : ce->ce_namelen);
	fixed += put_varint(e + fixed, prev ? prev->ce_namelen - same : 0);
	if (hashwrite(w, e, fixed) < 0)
		return -1;
	return hashwrite(w, ce->name + same, ce->ce_namelen - same + 1);
}

int write_entries(struct hashfile *w, unsigned int version,
		  struct cache_entry *const *ces, unsigned int nr)
{
	unsigned char hdr[HEADER_SIZE];
	unsigned int i;
	int ret;

	put_be32(hdr, CACHE_SIGNATURE);
	put_be32(hdr + 4, version);
	put_be32(hdr + 8, nr);
	ret = hashwrite(w, hdr, sizeof(hdr));
	for (i = 0; !ret && i < nr; i++)
		ret = version != 4 ? write_ondisk_entry(w, ces[i]) :
		      write_ondisk_entry_v4(w, ces[i], i ? ces[i - 1] : NULL);
	return ret;
}
