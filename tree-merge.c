/*
 * tree-merge.c: the merges of read-tree -m.  Each tree is read whole into
 * a list in index order, then the lists and the index are walked in
 * step, one path at a time; for each path a rule of git's one-, two-
 * or three-way merge decides what the new index holds (the index's
 * entry, a tree's, or the stages 1, 2 and 3 of an unmerged path) and
 * whether the work tree must change.  Nothing is written here: the
 * result is a new list, and every refusal is found before the caller
 * touches the index or a file.
 *
 * Directory/file conflicts follow git: where a tree has a directory
 * at a path another tree has as a file, or a file at a leading
 * directory of the path, that tree's entry is the "conflict" marker
 * DFC, which the rules read as missing (and as never the same as
 * anything), so the path is left unmerged rather than dropped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkout.h"
#include "tree-merge.h"

/* ---- the rules ---- */

/* Where a tree has a directory/file conflict with the path. */
static struct cache_entry dfc_entry;
#define DFC (&dfc_entry)

/* A path to check once the result is known: it must not be in the way. */
struct absent_check {
	const struct cache_entry *ce;
	int removed;		/* the merge removes it, else writes it */
};

static struct absent_check *absent;
static size_t absent_nr, absent_alloc;
static int refused;

/* git's same(): both missing, or the same mode and id (DFC never). */
static int same(const struct cache_entry *a, const struct cache_entry *b)
{
	if (!a || !b)
		return !a && !b;
	if (a == DFC || b == DFC)
		return 0;
	if ((a->ce_state | b->ce_state) & CE_CONFLICTED)
		return 0;
	return a->ce_mode == b->ce_mode && !hashcmp(a->sha1, b->sha1);
}

static struct cache_entry *copy_entry(const struct cache_entry *ce,
				      unsigned int stage)
{
	struct cache_entry *copy = make_cache_entry(ce->name, ce->ce_namelen);
	uint16_t flags = copy->ce_flags;

	memcpy(copy, ce, sizeof(*ce));
	copy->ce_flags = flags | (stage << CE_STAGESHIFT) |
			 (ce->ce_flags & CE_EXTENDED);
	copy->ce_state = 0;
	return copy;
}

static void copy_stat(struct cache_entry *dst, const struct cache_entry *src)
{
	dst->ce_ctime = src->ce_ctime;
	dst->ce_mtime = src->ce_mtime;
	dst->ce_dev = src->ce_dev;
	dst->ce_ino = src->ce_ino;
	dst->ce_uid = src->ce_uid;
	dst->ce_gid = src->ce_gid;
	dst->ce_size = src->ce_size;
}

static int reject_merge(const struct cache_entry *ce)
{
	refused++;
	return error("entry '%s' would be overwritten by merge; cannot merge",
		     ce->name);
}

/* A local change to old would be lost: refuse (not with -i). */
static int verify_uptodate(struct unpack_options *o,
			   const struct cache_entry *old)
{
	struct stat st;

	if (o->index_only || o->reset)
		return 0;
	if (!lstat_work_path(old->name, &st)) {
		if (!ce_match_stat(old, &st) || S_ISGITLINK(old->ce_mode))
			return 0;
	} else if (errno == ENOENT || errno == ENOTDIR) {
		return 0;
	}
	refused++;
	return error("entry '%s' not up to date; cannot merge", old->name);
}

static void verify_absent(struct unpack_options *o,
			  const struct cache_entry *ce, int removed)
{
	if (o->index_only || !o->update || o->reset)
		return;
	ALLOC_GROW(absent, absent_nr + 1, absent_alloc);
	absent[absent_nr].ce = ce;
	absent[absent_nr++].removed = removed;
}

/*
 * ce for the result at stage: a tree list's entry is taken as it is
 * (the walk has passed its path, and the lookups still to come read
 * only names, modes and ids, which stay), the first time only; the
 * index's entries, and a list entry taken already, are copied.
 */
static struct cache_entry *take_entry(const struct cache_entry *ce,
				      unsigned int stage)
{
	struct cache_entry *mine;

	if (!(ce->ce_state & CE_LISTED))
		return copy_entry(ce, stage);
	mine = (struct cache_entry *)ce;	/* the list's, given up */
	mine->ce_state = 0;
	mine->ce_flags |= stage << CE_STAGESHIFT;
	return mine;
}

