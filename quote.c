/*
 * quote.c: paths in output quoted as git quotes them, so that a
 * script or `git apply` reading our output parses names the same way
 * (core.quotePath on: every byte >= 0x80 is escaped in octal).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cache.h"
#include "diff.h"

static int needs_escape(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\' || c >= 0x7f;
}

#define BYTES(c) (0x0101010101010101ULL * (c))

/* Has the word a zero byte?  Exact as to whether, not which. */
static uint64_t has_zero_byte(uint64_t x)
{
	return (x - BYTES(1)) & ~x & BYTES(0x80);
}

/* needs_escape for 8 bytes at once: listing a big index quotes nothing. */
static int word_needs_escape(uint64_t x)
{
	return ((x - BYTES(0x20)) & ~x & BYTES(0x80)) ||	/* < 0x20 */
	       (x & BYTES(0x80)) ||				/* >= 0x80 */
	       has_zero_byte(x ^ BYTES(0x7f)) ||
	       has_zero_byte(x ^ BYTES('"')) ||
	       has_zero_byte(x ^ BYTES('\\'));
}

int path_needs_quoting(const char *name, size_t len)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t x;

		memcpy(&x, name + i, 8);
		if (word_needs_escape(x))
			return 1;
	}
	for (; i < len; i++)
		if (needs_escape(name[i]))
			return 1;
	return 0;
}

/* The letter of a C escape for c, or 0 when c is written in octal. */
static char escape_letter(unsigned char c)
{
	switch (c) {
	case '\a': return 'a';
	case '\b': return 'b';
	case '\t': return 't';
	case '\n': return 'n';
	case '\v': return 'v';
	case '\f': return 'f';
	case '\r': return 'r';
	case '"': return '"';
	case '\\': return '\\';
	}
	return 0;
}

static void write_escaped(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (!needs_escape(c)) {
			putc(c, out);
		} else if (escape_letter(c)) {
			putc('\\', out);
			putc(escape_letter(c), out);
		} else {
			fprintf(out, "\\%03o", c);
		}
	}
}

void write_quoted_path(FILE *out, const char *prefix, const char *name,
		       size_t len)
{
	if (!path_needs_quoting(name, len) &&
	    !path_needs_quoting(prefix, strlen(prefix))) {
		fputs(prefix, out);
		fwrite(name, 1, len, out);
		return;
	}
	putc('"', out);
	write_escaped(out, prefix, strlen(prefix));
	write_escaped(out, name, len);
	putc('"', out);
}

void write_name_field(FILE *out, const char *name, size_t len, int nul)
{
	if (nul) {
		putc('\0', out);
		fwrite(name, 1, len, out);
		putc('\0', out);
	} else {
		putc('\t', out);
		write_quoted_path(out, "", name, len);
		putc('\n', out);
	}
}
