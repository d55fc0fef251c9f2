/*
 * index-write.c: commit_index, the index written to index.lock
 * (O_EXCL) and renamed over the index, so a reader sees the old index
 * or the new one, never half of one.  It is written in the version it
 * was read in, split if it came split (index-split.c plans it), with
 * the extensions kept (TREE kept true).
 */
#define _GNU_SOURCE		/* sync_file_range */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "index-internal.h"

static struct lock_file index_lock;

int hold_index_lock(void)
{
	return hold_lock_file(&index_lock, get_index_file());
}

void rollback_index_lock(void)
{
	rollback_lock_file(&index_lock);
}

/* index.version from the config files, or 0. */
static int config_index_version(void)
{
	char *value;
	long v = 0;

	if (!get_git_dir() || config_get("index.version", &value) <= 0)
		return 0;
	if (config_int(value, &v) < 0)
		v = 0;
	free(value);
	return v;
}

/* A new index's version: GIT_INDEX_VERSION, then index.version, then 2. */
static int default_index_version(void)
{
	const char *env = getenv("GIT_INDEX_VERSION");
	int v = env ? atoi(env) : 0;

	if (v < 2 || v > 4)
		v = config_index_version();
	return v >= 2 && v <= 4 ? v : 2;
}

/*
 * As git: v4 stays v4; v2 and v3 become whichever the entries need
 * (v3 only for extended flags: intent-to-add, skip-worktree).
 */
static unsigned int version_to_write(void)
{
	unsigned int i;

	if (!index_version)
		index_version = default_index_version();
	if (index_version == 4)
		return 4;
	for (i = 0; i < active_nr; i++)
		if (active_cache[i]->ce_ext_flags)
			return 3;
	return 2;
}

/*
 * Before a write: a racy entry whose content no longer matches gets
 * size 0, so that it shows as changed however late it is looked at.
 */
static void smudge_racy_entries(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];
		struct stat st;

		if (ce_stage(ce) || (ce->ce_state & CE_UPTODATE) ||
		    !ce_is_racy(ce) || !ce->ce_size)
			continue;
		if (lstat_work_path(ce->name, &st) || ce_match_stat(ce, &st))
			ce->ce_size = 0;
	}
}


static int write_extension(struct hashfile *w, const char *sig,
			   const void *buf, size_t len)
{
	unsigned char hdr[8];

	memcpy(hdr, sig, 4);
	put_be32(hdr + 4, len);
	if (hashwrite(w, hdr, 8) < 0)
		return -1;
	return hashwrite(w, buf, len);
}

static int write_cache_tree(struct hashfile *w)
{
	struct mbuf b = MBUF_INIT;
	int ret;

	if (!active_cache_tree)
		return 0;
	invalidate_changed();
	ret = cache_tree_write(&b, active_cache_tree);
	if (ret < 0)
		ret = error("cannot write the cache tree: out of memory");
	else
		ret = write_extension(w, "TREE", b.buf, b.len);
	free(b.buf);
	return ret;
}

static int has_sparse_dirs(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++)
		if (ce_sparse_dir(active_cache[i]))
			return 1;
	return 0;
}

/*
 * Extensions in git's order: TREE, REUC, UNTR, sdir.  The untracked
 * cache goes back as it came while no path came or went: git
 * invalidates it only there, and a directory's other files it checks
 * by their stat data itself.
 */
static int write_index_extensions(struct hashfile *w)
{
	if (write_cache_tree(w) < 0)
		return -1;
	if (kept_reuc && hashwrite(w, kept_reuc, kept_reuc_len) < 0)
		return -1;
	if (kept_untr && index_paths_unchanged() &&
	    hashwrite(w, kept_untr, kept_untr_len) < 0)
		return -1;
	if (has_sparse_dirs() && write_extension(w, "sdir", "", 0) < 0)
		return -1;
	return 0;
}

/* The header, the entries (of the split file, if split), extensions. */
static int write_index_to(int fd)
{
	struct split_plan plan;
	unsigned int version = version_to_write();
	struct hashfile *w;
	int ret;

	if (plan_split_index(&plan, version) < 0)
		return -1;
	w = hashfd(fd);
	w->name = "the index";
	if (plan.split)
		ret = write_entries(w, version, plan.ces, plan.nr);
	else
		ret = write_entries(w, version, active_cache, active_nr);
	if (!ret && plan.split)
		ret = write_extension(w, "link", plan.link.buf, plan.link.len);
	if (!ret)
		ret = write_index_extensions(w);
	if (hashfile_finish(w, NULL) < 0)
		ret = -1;
	release_split_plan(&plan);
	return ret;
}

int write_index_lock(void)
{
	if (!index_lock.path)
		return error("internal error: index is not locked");
	smudge_racy_entries();
	if (write_index_to(index_lock.fd) < 0) {
		error_errno("write '%s'", index_lock.path);
		rollback_index_lock();
		return -1;
	}
#ifdef SYNC_FILE_RANGE_WRITE
	/* On its way to disk while the caller syncs the rest. */
	if (sync_wanted())
		sync_file_range(index_lock.fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
	return 0;
}

int commit_index(void)
{
	if (write_index_lock() < 0)
		return -1;
	return commit_written_index();
}

int sync_index_lock(void)
{
	if (!index_lock.path)
		return error("internal error: index is not locked");
	if (sync_wanted() && fsync(index_lock.fd) < 0)
		return error_errno("fsync '%s'", index_lock.path);
	return 0;
}

int commit_written_index(void)
{
	if (!index_lock.path)
		return error("internal error: index is not locked");
	if (flush_to_disk(index_lock.fd) < 0) {
		rollback_index_lock();
		return -1;
	}
	return commit_lock_file(&index_lock);
}
