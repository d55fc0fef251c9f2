/*
 * mail-decode.c: the pieces of a mail's text that git mailinfo
 * decodes: quoted-printable and base64, RFC 2047 encoded words in
 * headers, character sets (through iconv(3) from libc), the
 * "[PATCH n/m]" noise in front of a subject, and the name and address
 * of a From: line.  The rules are git's, read from its documentation
 * and checked against its output, so that a mail gives the same
 * commit here and under git am.
 */
#define _GNU_SOURCE	/* strcasestr, memmem */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "mail.h"

/* ---- transfer encodings ---- */

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * "=XX" is a byte; "=" at the end of the text or before a newline is
 * a soft line break, which ends the decoded text as it does in git.
 * Decoding stops at a NUL, as git's does.
 */
void decode_qp(struct mbuf *out, const char *in, size_t len, int rfc2047)
{
	const char *end = in + len;

	mbuf_grow(out, len);
	while (in < end && *in) {
		int c = (unsigned char)*in++;

		if (c == '=') {
			int hi, lo;

			if (in == end || *in == '\n' || !*in)
				break;
			hi = hex_value((unsigned char)*in);
			lo = in + 1 < end ? hex_value((unsigned char)in[1]) : -1;
			if (hi >= 0 && lo >= 0) {
				mbuf_addch(out, hi << 4 | lo);
				in += 2;
				continue;
			}
		}
		if (rfc2047 && c == '_')
			c = ' ';
		mbuf_addch(out, c);
	}
}

static int base64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Characters outside the alphabet ('=' included) are skipped. */
void decode_base64(struct mbuf *out, const char *in, size_t len)
{
	const char *end = in + len;
	int pos = 0, acc = 0;

	mbuf_grow(out, len);
	for (; in < end && *in; in++) {
		int v = base64_value((unsigned char)*in);

		if (v < 0)
			continue;
		switch (pos++) {
		case 0:
			acc = v << 2;
			break;
		case 1:
			mbuf_addch(out, acc | v >> 4);
			acc = (v & 15) << 4;
			break;
		case 2:
			mbuf_addch(out, acc | v >> 2);
			acc = (v & 3) << 6;
			break;
		default:
			mbuf_addch(out, acc | v);
			acc = pos = 0;
			break;
		}
	}
}

/* ---- character sets ---- */

static int is_utf8_name(const char *name)
{
	return !strcasecmp(name, "utf-8") || !strcasecmp(name, "utf8");
}

static int same_encoding(const char *a, const char *b)
{
	if (is_utf8_name(a) && is_utf8_name(b))
		return 1;
	return !strcasecmp(a, b);
}

static int iconv_all(iconv_t cd, const struct mbuf *in, struct mbuf *out)
{
	char *src = in->buf;
	size_t left = in->len;

	while (left) {
		char *dst;
		size_t room;

		if (mbuf_grow(out, left * 2 + 16) < 0)
			return -1;
		dst = out->buf + out->len;
		room = out->alloc - out->len - 1;
		if (iconv(cd, &src, &left, &dst, &room) == (size_t)-1 &&
		    errno != E2BIG)
			return -1;
		out->len = dst - out->buf;
		out->buf[out->len] = '\0';
	}
	return 0;
}

int convert_charset(struct mbuf *b, const char *to, const char *charset)
{
	struct mbuf out = MBUF_INIT;
	iconv_t cd;

	if (!to || !charset || !*charset || same_encoding(to, charset))
		return 0;
	cd = iconv_open(to, charset);
	if (cd == (iconv_t)-1 && is_utf8_name(charset))
		cd = iconv_open(to, "UTF-8");
	if (cd == (iconv_t)-1)
		return error("cannot convert from %s to %s", charset, to);
	if (b->len && iconv_all(cd, b, &out) < 0 && !out.failed) {
		iconv_close(cd);
		mbuf_release(&out);
		return error("cannot convert from %s to %s", charset, to);
	}
	iconv_close(cd);
	mbuf_reset(b);
	mbuf_addbuf(b, &out);	/* out of memory: b fails too */
	mbuf_release(&out);
	return 0;
}

