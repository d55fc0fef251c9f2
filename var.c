/*
 * var: print who would make a commit now, as git var does:
 * GIT_AUTHOR_IDENT and GIT_COMMITTER_IDENT are "Name <email> <epoch>
 * <+hhmm>", read as commit-tree reads them (ident.c: the environment,
 * the config, the passwd entry), so that a script (dircache tag -a)
 * writes the line commit-tree would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "commit-write.h"

static const char var_usage[] = "var (GIT_AUTHOR_IDENT | GIT_COMMITTER_IDENT)";

int main(int argc, char **argv)
{
	struct ident id;
	int committer;

	setup_tool(argv[0]);
	handle_help(argc, argv, var_usage);
	if (argc != 2)
		usage(var_usage);
	if (!strcmp(argv[1], "GIT_AUTHOR_IDENT"))
		committer = 0;
	else if (!strcmp(argv[1], "GIT_COMMITTER_IDENT"))
		committer = 1;
	else
		usage(var_usage);
	if (ident_from_env(&id, committer) < 0)
		exit(128);
	printf("%s <%s> %s\n", id.name, id.email, id.date);
	ident_release(&id);
	finish_stdout();
	return 0;
}
