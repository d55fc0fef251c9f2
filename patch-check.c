/*
 * patch-check.c: a patch set applied in memory and checked against the
 * tree, then handed to patch-write.c.  Every patch is applied first, in
 * order, each taking up what the earlier ones of the set left of its
 * file; in the work tree alone each new content goes to its temporary
 * file as soon as it is made (patch-place.c), so that the set holds
 * one file's images at a time.  Only when all of it applies does the
 * tree change (patch-write.c); a failure unlinks the temporary files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"
#include "patch-internal.h"

struct applier {
	unsigned int flags;
	const struct patch_set *set;
	struct fault *f;
	unsigned int rejects;	/* hunks rejected (APPLY_REJECT) */
	struct target *t;
	size_t nr, alloc;
	size_t *slots;		/* open hash of the paths: 1 + index in t */
	size_t nr_slots;	/* a power of two, over twice nr */
	char **dirs;		/* directories new files replace */
	size_t nr_dirs, alloc_dirs;
	char **beyond;		/* new paths below a file or link now */
	size_t nr_beyond, alloc_beyond;
	struct spill *spills;	/* contents waiting for temporary files */
	size_t nr_spills, alloc_spills, spill_bytes;
	struct ahead *ahead;	/* the batch read ahead (AHEAD_BATCH) */
	size_t nr_ahead, next_ahead;
	struct ahead *cur;	/* the patch being applied's, or NULL */
};

/*
 * A preimage read ahead, on every core, with the patch's text hunks
 * applied to it: reading 5,000 files one after the other, then
 * applying their hunks, was most of a big patch's time on one core
 * while the other waited.  The work tree does not change while the
 * set applies in memory (new contents wait in temporary files), so
 * what was read is what read_old would read, and is used only where
 * read_old reads the work tree: the path not yet touched by the set.
 * The checks (leading directories, the file's type) are still made
 * there, in order; a file whose read or hunks failed is done again
 * there, which reports why.
 */
struct ahead {
	struct patch *patch;
	struct stat st;
	int lstat_errno;	/* 0: st is the file's */
	char *buf;		/* its bytes (NULL: read again in order) */
	size_t size;
	int applied;		/* patch->result made from buf */
	int used;		/* buf taken by read_old */
};

#define AHEAD_BATCH 64

/* A target's content made by patch, to go to a temporary file. */
struct spill {
	size_t nth;		/* in t: a->t moves as it grows */
	struct patch *patch;
};

/*
 * The targets by path: a set of 5,000 files looks each path up several
 * times, and a scan of all the targets each time was a third of the
 * run.
 */
static size_t path_hash(const char *path, size_t len)
{
	size_t h = 2166136261u, i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)path[i]) * 16777619u;
	return h;
}

static struct target *find_target_len(struct applier *a, const char *path,
				      size_t len)
{
	size_t mask = a->nr_slots - 1, i;

	if (!a->nr_slots)
		return NULL;
	for (i = path_hash(path, len) & mask; a->slots[i]; i = (i + 1) & mask) {
		struct target *t = &a->t[a->slots[i] - 1];

		if (!strncmp(t->path, path, len) && !t->path[len])
			return t;
	}
	return NULL;
}

static struct target *find_target(struct applier *a, const char *path)
{
	return find_target_len(a, path, strlen(path));
}

static void hash_target(struct applier *a, size_t nth)
{
	const char *path = a->t[nth].path;
	size_t mask = a->nr_slots - 1;
	size_t i = path_hash(path, strlen(path)) & mask;

	while (a->slots[i])
		i = (i + 1) & mask;
	a->slots[i] = nth + 1;
}

static void grow_slots(struct applier *a)
{
	size_t i;

	free(a->slots);
	a->nr_slots = a->nr_slots ? a->nr_slots * 2 : 64;
	a->slots = xcalloc(a->nr_slots, sizeof(*a->slots));
	for (i = 0; i < a->nr; i++)
		hash_target(a, i);
}

