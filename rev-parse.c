/*
 * rev-parse: the ids of names, one a line, for scripts: 40 hex digits,
 * a unique abbreviation, HEAD, or a ref name (sha1_name.c's rules).
 * Nothing is printed unless every name resolves, so a script reading
 * the output never takes a partial list for a whole one.  --short
 * prints git's abbreviation instead (7 digits, more where the store
 * needs them to stay unique), as git log writes parents on "Merge:".
 * --git-dir and --git-common-dir print the directories the tools use
 * (a worktree's own, and the one of the objects and shared refs), as
 * git prints them, so that a script finds them as the tools do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char rev_parse_usage[] =
	"rev-parse [--short] <name>... | --git-dir | --git-common-dir";

/* --git-dir, --git-common-dir: print the directory; 0, or -1 if neither. */
static int show_dir(const char *arg)
{
	const char *dir;

	if (!strcmp(arg, "--git-dir"))
		dir = get_git_dir();
	else if (!strcmp(arg, "--git-common-dir"))
		dir = get_common_dir();
	else
		return -1;
	if (setup_repository() < 0)
		exit(128);
	puts(dir);
	finish_stdout();
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char (*ids)[20];
	int i, first = 1, shorten = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, rev_parse_usage);
	if (argc == 2 && !show_dir(argv[1]))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "--short")) {
		shorten = 1;
		first = 2;
	}
	if (argc <= first || argv[first][0] == '-')
		usage(rev_parse_usage);
	if (setup_repository() < 0)
		exit(128);
	ids = xcalloc(argc, 20);
	for (i = first; i < argc; i++)
		if (get_sha1(argv[i], ids[i]) < 0)
			exit(128);
	for (i = first; i < argc; i++) {
		int len = shorten ? unique_abbrev_len(ids[i], 7) : 40;

		printf("%.*s\n", len, sha1_to_hex(ids[i]));
	}
	free(ids);
	finish_stdout();
	return 0;
}
