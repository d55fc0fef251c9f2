/*
 * write-tree: store the index as tree objects and print the id of the
 * root tree.  It takes no arguments: the index is the whole input.
 *
 * The trees are made by write_index_tree (commit-write.c): one pass
 * over the index hashes them, then the new ones are stored on every
 * core.
 *
 * Everything is checked before anything is written: an index with
 * unmerged entries, or one naming an object the store does not hold,
 * is refused and leaves no tree behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "commit-write.h"

static const char write_tree_usage[] = "write-tree";

/*
 * Entries added with "git add -N" are not in the tree git writes (nor
 * is a directory that holds nothing else): drop them from our copy of
 * the index, which write-tree never writes back.
 */
static void drop_intent_to_add(void)
{
	unsigned int i = 0;

	while (i < active_nr)
		if (active_cache[i]->ce_ext_flags & CE_INTENT_TO_ADD)
			remove_cache_entry_at(i);
		else
			i++;
}

int main(int argc, char **argv)
{
	unsigned char sha1[20];

	setup_tool(argv[0]);
	handle_help(argc, argv, write_tree_usage);
	if (argc != 1)
		usage(write_tree_usage);

	if (setup_repository() < 0)
		exit(128);
	if (read_cache() < 0)
		die("unable to read the index");
	drop_intent_to_add();
	if (write_index_tree(sha1, 0) < 0)
		exit(128);
	if (flush_to_disk(-1) < 0)
		die("unable to make the trees durable");
	printf("%s\n", sha1_to_hex(sha1));
	finish_stdout();
	return 0;
}
