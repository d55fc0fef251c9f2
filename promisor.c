/*
 * promisor.c: partial clones, as git knows them.  A repository has a
 * promisor remote when a remote says promisor=true or has a
 * partialCloneFilter, or extensions.partialClone names one; a pack
 * fetched from it has a ".promisor" file beside it.  What such a pack
 * holds, and every object its objects name, may be missing from the
 * store: the remote promised it, and git fsck does not report it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cache.h"
#include "pack.h"

static int note_promisor(const char *key, const char *value, void *data)
{
	int *found = data;
	size_t len = strlen(key);

	if (!strcmp(key, "extensions.partialclone") && value)
		*found = 1;
	if (strncmp(key, "remote.", 7))
		return 0;
	if (len > 16 && !strcmp(key + len - 9, ".promisor") &&
	    (!value || config_bool(value) > 0))
		*found = 1;
	/* a filter makes its remote a promisor remote too (git 2.39) */
	if (len > 26 && !strcmp(key + len - 19, ".partialclonefilter"))
		*found = 1;
	return 0;
}

int promisor_remote_configured(void)
{
	int found = 0;

	for_each_config(note_promisor, &found);
	return found;
}

int is_promisor_pack_file(const struct packed_git *p)
{
	size_t len = strlen(p->pack_name);
	struct stat st;
	char *path;
	int ret;

	if (len < 5 || strcmp(p->pack_name + len - 5, ".pack"))
		return 0;
	path = xmalloc(len + 5);
	memcpy(path, p->pack_name, len - 5);
	strcpy(path + len - 5, ".promisor");
	ret = !stat(path, &st);
	free(path);
	return ret;
}
