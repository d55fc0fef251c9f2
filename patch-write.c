/*
 * patch-write.c: a patch set that has applied in memory, written: the
 * blobs stored (with the index), the removals first, then the
 * temporary files renamed over the files (or the contents written), and
 * the index entries changed in memory (the caller writes the index);
 * and git apply -v's account of it, with the .rej files.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "diff.h"
#include "patch-internal.h"

void note_patch(const struct patch_set *set, const char *before,
		const struct patch *patch, const char *after)
{
	const char *o = patch->old_name, *n = patch->new_name;
	struct mbuf text = MBUF_INIT;

	mbuf_addstr(&text, before);
	if (o && n && strcmp(o, n)) {
		add_quoted_path(&text, "", o, strlen(o));
		mbuf_addstr(&text, " => ");
		add_quoted_path(&text, "", n, strlen(n));
	} else {
		o = n ? n : o;
		add_quoted_path(&text, "", o, strlen(o));
	}
	mbuf_addstr(&text, after);
	patch_note(set, 0, &text);
	mbuf_release(&text);
}

static int index_target(const struct target *t, unsigned int flags,
			const unsigned char *sha1)
{
	struct cache_entry *ce = make_cache_entry(t->path, strlen(t->path));
	struct stat st;

	hashcpy(ce->sha1, sha1);
	if (!(flags & APPLY_CACHED)) {
		if (lstat(t->path, &st) < 0) {
			free_cache_entry(ce);
			return error_errno("lstat '%s'", t->path);
		}
		fill_stat_cache_info(ce, &st);
	}
	ce->ce_mode = S_ISLNK(t->mode) ? 0120000 :
		      (t->mode & 0100) ? 0100755 : 0100644;
	return add_cache_entry(ce, ADD_CACHE_OK_TO_ADD);
}

/* Temporary files for the targets whose contents are in memory. */
static int write_tmps(struct target *t, size_t nr)
{
	struct tmp_job *jobs = xcalloc(nr + 1, sizeof(*jobs));
	size_t i, n = 0;
	int ret;

	for (i = 0; i < nr; i++) {
		if (!t[i].exists || !t[i].owner || t[i].tmp)
			continue;
		jobs[n].path = t[i].path;
		jobs[n].buf = t[i].buf;
		jobs[n].size = t[i].size;
		jobs[n++].mode = t[i].mode;
	}
	ret = write_patch_tmps(jobs, n);
	for (i = n = 0; i < nr; i++)
		if (t[i].exists && t[i].owner && !t[i].tmp)
			t[i].tmp = jobs[n++].tmp;
	free(jobs);
	return ret;
}

/*
 * Put the targets' contents in place: each to a temporary file, then
 * renamed over its path (both on every core).
 */
static int write_targets(struct target *t, size_t nr)
{
	char **tmps = xcalloc(nr + 1, sizeof(*tmps));
	const char **paths = xcalloc(nr + 1, sizeof(*paths));
	size_t i, n = 0;
	int ret = write_tmps(t, nr);

	for (i = 0; !ret && i < nr; i++) {
		if (!t[i].exists || !t[i].owner)
			continue;
		tmps[n] = t[i].tmp;
		paths[n++] = t[i].path;
	}
	if (!ret && n) {
		ret = place_patch_tmps(tmps, paths, n);
		for (i = n = 0; i < nr; i++)
			if (t[i].exists && t[i].owner)
				t[i].tmp = tmps[n++];	/* NULL once placed */
	}
	free(tmps);
	free(paths);
	return ret;
}

int write_patch_targets(struct target *t, size_t nr, unsigned int flags)
{
	unsigned char (*ids)[HASH_MAX_RAWSZ] = xcalloc(nr ? nr : 1, sizeof(*ids));
	int with_index = flags & (APPLY_INDEX | APPLY_CACHED);
	int ret = -1;
	size_t i;

	for (i = 0; i < nr; i++)
		if (with_index && t[i].exists && t[i].owner &&
		    write_sha1_file(t[i].buf, t[i].size, OBJ_BLOB, ids[i]) < 0)
			goto out;
	for (i = 0; !(flags & APPLY_CACHED) && i < nr; i++)
		if (t[i].existed && !t[i].exists &&
		    remove_patch_file(t[i].path) < 0)
			goto out;
	if (!(flags & APPLY_CACHED) && write_targets(t, nr) < 0)
		goto out;
	for (i = 0; with_index && i < nr; i++)
		if (!t[i].exists)
			remove_file_from_cache(t[i].path);
	for (i = 0; with_index && i < nr; i++)
		if (t[i].exists && t[i].owner &&
		    index_target(&t[i], flags, ids[i]) < 0)
			goto out;
	ret = 0;
out:
	free(ids);
	return ret;
}

/* git apply -v's account of a patch with rejects, hunk by hunk. */
static void note_hunks(const struct patch_set *set, const struct patch *p)
{
	const struct patch_hunk *h;
	struct mbuf text = MBUF_INIT;
	unsigned int nth = 0;

	mbuf_addf(&text, " with %d reject%s...\n", p->has_rejects,
		  p->has_rejects == 1 ? "" : "s");
	note_patch(set, "Applying patch ", p, mbuf_str(&text));
	mbuf_reset(&text);
	for (h = p->hunks; h; h = h->next) {
		nth++;
		if (h->rejected)
			mbuf_addf(&text, "Rejected hunk #%u.\n", nth);
		else
			mbuf_addf(&text, "Hunk #%u applied cleanly.\n", nth);
	}
	patch_note(set, 0, &text);
	mbuf_release(&text);
}

/* git apply -v's account of each file, and the .rej files. */
int report_patch_results(struct patch_set *set, unsigned int flags)
{
	struct patch *p;

	for (p = set->first; p; p = p->next) {
		if (!p->has_rejects) {
			note_patch(set, "Applied patch ", p, " cleanly.\n");
			continue;
		}
		note_hunks(set, p);
		if (!(flags & APPLY_CACHED) && write_patch_rejects(p) < 0)
			return -1;
	}
	return 0;
}
