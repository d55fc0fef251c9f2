/*
 * test-tool: the library's interfaces driven from the shell, for the
 * unit tests in t/t0100-library.sh.  Each subcommand calls one module
 * the way a tool would and prints what it returned, so a test can
 * compare it with git's answer for the same input.
 *
 *   pathspec <spec>... -- <path>...   paths ps selects (one a line)
 *   interest <spec>... -- <dir>...    all/some/none for directories
 *   resolve-ref <name>                "<id> <resolved name>"
 *   for-each-ref                      "<id> <name>" lines
 *   stream <id> <piece>               the content, read in pieces
 *   lock <file>                       replace file with stdin
 *   traverse <tree>...                one line per name of the walk
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cache.h"

static int split_at_dashes(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return i;
	die("expected -- between the pathspecs and the paths");
}

static int cmd_pathspec(int argc, char **argv, int dirs)
{
	static const char *words[] = { "none", "all", "some" };
	struct pathspec ps;
	int n = split_at_dashes(argc, argv), i;

	if (parse_pathspec(&ps, argv, n) < 0)
		return 128;
	for (i = n + 1; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (dirs)
			printf("%s %s\n", words[pathspec_interest(&ps, argv[i],
								  len, 1)],
			       argv[i]);
		else if (match_pathspec(&ps, argv[i], len))
			printf("%s\n", argv[i]);
	}
	clear_pathspec(&ps);
	return 0;
}

static int cmd_resolve_ref(char **argv)
{
	unsigned char sha1[20];
	char *name;
	int ret = resolve_ref(argv[0], sha1, &name);

	if (ret < 0) {
		printf("none %s\n", name ? name : "-");
		free(name);
		return 1;
	}
	printf("%s %s\n", sha1_to_hex(sha1), name);
	free(name);
	return 0;
}

static int show_ref(const char *name, const unsigned char *sha1, void *data)
{
	(void)data;
	printf("%s %s\n", sha1_to_hex(sha1), name);
	return 0;
}

static int cmd_stream(char **argv)
{
	struct object_stream st;
	unsigned char sha1[20], *buf;
	size_t piece = strtoul(argv[1], NULL, 10);
	struct fault f;
	ssize_t n;

	if (get_sha1_hex(argv[0], sha1) < 0 || !piece)
		die("usage: stream <id> <piece>");
	if (open_object_stream(&st, sha1, &f) < 0)
		return report_object_fault(sha1, &f), 1;
	buf = xmalloc(piece);
	while ((n = read_object_stream(&st, buf, piece, &f)) > 0)
		fwrite(buf, 1, n, stdout);
	close_object_stream(&st);
	free(buf);
	if (n < 0)
		return report_object_fault(sha1, &f), 1;
	return 0;
}

static int cmd_lock(char **argv)
{
	static struct lock_file lk;
	char buf[4096];
	ssize_t n;

	if (hold_lock_file(&lk, argv[0]) < 0)
		return 1;
	while ((n = read(0, buf, sizeof(buf))) > 0)
		if (write_in_full(lk.fd, buf, n) < 0)
			die_errno("write");
	return commit_lock_file(&lk) < 0;
}

static int show_step(int n, const struct name_entry **e, void *data)
{
	int i;

	(void)data;
	for (i = 0; i < n; i++)
		if (e[i])
			printf("%s%06o %.*s", i ? " | " : "", e[i]->mode,
			       (int)e[i]->pathlen, e[i]->path);
		else
			printf("%s-", i ? " | " : "");
	putchar('\n');
	return 0;
}

static int cmd_traverse(int argc, char **argv)
{
	struct tree_desc t[MAX_TRAVERSE_TREES];
	void *bufs[MAX_TRAVERSE_TREES];
	int i, ret;

	if (argc > MAX_TRAVERSE_TREES)
		die("at most %d trees", MAX_TRAVERSE_TREES);
	for (i = 0; i < argc; i++) {
		unsigned char sha1[20], tree[20];
		size_t size;

		if (get_sha1(argv[i], sha1) < 0 ||
		    !(bufs[i] = read_tree_ish(sha1, &size, tree)))
			return 128;
		init_tree_desc(&t[i], bufs[i], size);
	}
	ret = traverse_trees(argc, t, show_step, NULL);
	for (i = 0; i < argc; i++)
		free(bufs[i]);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret;

	setup_tool(argv[0]);
	if (argc < 2)
		die("usage: test-tool <command> <args>");
	if (!strcmp(argv[1], "pathspec"))
		ret = cmd_pathspec(argc - 2, argv + 2, 0);
	else if (!strcmp(argv[1], "interest"))
		ret = cmd_pathspec(argc - 2, argv + 2, 1);
	else if (!strcmp(argv[1], "resolve-ref") && argc == 3)
		ret = cmd_resolve_ref(argv + 2);
	else if (!strcmp(argv[1], "for-each-ref"))
		ret = for_each_ref(show_ref, NULL);
	else if (!strcmp(argv[1], "stream") && argc == 4)
		ret = cmd_stream(argv + 2);
	else if (!strcmp(argv[1], "lock") && argc == 3)
		ret = cmd_lock(argv + 2);
	else if (!strcmp(argv[1], "traverse"))
		ret = cmd_traverse(argc - 2, argv + 2);
	else
		die("unknown command '%s'", argv[1]);
	finish_stdout();
	return ret;
}