/* A new target for path, which has none yet. */
static struct target *add_target(struct applier *a, const char *path)
{
	struct target *t;

	ALLOC_GROW(a->t, a->nr + 1, a->alloc);
	t = &a->t[a->nr++];
	memset(t, 0, sizeof(*t));
	t->path = path;
	if (2 * a->nr >= a->nr_slots)
		grow_slots(a);
	else
		hash_target(a, a->nr - 1);
	return t;
}

/* ---- temporary files ---- */

/* Forget t's temporary file, if it has one. */
static void drop_tmp(struct target *t)
{
	if (!t->tmp)
		return;
	unlink(t->tmp);
	free(t->tmp);
	t->tmp = NULL;
}

/*
 * With the work tree alone, a new content goes to its temporary file
 * soon after it is made, and leaves memory: the set then holds a
 * batch of new images at a time, not all of them until the end.  A
 * batch is written on every core (each file made is an inode to
 * allocate, the kernel's work, not ours).  Nothing is renamed into
 * place before the whole set has applied.  With the index the
 * contents stay (their blobs are written at the end, and applymbox
 * reads the results).
 */
#define SPILL_FILES 512
#define SPILL_BYTES (32 << 20)

/* The spill still stands: no later patch of the set took its target. */
static struct target *spill_target(struct applier *a, const struct spill *s)
{
	struct target *t = &a->t[s->nth];

	if (t->owner != s->patch || !t->exists || t->tmp ||
	    t->buf != s->patch->result)
		return NULL;
	return t;
}

static int flush_spills(struct applier *a)
{
	struct tmp_job *jobs = xcalloc(a->nr_spills + 1, sizeof(*jobs));
	const char *failed = NULL;
	size_t i, nr = 0;

	for (i = 0; i < a->nr_spills; i++) {
		struct target *t = spill_target(a, &a->spills[i]);

		if (!t)
			continue;
		a->spills[nr] = a->spills[i];
		jobs[nr].path = t->path;
		jobs[nr].buf = t->buf;
		jobs[nr].size = t->size;
		jobs[nr].mode = t->mode;
		nr++;
	}
	write_patch_tmps(jobs, nr);
	for (i = 0; i < nr; i++) {
		struct target *t = &a->t[a->spills[i].nth];
		struct patch *patch = a->spills[i].patch;

		if (jobs[i].failed) {
			failed = failed ? failed : t->path;
			continue;
		}
		t->tmp = jobs[i].tmp;
		free(patch->result);
		patch->result = NULL;
		t->buf = NULL;
	}
	free(jobs);
	a->nr_spills = a->spill_bytes = 0;
	if (failed)
		return set_fault_at(a->f, FAULT_IO, failed, 0, "%s: cannot "
				    "write a temporary file", failed);
	return 0;
}

static int spill(struct applier *a, struct target *t, struct patch *patch)
{
	if (a->flags & (APPLY_INDEX | APPLY_CACHED | APPLY_CHECK))
		return 0;
	ALLOC_GROW(a->spills, a->nr_spills + 1, a->alloc_spills);
	a->spills[a->nr_spills].nth = t - a->t;
	a->spills[a->nr_spills].patch = patch;
	a->nr_spills++;
	a->spill_bytes += t->size;
	if (a->nr_spills < SPILL_FILES && a->spill_bytes < SPILL_BYTES)
		return 0;
	return flush_spills(a);
}

/* The content t's temporary file holds (malloc'd), or NULL. */
static char *read_tmp(struct applier *a, struct target *t)
{
	struct stat st;
	size_t size;
	char *buf;

	if (lstat(t->tmp, &st) < 0 ||
	    !(buf = read_work_file(t->tmp, &st, &size))) {
		set_fault_at(a->f, FAULT_IO, t->path, 0, "%s: cannot read back "
			     "%s", t->path, t->tmp);
		return NULL;
	}
	return buf;
}

