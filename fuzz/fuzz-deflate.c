/*
 * libFuzzer target: the stream deflate_writer makes, inflated by zlib
 * and by inflate_whole with the Adler-32 checked, must give back the
 * input.  The first byte says how often the rest repeats (repeats make
 * long matches, full blocks and streams of several chunks), the second
 * the size of the pieces it is handed over in.  States are reused from
 * one run to the next, as the threads of an add reuse them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../cache.h"

#define INPUT_MAX (2 << 20)

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
	size_t repeat, piece, len, i, zlen;
	struct deflate_writer *w;
	unsigned char *in, *z;

	if (size < 2)
		return 0;
	repeat = 1 + (data[0] >> 4) * (data[0] >> 4) * 20;
	piece = 1 + data[1] * 1031;
	data += 2;
	size -= 2;
	if (size && repeat > INPUT_MAX / size)
		repeat = INPUT_MAX / size;
	len = size * repeat;
	in = malloc(len + 1);
	for (i = 0; i < repeat; i++)
		memcpy(in + i * size, data, size);
	w = deflate_writer_start(-1);
	for (i = 0; i < len || !i; i += piece) {
		size_t n = len - i < piece ? len - i : piece;

		if (deflate_writer_add(w, in + i, n, i + n == len))
			abort();
	}
	z = deflate_writer_result(w, &zlen);
	deflate_writer_end(w);
	if (zlen > len + len / 1024 + 64)
		abort();
	check_zlib(z, zlen, in, len);
	check_ours(z, zlen, in, len);
	free(z);
	free(in);
	return 0;
}
