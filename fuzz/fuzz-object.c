/*
 * libFuzzer target: a loose object's header and zlib stream, read the
 * two ways the tools read it.  unpack_object_buffer inflates it whole;
 * stream_blob_buffer (checkout-cache, fsck-cache) inflates a blob a
 * piece at a time.  They must agree on every input: a blob one accepts
 * under its true id the other accepts, a bad id is a hash mismatch,
 * and what one refuses the other refuses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cache.h"

static int stream_check(const uint8_t *data, size_t size,
			const unsigned char *sha1)
{
	enum object_type type;
	const char *why;

	return stream_blob_buffer(data, size, sha1, -1, &type, &why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char zero[20];
	unsigned char sha1[20];
	enum object_type type;
	const char *why;
	size_t len;
	char *buf = unpack_object_buffer(data, size, &type, &len, &why);

	if (buf && buf[len] != '\0')
		abort();	/* the content is always NUL-terminated */
	if (!buf) {
		if (!stream_check(data, size, zero))
			abort();	/* streamed, a refused object passed */
		return 0;
	}
	if (type == OBJ_BLOB) {
		hash_sha1_file(buf, len, type, sha1);
		if (stream_check(data, size, sha1))
			abort();	/* streamed, a good blob failed */
		if (memcmp(sha1, zero, 20) &&
		    stream_check(data, size, zero) != OBJECT_HASH_MISMATCH)
			abort();	/* a wrong id went unnoticed */
	} else if (stream_check(data, size, zero) != OBJECT_NOT_BLOB) {
		abort();
	}
	free(buf);
	return 0;
}
