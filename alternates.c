/*
 * alternates.c: other object directories whose objects this store may
 * use (a clone made with --shared or --reference).  objects/info/
 * alternates names them, one a line ('#' starts a comment), absolute
 * or relative to the objects directory holding the file; each may name
 * more, to git's depth of 5.  GIT_ALTERNATE_OBJECT_DIRECTORIES adds
 * more, separated by ':'.  A directory that does not exist is skipped
 * with a warning, one met twice is used once.  Their loose objects are
 * a source of the store here; their packs are listed by pack-list.c.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pack.h"

#define MAX_ALTERNATE_DEPTH 5

struct alt_dir {
	char *path;
	char *real;
	int depth;
};

static struct alt_dir *alts;
static size_t nr_alts, alloc_alts;
static const char **alt_list;
static char *main_real;
static pthread_mutex_t alt_lock = PTHREAD_MUTEX_INITIALIZER;

static void add_alternate(const char *base, const char *entry, size_t len,
			  int depth)
{
	char *path, *real;
	size_t i;

	while (len > 1 && entry[len - 1] == '/')
		len--;
	if (entry[0] == '/' || !base) {
		path = xmalloc(len + 1);
		memcpy(path, entry, len);
		path[len] = '\0';
	} else {
		path = xmalloc(strlen(base) + len + 2);
		sprintf(path, "%s/%.*s", base, (int)len, entry);
	}
	real = realpath(path, NULL);
	if (!real) {
		warning("object directory %s does not exist; check "
			".git/objects/info/alternates", path);
		free(path);
		return;
	}
	for (i = 0; i < nr_alts; i++)
		if (!strcmp(alts[i].real, real))
			break;
	if (i < nr_alts || (main_real && !strcmp(main_real, real))) {
		free(path);
		free(real);
		return;
	}
	ALLOC_GROW(alts, nr_alts + 1, alloc_alts);
	alts[nr_alts].path = path;
	alts[nr_alts].real = real;
	alts[nr_alts].depth = depth;
	nr_alts++;
}

/* The entries of a list, sep-separated (a file: '\n', the variable: ':'). */
static void add_list(const char *base, const char *list, int sep, int depth)
{
	const char *p = list;

	while (*p) {
		const char *end = strchr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len && p[len - 1] == '\r' && sep == '\n')
			len--;
		if (len && p[0] != '#')
			add_alternate(base, p, len, depth);
		p += end ? (size_t)(end - p) + 1 : len;
	}
}

/*
 * Read objdir/info/alternates, depth files away from the store's own
 * (0); its entries are at that depth.
 */
static void read_alternates_file(const char *objdir, int depth)
{
	char *name = path_join(objdir, "info/alternates");
	FILE *fp = fopen(name, "r");
	char *buf = NULL;
	size_t len = 0;
	char chunk[4096];
	size_t n;

	free(name);
	if (!fp)
		return;
	if (depth > MAX_ALTERNATE_DEPTH) {
		error("%s: ignoring alternate object stores, nesting too deep",
		      objdir);
		fclose(fp);
		return;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		buf = xrealloc(buf, len + n + 1);
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(fp);
	if (!buf)
		return;
	buf[len] = '\0';
	add_list(objdir, buf, '\n', depth);
	free(buf);
}

static void load_alternates(void)
{
	const char *env = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	size_t i;

	main_real = realpath(get_object_directory(), NULL);
	read_alternates_file(get_object_directory(), 0);
	if (env)
		add_list(NULL, env, ':', 0);
	/* each one found may name more: the list grows as it is read */
	for (i = 0; i < nr_alts; i++)
		read_alternates_file(alts[i].path, alts[i].depth + 1);
	alt_list = xcalloc(nr_alts + 1, sizeof(*alt_list));
	for (i = 0; i < nr_alts; i++)
		alt_list[i] = alts[i].path;
}

const char *const *alternate_object_dirs(void)
{
	const char **list = __atomic_load_n(&alt_list, __ATOMIC_ACQUIRE);

	if (list)
		return list;
	pthread_mutex_lock(&alt_lock);
	if (!alt_list)
		load_alternates();
	pthread_mutex_unlock(&alt_lock);
	return alt_list;
}

/* dir/xx/<hexsz - 2 hex> (malloc'd). */
static char *alt_object_name(const char *dir, const unsigned char *sha1)
{
	const char *hex = sha1_to_hex(sha1);
	char *name = xmalloc(strlen(dir) + HASH_MAX_HEXSZ + 3);

	sprintf(name, "%s/%.2s/%s", dir, hex, hex + 2);
	return name;
}

int open_alternate_loose(struct object_stream *st, const unsigned char *sha1,
			 struct fault *f)
{
	const char *const *alt;

	memset(st, 0, sizeof(*st));
	for (alt = alternate_object_dirs(); *alt; alt++) {
		char *name = alt_object_name(*alt, sha1);
		int ret = open_object_file_stream(st, name, f);

		free(name);
		if (!ret || f->code != FAULT_MISSING)
			return ret;
	}
	return set_fault(f, FAULT_MISSING, "not found");
}

int has_alternate_loose(const unsigned char *sha1)
{
	const char *const *alt;
	struct stat st;

	for (alt = alternate_object_dirs(); *alt; alt++) {
		char *name = alt_object_name(*alt, sha1);
		int found = !stat(name, &st);

		free(name);
		if (found)
			return 1;
	}
	return 0;
}

int for_each_alternate_loose_prefix(const char *hex, size_t len,
				    int (*fn)(const unsigned char *sha1,
					      void *data), void *data)
{
	const char *const *alt;
	int ret = 0;

	for (alt = alternate_object_dirs(); *alt && !ret; alt++) {
		char *dir = xmalloc(strlen(*alt) + 4);
		struct dirent *de;
		DIR *d;

		sprintf(dir, "%s/%.2s", *alt, hex);
		d = opendir(dir);
		while (!ret && d && (de = readdir(d)) != NULL) {
			unsigned char sha1[HASH_MAX_RAWSZ];
			char sub[3] = { hex[0], hex[1], '\0' };

			if (parse_loose_name(sub, de->d_name, sha1) ||
			    strncmp(sha1_to_hex(sha1), hex, len))
				continue;
			ret = fn(sha1, data);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	return ret;
}
