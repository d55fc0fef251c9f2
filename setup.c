/*
 * setup.c: what every tool does before its real work.  The environment
 * is read once, here, by an explicit call from main(), so that nothing
 * below is set lazily (threads may share it from the start); file
 * descriptors 0, 1 and 2 are made to exist; and a tool that needs a
 * store checks that there is one, so that a script run in the wrong
 * place is told so instead of being told all is well.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

static char *git_dir, *object_dir, *index_file;

const char *get_git_dir(void)
{
	return git_dir;
}

const char *get_object_directory(void)
{
	return object_dir;
}

const char *get_index_file(void)
{
	return index_file;
}

/* The first of two variables that is set and not empty, or NULL. */
static const char *env_of(const char *first, const char *second)
{
	const char *v = getenv(first);

	if ((!v || !*v) && second)
		v = getenv(second);
	return v && *v ? v : NULL;
}

void setup_environment(void)
{
	const char *env;

	free(git_dir);
	free(object_dir);
	free(index_file);
	env = env_of(GIT_DIR_ENVIRONMENT, NULL);
	git_dir = xstrdup(env ? env : DEFAULT_GIT_DIR);
	env = env_of(DB_ENVIRONMENT, OBJECT_DIR_ENVIRONMENT);
	object_dir = env ? xstrdup(env) : path_join(git_dir, "objects");
	env = env_of(INDEX_ENVIRONMENT, NULL);
	index_file = env ? xstrdup(env) : path_join(git_dir, "index");
}

/*
 * A tool started with stdout or stderr closed would otherwise get that
 * number for the first file it opens (index.lock, say), and print its
 * messages into it.  git does the same at startup.
 */
static void sanitize_std_fds(void)
{
	int fd;

	do {
		fd = open("/dev/null", O_RDWR);
	} while (fd >= 0 && fd <= 2);
	if (fd < 0) {
		/* No /dev/null: nothing safe to write to; refuse to run. */
		_exit(128);
	}
	close(fd);
}

void setup_tool(const char *argv0)
{
	sanitize_std_fds();
	set_progname(argv0);
	setup_environment();
}

/* Is dir a directory holding objects/ (or the store named apart)? */
static int is_store(const char *dir)
{
	char *path = path_join(dir, "objects");
	struct stat st;
	int ok = !stat(path, &st) && S_ISDIR(st.st_mode);

	free(path);
	return ok;
}

/* Print where the store of an enclosing work tree is, if there is one. */
static void hint_store_above(void)
{
	char cwd[PATH_MAX], *slash;

	if (getenv(GIT_DIR_ENVIRONMENT) || !getcwd(cwd, sizeof(cwd)))
		return;
	while ((slash = strrchr(cwd, '/')) != NULL && slash != cwd) {
		char *dir;

		*slash = '\0';
		dir = path_join(cwd, DEFAULT_GIT_DIR);
		if (is_store(dir)) {
			error("the work tree's top is '%s': run the tools "
			      "there", cwd);
			free(dir);
			return;
		}
		free(dir);
	}
}

int setup_repository(void)
{
	struct stat st;

	int missing = stat(object_dir, &st);

	if (!missing && S_ISDIR(st.st_mode))
		return 0;
	if (env_of(DB_ENVIRONMENT, OBJECT_DIR_ENVIRONMENT)) {
		if (missing)
			return error_errno("object directory '%s'", object_dir);
		return error("object directory '%s' is not a directory",
			     object_dir);
	}
	error("not a dircache repository (or GIT_DIR): %s", git_dir);
	hint_store_above();
	return -1;
}

int sync_wanted(void)
{
	const char *env = getenv(NO_SYNC_ENVIRONMENT);

	return !env || !*env || !strcmp(env, "0");
}
