/*
 * write-tree: store the index as tree objects and print the id of the
 * root tree.  It takes no arguments: the index is the whole input.
 *
 * The trees are made by write_index_tree (commit-write.c): one pass
 * over the index hashes them, then the new ones are stored on every
 * core, as one pack when they are 100 or more.  A directory the
 * index's cache tree (TREE) has valid, its tree in the store, is not
 * hashed again; the cache tree brought up to date is then written
 * back into the index, under index.lock, as git's write-tree does (not
 * when it was whole and valid already).  The index is locked from
 * before it is read, so no other writer's change is lost.  It is
 * written to index.lock on a thread of its own while the pack is
 * written (and after the trees when they go loose), and renamed over
 * the index only once the pack is synced and in place: a crash never
 * leaves an index whose cache tree names a tree not stored.
 *
 * Everything is checked before anything is written: an index with
 * unmerged entries, or one naming an object the store does not hold,
 * is refused and leaves no tree behind.
 */
#define _GNU_SOURCE		/* memrchr */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "commit-write.h"

static const char write_tree_usage[] = "write-tree";

/*
 * Write the index back with its cache tree, into index.lock: 1 when it
 * is there to be committed once the trees are in place.  A failure
 * costs the next write-tree time, not this one its result (as in git).
 */
static int write_back_index(int was_valid)
{
	if (was_valid || put_back_intent_to_add() < 0) {
		rollback_index_lock();
		return 0;
	}
	if (write_index_lock() < 0) {
		warning("the index's cache tree is not updated");
		return 0;
	}
	return 1;
}

/* The index written back beside the pack of trees (write_back_index). */
struct write_back {
	pthread_t thread;
	int started, was_valid, written;
};

/* Its bytes synced too: the commit then has only the rename to do. */
static void *write_back_thread(void *data)
{
	struct write_back *wb = data;

	wb->written = write_back_index(wb->was_valid);
	if (wb->written && sync_index_lock() < 0) {
		rollback_index_lock();
		wb->written = 0;
	}
	return NULL;
}

static void start_write_back(void *data)
{
	struct write_back *wb = data;

	if (!pthread_create(&wb->thread, NULL, write_back_thread, wb))
		wb->started = 1;
}

/* The index written: on the thread started beside the pack, or now. */
static int finish_write_back(struct write_back *wb)
{
	if (!wb->started)
		return write_back_index(wb->was_valid);
	wb->started = 0;
	pthread_join(wb->thread, NULL);
	return wb->written;
}

int main(int argc, char **argv)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	struct write_back wb = { .started = 0 };
	int written;

	setup_tool(argv[0]);
	handle_help(argc, argv, write_tree_usage);
	if (argc != 1)
		usage(write_tree_usage);

	if (setup_repository() < 0)
		exit(128);
	if (hold_index_lock() < 0)
		exit(128);
	if (read_cache() < 0)
		die("unable to read the index");
	wb.was_valid = cache_tree_fully_valid(index_cache_tree());
	call_while_packing_trees(start_write_back, &wb);
	if (write_index_as_trees_unplaced(sha1) < 0) {
		if (wb.started)
			finish_write_back(&wb);
		rollback_index_lock();
		exit(128);
	}
	/* The index is written while the pack of trees goes to disk. */
	written = finish_write_back(&wb);
	if (place_index_trees() < 0) {
		rollback_index_lock();
		exit(128);
	}
	if (written && commit_written_index() < 0)
		warning("the index's cache tree is not updated");
	printf("%s\n", sha1_to_hex(sha1));
	finish_stdout();
	return 0;
}
