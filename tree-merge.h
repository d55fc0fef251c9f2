/*
 * tree-merge.h: read-tree's merges of one, two and three trees with the
 * index (tree-merge.c), as git's read-tree -m decides them, on trees read
 * whole into lists (tree-list.c).
 */
#ifndef TREE_MERGE_H
#define TREE_MERGE_H

#include "cache.h"

/*
 * A subtree read into a list: its path (ending in '/'), its tree id and
 * the entries of the list below it, [start, end).
 */
struct subtree_span {
	char *path;
	size_t len;
	unsigned char sha1[HASH_MAX_RAWSZ];
	size_t start, end;
};

/* A list of entries in index order (a flattened tree, or a result). */

struct entry_list {
	struct cache_entry **ces;
	size_t nr, alloc;
	/* A read tree's subtrees, in order: for read_tree_list's reuse. */
	struct subtree_span *dirs;
	size_t dirs_nr, dirs_alloc;
	/* Holds entries of the lists it reused subtrees from. */
	int borrowed;
};

void entry_list_append(struct entry_list *l, struct cache_entry *ce);
/*
 * Free the entries and the array; a list that borrowed entries cannot
 * tell them from its own, and frees only the array and its spans.
 */
void entry_list_clear(struct entry_list *l);

/*
 * Read the tree sha1 and all its subtrees into l (stage 0, zero stat
 * data, CE_LISTED), checking each tree with check_tree (which is
 * verify_path for every component of every path), every full path's
 * length and, with check_blobs, that every blob exists.  A subtree
 * that one of the nr_prev lists in prev (read by this function) has
 * at the same path with the same id is not read again: l borrows its
 * entries, checked already.  -1 after error(), l holds what was read
 * so far.
 */
int read_tree_list(const unsigned char *sha1, struct entry_list *l,
		   const struct entry_list *prev, int nr_prev,
		   int check_blobs);

/* Lookups in a list in index order (byte order of the names). */
/* The position of the first entry not before name (len bytes). */
size_t lower_bound(const struct entry_list *l, const char *name, size_t len);
/* Is name an entry of l? */
int list_has_file(const struct entry_list *l, const char *name, size_t len);
/* Is there an entry below "name/"? */
int list_has_dir(const struct entry_list *l, const char *name, size_t len);
/* Is a leading directory of name an entry of l? */
int list_has_file_above(const struct entry_list *l, const char *name,
			size_t len);

/* In ce_state of a result entry: write it into the work tree. */
#define CE_WT_UPDATE 0x0100
/*
 * In ce_state of an entry of a read list that no result holds yet:
 * the merge may take it as it is rather than copy it (tree-merge.c).
 */
#define CE_LISTED 0x0200

/*
 * In ce_state of an index entry: an unmerged path that --reset made one
 * entry (collapse_unmerged); it is never the same as a tree's, so the
 * merge replaces or removes it.
 */
#define CE_CONFLICTED 0x0400

struct unpack_options {
	int n;			/* trees: 1, 2 or 3 */
	int update;		/* -u: the work tree follows */
	int index_only;		/* -i: the work tree is not looked at */
	int initial;		/* there was no index file (two-way) */
	int reset;		/* --reset: local changes are not kept */
	struct entry_list trees[3];

	/* Filled by unpack_trees. */
	struct entry_list result;	/* the new index, in order */
	struct entry_list removed;	/* copies of entries to unlink */
};

/*
 * Merge the trees with the index in active_cache (which must hold no
 * unmerged entry) into o->result, with git's one-, two- or three-way
 * rules.  Every refusal (a local change in the way, an untracked file
 * that would be overwritten) is reported naming the path; -1 when
 * there was one, and nothing has been touched.
 */
int unpack_trees(struct unpack_options *o);

/*
 * --reset: each unmerged path of active_cache becomes one stage-0
 * entry marked CE_CONFLICTED (its first stage's mode and id), as git's
 * read_index_unmerged makes it.
 */
void collapse_unmerged(void);

/*
 * With o->update: unlink the removed files (and the directories they
 * leave empty), then write the entries marked CE_WT_UPDATE, which must
 * be in active_cache, recording their stat data.  The number of paths
 * that failed.
 */
unsigned int update_work_tree(struct unpack_options *o);

#endif
