/*
 * alternates.c: other object directories whose objects this store may
 * use (a clone made with --shared or --reference).  objects/info/
 * alternates names them, one a line ('#' starts a comment), absolute
 * or relative to the objects directory holding the file; each may name
 * more, to git's depth of 5.  GIT_ALTERNATE_OBJECT_DIRECTORIES adds
 * more, separated by ':'.  alt-chain.c reads the list (setup.c refuses
 * one of another hash): a directory that does not exist is skipped with an
 * error, one met twice is used once.  Their loose objects are a source
 * of the store here; their packs are listed by pack-list.c.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pack.h"

static const char **alt_list;
static pthread_mutex_t alt_lock = PTHREAD_MUTEX_INITIALIZER;

/* alt-chain.c's list (setup.c checked their hashes), copied. */
static void load_alternates(void)
{
	const char *const *chain = read_alternate_chain(get_object_directory());
	const char **list;
	size_t i, n = 0;

	while (chain[n])
		n++;
	list = xcalloc(n + 1, sizeof(*list));
	for (i = 0; i < n; i++)
		list[i] = xstrdup(chain[i]);
	__atomic_store_n(&alt_list, list, __ATOMIC_RELEASE);
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
