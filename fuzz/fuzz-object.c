/*
 * libFuzzer target: a loose object's header and zlib stream, read the
 * two ways the tools read it: whole (read_object_stream_whole, as
 * read_sha1_file does) and a piece at a time (as checkout-cache and
 * fsck-cache stream blobs).  They must agree on every input: what one
 * accepts under its true id the other accepts, a wrong id is a hash
 * mismatch, and what one refuses the other refuses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cache.h"

/* Read it in pieces of 7 bytes: 0 when whole and good, else the fault. */
static int read_in_pieces(const uint8_t *data, size_t size,
			  const unsigned char *sha1)
{
	struct object_stream st;
	unsigned char piece[7];
	struct fault f;
	ssize_t n;

	f.code = FAULT_NONE;
	if (open_loose_stream(&st, data, size, &f) < 0) {
		close_object_stream(&st);
		return f.code;
	}
	if (sha1)
		verify_object_stream(&st, sha1);
	while ((n = read_object_stream(&st, piece, sizeof(piece), &f)) > 0)
		;
	close_object_stream(&st);
	return n ? (int)f.code : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char zero[HASH_MAX_RAWSZ];
	struct object_stream st;
	unsigned char sha1[HASH_MAX_RAWSZ];
	struct fault f;
	char *buf = NULL;

	if (!open_loose_stream(&st, data, size, &f))
		buf = read_object_stream_whole(&st, &f);
	close_object_stream(&st);
	if (!buf) {
		if (!read_in_pieces(data, size, NULL))
			abort();	/* in pieces, a refused object passed */
		return 0;
	}
	if (buf[st.size] != '\0')
		abort();	/* the content is always NUL-terminated */
	hash_sha1_file(buf, st.size, st.type, sha1);
	if (read_in_pieces(data, size, sha1))
		abort();	/* in pieces, a good object failed */
	if (memcmp(sha1, zero, 20) &&
	    read_in_pieces(data, size, zero) != FAULT_HASH_MISMATCH)
		abort();	/* a wrong id went unnoticed */
	free(buf);
	return 0;
}