static struct cache_entry *add_entry(struct unpack_options *o,
				     const struct cache_entry *ce,
				     unsigned int stage)
{
	struct cache_entry *mine = take_entry(ce, stage);

	entry_list_append(&o->result, mine);
	return mine;
}

/*
 * The trees of a merge are read without looking for their blobs: the
 * index keeps what it holds, and only an entry the merge brings in (a
 * new id at stage 0, or a stage of an unmerged path) must exist.
 */
static int check_blob(const struct cache_entry *ce)
{
	if (S_ISGITLINK(ce->ce_mode) || has_sha1_file(ce->sha1))
		return 0;
	refused++;
	return error("entry '%s' names blob %s, which is missing", ce->name,
		     sha1_to_hex(ce->sha1));
}

/*
 * Keep the index's entry (stage 0) or a tree's (stages 1 to 3): the
 * entries kept, 0 for a missing blob (a refusal, counted).
 */
static int keep_entry(struct unpack_options *o, const struct cache_entry *ce,
		      unsigned int stage)
{
	if (stage && check_blob(ce) < 0)
		return 0;
	add_entry(o, ce, stage);
	return 1;
}

/* The path becomes merge at stage 0; old is the index's entry. */
static int merged_entry(struct unpack_options *o,
			const struct cache_entry *merge,
			const struct cache_entry *old)
{
	struct cache_entry *ce;

	if (old && same(old, merge)) {
		ce = add_entry(o, merge, 0);
		copy_stat(ce, old);
		return 1;
	}
	if (check_blob(merge) < 0)
		return -1;
	if (!old) {
		ce = add_entry(o, merge, 0);
		verify_absent(o, ce, 0);
	} else {
		if (verify_uptodate(o, old) < 0)
			return -1;
		ce = add_entry(o, merge, 0);
	}
	if (o->update)
		ce->ce_state |= CE_WT_UPDATE;
	return 1;
}

/* The path leaves the index; old is the index's entry. */
static int deleted_entry(struct unpack_options *o,
			 const struct cache_entry *ce,
			 const struct cache_entry *old)
{
	if (!old) {
		verify_absent(o, ce, 1);
		return 0;
	}
	if (verify_uptodate(o, old) < 0)
		return -1;
	if (o->update)
		entry_list_append(&o->removed, copy_entry(old, 0));
	return 1;
}

/* Does the work tree hold ce as the index last saw it? */
static int work_file_matches(const struct cache_entry *ce)
{
	struct stat st;

	return !lstat_work_path(ce->name, &st) && !ce_match_stat(ce, &st);
}

/*
 * src[0] the index, src[1] the tree.  --reset -u also writes the files
 * changed in the work tree whose entry the tree keeps, as git does.
 */
static int oneway_merge(struct unpack_options *o,
			const struct cache_entry **src)
{
	const struct cache_entry *old = src[0], *a = src[1];

	if (!a || a == DFC)
		return old ? deleted_entry(o, old, old) : 0;
	if (old && same(old, a)) {
		if (o->reset && o->update && !work_file_matches(old))
			add_entry(o, old, 0)->ce_state |= CE_WT_UPDATE;
		else
			keep_entry(o, old, 0);
		return 1;
	}
	return merged_entry(o, a, old);
}

/* git's "Two Tree Merge": src[0] the index, src[1] old, src[2] new. */
static int twoway_merge(struct unpack_options *o,
			const struct cache_entry **src)
{
	const struct cache_entry *current = src[0];
	const struct cache_entry *oldtree = src[1] == DFC ? NULL : src[1];
	const struct cache_entry *newtree = src[2] == DFC ? NULL : src[2];

	if (current && (current->ce_state & CE_CONFLICTED)) {
		if (!o->reset && !same(oldtree, newtree))
			return reject_merge(current);
		return newtree ? merged_entry(o, newtree, current) :
				 deleted_entry(o, current, current);
	}
	if (current) {
		if ((!oldtree && !newtree) ||
		    (!oldtree && newtree && same(current, newtree)) ||
		    (oldtree && newtree && same(oldtree, newtree)) ||
		    (oldtree && newtree && same(current, newtree)))
			return keep_entry(o, current, 0);
		if (oldtree && !newtree && same(current, oldtree))
			return deleted_entry(o, oldtree, current);
		if (oldtree && newtree && same(current, oldtree))
			return merged_entry(o, newtree, current);
		return reject_merge(current);
	}
	if (newtree) {
		/* Removed from the index by the user: that stays. */
		if (oldtree && !o->initial)
			return same(oldtree, newtree) ? 0 :
			       reject_merge(oldtree);
		return merged_entry(o, newtree, NULL);
	}
	return oldtree ? deleted_entry(o, oldtree, NULL) : 0;
}

