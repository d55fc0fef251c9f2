/*
 * init-db: create an empty dircache.  Makes .dircache (or $GIT_DIR)
 * with objects/, refs/heads/, refs/tags/ and HEAD, so that it is also
 * a valid git directory, and the object store ($SHA1_FILE_DIRECTORY or
 * $GIT_OBJECT_DIRECTORY when set, to share one store among several
 * work trees).  Running it again is safe: nothing that exists is
 * touched, and it says it reinitialized.  Where only a .git exists it
 * is the one reinitialized, as the other tools read it; in a worktree
 * refs/ and config are the common directory's.  A repository whose
 * format we do not read is refused before anything is made.
 *
 * --shared makes a store several users push into (git's
 * core.sharedRepository=group): every directory group-writable with
 * the setgid bit, so what one user creates the group can replace, and
 * the 256 object fan-out directories made up front, so that no writer
 * creates one with its own umask.  Object files are read-only for all
 * anyway, and refs are replaced by rename, which needs only the
 * directory's permission.
 *
 * --object-format=sha256 (or GIT_DEFAULT_HASH, as git) makes a store
 * whose objects are named by SHA-256, recorded as git records it:
 * format version 1 and extensions.objectformat.  A store is never
 * reinitialized with another hash.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

static const char init_db_usage[] =
	"init-db [-q | --quiet] [--shared] [--object-format=<format>]";

static int shared;

static void make_dir(const char *dir, const char *sub)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s%s%s", dir, *sub ? "/" : "",
		     sub) >= (int)sizeof(path))
		die("path too long: '%s/%s'", dir, sub);
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		die_errno("mkdir '%s'", path);
	if (shared && chmod(path, 02775) < 0)
		die_errno("chmod '%s'", path);
}

static void make_fanout_dirs(const char *objects)
{
	char hex[3];
	int i;

	for (i = 0; i < 256; i++) {
		snprintf(hex, sizeof(hex), "%02x", i);
		make_dir(objects, hex);
	}
}

/* The hash --object-format or GIT_DEFAULT_HASH names, or NULL. */
static const struct hash_algo *requested_hash(const char *name)
{
	const struct hash_algo *algo;

	if (!name)
		name = getenv("GIT_DEFAULT_HASH");
	if (!name || !*name)
		return NULL;
	algo = hash_algo_by_name(name);
	if (!algo)
		die("unknown hash algorithm '%s'", name);
	return algo;
}

/* The config a new store gets: git's, for the hash it names objects by. */
static char *initial_config(const struct hash_algo *algo)
{
	struct mbuf cfg = MBUF_INIT;

	mbuf_addf(&cfg, "[core]\n\trepositoryformatversion = %d\n"
		  "\tfilemode = true\n\tbare = false\n",
		  algo == &hash_sha1 ? 0 : 1);
	if (shared)
		mbuf_addstr(&cfg, "\tsharedrepository = 1\n"
			    "[receive]\n\tdenyNonFastforwards = true\n");
	if (algo != &hash_sha1)
		mbuf_addf(&cfg, "[extensions]\n\tobjectformat = %s\n",
			  algo->name);
	if (cfg.failed)
		die("out of memory");
	return mbuf_detach(&cfg, NULL);
}

/* Write a small file unless it exists: a rerun must not lose HEAD. */
static void create_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			return;
		die_errno("create '%s'", path);
	}
	if (write_in_full(fd, text, strlen(text)) < 0 || close(fd) < 0)
		die_errno("write '%s'", path);
}

int main(int argc, char **argv)
{
	const char *git_dir, *common, *objects, *format = NULL;
	const struct hash_algo *algo;
	char head[PATH_MAX], abs[PATH_MAX], *config;
	int existed, quiet = 0, i;

	setup_tool(argv[0]);
	handle_help(argc, argv, init_db_usage);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--shared"))
			shared = 1;
		else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			quiet = 1;
		else if (!strncmp(argv[i], "--object-format=", 16))
			format = argv[i] + 16;
		else
			usage(init_db_usage);
	}
	algo = requested_hash(format);
	if (check_git_dir() < 0 || check_repository_format() < 0)
		exit(128);
	git_dir = get_git_dir();
	common = get_common_dir();
	objects = get_object_directory();

	snprintf(head, sizeof(head), "%s/HEAD", git_dir);
	existed = !access(head, F_OK);
	if (existed && format && algo != the_hash)
		die("attempt to reinitialize repository with different hash");
	if (!existed && algo)
		the_hash = algo;
	make_dir(git_dir, "");
	make_dir(common, "refs");
	make_dir(common, "refs/heads");
	make_dir(common, "refs/tags");
	make_dir(objects, "");
	make_dir(objects, "info");
	make_dir(objects, "pack");
	if (shared)
		make_fanout_dirs(objects);
	create_file(git_dir, "HEAD", "ref: refs/heads/master\n");
	config = initial_config(the_hash);
	create_file(common, "config", config);
	free(config);
	if (!realpath(git_dir, abs))
		die_errno("realpath '%s'", git_dir);
	if (!quiet)
		fprintf(stderr, "%s: %s dircache in %s/\n", progname(),
			existed ? "reinitialized existing" :
			"initialized empty", abs);
	finish_stdout();
	return 0;
}
