/*
 * alt-chain.c: the alternate object directories a store may use, found
 * as git 2.39 finds them (object-file.c's link_alt_odb_entries): the
 * entries of GIT_ALTERNATE_OBJECT_DIRECTORIES (':'-separated), then of
 * objects/info/alternates (one a line, '#' a comment), each followed at
 * once by the ones its own info/alternates names, relative to it, to a
 * depth of 5.  Real paths, each once: a duplicate, a cycle back to a
 * directory met before or to the store itself is skipped silently; a
 * missing directory is skipped after git's error.  setup.c checks that
 * every one is of the store's hash; alternates.c reads objects there.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

#define MAX_ALTERNATE_DEPTH 5

struct alt_chain {
	char **dirs;		/* real paths, NULL-terminated once read */
	char **named;		/* as the list wrote them (for messages) */
	size_t nr, alloc, named_alloc;
	char *self;		/* the store's own, never its alternate */
};

static struct alt_chain alt_chain;
static int alt_chain_read;

void forget_alternate_chain(void)
{
	size_t i;

	for (i = 0; i < alt_chain.nr; i++) {
		free(alt_chain.dirs[i]);
		free(alt_chain.named[i]);
	}
	free(alt_chain.dirs);
	free(alt_chain.named);
	free(alt_chain.self);
	memset(&alt_chain, 0, sizeof(alt_chain));
	alt_chain_read = 0;
}

static void chain_read_file(const char *objdir, int depth);

/*
 * path made real as git's strbuf_realpath does it: every component
 * but a missing last one resolved; NULL when more is missing.
 */
static char *real_path_last_missing(const char *path)
{
	char *dir = xstrdup(path), *slash, *parent, *real = NULL;
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	parent = realpath(!slash ? "." : slash == dir ? "/" : dir, NULL);
	if (parent) {
		const char *last = slash ? slash + 1 : dir;

		real = xmalloc(strlen(parent) + strlen(last) + 2);
		sprintf(real, "%s/%s", strcmp(parent, "/") ? parent : "",
			last);
	}
	free(parent);
	free(dir);
	return real;
}

/*
 * The real path of an alternate, or NULL after git's words: a path
 * that cannot be resolved, or a directory that is not there.
 */
static char *alternate_real_path(const char *path)
{
	char *real = realpath(path, NULL);
	struct stat st;

	if (real && !stat(real, &st) && S_ISDIR(st.st_mode))
		return real;
	if (!real && errno == ENOENT)
		real = real_path_last_missing(path);
	if (!real) {
		error("unable to normalize alternate object path: %s", path);
		return NULL;
	}
	error("object directory %s does not exist; check "
	      ".git/objects/info/alternates", real);
	free(real);
	return NULL;
}

/* One entry (len bytes) of a list read at depth, relative to base. */
static void chain_add(const char *base, const char *entry, size_t len,
		      int depth)
{
	char *path, *real;
	size_t i;

	if (entry[0] != '/' && base) {
		path = xmalloc(strlen(base) + len + 2);
		sprintf(path, "%s/%.*s", base, (int)len, entry);
	} else {
		path = xmalloc(len + 1);
		memcpy(path, entry, len);
		path[len] = '\0';
	}
	real = alternate_real_path(path);
	free(path);
	if (!real)
		return;
	for (i = 0; i < alt_chain.nr; i++)
		if (!strcmp(alt_chain.dirs[i], real))
			break;
	if (i < alt_chain.nr || !strcmp(real, alt_chain.self)) {
		free(real);
		return;		/* met before: a duplicate or a cycle */
	}
	ALLOC_GROW(alt_chain.dirs, alt_chain.nr + 2, alt_chain.alloc);
	ALLOC_GROW(alt_chain.named, alt_chain.nr + 1, alt_chain.named_alloc);
	alt_chain.dirs[alt_chain.nr] = real;
	if (depth) {
		alt_chain.named[alt_chain.nr] = xstrdup(real);
	} else {
		alt_chain.named[alt_chain.nr] = xmalloc(len + 1);
		memcpy(alt_chain.named[alt_chain.nr], entry, len);
		alt_chain.named[alt_chain.nr][len] = '\0';
	}
	alt_chain.dirs[++alt_chain.nr] = NULL;
	chain_read_file(real, depth + 1);
}

/*
 * The entries of a list (a file's: '\n'-separated, '#' comments; the
 * variable's: ':'-separated), each followed at once by the ones it
 * names, as git's link_alt_odb_entries.
 */
static void chain_add_list(const char *base, const char *list, int sep,
			   int depth)
{
	const char *p = list;

	if (!*p)
		return;
	if (depth > MAX_ALTERNATE_DEPTH) {
		error("%s: ignoring alternate object stores, nesting too deep",
		      base);
		return;
	}
	while (*p) {
		size_t len = strcspn(p, sep == ':' ? ":" : "\n"), taken;
		char *name = NULL;

		/*
		 * A quoted entry ends at its closing quote; broken quoting
		 * is read as a plain name, as git reads it.
		 */
		if (p[0] == '"')
			name = unquote_c(p, p + strlen(p), &taken);
		if (name) {
			if (*name)
				chain_add(base, name, strlen(name), depth);
			free(name);
			len = taken;
		} else if (len && p[0] != '#') {
			chain_add(base, p, len, depth);
		}
		p += len + (p[len] != '\0');
	}
}

static void chain_read_file(const char *objdir, int depth)
{
	char *file = path_join(objdir, "info/alternates");
	size_t len;
	char *text = read_small_file(file, 1 << 20, &len);

	free(file);
	if (!text)
		return;
	chain_add_list(objdir, text, '\n', depth);
	free(text);
}

const char *const *read_alternate_chain(const char *object_dir)
{
	const char *env = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");

	if (alt_chain_read)
		return (const char *const *)alt_chain.dirs;
	alt_chain_read = 1;
	alt_chain.self = realpath(object_dir, NULL);
	if (!alt_chain.self)
		alt_chain.self = xstrdup(object_dir);
	ALLOC_GROW(alt_chain.dirs, 1, alt_chain.alloc);
	alt_chain.dirs[0] = NULL;
	if (env)
		chain_add_list(NULL, env, ':', 0);
	chain_read_file(alt_chain.self, 0);
	return (const char *const *)alt_chain.dirs;
}

const char *alternate_chain_name(size_t i)
{
	return i < alt_chain.nr ? alt_chain.named[i] : NULL;
}