/* ---- the old content ---- */

/* A leading directory of path that the set leaves as a file or link. */
static const char *set_file_above(struct applier *a, const char *path)
{
	const char *slash;

	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		struct target *t = find_target_len(a, path, slash - path);

		if (t && t->exists)
			return t->path;
	}
	return NULL;
}

/* Work-tree paths are reached through real directories only. */
static int check_leading(struct applier *a, const char *path)
{
	if (a->flags & APPLY_CACHED)
		return 0;
	if (has_symlink_leading_path(path, strlen(path)) != 0)
		return set_fault_at(a->f, FAULT_CONFLICT, path, 0, "affected "
				    "file '%s' is beyond a symbolic link",
				    path);
	return 0;
}

/*
 * The same for a path the set creates, but a file or symlink above it
 * may be one the set removes (in any order: -R turns the order
 * around), so such a path waits for check_final_paths.
 */
static int check_leading_new(struct applier *a, const char *path, int *later)
{
	int r;

	*later = 0;
	if (a->flags & APPLY_CACHED)
		return 0;
	r = has_symlink_leading_path(path, strlen(path));
	if (r < 0)
		return set_fault_at(a->f, FAULT_IO, path, 0, "%s: %s", path,
				  strerror(errno));
	if (r) {
		ALLOC_GROW(a->beyond, a->nr_beyond + 1, a->alloc_beyond);
		a->beyond[a->nr_beyond++] = xstrdup(path);
		*later = 1;
	}
	return 0;
}

/* The set removes the file or link that is now above a new path. */
static int check_beyond(struct applier *a, const char *path)
{
	char *dir = xstrdup(path), *slash;
	int ret = 0;

	for (slash = strchr(dir, '/'); slash; slash = strchr(slash + 1, '/')) {
		struct target *t;
		struct stat st;

		*slash = '\0';
		if (!lstat(dir, &st) && S_ISDIR(st.st_mode)) {
			*slash = '/';
			continue;
		}
		t = find_target(a, dir);
		if (!t || t->exists)
			ret = set_fault_at(a->f, FAULT_CONFLICT, NULL, 0,
					   "affected file '%s' is beyond a "
					   "symbolic link", path);
		break;
	}
	free(dir);
	return ret;
}

static int index_entry(const char *path)
{
	return cache_name_pos(path, strlen(path));
}

/* With --index, the work-tree file must hold what the index holds. */
static int check_index_match(struct applier *a, const char *path,
			     const struct cache_entry *ce,
			     const struct stat *st)
{
	if (!ce_match_stat(ce, st))
		return 0;
	if (ce_mode_from_stat(st->st_mode) == ce->ce_mode &&
	    path_matches_sha1(path, st, ce->sha1) == 1)
		return 0;
	return set_fault_at(a->f, FAULT_CONFLICT, path, 0, "%s: does not match "
			    "index", path);
}