/* ---- headers ---- */

/*
 * Decode one "=?charset?X?text?=" word starting at p (after "=?");
 * append it to out and return the text after it, or NULL.
 */
static const char *decode_word(struct mbuf *out, const char *p,
			       const char *to_charset)
{
	struct mbuf charset = MBUF_INIT, dec = MBUF_INIT;
	const char *q, *end;
	int enc;

	q = strchr(p, '?');
	if (!q || !q[1] || q[2] != '?')
		return NULL;
	enc = tolower((unsigned char)q[1]);
	end = strstr(q + 3, "?=");
	if (!end || (enc != 'b' && enc != 'q'))
		return NULL;
	mbuf_add(&charset, p, q - p);
	if (enc == 'b')
		decode_base64(&dec, q + 3, end - (q + 3));
	else
		decode_qp(&dec, q + 3, end - (q + 3), 1);
	if (charset.failed)
		mbuf_addbuf(out, &charset);	/* out fails too */
	else if (convert_charset(&dec, to_charset, mbuf_str(&charset)) < 0)
		end = NULL;
	else
		mbuf_addbuf(out, &dec);
	mbuf_release(&charset);
	mbuf_release(&dec);
	return end ? end + 2 : NULL;
}

/*
 * Whitespace between two encoded words is dropped (RFC 2047 6.2);
 * any other text is kept.  On a bad word b is left as it was.
 */
int decode_header_words(struct mbuf *b, const char *to_charset)
{
	struct mbuf out = MBUF_INIT;
	const char *in = mbuf_str(b), *start = in, *ep;

	while ((ep = strstr(in, "=?")) != NULL) {
		const char *scan = in;

		while (scan < ep && isspace((unsigned char)*scan))
			scan++;
		if (scan != ep || in == start)
			mbuf_add(&out, in, ep - in);
		in = decode_word(&out, ep + 2, to_charset);
		if (!in) {
			mbuf_release(&out);
			return -1;
		}
	}
	mbuf_addstr(&out, in);
	mbuf_reset(b);
	mbuf_addbuf(b, &out);
	mbuf_release(&out);
	return 0;
}

void collapse_space(struct mbuf *b)
{
	size_t pos, run;

	for (pos = 0; pos < b->len; pos++) {
		if (!isspace((unsigned char)b->buf[pos]))
			continue;
		b->buf[pos] = ' ';
		for (run = 0; pos + run + 1 < b->len &&
		     isspace((unsigned char)b->buf[pos + run + 1]); run++)
			;
		mbuf_remove(b, pos + 1, run);
	}
}

void cleanup_subject(struct mbuf *s, int keep_brackets)
{
	size_t at = 0;

	while (at < s->len) {
		char c = s->buf[at];
		const char *close;
		size_t n;

		if (c == ' ' || c == '\t' || c == ':') {
			mbuf_remove(s, at, 1);
			continue;
		}
		if ((c == 'r' || c == 'R') && s->len > at + 3 &&
		    (s->buf[at + 1] == 'e' || s->buf[at + 1] == 'E') &&
		    s->buf[at + 2] == ':') {
			mbuf_remove(s, at, 3);
			continue;
		}
		if (c != '[')
			break;
		close = strchr(s->buf + at, ']');
		if (!close)
			break;
		n = close - (s->buf + at) + 1;
		if (!keep_brackets ||
		    (n >= 7 && memmem(s->buf + at, n, "PATCH", 5))) {
			mbuf_remove(s, at, n);
		} else {
			at += n;
			if (at < s->len && isspace((unsigned char)s->buf[at]))
				at++;
		}
	}
	mbuf_trim(s);
}

