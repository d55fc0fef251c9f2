/*
 * patch-binary.c: the hunks of a "GIT binary patch".  Each is
 * "literal <size>" (the new content) or "delta <size>" (a delta in
 * git's format from the old content), deflated, then written in
 * base-85 lines whose first letter is their byte count; an empty line
 * ends it.  A second hunk, when present, undoes the first (for -R).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "patch-internal.h"

/* Byte count of a line from its first letter, or -1. */
static int line_byte_count(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 1;
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 27;
	return -1;
}

/*
 * Inflate exactly size bytes from all of z (the library's inflate,
 * Adler-32 checked); NULL when it is not that.
 */
static unsigned char *inflate_hunk(const unsigned char *z, size_t zlen,
				    size_t size)
{
	unsigned char *out = xmalloc(size + INFLATE_SLACK);
	size_t used;

	if (inflate_whole(z, zlen, out, size, &used, 1) || used != zlen) {
		free(out);
		return NULL;
	}
	out[size] = '\0';
	return out;
}

static int parse_size(const char *s, const char *end, size_t *size)
{
	size_t v = 0;

	if (s >= end || *s < '0' || *s > '9')
		return -1;
	while (s < end && *s >= '0' && *s <= '9') {
		if (v > (size_t)1 << 40)
			return -1;
		v = v * 10 + (*s++ - '0');
	}
	if (s >= end || *s != '\n')
		return -1;
	*size = v;
	return 0;
}

/*
 * One hunk at p: 0 when p holds none (the reverse one is optional),
 * else the bytes taken (the empty line included), or -1 with *lines
 * counting up to the line at fault (the size line when the data do not
 * inflate to that size).
 */
static long parse_one(struct patch_binary *b, const char *p, const char *end,
		      unsigned long *lines)
{
	const char *start = p;
	unsigned char *z = NULL;
	size_t zlen = 0, zalloc = 0, size, len;
	unsigned long size_line = *lines;
	int kind;

	len = patch_line_len(p, end);
	if (len > 8 && !memcmp(p, "literal ", 8))
		kind = PATCH_BINARY_LITERAL;
	else if (len > 6 && !memcmp(p, "delta ", 6))
		kind = PATCH_BINARY_DELTA;
	else
		return 0;
	if (parse_size(p + (kind == PATCH_BINARY_LITERAL ? 8 : 6),
		       p + len, &size) < 0)
		return -1;
	p += len;
	(*lines)++;
	while (p < end && *p != '\n') {
		int n = line_byte_count(*p);

		len = patch_line_len(p, end);
		if (n < 0 || len != 1 + (size_t)(n + 3) / 4 * 5 + 1 ||
		    p[len - 1] != '\n')
			goto bad;
		ALLOC_GROW(z, zlen + n, zalloc);
		if (decode_85(z + zlen, p + 1, n) < 0)
			goto bad;
		zlen += n;
		p += len;
		(*lines)++;
	}
	if (p >= end)
		goto bad;
	p++;
	b->data = inflate_hunk(z, zlen, size);
	if (!b->data) {
		/* Data that is not <size> bytes: the size line is wrong. */
		*lines = size_line;
		goto bad;
	}
	(*lines)++;
	b->kind = kind;
	b->size = size;
	free(z);
	return p - start;
bad:
	free(z);
	return -1;
}

long parse_binary_hunks(struct patch *patch, const char *p, const char *end,
			unsigned long lineno, unsigned long *lines,
			struct fault *f)
{
	long one, two;

	*lines = 0;
	one = parse_one(&patch->forward, p, end, lines);
	if (one <= 0)
		return set_fault_at(f, FAULT_CORRUPT, NULL, lineno + *lines,
				    "corrupt binary patch at line %lu",
				    lineno + *lines);
	two = parse_one(&patch->reverse, p + one, end, lines);
	if (two < 0)
		return set_fault_at(f, FAULT_CORRUPT, NULL, lineno + *lines,
				    "corrupt binary patch at line %lu",
				    lineno + *lines);
	return one + two;
}

/*
 * A full id of the store's hash (hexsz digits), and not the null one
 * (which stands for "no file").
 */
static int is_full_id(const char *id)
{
	const size_t hexsz = the_hash->hexsz;

	return strlen(id) == hexsz && is_lower_hex(id, hexsz) &&
	       strspn(id, "0") != hexsz;
}

/*
 * Both ids of the "index" line whole, in the store's hash: git apply
 * takes a binary patch only so (an abbreviated id, or one of the other
 * hash, names no content it could check).
 */
static int has_full_ids(const struct patch *patch)
{
	const size_t hexsz = the_hash->hexsz;
	unsigned char sha1[HASH_MAX_RAWSZ];

	return strlen(patch->old_id) == hexsz &&
	       strlen(patch->new_id) == hexsz &&
	       !get_sha1_hex(patch->old_id, sha1) &&
	       !get_sha1_hex(patch->new_id, sha1);
}

/* Does content hash to the full id (when it is one)? */
static int matches_id(const char *id, const char *buf, size_t size)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (!is_full_id(id))
		return 1;
	if (hash_sha1_file(buf, size, OBJ_BLOB, sha1) < 0)
		return 0;
	return !strcmp(sha1_to_hex(sha1), id);
}

/* "Binary files differ" with full ids: the new blob from the store. */
static int from_store(const struct patch *patch, const char *name,
		      char **out, size_t *out_size, struct fault *f)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (!is_full_id(patch->new_id) ||
	    get_sha1_hex(patch->new_id, sha1) < 0 || !has_sha1_file(sha1))
		return set_fault_at(f, FAULT_CONFLICT, name, 0, "cannot apply "
				    "binary patch to '%s' without full index "
				    "line", name);
	*out = read_object_of_type(sha1, OBJ_BLOB, out_size);
	if (!*out)
		return set_fault_at(f, FAULT_MISSING, name, 0, "%s: cannot "
				    "read blob %s", name, patch->new_id);
	return 0;
}

int apply_binary_patch(const struct patch *patch, const char *old,
		       size_t old_size, char **out, size_t *out_size,
		       struct fault *f)
{
	const char *name = patch->new_name ? patch->new_name : patch->old_name;
	const struct patch_binary *b = &patch->forward;
	const char *why;

	*out = NULL;
	if (!has_full_ids(patch))
		return set_fault_at(f, FAULT_CONFLICT, name, 0, "cannot apply "
				    "binary patch to '%s' without full index "
				    "line", name);
	if (!matches_id(patch->old_id, old, old_size))
		return set_fault_at(f, FAULT_CONFLICT, name, 0, "the patch "
				    "applies to '%s' (%s), which does not "
				    "match the current contents", name,
				    patch->old_id);
	if (!b->kind) {
		if (from_store(patch, name, out, out_size, f) < 0)
			return -1;
	} else if (b->kind == PATCH_BINARY_LITERAL) {
		*out = xmalloc(b->size + 1);
		memcpy(*out, b->data, b->size);
		(*out)[b->size] = '\0';
		*out_size = b->size;
	} else {
		*out = apply_delta(old, old_size, b->data, b->size, out_size,
				   &why);
		if (!*out)
			return set_fault_at(f, FAULT_CONFLICT, name, 0,
					    "binary patch does not apply to "
					    "'%s': %s", name, why);
	}
	if (!matches_id(patch->new_id, *out, *out_size)) {
		free(*out);
		*out = NULL;
		return set_fault_at(f, FAULT_CONFLICT, name, 0, "binary patch "
				    "to '%s' creates incorrect result "
				    "(expecting %s)", name, patch->new_id);
	}
	return 0;
}
