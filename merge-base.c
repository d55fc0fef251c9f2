/*
 * merge-base: the best common ancestor of two commits, as git
 * merge-base finds it: a common ancestor that no other common ancestor
 * descends from, the newest by committer date when there are several
 * (a criss-cross merge has two); --all prints them all, newest first.
 * More than two commits: the bases of the first and a merge of the
 * others.  Exit 1, printing nothing, when there is none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "history.h"

static const char merge_base_usage[] =
	"merge-base [--all] <commit> <commit>...";

static struct commit *get_commit_arg(const char *arg)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	struct commit *c;

	if (get_sha1(arg, sha1) < 0)
		exit(128);
	c = lookup_commit_peeled(sha1);
	if (!c)
		die("not a commit: %s", arg);
	return c;
}

int main(int argc, char **argv)
{
	struct commit *one, **twos, **bases;
	size_t nr, i;
	int show_all = 0, first = 1, n;

	setup_tool(argv[0]);
	handle_help(argc, argv, merge_base_usage);
	if (first < argc && !strcmp(argv[first], "--all")) {
		show_all = 1;
		first++;
	}
	if (first < argc && !strcmp(argv[first], "--"))
		first++;
	if (argc - first < 2)
		usage(merge_base_usage);
	for (i = first; i < (size_t)argc; i++)
		if (argv[i][0] == '-')
			usage(merge_base_usage);
	if (setup_repository() < 0)
		exit(128);
	one = get_commit_arg(argv[first]);
	n = argc - first - 1;
	twos = xcalloc(n, sizeof(*twos));
	for (i = 0; i < (size_t)n; i++)
		twos[i] = get_commit_arg(argv[first + 1 + i]);
	if (get_merge_bases(one, twos, n, &bases, &nr) < 0)
		die("cannot walk the history");
	for (i = 0; i < nr && (show_all || !i); i++)
		puts(sha1_to_hex(bases[i]->object.sha1));
	free(bases);
	free(twos);
	finish_stdout();
	return nr ? 0 : 1;
}
