/*
 * mailinfo: read one mail from standard input as git mailinfo does:
 * "Author:", "Email:", "Subject:" and "Date:" on stdout, the
 * description to <msg> and the patch to <patch> (mail.c says how).
 *
 * Text is converted to UTF-8 by default (-u); --encoding=<charset>
 * names another, -n converts nothing.  -k keeps the subject as it is;
 * -b strips only the bracketed prefixes that say PATCH.  Both files
 * are written whole or not at all (under <file>.lock, then renamed).
 * As git's, the exit status is 1 when part of the mail could not be
 * read (a bad encoded word, an unknown charset): the output is still
 * written, as well as it could be read.  Out of memory is no such
 * partial read: it writes nothing and exits 128.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "mail.h"

static const char mailinfo_usage[] =
	"mailinfo [-k] [-b] [-u | --encoding=<charset> | -n] <msg> <patch> "
	"< mail > info";

static void write_whole(const char *path, const struct mbuf *b)
{
	static struct lock_file locks[2];
	static int used;
	struct lock_file *lk = &locks[used++];

	if (hold_lock_file(lk, path) < 0)
		exit(128);
	if (write_in_full(lk->fd, mbuf_str(b), b->len) < 0) {
		error_errno("cannot write '%s'", path);
		rollback_lock_file(lk);
		exit(128);
	}
	if (commit_lock_file(lk) < 0)
		exit(128);
}

int main(int argc, char **argv)
{
	struct mail_info mi;
	struct mbuf mail = MBUF_INIT;
	int i, status;

	setup_tool(argv[0]);
	handle_help(argc, argv, mailinfo_usage);
	mail_info_init(&mi);
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		} else if (!strcmp(arg, "-k"))
			mi.keep_subject = 1;
		else if (!strcmp(arg, "-b"))
			mi.keep_brackets = 1;
		else if (!strcmp(arg, "-u"))
			mi.charset = "UTF-8";
		else if (!strcmp(arg, "-n"))
			mi.charset = NULL;
		else if (!strncmp(arg, "--encoding=", 11) && arg[11])
			mi.charset = arg + 11;
		else
			usage(mailinfo_usage);
	}
	if (argc - i != 2)
		usage(mailinfo_usage);
	if (read_mailbox("-", &mail) < 0)
		exit(128);
	status = parse_mail(&mi, mbuf_str(&mail), mail.len);
	if (status == -2)
		exit(128);	/* out of memory: nothing is written */
	status = status < 0;
	write_whole(argv[i], &mi.msg);
	write_whole(argv[i + 1], &mi.patch);
	fwrite(mbuf_str(&mi.info), 1, mi.info.len, stdout);
	finish_stdout();
	mail_info_release(&mi);
	mbuf_release(&mail);
	return status;
}
