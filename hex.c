/*
 * hex.c: object ids and type names as text.  The lowest layer of the
 * store: it knows how an id is spelled and what a loose object's file
 * name looks like, and nothing of where objects live.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char *type_names[] = {
	[OBJ_COMMIT] = "commit",
	[OBJ_TREE] = "tree",
	[OBJ_BLOB] = "blob",
	[OBJ_TAG] = "tag",
};

const char *type_name(enum object_type type)
{
	if (type < OBJ_COMMIT || type > OBJ_TAG)
		return "bad";
	return type_names[type];
}

enum object_type type_from_string(const char *name, size_t len)
{
	int i;

	for (i = OBJ_COMMIT; i <= OBJ_TAG; i++)
		if (strlen(type_names[i]) == len &&
		    !memcmp(type_names[i], name, len))
			return i;
	return OBJ_BAD;
}

/*
 * The value of each byte as a hex digit, -1 for none: a table, as
 * listing a fan-out directory of the store decodes every name in it.
 */
#define HV(c) ((c) >= '0' && (c) <= '9' ? (c) - '0' : \
	       (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : \
	       (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : -1)
#define HV4(c) HV(c), HV((c) + 1), HV((c) + 2), HV((c) + 3)
#define HV16(c) HV4(c), HV4((c) + 4), HV4((c) + 8), HV4((c) + 12)
#define HV64(c) HV16(c), HV16((c) + 16), HV16((c) + 32), HV16((c) + 48)
static const signed char hex_values[256] = {
	HV64(0), HV64(64), HV64(128), HV64(192)
};

int hexval(int c)
{
	return hex_values[(unsigned char)c];
}

int get_sha1_hex(const char *hex, unsigned char *sha1)
{
	unsigned int i;

	for (i = 0; i < the_hash->rawsz; i++) {
		int hi = hex_values[(unsigned char)hex[2 * i]], lo;

		if (hi < 0)		/* not past a NUL */
			return -1;
		lo = hex_values[(unsigned char)hex[2 * i + 1]];
		if (lo < 0)
			return -1;
		sha1[i] = hi << 4 | lo;
	}
	return 0;
}

char *sha1_to_hex(const unsigned char *sha1)
{
	static __thread char bufs[4][HASH_MAX_HEXSZ + 1];
	static __thread int next;
	static const char hex[] = "0123456789abcdef";
	char *buf = bufs[next++ & 3];
	unsigned int i;

	for (i = 0; i < the_hash->rawsz; i++) {
		buf[2 * i] = hex[sha1[i] >> 4];
		buf[2 * i + 1] = hex[sha1[i] & 15];
	}
	buf[2 * i] = '\0';
	return buf;
}

int is_lower_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int common_hex_digits(const unsigned char *a, const unsigned char *b,
		      size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	if (i == n)
		return 2 * n;
	return 2 * i + ((a[i] >> 4) == (b[i] >> 4));
}

/* The same for lower-case digits alone, as loose objects are named. */
#define LV(c) ((c) >= 'A' && (c) <= 'F' ? -1 : HV(c))
#define LV4(c) LV(c), LV((c) + 1), LV((c) + 2), LV((c) + 3)
#define LV16(c) LV4(c), LV4((c) + 4), LV4((c) + 8), LV4((c) + 12)
#define LV64(c) LV16(c), LV16((c) + 16), LV16((c) + 32), LV16((c) + 48)
static const signed char lower_hex_values[256] = {
	LV64(0), LV64(64), LV64(128), LV64(192)
};

/*
 * n bytes from 2n lower-case hex digits; -1 at the first other byte.
 * A byte at a time, two table lookups: the listing of a kernel's
 * store for show-diff's abbreviations parses 95,000 names.
 */
static int get_lower_hex(const char *hex, unsigned char *out, size_t n)
{
	const unsigned char *h = (const unsigned char *)hex;
	size_t i;

	for (i = 0; i < n; i++) {
		int hi = lower_hex_values[h[2 * i]], lo;

		if (hi < 0)		/* a NUL too: never past it */
			return -1;
		lo = lower_hex_values[h[2 * i + 1]];
		if (lo < 0)
			return -1;
		out[i] = hi << 4 | lo;
	}
	return 0;
}

int parse_loose_name(const char *dir, const char *file, unsigned char *sha1)
{
	/* One pass over each name: a store listing parses them all. */
	size_t rest = the_hash->rawsz - 1;

	if (get_lower_hex(dir, sha1, 1) || dir[2] ||
	    get_lower_hex(file, sha1 + 1, rest) || file[2 * rest])
		return -1;
	return 0;
}

/*
 * Binary search of a table sorted by id, whose elements (size bytes
 * each) begin with their id.
 */
static int compare_leading_sha1(const void *a, const void *b)
{
	return hashcmp(a, b);
}

void sort_sha1_table(void *table, size_t nr, size_t size)
{
	if (nr > 1)
		qsort(table, nr, size, compare_leading_sha1);
}

void *find_sha1_in_table(const unsigned char *sha1, const void *table,
			 size_t nr, size_t size)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const unsigned char *elem = (const unsigned char *)table + mid * size;
		int cmp = hashcmp(sha1, elem);

		if (!cmp)
			return (void *)elem;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
