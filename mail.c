/*
 * mail.c: one mail read as git mailinfo reads it.  The headers give
 * From, Subject and Date (RFC 2047 words decoded), the content type
 * (a multipart boundary, a charset) and the transfer encoding.  The
 * body, decoded part by part, goes line by line through two stages:
 * the description, until a line that starts a patch ("diff -",
 * "Index: ", "--- file" or a "---" separator), then the patch.  At
 * the top of the description, "From:", "Subject:" and "Date:" lines
 * (in-body headers) override the mail's own, as they do in git, for a
 * mail forwarded on someone else's behalf.
 *
 * The whole mail is in memory; lines are read from it with their
 * newline, and may hold any byte.
 */
#define _GNU_SOURCE	/* strcasestr, memmem */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "mail.h"

/* The headers mailinfo reports, in the order it prints them. */
enum { HDR_FROM, HDR_SUBJECT, HDR_DATE, HDR_NR };
static const char *const header_names[HDR_NR] = { "From", "Subject", "Date" };

/* Multiparts nested deeper than this are refused, as git refuses them. */
#define MAX_BOUNDARIES 4

enum transfer_encoding { TE_NONE, TE_QP, TE_BASE64 };

struct header {
	struct mbuf text;
	int set;
};

struct reader {
	const char *buf;
	size_t len, pos;
	struct mail_info *mi;
	struct header mail_hdr[HDR_NR];		/* the mail's headers */
	struct header body_hdr[HDR_NR];		/* in-body headers */
	struct mbuf *boundary[MAX_BOUNDARIES + 1];
	int top;				/* boundary[top]; 0: none */
	struct mbuf charset;
	enum transfer_encoding encoding;
	int header_stage;	/* still at the top of the description */
	int in_patch;
	struct mbuf accum;	/* an in-body header being unfolded */
	int oom;		/* a buffer ran out of memory: stop */
};

/*
 * Note when b ran out of memory (its writes failed, mbuf.c): what it
 * holds is cut short, so the mail cannot be read whole.  Returns
 * whether it did.
 */
static int check_buf(struct reader *r, const struct mbuf *b)
{
	if (b->failed)
		r->oom = 1;
	return b->failed;
}

/* The next line with its newline; 0 at the end of the mail. */
static int read_line(struct reader *r, struct mbuf *line)
{
	const char *p = r->buf + r->pos, *nl;
	size_t n;

	mbuf_reset(line);
	if (r->pos >= r->len)
		return 0;
	nl = memchr(p, '\n', r->len - r->pos);
	n = nl ? (size_t)(nl + 1 - p) : r->len - r->pos;
	mbuf_add(line, p, n);
	r->pos += n;
	return 1;
}

/* The next line without its newline. */
static int read_line_lf(struct reader *r, struct mbuf *line)
{
	if (!read_line(r, line))
		return 0;
	if (line->len && line->buf[line->len - 1] == '\n')
		mbuf_setlen(line, line->len - 1);
	return 1;
}

/* "name:" with a name of printable characters, or an mbox From line. */
static int is_header_line(const char *s)
{
	if (!strncmp(s, "From ", 5) || !strncmp(s, ">From ", 6))
		return 1;
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == ':')
			return 1;
		if (c < 33 || c > 126)
			return 0;
	}
	return 0;
}

/*
 * One header, unfolded, trailing blanks trimmed.  Returns 0 at a
 * blank line or a line that is no header: line then holds it, with a
 * newline.
 */
