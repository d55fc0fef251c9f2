/*
 * merge-file: merge the change from <base> to <theirs> into <ours>,
 * as git merge-file does (the library's merge_buffers()).
 *
 * The result replaces <ours> (under its lock file, with its mode;
 * through a symlink, the file it names, as git writes through it), or
 * goes to stdout with -p.  Conflicts are written between
 * markers labelled with the file names, or the -L names in the order
 * ours, base, theirs; --diff3 shows the base too.  The exit status is
 * the number of conflicts, at most 127, so that a script can tell a
 * clean merge (0) from one to finish by hand; 128 on error (git exits
 * 255).  Binary files are refused, as git refuses them.  -q is taken
 * for git's sake: no warning is ever printed, and errors still are.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"

static const char merge_file_usage[] =
	"merge-file [-p] [-q] [--diff3] [--marker-size=<n>] "
	"[-L <name> [-L <name> [-L <name>]]] <ours> <base> <theirs>";

static int to_stdout;
static struct merge_options opts;

/*
 * The file path names, a symlink followed as git follows it (the one
 * work-tree reader does not); NULL after error() when path names
 * nothing.
 */
static char *resolve(const char *path, struct stat *st)
{
	char *real = realpath(path, NULL);

	if (!real || lstat(real, st) < 0) {
		error_errno("stat '%s'", path);
		free(real);
		return NULL;
	}
	return real;
}

/* A whole file, refused when binary. */
static char *read_input(const char *path, size_t *size)
{
	struct stat st;
	char *real = resolve(path, &st), *buf;

	if (!real || !(buf = read_work_file(real, &st, size)))
		exit(128);
	free(real);
	if (buffer_is_binary(buf, *size))
		die("cannot merge binary files: '%s'", path);
	return buf;
}

/*
 * Replace the file path names with buf, under its lock file, keeping
 * its mode.
 */
static void write_output(const char *path, const char *buf, size_t size)
{
	static struct lock_file lk;
	struct stat st;
	char *real = resolve(path, &st);

	if (!real || hold_lock_file(&lk, real) < 0)
		exit(128);
	if (write_in_full(lk.fd, buf, size) < 0 ||
	    fchmod(lk.fd, st.st_mode & 07777) < 0) {
		error_errno("write '%s'", lk.path);
		rollback_lock_file(&lk);
		exit(128);
	}
	if (commit_lock_file(&lk) < 0)
		exit(128);
	free(real);
}

/* Take -L <name> or -L<name>; returns the arguments used. */
static int take_label(int argc, char **argv, int i, int *nr_labels)
{
	const char **label[] = { &opts.ours_label, &opts.base_label,
				 &opts.theirs_label };
	const char *name = argv[i] + 2;
	int used = 1;

	if (!*name) {
		if (i + 1 >= argc)
			usage(merge_file_usage);
		name = argv[i + 1];
		used = 2;
	}
	if (*nr_labels == 3) {
		error("too many labels on the command line");
		usage(merge_file_usage);
	}
	*label[(*nr_labels)++] = name;
	return used;
}

static void take_marker_size(const char *arg)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (!*arg || *end || errno || n < 0 || n > INT_MAX / 2)
		usage(merge_file_usage);
	opts.marker_size = n;
}

/* The options before the three files; returns the first file's index. */
static int parse_options(int argc, char **argv, int *nr_labels)
{
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-p") || !strcmp(arg, "--stdout"))
			to_stdout = 1;
		else if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet"))
			;	/* we print no warnings anyway */
		else if (!strcmp(arg, "--diff3"))
			opts.diff3 = 1;
		else if (!strncmp(arg, "--marker-size=", 14))
			take_marker_size(arg + 14);
		else if (!strncmp(arg, "-L", 2)) {
			i += take_label(argc, argv, i, nr_labels);
			continue;
		} else
			usage(merge_file_usage);
		i++;
	}
	return i;
}

int main(int argc, char **argv)
{
	struct merge_input in;
	struct merge_result res;
	int nr_labels = 0, i;

	setup_tool(argv[0]);
	handle_help(argc, argv, merge_file_usage);
	i = parse_options(argc, argv, &nr_labels);
	if (argc - i != 3)
		usage(merge_file_usage);
	if (nr_labels < 1)
		opts.ours_label = argv[i];
	if (nr_labels < 2)
		opts.base_label = argv[i + 1];
	if (nr_labels < 3)
		opts.theirs_label = argv[i + 2];

	in.ours = read_input(argv[i], &in.ours_size);
	in.base = read_input(argv[i + 1], &in.base_size);
	in.theirs = read_input(argv[i + 2], &in.theirs_size);
	merge_buffers(&res, &in, &opts);
	if (to_stdout) {
		if (fwrite(res.buf, 1, res.size, stdout) != res.size)
			die_errno("write to standard output");
		finish_stdout();
	} else {
		write_output(argv[i], res.buf, res.size);
	}
	return res.conflicts > 127 ? 127 : res.conflicts;
}