/* Copy a "quoted string" (after its '"') unquoted; return what follows. */
static const char *unquote_string(struct mbuf *out, const char *in)
{
	int literal = 0;

	for (; *in; in++) {
		if (literal)
			literal = 0;
		else if (*in == '\\') {
			literal = 1;
			continue;
		} else if (*in == '"')
			return in + 1;
		mbuf_addch(out, *in);
	}
	return in;
}

/* Copy a (comment), nested, after its '('; return what follows. */
static const char *unquote_comment(struct mbuf *out, const char *in)
{
	int literal = 0, depth = 1;

	mbuf_addch(out, '(');
	for (; *in; in++) {
		if (literal) {
			literal = 0;
		} else if (*in == '\\') {
			literal = 1;
			continue;
		} else if (*in == '(') {
			depth++;
		} else if (*in == ')') {
			mbuf_addch(out, ')');
			if (!--depth)
				return in + 1;
			continue;
		}
		mbuf_addch(out, *in);
	}
	return in;
}

static void unquote_pairs(struct mbuf *b)
{
	struct mbuf out = MBUF_INIT;
	const char *in = mbuf_str(b);

	while (*in) {
		char c = *in++;

		if (c == '"')
			in = unquote_string(&out, in);
		else if (c == '(')
			in = unquote_comment(&out, in);
		else
			mbuf_addch(&out, c);
	}
	mbuf_reset(b);
	mbuf_addbuf(b, &out);
	mbuf_release(&out);
}

/* An empty name, one too long or one holding "@<>" is the email. */
static void sane_name(struct mbuf *name, const struct mbuf *candidate,
		      const struct mbuf *email)
{
	const struct mbuf *src = candidate;
	struct mbuf tmp = MBUF_INIT;

	if (!candidate->failed && (!candidate->len || candidate->len > 60 ||
				   strpbrk(mbuf_str(candidate), "@<>")))
		src = email;
	mbuf_addbuf(&tmp, src);
	mbuf_reset(name);
	mbuf_addbuf(name, &tmp);
	mbuf_release(&tmp);
}

/* "John Doe <johndoe>": an address without '@'. */
static void parse_bogus_from(const struct mbuf *from, struct mbuf *name,
			     struct mbuf *email)
{
	const char *s = mbuf_str(from);
	const char *bra = strchr(s, '<'), *ket;
	struct mbuf n = MBUF_INIT;

	if (!bra || !(ket = strchr(bra, '>')))
		return;
	mbuf_reset(email);
	mbuf_add(email, bra + 1, ket - bra - 1);
	mbuf_add(&n, s, bra - s);
	mbuf_trim(&n);
	sane_name(name, &n, email);
	mbuf_release(&n);
}

void parse_from(const struct mbuf *from, struct mbuf *name,
		struct mbuf *email)
{
	struct mbuf f = MBUF_INIT;
	char *at;
	size_t el;

	mbuf_reset(name);
	mbuf_reset(email);
	mbuf_addbuf(&f, from);
	unquote_pairs(&f);
	if (f.failed) {
		mbuf_addbuf(name, &f);	/* name fails too */
		goto out;
	}
	at = strchr(f.buf, '@');
	if (!at) {
		parse_bogus_from(from, name, email);
		goto out;
	}
	/* The address runs around '@', possibly inside <>. */
	while (at > f.buf) {
		char c = at[-1];

		if (isspace((unsigned char)c))
			break;
		if (c == '<') {
			at[-1] = ' ';
			break;
		}
		at--;
	}
	el = strcspn(at, " \n\t\r\v\f>");
	mbuf_add(email, at, el);
	mbuf_remove(&f, at - f.buf, el + (at[el] ? 1 : 0));
	/* What is left is the name, perhaps as "(John Doe)". */
	collapse_space(&f);
	mbuf_trim(&f);
	if (f.len && f.buf[0] == '(' && f.buf[f.len - 1] == ')') {
		mbuf_remove(&f, 0, 1);
		mbuf_setlen(&f, f.len - 1);
	}
	sane_name(name, &f, email);
out:
	mbuf_release(&f);
}
