/*
 * libFuzzer target: inflate_whole against zlib's inflate() on the same
 * bytes, and inflate_windows against inflate_whole.  The first byte picks how the input is used: as a zlib stream
 * as it is, or as data deflated here (level and strategy from that
 * byte) with one bit of the stream flipped or none.  The second and
 * third give the size asked for, near the true one.  Both decoders must
 * accept the same streams, give the same bytes and use the same input,
 * with the Adler-32 checked and without.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../cache.h"

/* zlib's answer: 0 and *used when the stream gives exactly size bytes. */
static int zlib_inflate(const unsigned char *in, size_t len,
			unsigned char *out, size_t size, size_t *used,
			int checksum)
{
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		abort();
	inflateValidate(&z, checksum);
	z.next_in = (unsigned char *)in;
	z.avail_in = len;
	z.next_out = out;
	z.avail_out = size + 1;
	do
		ret = inflate(&z, Z_FINISH);
	while (ret == Z_OK);
	inflateEnd(&z);
	*used = z.total_in;
	return ret == Z_STREAM_END && z.total_out == size ? 0 : -1;
}

static unsigned char *deflated(const uint8_t *data, size_t size, int mode,
			       size_t *len)
{
	static const int strategies[] = {
		Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED
	};
	uLongf bound = compressBound(size) + 64;
	unsigned char *out = malloc(bound);
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (!out || deflateInit2(&z, (mode >> 1) % 10, Z_DEFLATED, 15, 8,
				 strategies[(mode >> 4) % 5]) != Z_OK)
		abort();
	z.next_in = (unsigned char *)data;
	z.avail_in = size;
	z.next_out = out;
	z.avail_out = bound;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	*len = z.total_out;
	deflateEnd(&z);
	return out;
}

/*
 * inflate_windows' sink: each piece checked at once against what
 * inflate_whole gave, when it gave the stream whole (ok).
 */
struct expected {
	const unsigned char *ours;
	size_t want, seen;
	int ok;
};

static int check_piece(void *data, const unsigned char *p, size_t n)
{
	struct expected *e = data;

	if (n > e->want - e->seen || (e->ok && memcmp(e->ours + e->seen, p, n)))
		__builtin_trap();
	e->seen += n;
	return 0;
}

/*
 * inflate_windows in a window of room bytes against inflate_whole's
 * answer (whole, used, ours): the same, or, in a tight window,
 * INFLATE_WINDOW after a true prefix.
 */
static void windows(const unsigned char *stream, size_t len, size_t want,
		    size_t room, int tight, int whole, size_t used,
		    const unsigned char *ours)
{
	unsigned char *window = malloc(room + INFLATE_SLACK);
	struct expected e = { ours, want, 0, !whole };
	size_t used_w;
	int w;

	if (!window)
		abort();
	w = inflate_windows(stream, len, want, &used_w, window, room,
			    check_piece, &e);
	if (w == INFLATE_WINDOW ? !tight :
	    !w != !whole || (!w && (used_w != used || e.seen != want)))
		__builtin_trap();
	free(window);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *stream, *ours, *theirs;
	size_t len, want, used_ours = 0, used_theirs = 0;
	int mode, skew, a, b, checksum;

	if (size < 3)
		return 0;
	mode = data[0];
	skew = (int)data[1] - 128;
	data += 2;
	size -= 2;
	if (mode & 1) {
		size_t flip;

		stream = deflated(data + 1, size - 1, mode, &len);
		flip = data[0] * 131u % (len * 8 + 8);
		if (flip < len * 8 && (mode & 0xc0))
			stream[flip / 8] ^= 1 << (flip % 8);
		want = size - 1;
	} else {
		stream = malloc(size);
		memcpy(stream, data, size);
		len = size;
		want = (size_t)data[0] << 4;
	}
	if (skew > -120 && skew < 120 && (skew >= 0 || want >= (size_t)-skew))
		want += skew % 4;
	ours = malloc(want + INFLATE_SLACK + 1);
	theirs = malloc(want + 1);
	for (checksum = 0; checksum < 2; checksum++) {
		a = inflate_whole(stream, len, ours, want, &used_ours,
				  checksum);
		b = zlib_inflate(stream, len, theirs, want, &used_theirs,
				 checksum);
		if (!a != !b)
			__builtin_trap();
		if (!a && (used_ours != used_theirs ||
			   memcmp(ours, theirs, want)))
			__builtin_trap();
	}
	a = inflate_whole(stream, len, ours, want, &used_ours, 0);
	windows(stream, len, want, 65536, 1, a, used_ours, ours);
	windows(stream, len, want, want + 65536, 0, a, used_ours, ours);
	free(ours);
	free(theirs);
	free(stream);
	return 0;
}