/* The content of path before the set, from the index or the work tree. */
static int read_old(struct applier *a, const char *path, struct target *t,
		    char **buf)
{
	int pos = index_entry(path);
	struct stat st;

	*buf = NULL;
	if ((a->flags & (APPLY_INDEX | APPLY_CACHED)) && pos < 0)
		return set_fault_at(a->f, FAULT_CONFLICT, path, 0, "%s: does "
				    "not exist in index", path);
	if (a->flags & APPLY_CACHED) {
		const struct cache_entry *ce = active_cache[pos];

		t->mode = ce->ce_mode;
		if (a->set->old_content &&
		    a->set->old_content(ce, buf, &t->size) == 1)
			return 0;
		*buf = read_object_of_type(ce->sha1, OBJ_BLOB, &t->size);
		if (!*buf)
			return set_fault_at(a->f, FAULT_MISSING, path, 0, "%s: "
					    "cannot read blob %s", path,
					    sha1_to_hex(ce->sha1));
		return 0;
	}
	if (check_leading(a, path) < 0)
		return -1;
	if (a->cur) {
		st = a->cur->st;
		errno = a->cur->lstat_errno;
	}
	if (a->cur ? a->cur->lstat_errno != 0 : lstat(path, &st) < 0)
		return set_fault_at(a->f, FAULT_IO, path, 0, "%s: %s", path,
				  strerror(errno));
	if ((a->flags & APPLY_INDEX) &&
	    check_index_match(a, path, active_cache[pos], &st) < 0)
		return -1;
	if (check_work_file_type(path, &st) < 0)
		return set_fault_at(a->f, FAULT_CONFLICT, path, 0, "%s: wrong "
				    "type", path);
	if (a->cur && a->cur->buf) {
		*buf = a->cur->buf;
		t->size = a->cur->size;
		a->cur->buf = NULL;
		a->cur->used = 1;
	} else {
		*buf = read_work_file(path, &st, &t->size);
	}
	if (!*buf)
		return set_fault_at(a->f, FAULT_IO, path, 0, "%s: cannot read",
				    path);
	t->mode = ce_mode_from_stat(st.st_mode);
	return 0;
}

/* Is path free for a new file (not in the tree, or gone by now)? */
static int check_absent(struct applier *a, const char *path)
{
	struct target *t = find_target(a, path);
	struct stat st;
	int later;

	if (t) {
		if (t->exists)
			return set_fault_at(a->f, FAULT_CONFLICT, path, 0,
					    "%s: already exists in working "
					    "directory", path);
		return 0;
	}
	if ((a->flags & (APPLY_INDEX | APPLY_CACHED)) && index_entry(path) >= 0)
		return set_fault_at(a->f, FAULT_CONFLICT, path, 0, "%s: "
				    "already exists in index", path);
	if (check_leading_new(a, path, &later) < 0)
		return -1;
	if ((a->flags & APPLY_CACHED) || later)
		return 0;
	if (!lstat(path, &st) && S_ISDIR(st.st_mode)) {
		/* Fine if the set empties it: checked once all is read. */
		ALLOC_GROW(a->dirs, a->nr_dirs + 1, a->alloc_dirs);
		a->dirs[a->nr_dirs++] = xstrdup(path);
		return 0;
	}
	if (!lstat(path, &st) || errno != ENOENT)
		return set_fault_at(a->f, FAULT_CONFLICT, path, 0, "%s: "
				    "already exists in working directory",
				    path);
	return 0;
}

/* Does the set remove every file below the directory dir? */
static int emptied_by_set(struct applier *a, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ok = d != NULL;

	while (ok && (e = readdir(d)) != NULL) {
		struct target *t;
		struct stat st;
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = path_join(dir, e->d_name);
		if (lstat(path, &st) < 0)
			ok = 0;
		else if (S_ISDIR(st.st_mode))
			ok = emptied_by_set(a, path);
		else
			ok = (t = find_target(a, path)) != NULL && !t->exists;
		free(path);
	}
	if (d)
		closedir(d);
	return ok;
}

/*
 * What the whole set leaves: no file written below a path it leaves
 * as a file or symlink (one it creates, or one already there), and
 * every directory a new file takes the place of emptied.
 */
static int check_final_paths(struct applier *a)
{
	size_t i;

	for (i = 0; i < a->nr; i++) {
		const char *above;

		if (!a->t[i].exists || !a->t[i].owner)
			continue;
		above = set_file_above(a, a->t[i].path);
		if (above)
			return set_fault_at(a->f, FAULT_CONFLICT, a->t[i].path,
					    0, "affected file '%s' is beyond a "
					    "symbolic link", a->t[i].path);
	}
	for (i = 0; i < a->nr_beyond; i++)
		if (check_beyond(a, a->beyond[i]) < 0)
			return -1;
	for (i = 0; i < a->nr_dirs; i++)
		if (!emptied_by_set(a, a->dirs[i]))
			return set_fault_at(a->f, FAULT_CONFLICT, NULL, 0,
					    "%s: already exists in working "
					    "directory", a->dirs[i]);
	return 0;
}

