/*
 * mail.h: patches by mail.  mbox.c splits a mailbox into messages as
 * git mailsplit does; mail.c and mail-decode.c read one message into
 * its author, subject, date, description and patch as git mailinfo
 * does.  Everything works on bytes in memory: applymbox reads a whole
 * series without a process or a temporary file per mail.
 */
#ifndef MAIL_H
#define MAIL_H

#include <stddef.h>

#include "cache.h"	/* struct mbuf */

/* ---- mbox.c: splitting a mailbox ---- */

struct mbox_options {
	int keep_cr;		/* --keep-cr: keep "\r\n" line ends */
	int mboxrd;		/* --mboxrd: unquote ">From " lines */
	int allow_bare;		/* -b: a mail without a "From " line */
};

/*
 * Call each(data, mail, len) for every message of the mailbox buf
 * (len bytes) in order, as git mailsplit cuts it: a message starts at
 * a "From " line that carries a time and a year; leading whitespace
 * is skipped; "\r\n" becomes "\n" unless keep_cr.  Returns the number
 * of messages, or -1 after an error() (a corrupt mailbox, or a
 * negative return of each(), which stops the split).
 */
int split_mbox(const char *buf, size_t len, const struct mbox_options *opt,
	       int (*each)(void *data, const char *mail, size_t len),
	       void *data);
/* All of path ("-": standard input) into out; -1 after error(). */
int read_mailbox(const char *path, struct mbuf *out);
/*
 * split_mbox over the mailbox path ("-": standard input), read a
 * megabyte at a time: the same messages, without holding the mailbox
 * in memory.  The bytes read go in *bytes.  Returns the number of
 * messages, or -1 after error().
 */
int split_mailbox(const char *path, const struct mbox_options *opt,
		  int (*each)(void *data, const char *mail, size_t len),
		  void *data, size_t *bytes);
/* Whether a line (len bytes with its newline) starts a message. */
int is_mbox_from_line(const char *line, size_t len);

/* ---- mail.c: reading one message as git mailinfo does ---- */

struct mail_info {
	/* Options, as git mailinfo's. */
	int keep_subject;	/* -k: no "[PATCH]" or "Re:" stripped */
	int keep_brackets;	/* -b: strip only brackets with PATCH */
	const char *charset;	/* convert text to it; NULL (-n): don't */

	/* Results, owned by the struct (mail_info_release frees them). */
	struct mbuf info;	/* "Author: ...\nEmail: ...\n...\n\n" */
	struct mbuf msg;	/* the description */
	struct mbuf patch;	/* everything from the patch on */
	int patch_lines;	/* lines in patch: 0 for a mail without one */
	int input_error;	/* set when part of the mail could not be read */
};

/* Default options: -u (UTF-8), no -k, no -b. */
void mail_info_init(struct mail_info *mi);
void mail_info_release(struct mail_info *mi);
/*
 * Read the mail (len bytes) into mi as git mailinfo does; returns 0,
 * or -1 after an error() when the mail was empty or partly unreadable
 * (git mailinfo's exit status 1; the results are still filled in), or
 * -2 after an error() when memory ran out: the results are then cut
 * short and must not be used.
 */
int parse_mail(struct mail_info *mi, const char *mail, size_t len);

/* ---- mail-message.c: a mail as a commit message, as git am makes it ---- */

/*
 * From mi's info lines: the subject (several "Subject:" lines joined
 * with newlines), author name, email and date; and the commit message
 * "<subject>\n\n<description>" after strip_space.  0, or -1 after an
 * error() when memory ran out (the results must not be used).
 */
int mail_message(const struct mail_info *mi, struct mbuf *subject,
		  struct mbuf *name, struct mbuf *email, struct mbuf *date,
		  struct mbuf *msg);
/*
 * git's stripspace: trailing blanks off every line, runs of empty lines
 * made one, none at the start or the end, a newline at the end.
 * Out of memory: b is marked failed.
 */
void strip_space(struct mbuf *b);
/*
 * "Signed-off-by: name <email>" at the end, unless it is already last;
 * out of memory: msg is marked failed.
 */
void add_signoff(struct mbuf *msg, const char *name, const char *email);

/* ---- mail-decode.c: the pieces of a mail's text ---- */

/*
 * Out of memory in these is not an error() but the result's mbuf
 * marked failed (name for parse_from), for the caller to check.
 */
/* Quoted-printable (rfc2047: '_' is a space) and base64 decoding. */
void decode_qp(struct mbuf *out, const char *in, size_t len, int rfc2047);
void decode_base64(struct mbuf *out, const char *in, size_t len);
/*
 * Convert b from charset to to (iconv); nothing to do when either is
 * empty or they name the same encoding.  -1 after an error().
 */
int convert_charset(struct mbuf *b, const char *to, const char *charset);
/* Decode the RFC 2047 words of a header in place; -1 on a bad word. */
int decode_header_words(struct mbuf *b, const char *to_charset);
/* Collapse each run of whitespace into one space, as git does. */
void collapse_space(struct mbuf *b);
/* Strip "Re:", "[PATCH n/m]" and blanks from the front of a subject. */
void cleanup_subject(struct mbuf *subject, int keep_brackets);
/* Split a From: value into name and email as git mailinfo does. */
void parse_from(const struct mbuf *from, struct mbuf *name,
		struct mbuf *email);

#endif
