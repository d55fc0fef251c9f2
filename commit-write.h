/*
 * commit-write.h: commits made in process, shared by commit-tree, write-tree
 * and applymbox (which commits a whole series without a fork): the
 * index as trees, identities as git reads them from the environment,
 * commit objects, and putting the index and the work tree back at a
 * tree (applymbox --skip and --abort).
 */
#ifndef COMMIT_WRITE_H
#define COMMIT_WRITE_H

#include <stddef.h>

/* ---- commit-write.c: trees from the index, commits ---- */

/*
 * Store the in-memory index (active_cache) as trees and give the root
 * tree's id.  Everything is checked first (unmerged entries, file and
 * directory clashes, missing objects: each reported), so a refused
 * index leaves no tree behind.  With dry_run nothing is written: sha1
 * is the id the tree would have.  Entries added with "git add -N" must
 * be dropped by the caller first.  Unless the trees are remembered
 * (below), the index's cache tree, if it has one, is used where valid
 * and brought up to date.  -1 after error().
 */
int write_index_tree(unsigned char *sha1, int dry_run);

/*
 * Take the entries added with "git add -N" out of the index before
 * write_index_tree, and put them back after it (their directories'
 * cache-tree nodes made invalid).  put_back: -1 after error().
 */
void take_out_intent_to_add(void);
int put_back_intent_to_add(void);
/*
 * The index stored as trees, as write-tree and commit store it: the -N
 * entries taken out (put them back with put_back_intent_to_add), the
 * cache tree made or brought up to date, the trees synced to disk.
 * The root tree's id in sha1: 0, or -1 after error().
 */
int write_index_as_trees(unsigned char *sha1);
/*
 * write_index_as_trees in two steps, for write-tree, which writes its
 * index between them: the trees hashed and written, a pack of them
 * under temporary names on its way to disk (-1 after error(): nothing
 * of it left); then the pack synced and renamed into place and every
 * tree synced (-1 after error()).  Nothing may name the trees before
 * place_index_trees has returned 0.
 */
int write_index_as_trees_unplaced(unsigned char *sha1);
int place_index_trees(void);
/*
 * fn(data), called once by the next write_index_tree that stores its
 * trees as a pack, when they are hashed and the cache tree is up to
 * date, just before the pack is written: write-tree starts writing
 * its index there, on a thread of its own.  Only the pack is written
 * after fn returns (nothing else of the store or the index changes).
 */
void call_while_packing_trees(void (*fn)(void *data), void *data);

/*
 * Keep each directory's tree id in memory across write_index_tree
 * calls (a cache-tree), so that only the directories on changed paths
 * are hashed again.  The caller must then call forget_index_trees for
 * every path it changes in the index (NULL: the whole index changed,
 * as after read_cache or a reset).
 */
void remember_index_trees(void);
void forget_index_trees(const char *path);

struct ident;
/*
 * Write a commit of tree with nr parents, author, committer and the
 * message (len bytes, stored as is) and give its id.  -1 after error().
 */
int write_commit_object(const unsigned char *tree,
			const unsigned char (*parents)[HASH_MAX_RAWSZ], size_t nr,
			const struct ident *author,
			const struct ident *committer,
			const char *msg, size_t len, unsigned char *sha1);

/* ---- ident.c: who makes a commit, and when ---- */

struct ident {
	char *name;		/* malloc'd, crud trimmed as git trims it */
	char *email;
	char *date;		/* "<epoch> <+hhmm>" */
};

/*
 * The author (committer 0) or the committer (1) from GIT_AUTHOR_* /
 * GIT_COMMITTER_*, then the 2005 names, then the config's author.* /
 * committer.*, then user.name and user.email, then $EMAIL (the email),
 * then the passwd entry, the host name and the clock: git's order.  A variable that is set counts even when
 * empty, as in git: an empty email is kept ("<>"), an empty name
 * refused.  -1 after error() naming the variable.
 */
int ident_from_env(struct ident *id, int committer);
/*
 * An identity from given parts (date: any form parse_date reads, NULL
 * for now); what names the source in messages.  -1 after error().
 */
int ident_from_parts(struct ident *id, const char *name, const char *email,
		     const char *date, const char *what);
void ident_release(struct ident *id);

/* ---- reset.c: the index and the work tree back at a tree ---- */

/*
 * Make the in-memory index and the work tree hold tree (NULL: the empty
 * tree): files the
 * index has and tree lacks are removed, files that differ are written
 * (temp + rename, never through a symlinked directory), the rest kept
 * with their stat data.  The caller holds index.lock and writes the
 * index after.  -1 after error(): the work tree may then be part way.
 */
int reset_to_tree(const unsigned char *tree);

/*
 * Make the work-tree files of paths (nr of them, unique) what the
 * in-memory index holds: removed when it lacks them (and the
 * directories they leave empty), else written from their blobs (held
 * content over a regular file of one link in place, anything else
 * through a temporary name), the entries taking the new stat data.
 * held (may be NULL; called on many threads at once) gives the content
 * of an entry's blob when the caller has it at hand, in a buffer
 * checkout frees, or NULL when not.  Leaves the index in memory for the
 * caller to write.  -1 after error(): the work tree may then be part
 * way.
 */
struct cache_entry;
int checkout_index_paths(char **paths, size_t nr,
			 char *(*held)(const struct cache_entry *ce,
				       size_t *size));

/*
 * The differences between the index and tree, then between the work
 * tree and the index, one "<path>: <what>" line each into *out
 * (malloc'd, NULL when there are none).  Entries whose files hold
 * their blobs under new stat data (a copied tree) take that stat data,
 * as update-cache --refresh gives it, for the caller to write.  -1
 * after error().
 */
int list_changes(const unsigned char *tree, char **out);

#endif
