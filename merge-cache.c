/*
 * merge-cache: run a merge program for each unmerged path of the
 * index, as git merge-index does.
 *
 * The program gets seven arguments: the ids of stages 1, 2 and 3 (the
 * base, ours and theirs), the path, and the three modes in octal; a
 * stage the path lacks gives empty strings.  -a takes every unmerged
 * path, in index order; otherwise the paths named (a path that is
 * merged already is skipped, one not in the index is an error).
 *
 * Without -o the first failure of the program stops: "merge program
 * failed" and exit 128, or exit 1 with -q.  With -o every path is
 * tried and the failures are counted: exit 128 with the message, or,
 * with -q, silently with their number (at most 127) as the status.
 *
 * The index is read once: the program changes the index file, not
 * what this process walks, as git's merge-index does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache.h"

static const char merge_cache_usage[] =
	"merge-cache [-o] [-q] <program> (-a | [--] <path>...)";

static const char *program;
static int one_shot, quiet;
static unsigned int failures;

static int run_program(char **argv)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run '%s': %s\n", progname(),
			argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static void failed(void)
{
	failures++;
	if (one_shot)
		return;
	if (!quiet)
		die("merge program failed");
	exit(1);
}

/* Run the program on the stages of the path at pos; the next position. */
static unsigned int merge_entry(unsigned int pos, const char *path)
{
	char ids[3][HASH_MAX_HEXSZ + 1], modes[3][16];
	char *argv[9];
	int found = 0, i;

	memset(ids, 0, sizeof(ids));
	memset(modes, 0, sizeof(modes));
	for (; pos < active_nr; pos++) {
		const struct cache_entry *ce = active_cache[pos];
		unsigned int stage = ce_stage(ce);

		if (strcmp(ce->name, path) || !stage)
			break;
		found++;
		strcpy(ids[stage - 1], sha1_to_hex(ce->sha1));
		snprintf(modes[stage - 1], sizeof(modes[0]), "%o",
			 ce->ce_mode);
	}
	if (!found)
		die("'%s' is not in the cache", path);
	argv[0] = (char *)program;
	for (i = 0; i < 3; i++) {
		argv[1 + i] = ids[i];
		argv[5 + i] = modes[i];
	}
	argv[4] = (char *)path;
	argv[8] = NULL;
	if (run_program(argv) < 0)
		failed();
	return pos;
}

static void merge_one_path(const char *arg)
{
	char *path = normalize_path(arg);
	int pos = cache_name_pos(path, strlen(path));

	/* A merged path has nothing to do. */
	if (pos < 0)
		merge_entry(-pos - 1, path);
	free(path);
}

static void merge_all(void)
{
	unsigned int i = 0;

	while (i < active_nr) {
		const struct cache_entry *ce = active_cache[i];

		if (ce_stage(ce))
			i = merge_entry(i, ce->name);
		else
			i++;
	}
}

int main(int argc, char **argv)
{
	int i, force_file = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, merge_cache_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-o"))
			one_shot = 1;
		else if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else
			usage(merge_cache_usage);
	}
	if (argc - i < 2)
		usage(merge_cache_usage);
	program = argv[i++];
	if (setup_repository() < 0)
		exit(128);
	if (read_cache() < 0)
		die("cannot read the index");
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	for (; i < argc; i++) {
		const char *arg = argv[i];

		if (!force_file && arg[0] == '-') {
			if (!strcmp(arg, "--"))
				force_file = 1;
			else if (!strcmp(arg, "-a"))
				merge_all();
			else
				usage(merge_cache_usage);
			continue;
		}
		merge_one_path(arg);
	}
	if (failures && !quiet)
		die("merge program failed");
	finish_stdout();
	return failures > 127 ? 127 : (int)failures;
}
