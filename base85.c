/*
 * base85.c: git's base-85, the text form of the binary hunks of a
 * patch: each 4 bytes, big-endian (the last ones zero-padded), as 5
 * digits, most significant first.  diff-print.c writes it, the patch
 * reader reads it back.
 */
#include <string.h>

#include "cache.h"

/* git's base85 digits, in value order. */
static const char base85_digit[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	"abcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";

void encode_85(char *out, const unsigned char *data, size_t len)
{
	size_t i;
	int j;

	for (i = 0; i < len; i += 4) {
		uint32_t v = 0;

		for (j = 0; j < 4; j++)
			v = v << 8 | (i + j < len ? data[i + j] : 0);
		for (j = 4; j >= 0; j--) {
			out[j] = base85_digit[v % 85];
			v /= 85;
		}
		out += 5;
	}
}

static int digit_value(unsigned char c)
{
	const char *p = c ? strchr(base85_digit, c) : NULL;

	return p ? (int)(p - base85_digit) : -1;
}

int decode_85(unsigned char *out, const char *text, size_t len)
{
	while (len) {
		uint64_t v = 0;
		int j;

		for (j = 0; j < 5; j++) {
			int d = digit_value(text[j]);

			if (d < 0)
				return -1;
			v = v * 85 + d;
		}
		if (v > 0xffffffffu)
			return -1;
		for (j = 0; j < 4 && len; j++, len--)
			*out++ = v >> (24 - 8 * j);
		text += 5;
	}
	return 0;
}
