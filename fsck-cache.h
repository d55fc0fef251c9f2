/*
 * fsck-cache.h: the library parts of fsck-cache, in the order of its
 * phases: the table of the store's objects (fsck-table.c), each copy
 * read and verified (fsck-read.c), the copies merged and reachability
 * (fsck-reach.c).  fsck-cache.c parses the options, runs the phases
 * and prints the report.  Only fsck-cache and these files include it.
 */
#ifndef FSCK_CACHE_H
#define FSCK_CACHE_H

#include "cache.h"
#include "pack.h"


#define F_PRESENT 1
#define F_REACHABLE 2
#define F_REFERENCED 4
#define F_WALKED 8		/* --unreachable: its links followed */
#define F_MISTYPED 16		/* a link says it is of another type */
#define F_PROMISOR 32		/* in a promisor pack: its links promised */

/*
 * One copy of an object: a loose file of the store (pack and alt NULL)
 * or of an alternate (alt), or an entry of a pack.  Every copy is
 * checked; copies of one id are then merged into one object.  Links
 * are not kept (a kernel's trees hold a hundred million): each link
 * marks its target as it is read, in refs; only with --unreachable
 * are a commit's and a tag's links kept, and trees read again.
 */
struct object {
	struct fsck_object fo;	/* id, type (OBJ_NONE: not in the store) */
	unsigned char flags;
	unsigned char refs;	/* 1 << type, for each type links say */
	unsigned char bad;	/* ERROR_OBJECT, ERROR_PACK: its errors */
	uint32_t rank;		/* its place in the order of reading */
	struct packed_git *pack;
	uint32_t pos;
	const char *alt;
	char *problem;		/* lines for stderr, malloc'd */
};

/*
 * The exit status, as git fsck's: bits for bad objects, missing ones,
 * and packs that fail their checks or hold an object that does.
 */
#define ERROR_OBJECT 1
#define ERROR_MISSING 2
#define ERROR_PACK 4

/* ---- fsck-table.c: the table of the store's objects ---- */

/* --strict, --verbose, --unreachable. */
extern int fsck_strict, fsck_verbose, fsck_show_unreachable;
/* Every copy of every object, sorted by id (list_objects). */
extern struct object *objects;
extern size_t nr_objects;
/* Set when a pack fails its checks (verify_packs). */
extern int pack_errors;

/*
 * Missing objects, each reported once however many refer to it: as
 * git, only if reachable, and never when a promisor pack names it.
 */
struct missing {
	unsigned char sha1[HASH_MAX_RAWSZ];
	unsigned char type;
	unsigned char promised;	/* an object of a promisor pack names it */
	unsigned char reached;	/* the walk met it */
};
extern struct missing *missing;
extern size_t nr_missing;

/* An object being read, and its links, gathered to be looked up. */
struct reading {
	struct object *o;
	struct fsck_link *links;
	size_t nr, alloc;
};

/* List every copy in the store, its packs and alternates, sorted. */
void list_objects(void);
/* (Re)build the table by id over objects; find_object looks in it. */
void hash_objects(void);
/* The first copy of sha1, or NULL. */
struct object *find_object(const unsigned char *sha1);
/* Each pack's table of offsets, before any object is read. */
void order_packs(void);
/* Each pack's checksums and CRCs (a thread's body; data unused). */
void *verify_packs(void *data);
/* Note sha1, named as a type, missing; promised by a promisor pack. */
void note_missing(const unsigned char *sha1, int type, int promised);
/*
 * A tree's .gitmodules or .gitattributes blob (FSCK_LINK_* in kind):
 * git fsck says it cannot be read when missing and not promised.
 */
void note_special_blob(const unsigned char *sha1, int kind, int promised);
/* Say, as git fsck, each such blob that is missing: ERROR_OBJECT or 0. */
int report_special_blobs(void);
/* Sort the missing ones and merge each id's notes into one. */
void sort_missing(void);
/* The note of sha1 once sorted, or NULL. */
struct missing *find_missing(const unsigned char *sha1);
/* Add a line to o's problems (not thread-safe for one o). */
void add_problem(struct object *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* fn on each link of r and its target in the table (NULL: missing). */
void follow_links(struct reading *r,
		  void (*fn)(struct object *o, const struct fsck_link *l,
			     struct object *t));

/* ---- fsck-read.c: each copy read and verified ---- */

/* Read and check every copy on every core, marking what links name. */
void check_all_objects(void);
/* Read o's copy again (its problems not reported), fn on its links. */
void reread_copy(struct object *o,
		 void (*fn)(struct object *o, const struct fsck_link *l,
			    struct object *t));

/* ---- fsck-reach.c: copies merged, links checked, reachability ---- */

/* Copies of one id become one object (the table is rebuilt). */
void merge_copies(void);
/* Mark what is referenced; find the links to another type. */
void check_links(void);
/* Add a root: an id given (name: how to say it is missing), in order. */
void add_root(const unsigned char *sha1, const char *name);
/* Keep the index's ids (before the store is listed). */
void read_index_ids(void);
/* Add refs, HEAD, other worktrees' HEADs and the index's ids as roots. */
void add_default_roots(void);
/*
 * Mark the roots reachable, in git's order; a root that is not there
 * is an error on stderr (a ref, an id given) or a missing blob (the
 * index's).  When an object is missing, walk from them as git fsck
 * does, printing its "broken link" lines as it meets them.  The exit
 * status bits found are returned.
 */
int mark_roots(void);
/* Was the walk of mark_roots done (reachability known in full)? */
extern int walked_in_order;
/* --unreachable: walk the links from what is marked reachable. */
void walk_reachable(void);

#endif
