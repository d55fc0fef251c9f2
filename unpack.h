/*
 * unpack.h: read-tree's merges of one, two and three trees with the
 * index (unpack.c), as git's read-tree -m decides them, on trees read
 * whole into lists (tree-list.c).
 */
#ifndef UNPACK_H
#define UNPACK_H

#include "cache.h"

/* A list of entries in index order (a flattened tree, or a result). */
struct entry_list {
	struct cache_entry **ces;
	size_t nr, alloc;
};

void entry_list_append(struct entry_list *l, struct cache_entry *ce);
/* Free the entries and the array. */
void entry_list_clear(struct entry_list *l);

/*
 * Read the tree sha1 and all its subtrees into l (stage 0, zero stat
 * data), checking each tree with check_tree, every path with
 * verify_path and that every blob exists.  -1 after error(), l holds
 * what was read so far.
 */
int read_tree_list(const unsigned char *sha1, struct entry_list *l);

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

struct unpack_options {
	int n;			/* trees: 1, 2 or 3 */
	int update;		/* -u: the work tree follows */
	int index_only;		/* -i: the work tree is not looked at */
	int initial;		/* there was no index file (two-way) */
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
 * With o->update: unlink the removed files (and the directories they
 * leave empty), then write the entries marked CE_WT_UPDATE, which must
 * be in active_cache, recording their stat data.  The number of paths
 * that failed.
 */
unsigned int update_work_tree(struct unpack_options *o);

#endif
