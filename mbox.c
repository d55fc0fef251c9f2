/*
 * mbox.c: a mailbox cut into messages as git mailsplit cuts it.  A
 * message starts at a "From " line that ends in a time and a year
 * ("From <id> Mon Sep 17 00:00:00 2001"), so that a "From " that
 * begins a sentence in a description does not split a mail.  The
 * "From " line stays at the top of its message, where mailinfo
 * expects it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "cache.h"
#include "mail.h"

/*
 * The last ':' of the line must sit in "h:mm:ss" or "hh:mm" and be
 * followed by a year after 1990: that is a date, not prose.
 */
int is_mbox_from_line(const char *line, size_t len)
{
	const char *start = line + 5, *colon;
	char year[8];
	size_t n;

	if (len < 20 || memcmp(line, "From ", 5))
		return 0;
	colon = line + len - 2;
	for (;;) {
		if (colon < start)
			return 0;
		if (*--colon == ':')
			break;
	}
	if (!isdigit((unsigned char)colon[-4]) ||
	    !isdigit((unsigned char)colon[-2]) ||
	    !isdigit((unsigned char)colon[-1]) ||
	    !isdigit((unsigned char)colon[1]) ||
	    !isdigit((unsigned char)colon[2]))
		return 0;
	/* strtol(3) on what follows "ss": spaces, a sign, digits. */
	n = line + len - (colon + 3);
	if (n >= sizeof(year))
		n = sizeof(year) - 1;
	memcpy(year, colon + 3, n);
	year[n] = '\0';
	return strtol(year, NULL, 10) > 90;
}

/* ">From ", ">>From ", ...: a quoted From line of an mboxrd. */
static int is_quoted_from(const char *line, size_t len)
{
	size_t gt = 0;

	while (gt < len && line[gt] == '>')
		gt++;
	return gt && len - gt >= 5 && !memcmp(line + gt, "From ", 5);
}

static size_t line_length(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
}

/* Append one line to mail, with the rewriting mailsplit does. */
static void copy_line(struct mbuf *mail, const char *line, size_t len,
		      const struct mbox_options *opt)
{
	if (opt->mboxrd && is_quoted_from(line, len)) {
		line++;
		len--;
	}
	if (!opt->keep_cr && len > 1 && line[len - 1] == '\n' &&
	    line[len - 2] == '\r') {
		mbuf_add(mail, line, len - 2);
		mbuf_addch(mail, '\n');
		return;
	}
	mbuf_add(mail, line, len);
}

int split_mbox(const char *buf, size_t len, const struct mbox_options *opt,
	       int (*each)(void *data, const char *mail, size_t len),
	       void *data)
{
	const char *p = buf, *end = buf + len;
	struct mbuf mail = MBUF_INIT;
	int count = 0;

	while (p < end && isspace((unsigned char)*p))
		p++;
	while (p < end) {
		size_t n = line_length(p, end);
		int bare = !is_mbox_from_line(p, n);

		if (bare && !opt->allow_bare) {
			mbuf_release(&mail);
			return error("corrupt mailbox: message %d does not "
				     "start with a \"From \" line", count + 1);
		}
		mbuf_reset(&mail);
		do {
			copy_line(&mail, p, n, opt);
			p += n;
			if (p < end)
				n = line_length(p, end);
		} while (p < end && (bare || !is_mbox_from_line(p, n)));
		count++;
		if (mail.failed) {
			mbuf_release(&mail);
			return error("cannot split message %d: out of memory",
				     count);
		}
		if (each(data, mbuf_str(&mail), mail.len) < 0) {
			mbuf_release(&mail);
			return -1;
		}
	}
	mbuf_release(&mail);
	return count;
}

/* path ("-": standard input) opened to read: the fd, or -1 after error(). */
static int open_mailbox(const char *path)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return 0;
	/*
	 * A FIFO is read to its end, as a shell's <(...) wants; a device
	 * could block or never end, a directory is not a mailbox.
	 */
	if (stat(path, &st) < 0)
		return error_errno("cannot open mbox '%s'", path);
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		return error("cannot read mbox '%s': not a regular file or a "
			     "pipe", path);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return error_errno("cannot open mbox '%s'", path);
	return fd;
}

/* Up to want more bytes of fd onto out: how many (0 at EOF), or -1. */
static ssize_t read_more(int fd, const char *path, struct mbuf *out,
			 size_t want)
{
	ssize_t n;

	if (mbuf_grow(out, want) < 0)
		return error("cannot read mbox '%s': out of memory", path);
	n = read_in_full(fd, out->buf + out->len, want);
	if (n < 0)
		return error_errno("cannot read mbox '%s'", path);
	out->len += n;
	out->buf[out->len] = '\0';
	return n;
}

int read_mailbox(const char *path, struct mbuf *out)
{
	int fd = open_mailbox(path);
	ssize_t n;

	if (fd < 0)
		return -1;
	mbuf_reset(out);
	do
		n = read_more(fd, path, out, 65536);
	while (n > 0);
	if (fd)
		close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * Where the whole messages of b end, from *scan on (a line start; the
 * scan goes on from there next time): at the start of its last
 * complete "From " line after the first, or 0.
 */
static size_t whole_messages(const struct mbuf *b, size_t *scan)
{
	const char *p = b->buf + *scan, *end = b->buf + b->len, *nl;
	size_t cut = 0;

	while ((nl = memchr(p, '\n', end - p))) {
		if (p != b->buf && is_mbox_from_line(p, nl + 1 - p))
			cut = p - b->buf;
		p = nl + 1;
	}
	*scan = p - b->buf;
	return cut;
}

/*
 * A mailbox read a megabyte at a time: each time the messages read
 * whole go to split_mbox, so that the memory held is a message and a
 * megabyte, not the mailbox.  A mailbox that does not start with a
 * "From " line (a bare message) is one message and is read whole.
 */
#define MAILBOX_CHUNK (1 << 20)

int split_mailbox(const char *path, const struct mbox_options *opt,
		  int (*each)(void *data, const char *mail, size_t len),
		  void *data, size_t *bytes)
{
	struct mbuf b = MBUF_INIT;
	size_t scan = 0, cut, start;
	int fd = open_mailbox(path), count = 0, r = 0;
	ssize_t n = 1;
	const char *nl;

	*bytes = 0;
	if (fd < 0)
		return -1;
	while (n > 0) {
		n = read_more(fd, path, &b, MAILBOX_CHUNK);
		if (n <= 0)
			break;
		*bytes += n;
		for (start = 0; start < b.len && isspace((unsigned char)
							 b.buf[start]); start++)
			;
		cut = whole_messages(&b, &scan);
		nl = memchr(b.buf + start, '\n', b.len - start);
		if (!cut || cut <= start || !nl ||
		    !is_mbox_from_line(b.buf + start, nl + 1 - (b.buf + start)))
			continue;
		r = split_mbox(b.buf, cut, opt, each, data);
		if (r < 0)
			break;
		count += r;
		mbuf_remove(&b, 0, cut);
		scan -= cut;
	}
	if (n == 0 && (r = split_mbox(mbuf_str(&b), b.len, opt, each,
				      data)) >= 0)
		count += r;
	else
		count = -1;
	if (fd)
		close(fd);
	mbuf_release(&b);
	return count;
}
