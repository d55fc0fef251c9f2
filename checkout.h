/*
 * checkout.h: writing index entries into the work tree (checkout.c),
 * shared by checkout-cache and read-tree -u.
 *
 * A file whose name is free is made nameless (O_TMPFILE) and linked
 * under its name once whole; any other is written under a temporary
 * name beside its real one and renamed into place: no file is ever
 * seen half-written under its name.  Every leading directory the
 * index controls is checked with lstat (or made by the checkout), so
 * nothing is written through a symlink or outside the work tree.  Regular files get 0666 or 0777 less the
 * umask, symlinks are made as symlinks, gitlinks as empty directories.
 */
#ifndef CHECKOUT_H
#define CHECKOUT_H

#include "cache.h"

struct checkout_queue;

struct checkout {
	/* Set by the caller before the first call. */
	const char *prefix;	/* before every path: "" for the work tree */
	int force;		/* replace what is in the way */
	int quiet;		/* no "already exists" message */
	int refresh;		/* record the new files' stat data in ce */
	struct progress *progress;	/* may be NULL */

	/* Private to checkout.c. */
	size_t base_len;	/* prefix up to its last '/': trusted */
	char *verified;		/* a directory known to be real */
	size_t verified_len, verified_alloc;
	size_t fresh_len;	/* verified dirs this long or more: made here */
	struct checkout_queue *queue;
};

/* Set up co for prefix ("" or NULL: the work tree), all flags off. */
void checkout_init(struct checkout *co, const char *prefix);
/*
 * Write ce now: 0 when done (or already there), -1 after reporting
 * why not ("already exists" only without quiet).
 */
int checkout_entry(struct checkout *co, struct cache_entry *ce);
/*
 * Queue ce: the next checkout_flush checks its path, makes its
 * directories and writes the file, on every core.  ce must stay valid
 * and in place until then.  0 (failures count in the flush's number).
 */
int checkout_queue_entry(struct checkout *co, struct cache_entry *ce);
/* Write what is queued; the number of entries that failed. */
unsigned int checkout_flush(struct checkout *co);
/* Flush, then free what co holds; the number of entries that failed. */
unsigned int checkout_finish(struct checkout *co);

#endif
