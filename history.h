/*
 * history.h: history in memory (history.c) and walking it as git
 * rev-list walks it (revision.c), for rev-list, merge-base and the
 * porcelain (log, pull).
 *
 * Every object the walk meets lives once in a table keyed by its id
 * and stays until the process ends: a commit read once is never read
 * again, and the flags below are how walks remember what they did.
 * Commit parsing reuses parse_commit_buffer (object.c) for the tree
 * and parents; the committer date is read here.
 */
#ifndef HISTORY_H
#define HISTORY_H

#include <stdint.h>

#include "cache.h"

/* Flags of struct object, as git names them. */
#define SEEN		(1u << 0)	/* queued by a walk */
#define UNINTERESTING	(1u << 1)	/* excluded (^commit, --max-age) */
#define SHOWN		(1u << 2)	/* handed out by get_revision */
#define ADDED		(1u << 3)	/* its parents were queued */
#define READ_OK		(1u << 4)	/* walk_objects read it: it exists */
#define WALKED		(1u << 5)	/* a tree walk_objects walked whole */
#define PARENT1		(1u << 16)	/* merge-base painting */
#define PARENT2		(1u << 17)
#define STALE		(1u << 18)
#define RESULT		(1u << 19)
#define MERGE_BASE_FLAGS (PARENT1 | PARENT2 | STALE | RESULT)

struct object {
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	unsigned int flags;
};

struct commit {
	struct object object;		/* first: a commit is an object */
	int parsed;
	uint64_t date;			/* committer time, 0 if unreadable */
	unsigned char tree[HASH_MAX_RAWSZ];
	struct commit **parents;	/* in the commit's order */
	size_t nr_parents;
	int indegree;			/* topological sort's scratch */
};

/* ---- history.c: objects, commits, merge bases ---- */

/*
 * The one object of this id (created, flags 0, when first asked for),
 * or NULL after error() when it was met before as another type.  A
 * type of OBJ_NONE finds an object of any type without creating one.
 */
struct object *lookup_object(const unsigned char *sha1,
			     enum object_type type);
/*
 * Hints before a lookup_object of sha1 (nothing changes): its slot in
 * the table, then (once the slot is in the cache) its object.
 */
void prefetch_object_slot(const unsigned char *sha1);
void prefetch_object(const unsigned char *sha1);
/* The same for a commit (not parsed yet when new). */
struct commit *lookup_commit(const unsigned char *sha1);
/*
 * Read the commit and fill date, tree and parents (each parent looked
 * up, not parsed); once only.  -1 after error() when it is missing,
 * not a commit, or malformed.
 */
int parse_commit(struct commit *c);
/*
 * The commit a command-line id names, tags peeled: parsed, or NULL
 * after error().
 */
struct commit *lookup_commit_peeled(const unsigned char *sha1);
/* Clear these flags on every object met so far. */
void clear_object_flags(unsigned int flags);

/* A list of commits, newest first when built by commit_list_insert_by_date. */
struct commit_list {
	struct commit *item;
	struct commit_list *next;
};

/* Insert after every entry of the same or a later date, as git does. */
struct commit_list *commit_list_insert_by_date(struct commit *c,
					       struct commit_list **list);
struct commit_list *commit_list_append(struct commit *c,
				       struct commit_list **tail);
/* Take the first commit off the list (NULL when empty). */
struct commit *pop_commit(struct commit_list **list);
void free_commit_list(struct commit_list *list);

/*
 * The merge bases of one and the n commits in twos (all parsed), as
 * git merge-base computes them: the best common ancestors, none an
 * ancestor of another, newest first (equal dates in the order found).
 * *nr gets their count; the array is malloc'd (NULL when none).  -1
 * after error() when a commit cannot be read.
 */
int get_merge_bases(struct commit *one, struct commit **twos, size_t n,
		    struct commit ***bases, size_t *nr);

/* ---- revision.c: walking history in git rev-list's order ---- */

struct rev_info {
	/* Options: set after init_revisions, before prepare_revision_walk. */
	int topo_order;		/* --topo-order: no parent before a child */
	long max_count;		/* -1: no limit */
	int64_t max_age;	/* -1: none; else only commits this new */
	int64_t min_age;	/* -1: none; else only commits this old */
	int tree_objects;	/* --objects: walk_objects lists them */
	int missing_trees_ok;	/* walk_objects shows them, not their trees */
	int exclude_promisor_objects;	/* promisor packs' objects: excluded */

