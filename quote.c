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

/* c as it stands in a quoted name, in e (up to 4 bytes); its length. */
static size_t escape_byte(unsigned char c, char *e)
{
	if (!needs_escape(c)) {
		e[0] = c;
		return 1;
	}
	e[0] = '\\';
	if (escape_letter(c)) {
		e[1] = escape_letter(c);
		return 2;
	}
	e[1] = '0' + (c >> 6);
	e[2] = '0' + ((c >> 3) & 7);
	e[3] = '0' + (c & 7);
	return 4;
}

static void write_escaped(FILE *out, const char *s, size_t len)
{
	size_t i;
	char e[4];

	for (i = 0; i < len; i++)
		fwrite(e, 1, escape_byte(s[i], e), out);
}

static int add_escaped(struct mbuf *b, const char *s, size_t len)
{
	size_t i;
	char e[4];

	for (i = 0; i < len; i++)
		if (mbuf_add(b, e, escape_byte(s[i], e)) < 0)
			return -1;
	return 0;
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

int add_quoted_path(struct mbuf *b, const char *prefix, const char *name,
		    size_t len)
{
	if (!path_needs_quoting(name, len) &&
	    !path_needs_quoting(prefix, strlen(prefix))) {
		mbuf_addstr(b, prefix);
		return mbuf_add(b, name, len);
	}
	mbuf_addch(b, '"');
	add_escaped(b, prefix, strlen(prefix));
	add_escaped(b, name, len);
	return mbuf_addch(b, '"');
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
