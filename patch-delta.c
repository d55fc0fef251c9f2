/*
 * patch-delta.c: apply git's delta format, the one used by pack files
 * (OFS_DELTA and REF_DELTA entries) and by "GIT binary patch" delta
 * hunks.  A delta is two sizes (base, result) as little-endian base-128
 * numbers, then instructions: a byte with the top bit set copies a run
 * of the base (the low bits say which offset and size bytes follow; a
 * size of 0 means 64 KiB), a byte 1..127 inserts that many literal
 * bytes, and 0 is reserved.  The input is hostile: every copy is
 * checked against the base and every write against the result size.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* A base-128 size at *p (before end); -1 when cut short or too big. */
static int get_delta_size(const unsigned char **p, const unsigned char *end,
			  size_t *size)
{
	size_t n = 0;
	unsigned int shift = 0;

	for (;;) {
		unsigned char c;

		if (*p >= end || shift > 8 * sizeof(size_t) - 7)
			return -1;
		c = *(*p)++;
		n |= (size_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80))
			break;
	}
	*size = n;
	return 0;
}

int get_delta_sizes(const void *delta, size_t len, size_t *base_size,
		    size_t *result_size)
{
	const unsigned char *p = delta, *end = p + len;

	if (get_delta_size(&p, end, base_size) < 0 ||
	    get_delta_size(&p, end, result_size) < 0)
		return -1;
	return p - (const unsigned char *)delta;
}

/* The offset and size of a copy instruction cmd; -1 when cut short. */
static int parse_copy(unsigned char cmd, const unsigned char **p,
		      const unsigned char *end, size_t *off, size_t *size)
{
	int i;

	*off = 0;
	*size = 0;
	for (i = 0; i < 7; i++) {
		if (!(cmd & (1 << i)))
			continue;
		if (*p >= end)
			return -1;
		if (i < 4)
			*off |= (size_t)*(*p)++ << (8 * i);
		else
			*size |= (size_t)*(*p)++ << (8 * (i - 4));
	}
	if (!*size)
		*size = 0x10000;
	return 0;
}

void *apply_delta(const void *base, size_t base_len, const void *delta,
		  size_t delta_len, size_t *result_len, const char **why)
{
	const unsigned char *p = delta, *end = p + delta_len;
	size_t want_base, size, off, n, out = 0;
	unsigned char *result;
	int hdr = get_delta_sizes(delta, delta_len, &want_base, &size);

	*why = NULL;
	if (hdr < 0) {
		*why = "delta header is truncated";
		return NULL;
	}
	if (want_base != base_len) {
		*why = "delta is for a base of another size";
		return NULL;
	}
	/* Each delta byte yields at most 64 KiB: refuse a lying size. */
	if (size > SIZE_MAX - 1 || size / 0x10000 > delta_len) {
		*why = "delta result size is impossible";
		return NULL;
	}
	result = malloc(size + 1);
	if (!result) {
		*why = "out of memory";
		return NULL;
	}
	p += hdr;
	while (p < end) {
		unsigned char cmd = *p++;

		if (cmd & 0x80) {
			if (parse_copy(cmd, &p, end, &off, &n) < 0) {
				*why = "delta copy instruction is truncated";
				break;
			}
			if (off > base_len || n > base_len - off) {
				*why = "delta copies beyond its base";
				break;
			}
			if (n > size - out) {
				*why = "delta writes beyond its result size";
				break;
			}
			memcpy(result + out, (const unsigned char *)base + off,
			       n);
		} else if (cmd) {
			n = cmd;
			if (n > (size_t)(end - p)) {
				*why = "delta insert instruction is truncated";
				break;
			}
			if (n > size - out) {
				*why = "delta writes beyond its result size";
				break;
			}
			memcpy(result + out, p, n);
			p += n;
		} else {
			*why = "delta holds the reserved instruction 0";
			break;
		}
		out += n;
	}
	if (!*why && out != size)
		*why = "delta result is shorter than its header says";
	if (*why) {
		free(result);
		return NULL;
	}
	result[size] = '\0';
	*result_len = size;
	return result;
}

int delta_copies(const void *delta, size_t len, struct delta_copy **copies,
		 size_t *nr, size_t *alloc)
{
	const unsigned char *p = delta, *end = p + len;
	size_t base_size, size, off, n, out = 0;
	int hdr = get_delta_sizes(delta, len, &base_size, &size);

	*nr = 0;
	if (hdr < 0)
		return -1;
	for (p += hdr; p < end; out += n) {
		unsigned char cmd = *p++;

		if (!(cmd & 0x80)) {
			n = cmd;
			if (!n || n > (size_t)(end - p))
				return -1;
			p += n;
			continue;
		}
		if (parse_copy(cmd, &p, end, &off, &n) < 0 ||
		    off > base_size || n > base_size - off ||
		    n > size - out)
			return -1;
		ALLOC_GROW(*copies, *nr + 1, *alloc);
		(*copies)[*nr].to = out;
		(*copies)[*nr].from = off;
		(*copies)[(*nr)++].len = n;
	}
	return out == size ? 0 : -1;
}
