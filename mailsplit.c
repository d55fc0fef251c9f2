/*
 * mailsplit: cut mailboxes into one file per message, <dir>/0001,
 * 0002, ..., and print how many messages there were, as git mailsplit
 * does.
 *
 * A message begins at a "From " line that carries a date (mbox.c says
 * why); "\r\n" line ends become "\n" unless --keep-cr, and with
 * --mboxrd one '>' comes off ">From " lines.  Numbering goes on across
 * the mailboxes given (standard input when none); -f<n> starts after
 * n, -d<prec> sets the width of the names.  A file that exists already
 * is never overwritten.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "mail.h"

static const char mailsplit_usage[] =
	"mailsplit [-d<prec>] [-f<n>] [-b] [--keep-cr] [--mboxrd] "
	"-o<dir> [<mbox>...]";

struct split_state {
	const char *dir;
	int prec;
	int nr;
};

static int write_message(void *data, const char *mail, size_t len)
{
	struct split_state *s = data;
	size_t n = strlen(s->dir) + 32;
	char *name = xmalloc(n);
	int fd;

	snprintf(name, n, "%s/%0*d", s->dir, s->prec, ++s->nr);
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd < 0)
		die_errno("cannot open output file '%s'", name);
	if (write_in_full(fd, mail, len) < 0 || close(fd) < 0) {
		error_errno("cannot write '%s'", name);
		unlink(name);	/* no message cut short stays */
		exit(128);
	}
	free(name);
	return 0;
}

static int parse_number(const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < 0 || v > 1000000)
		usage(mailsplit_usage);
	return (int)v;
}

int main(int argc, char **argv)
{
	struct mbox_options opt = { 0, 0, 0 };
	struct split_state s = { NULL, 4, 0 };
	size_t bytes;
	int i, first;

	setup_tool(argv[0]);
	handle_help(argc, argv, mailsplit_usage);
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		} else if (!strncmp(arg, "-o", 2) && arg[2])
			s.dir = arg + 2;
		else if (!strncmp(arg, "-d", 2))
			s.prec = parse_number(arg + 2);
		else if (!strncmp(arg, "-f", 2))
			s.nr = parse_number(arg + 2);
		else if (!strcmp(arg, "-b"))
			opt.allow_bare = 1;
		else if (!strcmp(arg, "--keep-cr"))
			opt.keep_cr = 1;
		else if (!strcmp(arg, "--mboxrd"))
			opt.mboxrd = 1;
		else
			usage(mailsplit_usage);
	}
	/* As in git: names of 3 to 9 digits. */
	if (!s.dir || s.prec < 3 || s.prec > 9)
		usage(mailsplit_usage);
	first = s.nr;
	do {
		const char *path = i < argc ? argv[i] : "-";

		if (split_mailbox(path, &opt, write_message, &s, &bytes) < 0)
			die("cannot split patches from '%s'", path);
		if (!bytes && strcmp(path, "-"))
			die("empty mbox: '%s'", path);
	} while (++i < argc);
	printf("%d\n", s.nr - first);
	finish_stdout();
	return 0;
}
