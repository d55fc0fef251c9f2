/*
 * sha1_name.c: naming objects on the command line.  An id is 40 hex
 * digits, a unique abbreviation of at least 4, HEAD, or a ref name
 * (tried as given, then under refs/, refs/tags/ and refs/heads/).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"


static int read_ref_file(const char *path, unsigned char *sha1, int depth)
{
	char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read_in_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (!strncmp(buf, "ref: ", 5) && depth < 5) {
		char *ref = buf + 5, *nl = strchr(ref, '\n'), *full;
		int ret;

		if (nl)
			*nl = '\0';
		if (strncmp(ref, "refs/", 5) || strstr(ref, ".."))
			return -1;
		full = path_join(get_git_dir(), ref);
		ret = read_ref_file(full, sha1, depth + 1);
		free(full);
		return ret;
	}
	if (n < 40 || get_sha1_hex(buf, sha1) < 0)
		return -1;
	return 0;
}

static int get_sha1_ref(const char *name, unsigned char *sha1)
{
	static const char *prefixes[] = { "", "refs/", "refs/tags/",
					  "refs/heads/" };
	size_t i;

	if (strstr(name, "..") || name[0] == '/')
		return -1;
	for (i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		size_t len = strlen(get_git_dir()) + strlen(prefixes[i]) +
			     strlen(name) + 2;
		char *path = xmalloc(len);
		int ret;

		snprintf(path, len, "%s/%s%s", get_git_dir(), prefixes[i],
			 name);
		ret = read_ref_file(path, sha1, 0);
		free(path);
		if (!ret)
			return 0;
	}
	return -1;
}

/* Scan objects/xx/ for names starting with the hex prefix. */
static int find_abbrev(const char *hex, size_t len, unsigned char *sha1)
{
	char dirname[3] = { hex[0], hex[1], '\0' };
	char *dir = path_join(get_object_directory(), dirname);
	DIR *d = opendir(dir);
	struct dirent *de;
	char full[41];
	int found = 0;

	free(dir);
	if (!d)
		return 0;
	memcpy(full, hex, 2);
	while ((de = readdir(d)) != NULL) {
		if (strlen(de->d_name) != 38 ||
		    strncmp(de->d_name, hex + 2, len - 2))
			continue;
		memcpy(full + 2, de->d_name, 38);
		full[40] = '\0';
		if (get_sha1_hex(full, sha1) < 0)
			continue;
		if (found++)
			break;
	}
	closedir(d);
	return found;
}

static int is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (hexval(s[i]) < 0)
			return 0;
	return 1;
}

int get_sha1(const char *name, unsigned char *sha1)
{
	size_t len = strlen(name);
	char lower[41];
	size_t i;
	int n;

	if (len == 40 && !get_sha1_hex(name, sha1))
		return 0;
	if (!get_sha1_ref(name, sha1))
		return 0;
	if (len < 4 || len > 40 || !is_hex(name, len))
		return error("not a valid object name: '%s'", name);
	for (i = 0; i < len; i++)
		lower[i] = name[i] | 0x20;
	lower[len] = '\0';
	n = find_abbrev(lower, len, sha1);
	if (n > 1)
		return error("short object id '%s' is ambiguous", name);
	if (!n)
		return error("not a valid object name: '%s'", name);
	return 0;
}