/*
 * git's three-way rules: src[0] the index, src[1] the base, src[2]
 * ours (the index must match it), src[3] theirs.  The trivial cases
 * become stage 0; the rest keep their stages 1, 2 and 3.
 */
static int threeway_merge(struct unpack_options *o,
			  const struct cache_entry **src)
{
	const struct cache_entry *index = src[0], *base = src[1];
	const struct cache_entry *head = src[2], *remote = src[3];
	int df_head = head == DFC, df_remote = remote == DFC;
	int head_match = 0, remote_match = 0;
	int any_anc_missing = !base || base == DFC;
	int count = 0;

	if (df_head)
		head = NULL;
	if (df_remote)
		remote = NULL;
	/* A base that matches one side only (#16 otherwise). */
	if (!same(remote, head)) {
		head_match = same(base, head);
		remote_match = same(base, remote);
	}
	/* #14, #14ALT, #2ALT: theirs changed, ours did not. */
	if (remote && !df_head && head_match && !remote_match) {
		if (index && !same(index, remote) && !same(index, head))
			return reject_merge(index);
		return merged_entry(o, remote, index);
	}
	if (index && !same(index, head))
		return reject_merge(index);
	if (head) {
		/* #5ALT, #15: both the same. */
		if (same(head, remote))
			return merged_entry(o, head, index);
		/* #13, #3ALT: ours changed, theirs did not. */
		if (!df_remote && remote_match && !head_match)
			return merged_entry(o, head, index);
	}
	/* #1: gone from both sides, or never there. */
	if (!head && !remote && any_anc_missing)
		return 0;
	/* Left unmerged: the index must not hide a local change. */
	if (index && verify_uptodate(o, index) < 0)
		return -1;
	if ((!head_match || !remote_match) && base && base != DFC)
		count += keep_entry(o, base, 1);
	if (head)
		count += keep_entry(o, head, 2);
	if (remote)
		count += keep_entry(o, remote, 3);
	return count;
}

static int call_merge(struct unpack_options *o,
		      const struct cache_entry **src)
{
	switch (o->n) {
	case 1:
		return oneway_merge(o, src);
	case 2:
		return twoway_merge(o, src);
	default:
		return threeway_merge(o, src);
	}
}

/* ---- the walk ---- */

static int name_cmp(const struct cache_entry *a, const struct cache_entry *b)
{
	return cache_name_compare(a->name, a->ce_namelen, 0, b->name,
				  b->ce_namelen, 0);
}

/* Tree i's side of a path it has no file at: DFC or missing. */
static const struct cache_entry *tree_side(const struct entry_list *l,
					   const char *name, size_t len)
{
	if (list_has_dir(l, name, len) || list_has_file_above(l, name, len))
		return DFC;
	return NULL;
}

/*
 * Fill src for the path of ce (the smallest not yet merged): the
 * index's entry, then each tree's.  A path only the index has gets
 * no DFC, unless a tree has it as a directory, as in git's walk.
 */
static void gather(struct unpack_options *o, const struct cache_entry *ce,
		   unsigned int *ipos, size_t *tpos,
		   const struct cache_entry **src)
{
	int i, any_file = 0, any_dir = 0;

	src[0] = NULL;
	if (*ipos < active_nr && !name_cmp(active_cache[*ipos], ce))
		src[0] = active_cache[(*ipos)++];
	for (i = 0; i < o->n; i++) {
		const struct entry_list *l = &o->trees[i];

		src[i + 1] = NULL;
		if (tpos[i] < l->nr && !name_cmp(l->ces[tpos[i]], ce)) {
			src[i + 1] = l->ces[tpos[i]++];
			any_file = 1;
		}
	}
	if (!any_file)
		for (i = 0; i < o->n; i++)
			any_dir |= list_has_dir(&o->trees[i], ce->name,
						ce->ce_namelen);
	if (!any_file && !any_dir)
		return;
	for (i = 0; i < o->n; i++)
		if (!src[i + 1])
			src[i + 1] = tree_side(&o->trees[i], ce->name,
					       ce->ce_namelen);
}