/*
 * The old side of patch: its content (owned by the set or, when read
 * now, by *owned) and mode.  A path the set already changed gives
 * what the set made of it.
 */
static int old_side(struct applier *a, struct patch *patch, char **owned,
		    const char **buf, size_t *size, unsigned int *mode)
{
	const char *path = patch->old_name;
	struct target *t = find_target(a, path), *nt, old;

	*owned = NULL;
	if (t) {
		if (!t->exists)
			return set_fault_at(a->f, FAULT_CONFLICT, path, 0,
					    "%s: No such file or directory",
					    path);
		if (t->tmp && !(*owned = read_tmp(a, t)))
			return -1;
		*buf = t->tmp ? *owned : t->buf;
		*size = t->size;
		*mode = t->mode;
		return 0;
	}
	memset(&old, 0, sizeof(old));
	if (read_old(a, path, &old, owned) < 0)
		return -1;
	nt = add_target(a, path);
	nt->existed = nt->exists = 1;
	nt->buf = *owned;
	nt->size = old.size;
	nt->mode = old.mode;
	*buf = *owned;
	*size = nt->size;
	*mode = nt->mode;
	return 0;
}

/* ---- one patch in memory ---- */

/*
 * A patch that keeps a path (a mode change, a rename, a copy) keeps
 * its type: turning a file into a symlink or a gitlink takes a removal
 * and a creation, as git diff writes it.
 */
static int check_type_change(struct applier *a, const struct patch *patch)
{
	const char *o = patch->old_name, *n = patch->new_name;

	if (!n || !patch->new_mode ||
	    !((patch->old_mode ^ patch->new_mode) & S_IFMT))
		return 0;
	if (!strcmp(o, n))
		return set_fault_at(a->f, FAULT_CONFLICT, n, 0, "new mode (%o) "
				    "of %s does not match old mode (%o)",
				    patch->new_mode, n, patch->old_mode);
	return set_fault_at(a->f, FAULT_CONFLICT, n, 0, "new mode (%o) of %s "
			    "does not match old mode (%o) of %s",
			    patch->new_mode, n, patch->old_mode, o);
}

static int check_modes(struct applier *a, struct patch *patch,
		       unsigned int mode)
{
	const char *path = patch->old_name;

	if (patch->old_mode &&
	    (patch->old_mode & S_IFMT) != (mode & S_IFMT))
		return set_fault_at(a->f, FAULT_CONFLICT, path, 0, "%s: wrong "
				    "type", path);
	if (!patch->old_mode)
		patch->old_mode = mode;
	if (!patch->new_mode && !patch->is_delete)
		patch->new_mode = patch->old_mode;
	return check_type_change(a, patch);
}

static int make_result(struct applier *a, struct patch *patch,
		       const char *old, size_t old_size)
{
	const char *name = patch->new_name ? patch->new_name : patch->old_name;
	int reject = !!(a->flags & APPLY_REJECT), r;

	if (a->cur && a->cur->applied) {
		if (a->cur->used)
			return 0;	/* made from what read_old took */
		free(patch->result);
		patch->result = NULL;
		a->cur->applied = 0;
	}
	if (patch->is_binary)
		return apply_binary_patch(patch, old, old_size, &patch->result,
					  &patch->result_size, a->f);
	r = apply_text_hunks(patch, name, old, old_size, reject,
			     (a->flags & APPLY_VERBOSE) ? a->set : NULL,
			     &patch->result, &patch->result_size, a->f);
	if (r > 0) {
		patch->has_rejects = r;
		a->rejects += r;
	}
	return r < 0 ? -1 : 0;
}

