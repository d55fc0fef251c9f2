/*
 * libFuzzer target: deflate_whole's stream inflated by zlib and by
 * inflate_whole, Adler-32 checked, must give back the input.  The first
 * byte picks how much of the rest is the header (up to 31 bytes) and
 * how often the data repeats (repeats make long matches and blocks of
 * many symbols); states are reused from one run to the next, as the
 * threads of an add reuse them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../cache.h"

static void check_zlib(const unsigned char *z, size_t zlen,
		       const unsigned char *want, size_t size)
{
	unsigned char *out = malloc(size + 1);
	uLongf got = size + 1;

	if (uncompress(out, &got, z, zlen) != Z_OK || got != size ||
	    memcmp(out, want, size))
		abort();
	free(out);
}

static void check_ours(const unsigned char *z, size_t zlen,
		       const unsigned char *want, size_t size)
{
	unsigned char *out = malloc(size + INFLATE_SLACK);
	size_t used;

	if (inflate_whole(z, zlen, out, size, &used, 1) || used != zlen ||
	    memcmp(out, want, size))
		abort();
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t hdrlen, len, repeat, i, zlen;
	unsigned char *in, *z;

	if (!size)
		return 0;
	hdrlen = data[0] & 31;
	repeat = 1 + (data[0] >> 5) * (data[0] >> 5) * 40;
	data++;
	size--;
	if (hdrlen > size)
		hdrlen = size;
	len = (size - hdrlen) * repeat;
	in = malloc(hdrlen + len + 1);
	memcpy(in, data, hdrlen);
	for (i = 0; i < repeat; i++)
		memcpy(in + hdrlen + i * (size - hdrlen), data + hdrlen,
		       size - hdrlen);
	z = deflate_whole(in, hdrlen, in + hdrlen, len, &zlen);
	if (zlen > deflate_whole_bound(hdrlen + len))
		abort();
	check_zlib(z, zlen, in, hdrlen + len);
	check_ours(z, zlen, in, hdrlen + len);
	free(z);
	free(in);
	return 0;
}
