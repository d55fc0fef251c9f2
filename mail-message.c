/*
 * mail-message.c: a mail turned into a commit message as git am turns
 * it: "<subject>\n\n<description>" cleaned up as git's stripspace
 * does, and a Signed-off-by: added in git's place for it.
 */
#include <ctype.h>
#include <string.h>

#include "cache.h"
#include "mail.h"

/* The info lines as git am reads them. */
static void read_info(const struct mail_info *mi, struct mbuf *subject,
		      struct mbuf *name, struct mbuf *email, struct mbuf *date)
{
	const char *p = mbuf_str(&mi->info);

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n >= 9 && !strncmp(p, "Subject: ", 9)) {
			if (subject->len)
				mbuf_addch(subject, '\n');
			mbuf_add(subject, p + 9, n - 9);
		} else if (n >= 8 && !strncmp(p, "Author: ", 8)) {
			mbuf_add(name, p + 8, n - 8);
		} else if (n >= 7 && !strncmp(p, "Email: ", 7)) {
			mbuf_add(email, p + 7, n - 7);
		} else if (n >= 6 && !strncmp(p, "Date: ", 6)) {
			mbuf_add(date, p + 6, n - 6);
		}
		p += n + (nl != NULL);
	}
}

/*
 * git's stripspace: trailing blanks off every line, runs of empty
 * lines made one, none at the start or the end, a newline at the end.
 */
void strip_space(struct mbuf *b)
{
	struct mbuf out = MBUF_INIT, line = MBUF_INIT;
	const char *p = mbuf_str(b), *end = p + b->len;
	int empties = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		mbuf_reset(&line);
		mbuf_add(&line, p, n);
		mbuf_rtrim(&line);
		if (line.failed) {
			mbuf_addbuf(&out, &line);	/* out fails too */
			break;
		}
		p += n + (nl != NULL);
		if (!line.len) {
			empties++;
			continue;
		}
		if (empties && out.len)
			mbuf_addch(&out, '\n');
		empties = 0;
		mbuf_add(&out, line.buf, line.len);
		mbuf_addch(&out, '\n');
	}
	mbuf_reset(b);
	mbuf_addbuf(b, &out);
	mbuf_release(&out);
	mbuf_release(&line);
}

/* A "Key: value" line, as a trailer is. */
static int is_trailer(const char *line, size_t n)
{
	size_t i;

	for (i = 0; i < n && line[i] != ':'; i++)
		if (!(isalnum((unsigned char)line[i]) || line[i] == '-'))
			return 0;
	return i > 0 && i < n;
}

/*
 * --signoff: "Signed-off-by: <committer>" after the message, in the
 * trailer block when the last paragraph is one, unless it is there.
 */
void add_signoff(struct mbuf *msg, const char *name, const char *email)
{
	struct mbuf sob = MBUF_INIT;
	const char *s, *last;
	int trailers = 1;

	mbuf_addstr(&sob, "Signed-off-by: ");
	mbuf_addstr(&sob, name);
	mbuf_addstr(&sob, " <");
	mbuf_addstr(&sob, email);
	mbuf_addstr(&sob, ">\n");
	if (sob.failed) {
		mbuf_addbuf(msg, &sob);	/* msg fails too */
		goto out;
	}
	s = mbuf_str(msg);
	if (msg->len >= sob.len &&
	    !memcmp(s + msg->len - sob.len, sob.buf, sob.len) &&
	    (msg->len == sob.len || s[msg->len - sob.len - 1] == '\n'))
		goto out;
	/* The last paragraph: after the last empty line. */
	last = s;
	for (const char *p = s; *p; p = strchr(p, '\n') + 1) {
		if (*p == '\n')
			last = p + 1;
		if (!strchr(p, '\n'))
			break;
	}
	if (last == s)
		trailers = 0;	/* the subject paragraph holds no trailers */
	for (const char *p = last; trailers && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		trailers = is_trailer(p, n);
		p += n + (nl != NULL);
	}
	if (!trailers)
		mbuf_addch(msg, '\n');
	mbuf_add(msg, sob.buf, sob.len);
out:
	mbuf_release(&sob);
}

int mail_message(const struct mail_info *mi, struct mbuf *subject,
		 struct mbuf *name, struct mbuf *email, struct mbuf *date,
		 struct mbuf *msg)
{
	read_info(mi, subject, name, email, date);
	mbuf_reset(msg);
	mbuf_addbuf(msg, subject);
	mbuf_addstr(msg, "\n\n");
	mbuf_addbuf(msg, &mi->msg);
	strip_space(msg);
	if (mi->info.failed || name->failed || email->failed ||
	    date->failed || msg->failed)
		return error("cannot make the commit message: out of memory");
	return 0;
}
