/* libFuzzer target: a loose object's header and zlib stream. */
#include <stdint.h>
#include <stdlib.h>

#include "../cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum object_type type;
	const char *why;
	size_t len;
	char *buf = unpack_object_buffer(data, size, &type, &len, &why);

	if (buf && buf[len] != '\0')
		abort();	/* the content is always NUL-terminated */
	free(buf);
	return 0;
}
