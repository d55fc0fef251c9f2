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
#include <strings.h>
#include <unistd.h>

#include "cache.h"

static char *git_dir, *common_dir, *object_dir, *index_file;
/* Why git_dir is no repository, found at setup, told by setup_repository. */
static struct fault setup_fault;

const char *get_git_dir(void)
{
	return git_dir;
}

const char *get_common_dir(void)
{
	return common_dir;
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

/*
 * A small file's text (malloc'd), trailing newlines and CRs dropped;
 * NULL with errno set when it cannot be read, or is 1 MiB or more.
 */
static char *read_text_file(const char *path)
{
	size_t n;
	char *buf = read_small_file(path, 1 << 20, &n);

	if (!buf)
		return NULL;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	buf[n] = '\0';
	return buf;
}

/* name relative to the directory of file (its leading part), malloc'd. */
static char *relative_to_file(const char *file, const char *name)
{
	const char *slash = strrchr(file, '/');
	char *path;

	if (name[0] == '/' || !slash)
		return xstrdup(name);
	path = xmalloc(slash - file + 2 + strlen(name));
	memcpy(path, file, slash - file + 1);
	strcpy(path + (slash - file + 1), name);
	return path;
}

/* path made absolute and without "." or ".." (as git names it), or path. */
static char *real_path(char *path)
{
	char *real = realpath(path, NULL);

	if (!real)
		return path;
	free(path);
	return real;
}

char *common_dir_of(const char *dir)
{
	char *file = path_join(dir, "commondir"), *text, *common;

	text = read_text_file(file);
	free(file);
	if (!text)
		return xstrdup(dir);
	common = text[0] == '/' ? xstrdup(text) : path_join(dir, text);
	free(text);
	return real_path(common);
}

/* Does dir hold HEAD, and (in its common directory) objects/ and refs/? */
static int is_git_directory(const char *dir)
{
	char *common = common_dir_of(dir), *path;
	struct stat st;
	int ok;

	path = path_join(dir, "HEAD");
	ok = !lstat(path, &st) && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
	free(path);
	path = path_join(common, "refs");
	ok = ok && !stat(path, &st) && S_ISDIR(st.st_mode);
	free(path);
	path = path_join(common, "objects");
	ok = ok && (env_of(DB_ENVIRONMENT, OBJECT_DIR_ENVIRONMENT) ||
		    (!stat(path, &st) && S_ISDIR(st.st_mode)));
	free(path);
	free(common);
	return ok;
}

char *read_gitfile(const char *path, struct fault *f)
{
	char *text = read_text_file(path), *dir;

	if (!text) {
		set_fault_errno(f, "read '%s'", path);
		return NULL;
	}
	if (strncmp(text, "gitdir: ", 8) || !text[8]) {
		free(text);
		set_fault(f, FAULT_CORRUPT, "invalid gitfile format: %s", path);
		return NULL;
	}
	dir = relative_to_file(path, text + 8);
	free(text);
	if (!is_git_directory(dir)) {
		set_fault(f, FAULT_MISSING, "not a git repository: %s", dir);
		free(dir);
		return NULL;
	}
	return real_path(dir);
}

/*
 * The git directory when GIT_DIR is not set: .dircache, else .git (a
 * repository git made: a directory, or a gitfile as in a worktree),
 * else .dircache, which the tools that need one report missing.  A
 * gitfile found here is named absolute, as git names it.
 */
static char *default_git_dir(void)
{
	char cwd[PATH_MAX];
	struct stat st;

	if (!lstat(DEFAULT_GIT_DIR, &st) || lstat(".git", &st))
		return xstrdup(DEFAULT_GIT_DIR);
	if (S_ISREG(st.st_mode) && getcwd(cwd, sizeof(cwd)))
		return path_join(cwd, ".git");
	return xstrdup(".git");
}

/* Follow dir when it is a gitfile; the fault is kept for later. */
static char *follow_gitfile(char *dir)
{
	struct stat st;
	char *target;

	if (stat(dir, &st) || !S_ISREG(st.st_mode))
		return dir;
	target = read_gitfile(dir, &setup_fault);
	if (!target)
		return dir;
	free(dir);
	return target;
}

void setup_environment(void)
{
	const char *env;

	free(git_dir);
	free(common_dir);
	free(object_dir);
	free(index_file);
	forget_alternate_chain();
	memset(&setup_fault, 0, sizeof(setup_fault));
	env = env_of(GIT_DIR_ENVIRONMENT, NULL);
	git_dir = follow_gitfile(env ? xstrdup(env) : default_git_dir());
	env = env_of(COMMON_DIR_ENVIRONMENT, NULL);
	common_dir = env ? xstrdup(env) : common_dir_of(git_dir);
	env = env_of(DB_ENVIRONMENT, OBJECT_DIR_ENVIRONMENT);
	object_dir = env ? xstrdup(env) : path_join(common_dir, "objects");
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

/* Does top hold a .dircache, or a .git (a store, or a gitfile)? */
static int is_top(const char *top)
{
	char *dir = path_join(top, DEFAULT_GIT_DIR);
	struct stat st;
	int ok = is_store(dir);

	free(dir);
	if (ok)
		return 1;
	dir = path_join(top, ".git");
	ok = is_store(dir) || (!stat(dir, &st) && S_ISREG(st.st_mode));
	free(dir);
	return ok;
}

/* Is dir one of GIT_CEILING_DIRECTORIES, above which git does not look? */
static int is_ceiling(const char *dir)
{
	const char *list = getenv("GIT_CEILING_DIRECTORIES"), *end;
	size_t len = strlen(dir);

	for (; list && *list; list = *end ? end + 1 : end) {
		end = strchr(list, ':');
		if (!end)
			end = list + strlen(list);
		if ((size_t)(end - list) == len && !memcmp(list, dir, len))
			return 1;
	}
	return 0;
}

/* Print where the store of an enclosing work tree is, if there is one. */
static void hint_store_above(void)
{
	char cwd[PATH_MAX], *slash;

	if (getenv(GIT_DIR_ENVIRONMENT) || !getcwd(cwd, sizeof(cwd)))
		return;
	while ((slash = strrchr(cwd, '/')) != NULL && slash != cwd) {
		*slash = '\0';
		if (is_ceiling(cwd))
			return;
		if (is_top(cwd)) {
			error("the work tree's top is '%s': run the tools "
			      "there", cwd);
			return;
		}
	}
}

/* What the repository's config says of its format and extensions. */
struct repo_format {
	long version;
	struct mbuf unknown, v1_only;	/* extension names, ", " between */
	char *object_format;		/* one we do not read, or NULL */
	const struct hash_algo *algo;	/* the one named, SHA-1 by default */
};

static void add_name(struct mbuf *list, const char *name)
{
	if (list->len)
		mbuf_addstr(list, ", ");
	mbuf_addstr(list, name);
}

/*
 * git's rules (setup.c check_repo_format): these extensions mean
 * something in a version 0 repository too; noop-v1 and objectformat
 * only in version 1; any other is unknown, which only version 1 must
 * refuse.  Object formats: sha1 and sha256, as git 2.39.
 */
static int check_format_var(const char *key, const char *value, void *data)
{
	static const char *const v0_known[] = {
		"noop", "preciousobjects", "partialclone", "worktreeconfig"
	};
	struct repo_format *fmt = data;
	const char *ext;
	size_t i;

	if (!strcmp(key, "core.repositoryformatversion")) {
		if (config_int(value, &fmt->version) < 0)
			return error("bad numeric config value '%s' for "
				     "'core.repositoryformatversion'",
				     value ? value : "");
		return 0;
	}
	if (strncmp(key, "extensions.", 11))
		return 0;
	ext = key + 11;
	for (i = 0; i < sizeof(v0_known) / sizeof(*v0_known); i++)
		if (!strcmp(ext, v0_known[i]))
			return 0;
	if (strcmp(ext, "noop-v1") && strcmp(ext, "objectformat")) {
		add_name(&fmt->unknown, ext);
		return 0;
	}
	add_name(&fmt->v1_only, ext);
	if (!strcmp(ext, "objectformat")) {
		const struct hash_algo *algo = value ? hash_algo_by_name(value) : NULL;

		free(fmt->object_format);
		fmt->object_format = algo ? NULL : xstrdup(value ? value : "");
		fmt->algo = algo ? algo : &hash_sha1;
	}
	return 0;
}

static int verify_format(const struct repo_format *fmt)
{
	if (fmt->version > 1)
		return error("expected repository format version <= 1, "
			     "found %ld", fmt->version);
	if (fmt->version == 1 && fmt->unknown.len)
		return error("unknown repository extension%s found: %s",
			     strchr(mbuf_str(&fmt->unknown), ',') ? "s" : "",
			     mbuf_str(&fmt->unknown));
	if (fmt->version == 0 && fmt->v1_only.len)
		return error("repository format version is 0, but v1-only "
			     "extension%s found: %s",
			     strchr(mbuf_str(&fmt->v1_only), ',') ? "s" : "",
			     mbuf_str(&fmt->v1_only));
	if (fmt->object_format)
		return error("unsupported object format '%s' "
			     "(extensions.objectformat)", fmt->object_format);
	if (fmt->unknown.failed || fmt->v1_only.failed)
		return error("out of memory reading the repository format");
	return 0;
}

int check_repository_format(void)
{
	struct repo_format fmt = { 0, MBUF_INIT, MBUF_INIT, NULL, &hash_sha1 };
	char *path = path_join(common_dir, "config");
	int ret = config_from_file(path, check_format_var, &fmt);

	if (!ret)
		ret = verify_format(&fmt);
	if (!ret)
		the_hash = fmt.algo;
	free(path);
	mbuf_release(&fmt.unknown);
	mbuf_release(&fmt.v1_only);
	free(fmt.object_format);
	return ret ? -1 : 0;
}

/* ---- the stores a repository is made of: one hash for all ---- */

/*
 * The hash the config of the git directory dir names (SHA-1 when it
 * names none), or NULL when dir has no config or it cannot be read:
 * only a store that says otherwise is refused.
 */
static const struct hash_algo *hash_of_dir(const char *dir)
{
	struct repo_format fmt = { 0, MBUF_INIT, MBUF_INIT, NULL, &hash_sha1 };
	char *path = path_join(dir, "config");
	const struct hash_algo *algo = NULL;
	struct stat st;

	if (!stat(path, &st) && S_ISREG(st.st_mode) &&
	    !config_from_file(path, check_format_var, &fmt) &&
	    !fmt.object_format)
		algo = fmt.algo;
	free(path);
	mbuf_release(&fmt.unknown);
	mbuf_release(&fmt.v1_only);
	free(fmt.object_format);
	return algo;
}

/*
 * The hash of the repository an object directory (".../objects")
 * belongs to, by the config beside it; NULL when there is none.
 */
static const struct hash_algo *hash_of_objects(const char *objdir)
{
	size_t len = strlen(objdir);
	const struct hash_algo *algo;
	char *dir;

	while (len > 1 && objdir[len - 1] == '/')
		len--;
	if (len < 8 || strncmp(objdir + len - 7, "objects", 7) ||
	    objdir[len - 8] != '/')
		return NULL;
	dir = xmalloc(len - 6);
	memcpy(dir, objdir, len - 7);	/* the parent, its '/' kept */
	dir[len - 7] = '\0';
	algo = hash_of_dir(dir);
	free(dir);
	return algo;
}

/* -1 after one line when the store at what is of another hash. */
static int check_same_hash(const struct hash_algo *algo, const char *kind,
			   const char *what)
{
	if (!algo || algo == the_hash)
		return 0;
	return error("%s '%s' is a %s store; this repository is %s", kind,
		     what, algo->name, the_hash->name);
}

/*
 * Every alternate, at every level (read_alternate_chain): each of
 * another hash is refused before any object is looked for.
 */
static int check_alternates_hash(void)
{
	const char *const *dirs = read_alternate_chain(object_dir);
	size_t i;
	int ret = 0;

	for (i = 0; !ret && dirs[i]; i++)
		ret = check_same_hash(hash_of_objects(dirs[i]),
				      "alternate object directory",
				      alternate_chain_name(i));
	return ret;
}

/*
 * A worktree's detached HEAD: the hash of the id it holds, NULL when
 * it holds none (a symbolic ref, nothing readable, not an id).
 */
static const struct hash_algo *hash_of_head(const char *dir)
{
	char *path = path_join(dir, "HEAD"), *text = read_text_file(path);
	const struct hash_algo *algo = NULL;
	size_t n;

	free(path);
	if (!text)
		return NULL;
	n = strspn(text, "0123456789abcdef");
	if (!text[n] && n == hash_sha1.hexsz)
		algo = &hash_sha1;
	else if (!text[n] && n == hash_sha256.hexsz)
		algo = &hash_sha256;
	free(text);
	return algo;
}

/*
 * A worktree's git directory (its config, its detached HEAD), an
 * object directory named apart and the alternates are the common
 * directory's hash, or refused: ids of one size are never looked up
 * among the other's.
 */
static int check_stores_hash(void)
{
	const struct hash_algo *head;
	char *path;
	int ret = 0;

	if (strcmp(git_dir, common_dir)) {
		ret = check_same_hash(hash_of_dir(git_dir), "git directory",
				      git_dir);
		head = ret ? NULL : hash_of_head(git_dir);
		if (head && head != the_hash)
			ret = error("HEAD of '%s' is a %s id; this repository "
				    "is %s", git_dir, head->name,
				    the_hash->name);
	}
	if (!ret && env_of(DB_ENVIRONMENT, OBJECT_DIR_ENVIRONMENT)) {
		const struct hash_algo *store;

		path = path_join(common_dir, "objects");
		if (strcmp(path, object_dir)) {
			store = hash_of_objects(object_dir);
			/*
			 * No config where the index lives (a work tree
			 * using a store by SHA1_FILE_DIRECTORY alone, as
			 * in 2005): the store's config says the hash.
			 */
			if (store && !hash_of_dir(common_dir))
				the_hash = store;
			ret = check_same_hash(store, "object directory",
					      object_dir);
		}
		free(path);
	}
	return ret ? ret : check_alternates_hash();
}

/* 0 when the object directory exists, else -1 after saying so. */
static int check_object_directory(void)
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

int check_git_dir(void)
{
	return setup_fault.code ? error("%s", setup_fault.msg) : 0;
}

int setup_repository(void)
{
	if (check_git_dir() < 0 || check_object_directory() < 0 ||
	    check_repository_format() < 0)
		return -1;
	return check_stores_hash();
}

int sync_wanted(void)
{
	const char *env = getenv(NO_SYNC_ENVIRONMENT);

	return !env || !*env || !strcmp(env, "0");
}

/* Is the variable name set to a true value (git's bool words, or a number)? */
static int env_true(const char *name)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return 0;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on"))
		return 1;
	return strtol(v, NULL, 10) != 0;
}

/* The user's config files, git's order: XDG's first, ~/.gitconfig wins. */
static int global_config(config_fn fn, void *data)
{
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	char *path = NULL;
	int ret = 0;

	if (global)
		return config_from_file(global, fn, data);
	if (xdg && *xdg)
		path = path_join(xdg, "git/config");
	else if (home && *home)
		path = path_join(home, ".config/git/config");
	if (path)
		ret = config_from_file(path, fn, data);
	free(path);
	if (ret || !home || !*home)
		return ret;
	path = path_join(home, ".gitconfig");
	ret = config_from_file(path, fn, data);
	free(path);
	return ret;
}

int for_each_config(config_fn fn, void *data)
{
	const char *system = getenv("GIT_CONFIG_SYSTEM");
	char *path;
	int ret = 0;

	if (!env_true("GIT_CONFIG_NOSYSTEM"))
		ret = config_from_file(system ? system : "/etc/gitconfig",
				       fn, data);
	if (!ret)
		ret = global_config(fn, data);
	if (ret)
		return ret;
	path = path_join(get_common_dir(), "config");
	ret = config_from_file(path, fn, data);
	free(path);
	return ret;
}

struct config_lookup {
	const char *key;
	char *value;
	int found;
};

static int note_value(const char *key, const char *value, void *data)
{
	struct config_lookup *l = data;

	if (strcmp(key, l->key))
		return 0;
	free(l->value);
	l->value = value ? xstrdup(value) : NULL;
	l->found = 1;
	return 0;
}

int config_get(const char *key, char **value)
{
	struct config_lookup l = { key, NULL, 0 };

	*value = NULL;
	if (for_each_config(note_value, &l) < 0) {
		free(l.value);
		return -1;
	}
	*value = l.value;
	return l.found;
}