static int apply_one(struct applier *a, struct patch *patch, char **owned)
{
	const char *old = "";
	size_t old_size = 0;
	unsigned int mode = 0;
	struct target *t;

	if (patch->is_new) {
		if (check_absent(a, patch->new_name) < 0)
			return -1;
		if (!patch->new_mode)
			patch->new_mode = 0100644;
	} else {
		if (old_side(a, patch, owned, &old, &old_size, &mode) < 0 ||
		    check_modes(a, patch, mode) < 0)
			return -1;
	}
	if (patch->new_name && patch->old_name &&
	    strcmp(patch->new_name, patch->old_name) &&
	    check_absent(a, patch->new_name) < 0)
		return -1;
	if (make_result(a, patch, old, old_size) < 0)
		return -1;
	if (patch->is_delete && patch->result_size)
		return set_fault_at(a->f, FAULT_CONFLICT, patch->old_name, 0,
				    "removal patch leaves file contents");
	if (patch->old_name && (patch->is_delete || patch->is_rename)) {
		t = find_target(a, patch->old_name);
		drop_tmp(t);
		t->exists = 0;
		t->owner = patch;
	}
	if (patch->new_name) {
		t = find_target(a, patch->new_name);
		if (!t)
			t = add_target(a, patch->new_name);
		drop_tmp(t);
		t->exists = 1;
		t->buf = patch->result;
		t->size = patch->result_size;
		t->mode = patch->new_mode;
		t->owner = patch;
		return spill(a, t, patch);
	}
	return 0;
}

/*
 * Is the old content read for patch still wanted, as what a later
 * patch of the set finds at its path (a copy leaves the source)?
 * Otherwise it goes at once: the set holds the new images, not the
 * old ones as well.
 */
static int keep_old(struct applier *a, const struct patch *patch,
		    const char *buf)
{
	struct target *t = find_target(a, patch->old_name);

	if (t->buf != buf)
		return 0;
	if (t->exists)
		return 1;
	t->buf = NULL;
	return 0;
}

/* ---- reading ahead ---- */

static size_t read_ahead_one(void *data, size_t i)
{
	struct ahead *ah = (struct ahead *)data + i;
	struct patch *patch = ah->patch;
	const char *path = patch->old_name;
	struct fault f;
	char *result;
	size_t size;

	if (lstat(path, &ah->st) < 0) {
		ah->lstat_errno = errno ? errno : EIO;
		return 1;
	}
	ah->buf = read_work_file_f(path, &ah->st, &ah->size, &f);
	if (!ah->buf || patch->is_binary)
		return 1;
	if (apply_text_hunks(patch, path, ah->buf, ah->size, 0, NULL,
			     &result, &size, &f)) {
		free(result);
		return 1;
	}
	patch->result = result;
	patch->result_size = size;
	ah->applied = 1;
	return 1;
}

/* Only the work tree's files, with nothing to tell as they apply. */
static int reads_ahead(const struct applier *a)
{
	return !(a->flags & (APPLY_INDEX | APPLY_CACHED | APPLY_VERBOSE |
			     APPLY_REJECT));
}

static void drop_ahead(struct applier *a)
{
	size_t i;

	for (i = 0; i < a->nr_ahead; i++) {
		struct ahead *ah = &a->ahead[i];

		free(ah->buf);
		if (ah->applied && !ah->used) {
			free(ah->patch->result);
			ah->patch->result = NULL;
		}
	}
	a->nr_ahead = a->next_ahead = 0;
	a->cur = NULL;
}

