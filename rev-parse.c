/*
 * rev-parse: the ids of names, one a line, for scripts: hex ids,
 * a ref name or a unique abbreviation, with git's suffixes (^, ~,
 * ^{type}, <rev>:<path>) (sha1_name.c's rules), and git's index forms
 * ":<path>" and ":<n>:<path>", the id of the path's entry at stage n
 * (0 unless given) in the index (":/<text>" is a commit's message).
 * Nothing is printed unless every name resolves, so a script reading
 * the output never takes a partial list for a whole one.  --short
 * prints git's abbreviation instead (core.abbrev, or git's automatic
 * length, more where the store needs them to stay unique), as git log
 * writes parents on "Merge:"; --short=<n> at least n digits.
 * --git-dir and --git-common-dir print the directories the tools use
 * (a worktree's own, and the one of the objects and shared refs), as
 * git prints them, so that a script finds them as the tools do, and
 * --show-object-format the store's hash (sha1 or sha256), as git.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char rev_parse_usage[] =
	"rev-parse [--short[=<n>]] <name>... | --git-dir | --git-common-dir"
	" | --show-object-format";

/*
 * --show-object-format[=storage|input|output]: the store's hash, the
 * same for all three here, as in git 2.39.
 */
static int is_show_format(const char *arg)
{
	const char *opt = "--show-object-format";
	size_t n = strlen(opt);

	if (strncmp(arg, opt, n))
		return 0;
	if (!arg[n])
		return 1;
	if (arg[n] != '=')
		return 0;
	if (strcmp(arg + n + 1, "storage") && strcmp(arg + n + 1, "input") &&
	    strcmp(arg + n + 1, "output"))
		die("unknown mode for --show-object-format: %s", arg + n + 1);
	return 1;
}

/*
 * --git-dir, --git-common-dir, --show-object-format: print the
 * directory or the hash; 0, or -1 if none of them.
 */
static int show_dir(const char *arg)
{
	const char *dir;

	if (is_show_format(arg)) {
		if (setup_repository() < 0)
			exit(128);
		puts(the_hash->name);
		finish_stdout();
		return 0;
	}
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

/* ":<path>", ":<n>:<path>": the index entry's id, as git reads them. */
static int index_name(const char *name, unsigned char *sha1)
{
	const char *p = name + 1;
	unsigned int stage = 0;
	char *path;
	int pos, ret = 0;

	if (p[0] >= '0' && p[0] <= '3' && p[1] == ':') {
		stage = p[0] - '0';
		p += 2;
	}
	path = name_path_from_top(p);
	if (!path)
		return error("'%s' is outside the repository", p);
	if (read_cache() < 0) {
		free(path);
		return error("unable to read the index");
	}
	pos = index_lower_bound(0, active_nr, path, strlen(path), 0);
	while (pos < (int)active_nr &&
	       !strcmp(active_cache[pos]->name, path) &&
	       ce_stage(active_cache[pos]) != stage)
		pos++;
	if (pos < (int)active_nr && !strcmp(active_cache[pos]->name, path))
		hashcpy(sha1, active_cache[pos]->sha1);
	else if (index_has_path(path, strlen(path)))
		ret = error("path '%s' is in the index, but not at stage %u",
			    path, stage);
	else
		ret = error("path '%s' does not exist (neither on disk nor "
			    "in the index)", path);
	free(path);
	return ret;
}

/*
 * --short=<n>: n digits at least, 4 to 40 as git 2.39 clamps them, in
 * a sha256 store too (40 digits of 64 are as unique as can be asked).
 */
static int parse_short(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end)
		die("'%s' is not a number", s);
	return n < 4 ? 4 : n > 40 ? 40 : n;
}

int main(int argc, char **argv)
{
	unsigned char (*ids)[HASH_MAX_RAWSZ];
	int i, first = 1, shorten = HASH_MAX_HEXSZ;

	setup_tool(argv[0]);
	handle_help(argc, argv, rev_parse_usage);
	if (argc == 2 && !show_dir(argv[1]))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "--short")) {
		shorten = ABBREV_DEFAULT;
		first = 2;
	} else if (argc > 1 && !strncmp(argv[1], "--short=", 8)) {
		shorten = parse_short(argv[1] + 8);
		first = 2;
	}
	if (argc <= first || argv[first][0] == '-')
		usage(rev_parse_usage);
	if (setup_repository() < 0)
		exit(128);
	if (shorten > (int)the_hash->hexsz)
		shorten = the_hash->hexsz;
	ids = xcalloc(argc, sizeof(*ids));
	for (i = first; i < argc; i++)
		if (argv[i][0] == ':' && argv[i][1] != '/' ?
		    index_name(argv[i], ids[i]) < 0 :
		    get_sha1(argv[i], ids[i]) < 0)
			exit(128);
	for (i = first; i < argc; i++) {
		int len = shorten == (int)the_hash->hexsz ? shorten :
			  find_abbrev_len(ids[i], shorten);

		printf("%.*s\n", len, sha1_to_hex(ids[i]));
	}
	free(ids);
	finish_stdout();
	return 0;
}
