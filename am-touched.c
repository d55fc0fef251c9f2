/*
 * am-touched.c: the paths an applymbox run changed since its last
 * checkpoint, and what a patch may create over in the work tree.
 *
 * applymbox applies each patch to the index alone and writes the work
 * tree at the checkpoint, so between two checkpoints the work tree lags
 * at exactly these paths: their content is the promised objects', and
 * a file standing at one of them is the checkpoint's to put right, not
 * an untracked file to protect.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "am-state.h"
#include "commit-write.h"
#include "exclude.h"
#include "patch.h"

int am_touched_has(const struct am_touched *t, const char *path)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->paths[i], path))
			return 1;
	return 0;
}

/* Note path (and forget the tree ids of the directories above it). */
static void am_touch(struct am_touched *t, const char *path)
{
	forget_index_trees(path);
	if (am_touched_has(t, path))
		return;
	ALLOC_GROW(t->paths, t->nr + 1, t->alloc);
	t->paths[t->nr++] = xstrdup(path);
}

void am_touch_set(struct am_touched *t, const struct patch_set *set)
{
	const struct patch *p;

	for (p = set->first; p; p = p->next) {
		if (p->old_name)
			am_touch(t, p->old_name);
		if (p->new_name)
			am_touch(t, p->new_name);
	}
}

void am_touched_clear(struct am_touched *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->paths[i]);
	t->nr = 0;
}

/* Does set take path away (a deletion or a rename from it)? */
static int set_removes(const struct patch_set *set, const char *path)
{
	const struct patch *p;

	for (p = set->first; p; p = p->next)
		if ((p->is_delete || p->is_rename) && p->old_name &&
		    !strcmp(p->old_name, path))
			return 1;
	return 0;
}

/*
 * A directory that the set replaces by a file or a symlink, as git
 * apply lets it: every index entry under it is removed by the set, and
 * the files under it the index does not have are stale ones the
 * checkpoint removes (touched paths).  Anything else there (an
 * untracked file) would be lost: not free.
 */
static int dir_is_replaced(const struct am_touched *t,
			   const struct patch_set *set, const char *dir)
{
	size_t len = strlen(dir), i;
	int pos = cache_name_pos(dir, len);
	unsigned int j = pos < 0 ? -pos - 1 : pos;
	struct dir_walk w;
	int ok = 1;

	for (; ok && j < active_nr; j++) {
		const char *name = active_cache[j]->name;

		if (strncmp(name, dir, len) || name[len] > '/')
			break;
		if (name[len] == '/' && !set_removes(set, name))
			ok = 0;
	}
	memset(&w, 0, sizeof(w));
	if (ok && read_directory(&w) < 0)
		ok = 0;
	for (i = 0; ok && i < w.nr; i++)
		if (!strncmp(w.names[i], dir, len) &&
		    w.names[i][len] == '/' && !am_touched_has(t, w.names[i]))
			ok = 0;
	clear_dir_walk(&w);
	return ok;
}

int am_check_untracked(const struct am_touched *t,
		       const struct patch_set *set, struct fault *f)
{
	const struct patch *p;
	struct stat s;

	for (p = set->first; p; p = p->next) {
		const char *path = p->new_name;

		if (!path || !(p->is_new || p->is_rename || p->is_copy) ||
		    cache_name_pos(path, strlen(path)) >= 0 ||
		    am_touched_has(t, path) || lstat_work_path(path, &s) < 0 ||
		    (S_ISDIR(s.st_mode) && dir_is_replaced(t, set, path)))
			continue;
		return set_fault_at(f, FAULT_CONFLICT, path, 0, "%s: already "
				    "exists in working directory", path);
	}
	return 0;
}