/* The next batch from patch on: the files no patch before took. */
static void read_ahead(struct applier *a, struct patch *patch)
{
	size_t n;

	drop_ahead(a);
	if (!a->ahead)
		a->ahead = xcalloc(AHEAD_BATCH, sizeof(*a->ahead));
	for (n = 0; patch && n < AHEAD_BATCH; patch = patch->next, n++) {
		struct ahead *ah;

		if (patch->is_new || !patch->old_name || patch->result ||
		    find_target(a, patch->old_name))
			continue;
		ah = &a->ahead[a->nr_ahead++];
		memset(ah, 0, sizeof(*ah));
		ah->patch = patch;
	}
	run_parallel_threads(patch_threads(a->nr_ahead), 0, a->nr_ahead,
			     read_ahead_one, a->ahead, NULL, 0);
}

/* The read-ahead of patch, if any, as a->cur; the batch made anew. */
static void take_ahead(struct applier *a, struct patch *patch,
		       size_t *left)
{
	a->cur = NULL;
	if (!reads_ahead(a))
		return;
	if (!*left) {
		read_ahead(a, patch);
		*left = AHEAD_BATCH;
	}
	(*left)--;
	if (a->next_ahead < a->nr_ahead &&
	    a->ahead[a->next_ahead].patch == patch)
		a->cur = &a->ahead[a->next_ahead++];
}

/* All of the set in memory: 0, or -1 at the first failure. */
static int apply_in_memory(struct applier *a, struct patch_set *set,
			   char ***owned, size_t *nr_owned)
{
	struct patch *patch;
	size_t left = 0;

	for (patch = set->first; patch; patch = patch->next) {
		char *buf = NULL;
		int r;

		take_ahead(a, patch, &left);
		if (a->flags & APPLY_VERBOSE)
			note_patch(set, "Checking patch ", patch, "...\n");
		r = apply_one(a, patch, &buf);
		a->cur = NULL;
		if (r < 0) {
			free(buf);
			return -1;
		}
		if (buf && keep_old(a, patch, buf)) {
			*owned = xrealloc(*owned, (*nr_owned + 1) *
					  sizeof(**owned));
			(*owned)[(*nr_owned)++] = buf;
		} else {
			free(buf);
		}
	}
	if (a->nr_spills && flush_spills(a) < 0)
		return -1;
	return (a->flags & APPLY_CACHED) ? 0 : check_final_paths(a);
}

int apply_patch_set(struct patch_set *set, unsigned int flags,
		    struct fault *f)
{
	struct applier a = { .flags = flags, .set = set, .f = f };
	char **owned = NULL;
	size_t nr_owned = 0, i;
	int ret;

	if (flags & APPLY_CACHED)
		a.flags &= ~APPLY_INDEX;
	f->code = FAULT_NONE;
	f->msg[0] = '\0';
	f->path = NULL;
	f->line = 0;
	/*
	 * The directories path.c remembers as real may have gone since
	 * (an earlier set removed them, and may have put a symlink there).
	 */
	forget_known_dirs();
	ret = apply_in_memory(&a, set, &owned, &nr_owned);
	drop_ahead(&a);
	free(a.ahead);
	if (!ret && !(flags & APPLY_CHECK))
		ret = write_patch_targets(a.t, a.nr, a.flags);
	if (!ret && (flags & APPLY_VERBOSE) && !(flags & APPLY_CHECK))
		ret = report_patch_results(set, a.flags);
	if (!ret && a.rejects)
		ret = a.rejects;
	else if (ret < 0 && !f->msg[0])
		set_fault_at(f, FAULT_IO, NULL, 0, "cannot write the patch's "
			     "result");
	forget_known_dirs();
	for (i = 0; i < a.nr; i++)
		drop_tmp(&a.t[i]);	/* left only by a failure */
	for (i = 0; i < nr_owned; i++)
		free(owned[i]);
	free(owned);
	free(a.t);
	free(a.slots);
	for (i = 0; i < a.nr_dirs; i++)
		free(a.dirs[i]);
	free(a.dirs);
	for (i = 0; i < a.nr_beyond; i++)
		free(a.beyond[i]);
	free(a.beyond);
	free(a.spills);
	return ret;
}