static int read_header_line(struct reader *r, struct mbuf *line)
{
	struct mbuf more = MBUF_INIT;

	if (!read_line_lf(r, line))
		return 0;
	mbuf_rtrim(line);
	if (!line->len || !is_header_line(line->buf)) {
		mbuf_addch(line, '\n');
		return 0;
	}
	while (r->pos < r->len &&
	       (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\t')) {
		read_line_lf(r, &more);
		if (check_buf(r, &more) || !more.len)
			break;
		more.buf[0] = ' ';
		mbuf_rtrim(&more);
		mbuf_add(line, more.buf, more.len);
	}
	mbuf_release(&more);
	return !check_buf(r, line);
}

/*
 * "Name:" at the start of line (any case): the value after the colon
 * and its leading blanks, else NULL.
 */
static const char *skip_header(const struct mbuf *line, const char *name)
{
	size_t n = strlen(name);
	const char *v;

	if (line->len <= n || strncasecmp(line->buf, name, n) ||
	    line->buf[n] != ':')
		return NULL;
	for (v = line->buf + n + 1; isspace((unsigned char)*v); v++)
		;
	return v;
}

/* Value of "name=" or name="..." in a header, as git reads it. */
static int header_attr(const char *text, const char *name, struct mbuf *out)
{
	const char *p = strcasestr(text, name);
	const char *stop = "; \t";

	mbuf_reset(out);
	if (!p)
		return 0;
	p += strlen(name);
	if (*p == '"') {
		p++;
		stop = "\"";
	}
	mbuf_add(out, p, strcspn(p, stop));
	return 1;
}

/*
 * A boundary= pushes a multipart, up to MAX_BOUNDARIES deep; one more
 * is an input error, and then its charset= is not read (as in git).
 */
static void content_type(struct reader *r, const struct mbuf *value)
{
	struct mbuf *boundary = xcalloc(1, sizeof(*boundary));

	if (header_attr(mbuf_str(value), "boundary=", boundary)) {
		mbuf_insert(boundary, 0, "--", 2);
		if (check_buf(r, boundary)) {
			mbuf_release(boundary);
			free(boundary);
			return;
		}
		if (r->top == MAX_BOUNDARIES) {
			error("multipart nested more than %d deep: too many "
			      "MIME boundaries", MAX_BOUNDARIES);
			r->mi->input_error = 1;
			mbuf_release(boundary);
			free(boundary);
			return;
		}
		r->boundary[++r->top] = boundary;
		boundary = NULL;
	}
	header_attr(mbuf_str(value), "charset=", &r->charset);
	if (boundary) {
		mbuf_release(boundary);
		free(boundary);
	}
}

static void transfer_encoding(struct reader *r, const struct mbuf *value)
{
	if (strcasestr(mbuf_str(value), "base64"))
		r->encoding = TE_BASE64;
	else if (strcasestr(mbuf_str(value), "quoted-printable"))
		r->encoding = TE_QP;
	else
		r->encoding = TE_NONE;
}

/* The value from v to the end of line, RFC 2047 words decoded. */
static void header_value(struct reader *r, const struct mbuf *line,
			 const char *v, struct mbuf *value)
{
	mbuf_add(value, v, line->len - (v - line->buf));
	if (decode_header_words(value, r->mi->charset) < 0)
		r->mi->input_error = 1;
}

/*
 * Record a header we care about in hdr (replacing an earlier one when
 * overwrite); returns whether it was one.
 */
static int check_header(struct reader *r, const struct mbuf *line,
			struct header *hdr, int overwrite)
{
	struct mbuf value = MBUF_INIT;
	const char *v;
	int i, ret = 1;

	for (i = 0; i < HDR_NR; i++) {
		if ((hdr[i].set && !overwrite) ||
		    !(v = skip_header(line, header_names[i])))
			continue;
		header_value(r, line, v, &value);
		mbuf_reset(&hdr[i].text);
		mbuf_addbuf(&hdr[i].text, &value);
		check_buf(r, &hdr[i].text);
		hdr[i].set = 1;
		goto out;
	}
	if ((v = skip_header(line, "Content-Type"))) {
		header_value(r, line, v, &value);
		if (!check_buf(r, &value))
			content_type(r, &value);
	} else if ((v = skip_header(line, "Content-Transfer-Encoding"))) {
		header_value(r, line, v, &value);
		if (!check_buf(r, &value))
			transfer_encoding(r, &value);
	} else if (!skip_header(line, "Message-Id")) {
		ret = 0;
	}
out:
	mbuf_release(&value);
	return ret;
}

/*
 * The first line of a format-patch mail quoted into a body:
 * "From <40 hex> Mon Sep 17 00:00:00 2001\n" exactly.  40 whatever the
 * store's hash: git 2.39's mailinfo knows only SHA-1's (it need not run
 * in a repository), and we split mails as it does.
 */
static int is_format_patch_separator(const char *line, size_t len)
{
	static const char tail[] = " Mon Sep 17 00:00:00 2001\n";
	size_t i;

	if (len != 5 + 40 + strlen(tail) || strncmp(line, "From ", 5))
		return 0;
	for (i = 5; i < 45; i++)
		if (!strchr("0123456789abcdef", line[i]) || !line[i])
			return 0;
	return !memcmp(line + 45, tail, strlen(tail));
}

static void flush_inbody_header(struct reader *r)
{
	if (!r->accum.len)
		return;
	check_header(r, &r->accum, r->body_hdr, 0);
	mbuf_reset(&r->accum);
}

/* "From:", "Subject:" or "Date:" not yet seen in the body. */
static int is_inbody_header(struct reader *r, const struct mbuf *line)
{
	int i;

	for (i = 0; i < HDR_NR; i++) {
		size_t n = strlen(header_names[i]);

		if (!r->body_hdr[i].set &&
		    !strncasecmp(line->buf, header_names[i], n) &&
		    line->buf[n] == ':')
			return 1;
	}
	return 0;
}

/* Whether a line at the top of the description is an in-body header. */
static int check_inbody_header(struct reader *r, const struct mbuf *line)
{
	const char *s = line->buf;

	if (r->accum.len && (s[0] == ' ' || s[0] == '\t')) {
		if (r->accum.buf[r->accum.len - 1] == '\n')
			mbuf_setlen(&r->accum, r->accum.len - 1);
		mbuf_add(&r->accum, s, line->len);
		return 1;
	}
	flush_inbody_header(r);
	if (!strncmp(s, ">From", 5) && isspace((unsigned char)s[5]))
		return is_format_patch_separator(s + 1, line->len - 1);
	if (!strncmp(s, "[PATCH]", 7) && isspace((unsigned char)s[7])) {
		struct header *h = &r->body_hdr[HDR_SUBJECT];

		mbuf_reset(&h->text);
		mbuf_add(&h->text, s, line->len);
		check_buf(r, &h->text);
		h->set = 1;
		return 1;
	}
	if (is_inbody_header(r, line)) {
		mbuf_add(&r->accum, s, line->len);
		check_buf(r, &r->accum);
		return 1;
	}
	return 0;
}

/* Whether the line starts the patch (or is the "---" separator). */
static int is_patch_break(const struct mbuf *line)
{
	const char *s = line->buf;
	size_t i;

	if (!strncmp(s, "diff -", 6) || !strncmp(s, "Index: ", 7))
		return 1;
	if (line->len < 4 || strncmp(s, "---", 3))
		return 0;
	if (s[3] == ' ' && !isspace((unsigned char)s[4]))
		return 1;
	for (i = 3; i < line->len; i++) {
		if (s[i] == '\n')
			return 1;
		if (!isspace((unsigned char)s[i]))
			break;
	}
	return 0;
}

/* A line of the description; returns 1 when it starts the patch. */
static int description_line(struct reader *r, struct mbuf *line)
{
	if (r->header_stage && (!line->len ||
				(line->len == 1 && line->buf[0] == '\n'))) {
		if (r->accum.len) {
			flush_inbody_header(r);
			r->header_stage = 0;
		}
		return 0;
	}
	if (r->header_stage) {
		r->header_stage = check_inbody_header(r, line);
		if (r->header_stage)
			return 0;
	}
	if (convert_charset(line, r->mi->charset, mbuf_str(&r->charset)) < 0) {
		r->mi->input_error = 1;
		return 0;
	}
	if (check_buf(r, line))
		return 0;
	if (is_patch_break(line))
		return 1;
	mbuf_add(&r->mi->msg, line->buf, line->len);
	return 0;
}

/* One line of the body; a line cut short by out of memory stops all. */
static void body_line(struct reader *r, struct mbuf *line)
{
	if (mbuf_grow(line, 0) < 0 || r->oom) {
		r->oom = 1;
		return;
	}
	if (!r->in_patch && !description_line(r, line))
		return;
	if (r->oom)
		return;
	r->in_patch = 1;
	mbuf_add(&r->mi->patch, line->buf, line->len);
	r->mi->patch_lines++;
}

static int is_boundary(struct reader *r, const struct mbuf *line)
{
	const struct mbuf *b = r->boundary[r->top];

	return b && b->len <= line->len && !memcmp(line->buf, b->buf, b->len);
}

/* Skip to the next line that is the current boundary. */
static int find_boundary(struct reader *r, struct mbuf *line)
{
	while (read_line_lf(r, line)) {
		if (check_buf(r, line))
			return 0;
		if (is_boundary(r, line))
			return 1;
	}
	return 0;
}

/*
 * At a boundary line: an end boundary pops its multipart and skips to
 * the enclosing one's next boundary; a part boundary reads the part's
 * headers and leaves its first line in line.  0 when the body is over.
 * Only the first end boundary met here gives the body a blank line:
 * git's mailinfo gives the ends that follow it in one go (nested
 * multiparts ending together) an empty one, and its patch is ours.
 */
static int handle_boundary(struct reader *r, struct mbuf *line)
{
	struct mbuf newline = MBUF_INIT;

	mbuf_addch(&newline, '\n');
	for (;;) {
		const struct mbuf *b = r->boundary[r->top];

		if (line->len < b->len + 2 || memcmp(line->buf + b->len, "--", 2))
			break;
		mbuf_release(r->boundary[r->top]);
		free(r->boundary[r->top]);
		r->boundary[r->top--] = NULL;
		body_line(r, &newline);
		mbuf_reset(&newline);	/* the next ends give "" */
		/* After the outermost end, nothing more is read. */
		if (r->mi->input_error || r->oom ||
		    !find_boundary(r, line)) {
			mbuf_release(&newline);
			return 0;
		}
	}
	mbuf_release(&newline);
	r->encoding = TE_NONE;
	mbuf_reset(&r->charset);
	while (read_header_line(r, line))
		check_header(r, line, r->mail_hdr, 0);
	if (r->oom || !read_line_lf(r, line))
		return 0;
	mbuf_addch(line, '\n');
	return !check_buf(r, line);
}

/* A decoded chunk: whole lines go on, a partial one waits in prev. */
static void decoded_lines(struct reader *r, struct mbuf *text,
			  struct mbuf *prev)
{
	size_t start = 0;
	struct mbuf one = MBUF_INIT;

	mbuf_insert(text, 0, mbuf_str(prev), prev->len);
	mbuf_reset(prev);
	if (check_buf(r, text) || check_buf(r, prev))
		return;
	while (start < text->len && !r->oom) {
		const char *nl = memchr(text->buf + start, '\n',
					text->len - start);
		size_t n = nl ? (size_t)(nl + 1 - (text->buf + start)) :
				text->len - start;

		if (!nl) {
			mbuf_add(prev, text->buf + start, n);
			break;
		}
		mbuf_reset(&one);
		mbuf_add(&one, text->buf + start, n);
		body_line(r, &one);
		start += n;
	}
	mbuf_release(&one);
}

static void decode_line(struct reader *r, struct mbuf *line)
{
	struct mbuf out = MBUF_INIT;

	if (r->encoding == TE_QP)
		decode_qp(&out, mbuf_str(line), line->len, 0);
	else
		decode_base64(&out, mbuf_str(line), line->len);
	mbuf_reset(line);
	mbuf_addbuf(line, &out);	/* out of memory: line fails too */
	mbuf_release(&out);
}

static void read_body(struct reader *r, struct mbuf *line)
{
	struct mbuf prev = MBUF_INIT;

	if (r->top && !find_boundary(r, line))
		goto out;
	do {
		if (r->top && is_boundary(r, line)) {
			if (prev.len) {
				body_line(r, &prev);
				mbuf_reset(&prev);
			}
			if (!handle_boundary(r, line))
				goto out;
		}
		if (r->encoding == TE_NONE) {
			body_line(r, line);
		} else {
			decode_line(r, line);
			decoded_lines(r, line, &prev);
		}
		if (r->mi->input_error || r->oom)
			break;
	} while (read_line(r, line));
	if (prev.len)
		body_line(r, &prev);
	flush_inbody_header(r);
out:
	check_buf(r, &prev);
	mbuf_release(&prev);
}

static const struct mbuf *chosen_header(struct reader *r, int i)
{
	if (r->mi->patch_lines && r->body_hdr[i].set)
		return &r->body_hdr[i].text;
	if (r->mail_hdr[i].set)
		return &r->mail_hdr[i].text;
	return NULL;
}

/* One "Name: value" line per line of the value. */
static void info_lines(struct mbuf *info, const char *name, const char *val)
{
	for (;;) {
		const char *nl = strchr(val, '\n');
		size_t n = nl ? (size_t)(nl - val) : strlen(val);

		mbuf_addstr(info, name);
		mbuf_addstr(info, ": ");
		mbuf_add(info, val, n);
		mbuf_addch(info, '\n');
		if (!nl)
			break;
		val = nl + 1;
	}
}

/* The lines git mailinfo prints: Author, Email, Subject, Date. */
static void write_info(struct reader *r)
{
	struct mail_info *mi = r->mi;
	struct mbuf hdr = MBUF_INIT, name = MBUF_INIT, email = MBUF_INIT;
	int i;

	for (i = 0; i < HDR_NR; i++) {
		const struct mbuf *h = chosen_header(r, i);

		if (!h)
			continue;
		mbuf_reset(&hdr);
		if (mbuf_addbuf(&hdr, h) < 0)
			break;
		if (memchr(hdr.buf, '\0', hdr.len)) {
			error("a NUL byte in '%s' is not allowed",
			      header_names[i]);
			mi->input_error = 1;
		}
		if (i == HDR_SUBJECT) {
			if (!mi->keep_subject) {
				cleanup_subject(&hdr, mi->keep_brackets);
				collapse_space(&hdr);
			}
			info_lines(&mi->info, "Subject", mbuf_str(&hdr));
		} else if (i == HDR_FROM) {
			collapse_space(&hdr);
			parse_from(&hdr, &name, &email);
			info_lines(&mi->info, "Author", mbuf_str(&name));
			info_lines(&mi->info, "Email", mbuf_str(&email));
		} else {
			collapse_space(&hdr);
			info_lines(&mi->info, header_names[i], mbuf_str(&hdr));
		}
	}
	mbuf_addch(&mi->info, '\n');
	check_buf(r, &hdr);
	check_buf(r, &name);
	check_buf(r, &email);
	check_buf(r, &mi->info);
	mbuf_release(&hdr);
	mbuf_release(&name);
	mbuf_release(&email);
}

void mail_info_init(struct mail_info *mi)
{
	memset(mi, 0, sizeof(*mi));
	mi->charset = "UTF-8";
}

void mail_info_release(struct mail_info *mi)
{
	mbuf_release(&mi->info);
	mbuf_release(&mi->msg);
	mbuf_release(&mi->patch);
}

/* Release r's buffers, noting one that had run out of memory. */
static void release_reader(struct reader *r)
{
	int i;

	for (i = 0; i < HDR_NR; i++) {
		check_buf(r, &r->mail_hdr[i].text);
		check_buf(r, &r->body_hdr[i].text);
		mbuf_release(&r->mail_hdr[i].text);
		mbuf_release(&r->body_hdr[i].text);
	}
	for (i = 0; i <= MAX_BOUNDARIES; i++) {
		if (r->boundary[i])
			mbuf_release(r->boundary[i]);
		free(r->boundary[i]);
	}
	check_buf(r, &r->charset);
	check_buf(r, &r->accum);
	mbuf_release(&r->charset);
	mbuf_release(&r->accum);
}

int parse_mail(struct mail_info *mi, const char *mail, size_t len)
{
	struct reader r;
	struct mbuf line = MBUF_INIT;
	size_t skip = 0;

	memset(&r, 0, sizeof(r));
	r.buf = mail;
	r.len = len;
	r.mi = mi;
	r.header_stage = 1;
	mbuf_reset(&mi->info);
	mbuf_reset(&mi->msg);
	mbuf_reset(&mi->patch);
	mi->patch_lines = 0;
	mi->input_error = 0;
	while (skip < len && isspace((unsigned char)mail[skip]))
		skip++;
	if (skip == len)
		return error("empty patch: nothing but blanks in the mail");
	while (read_header_line(&r, &line))
		check_header(&r, &line, r.mail_hdr, 1);
	if (!r.oom)
		read_body(&r, &line);
	if (!r.oom)
		write_info(&r);
	check_buf(&r, &line);
	check_buf(&r, &mi->msg);
	check_buf(&r, &mi->patch);
	mbuf_release(&line);
	release_reader(&r);
	if (r.oom)
		return error("cannot read the mail: out of memory") - 1;
	return mi->input_error ? -1 : 0;
}