static const struct cache_entry *next_path(struct unpack_options *o,
					   unsigned int ipos,
					   const size_t *tpos)
{
	const struct cache_entry *next = NULL;
	int i;

	if (ipos < active_nr)
		next = active_cache[ipos];
	for (i = 0; i < o->n; i++) {
		const struct entry_list *l = &o->trees[i];

		if (tpos[i] < l->nr &&
		    (!next || name_cmp(l->ces[tpos[i]], next) < 0))
			next = l->ces[tpos[i]];
	}
	return next;
}

static int in_result(const struct unpack_options *o, const char *name,
		     size_t len)
{
	size_t pos = lower_bound(&o->result, name, len);

	return pos < o->result.nr && o->result.ces[pos]->ce_namelen == len &&
	       !ce_stage(o->result.ces[pos]) &&
	       !memcmp(o->result.ces[pos]->name, name, len);
}

/* A work-tree file the merge may replace: tracked, and leaving. */
static int may_replace(const struct unpack_options *o, const char *name,
		       size_t len)
{
	return cache_name_pos(name, len) >= 0 && !in_result(o, name, len);
}

static int may_go(const char *name, size_t len, void *data)
{
	return may_replace(data, name, len);
}

/* 0 when nothing untracked is where ce goes (or was), else -1. */
static int check_absent(const struct unpack_options *o,
			const struct absent_check *a)
{
	char *found;

	if (find_in_the_way(a->ce->name, may_go, (void *)o, &found) ==
	    WAY_CLEAR)
		return 0;
	error("untracked working tree file '%s' would be %s by merge", found,
	      a->removed ? "removed" : "overwritten");
	free(found);
	return -1;
}

void collapse_unmerged(void)
{
	unsigned int i = 0;

	while (i < active_nr) {
		struct cache_entry *ce = active_cache[i];

		if (!ce_stage(ce)) {
			i++;
			continue;
		}
		ce->ce_flags &= ~CE_STAGEMASK;
		ce->ce_state |= CE_CONFLICTED;
		i++;
		while (i < active_nr && ce_stage(active_cache[i]) &&
		       !strcmp(active_cache[i]->name, ce->name))
			remove_cache_entry_at(i);
	}
}

int unpack_trees(struct unpack_options *o)
{
	const struct cache_entry *src[4], *ce;
	size_t tpos[3] = { 0, 0, 0 }, i;
	unsigned int ipos = 0;

	refused = 0;
	absent_nr = 0;
	while ((ce = next_path(o, ipos, tpos)) != NULL) {
		gather(o, ce, &ipos, tpos, src);
		call_merge(o, src);
	}
	for (i = 0; i < absent_nr; i++)
		if (check_absent(o, &absent[i]) < 0)
			refused++;
	free(absent);
	absent = NULL;
	absent_alloc = 0;
	return refused ? -1 : 0;
}

/* ---- the work tree ---- */

/* Remove the directories above path that it leaves empty. */
static void remove_empty_dirs(char *path)
{
	char *slash;

	while ((slash = strrchr(path, '/')) != NULL) {
		*slash = '\0';
		if (rmdir(path) < 0)
			return;
	}
}

static int unlink_entry(const struct cache_entry *ce)
{
	struct stat st;
	char *path;

	if (lstat_work_path(ce->name, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		/* A gitlink's directory goes only when empty. */
		if (S_ISGITLINK(ce->ce_mode))
			rmdir(ce->name);
		return 0;
	}
	if (unlink(ce->name) < 0 && errno != ENOENT)
		return error_errno("unlink '%s'", ce->name);
	path = xstrdup(ce->name);
	remove_empty_dirs(path);
	free(path);
	return 0;
}

unsigned int update_work_tree(struct unpack_options *o)
{
	struct checkout co;
	unsigned int failed = 0, i;
	size_t total = 0;

	if (!o->update)
		return 0;
	for (i = 0; i < o->removed.nr; i++)
		if (unlink_entry(o->removed.ces[i]) < 0)
			failed++;
	forget_known_dirs();
	checkout_init(&co, "");
	co.force = 1;
	co.refresh = 1;
	for (i = 0; i < active_nr; i++)
		if (active_cache[i]->ce_state & CE_WT_UPDATE)
			total++;
	co.progress = start_progress("Updating files", total);
	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];

		if (!(ce->ce_state & CE_WT_UPDATE))
			continue;
		ce->ce_state &= ~CE_WT_UPDATE;
		if (checkout_queue_entry(&co, ce) < 0)
			failed++;
	}
	failed += checkout_finish(&co);
	stop_progress(&co.progress);
	return failed;
}