	int failed;		/* set with error() when the walk broke */

	/* The walk's own state. */
	struct commit_list *commits;
	struct commit **starts;
	size_t nr_starts, alloc_starts;
	int limited;
	int trees_excluded;	/* some tree is UNINTERESTING */
	struct pending_object {		/* trees and tags for walk_objects */
		struct object *obj;
		char *name;
	} *pending;
	size_t nr_pending, alloc_pending;
	struct tree_ahead *ahead;	/* reading the pending trees ahead */
};

void init_revisions(struct rev_info *revs);
/*
 * A starting point: sha1 names a commit, a tree or a blob, or a tag
 * of one (with tree_objects, each tag of the chain is listed, and a
 * tree or blob is listed from "", as git does); excluded (^commit)
 * hides it and its ancestors.  -1 after error().
 */
int add_revision(struct rev_info *revs, const unsigned char *sha1,
		 int excluded);
/* Order the starting points and, when needed, find the whole set. */
int prepare_revision_walk(struct rev_info *revs);
/*
 * The next commit in git rev-list's order (by committer date, newest
 * first, equal dates in the order met; or topological with
 * --topo-order), or NULL at the end, or NULL with revs->failed set
 * after error() when a commit cannot be read.
 */
struct commit *get_revision(struct rev_info *revs);
/*
 * After the last commit, with tree_objects: call fn for every tree and
 * blob of the commits handed out, and tags given, as git rev-list
 * --objects lists them (each once, none an excluded commit has; path
 * is where it was first met, "" for a root tree).  A non-zero return
 * stops the walk and is returned; -1 after error() on a bad tree, or
 * a missing one unless missing_trees_ok.  Blobs are not read: fn may
 * find some missing.
 */
typedef int (*show_object_fn)(const struct object *obj, const char *path,
			      void *data);
int walk_objects(struct rev_info *revs, show_object_fn fn, void *data);
void release_revisions(struct rev_info *revs);
/*
 * Is sha1 promised, as git's is_promisor_object says: a promisor
 * remote is configured and a ".promisor" pack holds sha1 or an object
 * naming it.  The first call reads every object of those packs.
 */
int is_promisor_object(const unsigned char *sha1);

/* ---- tree-ahead.c: trees read ahead of a walk, on another core ---- */

/* A tree read, parsed and checked ahead (buf NULL: not read). */
struct ahead_tree {
	struct ahead_tree *next;
	unsigned char sha1[HASH_MAX_RAWSZ];
	const void *buf;		/* the tree: owned, or ref's */
	size_t size;
	void *owned;			/* malloc'd */
	struct cached_base *ref;	/* in the delta-base cache */
	struct name_entry *entries;	/* into buf, gitlinks left out */
	size_t nr, alloc_entries;
	const char *bad;		/* check_tree's answer */
	int checked;			/* bad is known */
	/*
	 * A tree stored as a delta of a tree read before it: copied[i]
	 * says entries[i] is one of that base's entries, byte for byte.
	 */
	int has_base;
	unsigned char base_sha1[HASH_MAX_RAWSZ];
	unsigned char *copied;		/* alloc_entries of them */
};
struct tree_ahead;

/*
 * Start a thread that reads the trees below roots (nr of them, and
 * those add_tree_ahead gives later), depth first, each subtree when
 * first met, as walk_objects reads them, and queues them; NULL when no
 * thread can be started.
 */
struct tree_ahead *start_tree_ahead(const unsigned char (*roots)[HASH_MAX_RAWSZ],
				    size_t nr);
/* One more root, after those given; end_tree_ahead: no more will come. */
void add_tree_ahead(struct tree_ahead *ra, const unsigned char *sha1);
void end_tree_ahead(struct tree_ahead *ra);
/*
 * The next tree queued, if it is sha1 (waiting for it to be read and
 * checked); the caller owns it (free_ahead_tree).  NULL when the next
 * one is another or there is none: the caller reads sha1 itself.
 */
struct ahead_tree *take_tree_ahead(struct tree_ahead *ra,
				   const unsigned char *sha1);
void free_ahead_tree(struct ahead_tree *t);
/* The same for a tree taken from ra: its room may be reused there. */
void done_tree_ahead(struct tree_ahead *ra, struct ahead_tree *t);
/* Stop the thread and free what it read (NULL allowed). */
void stop_tree_ahead(struct tree_ahead *ra);

#endif
