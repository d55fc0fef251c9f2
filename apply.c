/*
 * apply: apply git diffs and unified diffs to the work tree (and with
 * --index to the index too, with --cached to the index alone), as git
 * apply does.  Every patch given (standard input when none) is read
 * into one set and applied wholly or not at all: every hunk of every
 * file is checked before any file of the tree changes (new contents
 * wait in temporary files, renamed once all of it applies).  --stat,
 * --numstat and --summary print what git apply prints and apply
 * nothing; --check applies nothing either.  The work is the patch
 * library's (patch.h), which applymbox shares.  The ids on "index"
 * lines are the store's (SHA-1's or SHA-256's), so the store's format
 * is read first when there is one; outside one they are SHA-1's, as
 * git apply's outside a repository.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "patch.h"

static const char apply_usage[] =
	"apply [--check] [--stat] [--numstat] [--summary] [--index | "
	"--cached] [-R] [-p<n>] [--reject] [-v] [--] [<patch>...]";

static unsigned int flags;
static int show_stat, show_numstat, show_summary, reverse;
static int p_value = 1;

/* the_hash from the store's config, when there is a store. */
static void read_store_hash(void)
{
	struct stat st;

	if (flags & (APPLY_INDEX | APPLY_CACHED)) {
		if (setup_repository() < 0)
			exit(128);
	} else if (!stat(get_git_dir(), &st) &&
		   check_repository_format() < 0) {
		exit(128);
	}
}

/* All of fd (malloc'd, with room for a NUL after it). */
static char *read_all(int fd, const char *name, size_t *len)
{
	size_t alloc = 64 * 1024, n = 0;
	struct stat st;
	char *buf;

	/* A file is read into one buffer of its size: no copy, no slack. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= 0)
		alloc = st.st_size + 1;
	buf = xmalloc(alloc);

	for (;;) {
		ssize_t got;

		if (n == alloc)
			buf = xrealloc(buf, alloc *= 2);
		got = read(fd, buf + n, alloc - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			die_errno("read '%s'", name);
		if (!got)
			break;
		n += got;
	}
	*len = n;
	return buf;
}

static void read_patch(struct patch_set *set, const char *name)
{
	struct fault f;
	int fd = name ? open(name, O_RDONLY) : 0;
	size_t len;
	char *buf;

	if (fd < 0)
		die_errno("open '%s'", name);
	buf = read_all(fd, name ? name : "standard input", &len);
	if (name)
		close(fd);
	if (parse_patch_owned(set, buf, len, p_value, &f) < 0)
		die("%s", f.msg);
}

/* git apply -v's account, from the library. */
static void note(int is_error, const char *text, size_t len, void *data)
{
	(void)data;
	if (is_error)
		error("%.*s", (int)len, text);
	else
		fwrite(text, 1, len, stderr);
}

static int parse_option(const char *arg)
{
	if (!strcmp(arg, "--check"))
		flags |= APPLY_CHECK;
	else if (!strcmp(arg, "--stat"))
		show_stat = 1;
	else if (!strcmp(arg, "--numstat"))
		show_numstat = 1;
	else if (!strcmp(arg, "--summary"))
		show_summary = 1;
	else if (!strcmp(arg, "--index"))
		flags |= APPLY_INDEX;
	else if (!strcmp(arg, "--cached"))
		flags |= APPLY_CACHED;
	else if (!strcmp(arg, "-R") || !strcmp(arg, "--reverse"))
		reverse = 1;
	else if (!strcmp(arg, "--reject"))
		flags |= APPLY_REJECT | APPLY_VERBOSE;
	else if (!strcmp(arg, "-v") || !strcmp(arg, "--verbose"))
		flags |= APPLY_VERBOSE;
	else if (!strncmp(arg, "-p", 2) && arg[2]) {
		char *end;
		long v = strtol(arg + 2, &end, 10);

		if (*end || v < 0 || v > 1000)
			usage(apply_usage);
		p_value = v;
	} else {
		return -1;
	}
	return 0;
}

/* Apply set; with the index, under index.lock from before the read. */
static int apply_set(struct patch_set *set)
{
	struct fault f;
	int with_index = flags & (APPLY_INDEX | APPLY_CACHED);
	int locked = with_index && !(flags & APPLY_CHECK);
	int ret;

	if (with_index) {
		if (locked && hold_index_lock() < 0)
			exit(128);
		if (read_cache() < 0)
			die("index file corrupt");
		if (expand_sparse_index() < 0)
			die("cannot expand the sparse index");
	}
	set->note = note;
	ret = apply_patch_set(set, flags, &f);
	if (ret)
		report_patch_fault(&f);
	if (ret > 1)
		error("%d hunks rejected", ret);
	if (locked && ret >= 0 && commit_index() < 0)
		die("unable to write new index file");
	if (locked && ret < 0)
		rollback_index_lock();
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct patch_set set;
	int i, ret = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, apply_usage);
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (parse_option(argv[i]) < 0)
			usage(apply_usage);
	}
	if ((flags & APPLY_INDEX) && (flags & APPLY_CACHED))
		usage(apply_usage);
	read_store_hash();
	init_patch_set(&set);
	if (i == argc)
		read_patch(&set, NULL);
	for (; i < argc; i++)
		read_patch(&set, strcmp(argv[i], "-") ? argv[i] : NULL);
	if (!set.nr)
		die("no valid patches in input");
	if (reverse)
		reverse_patch_set(&set);
	if (show_stat && print_patch_stat(stdout, &set) < 0)
		die_errno("write to standard output");
	if (show_numstat && print_patch_numstat(stdout, &set) < 0)
		die_errno("write to standard output");
	if (show_summary && print_patch_summary(stdout, &set) < 0)
		die_errno("write to standard output");
	if (!show_stat && !show_numstat && !show_summary)
		ret = apply_set(&set);
	else if (flags & APPLY_CHECK)
		ret = apply_set(&set);
	free_patch_set(&set);
	finish_stdout();
	return ret;
}
