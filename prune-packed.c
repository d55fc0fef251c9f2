/*
 * prune-packed: remove the loose objects a pack of the store already
 * holds, as git prune-packed does (a repack's last step).  Only packs
 * whose idx and pack are both there are asked (pack-list.c), so a
 * pack being written, whose idx is placed last, never counts.  -n
 * prints "rm -f <file>" for each instead; -q is accepted for git's
 * sake (no progress is shown).
 * Fan-out directories left empty are removed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

static const char prune_packed_usage[] = "prune-packed [-n] [-q]";

static int dry_run;

struct packed_loose {
	unsigned char (*ids)[HASH_MAX_RAWSZ];
	size_t nr, alloc;
};

static int note_if_packed(const unsigned char *sha1, void *data)
{
	struct packed_loose *l = data;
	struct packed_git *p;
	uint32_t pos;

	if (find_packed(sha1, &p, &pos) < 0)
		return 0;
	ALLOC_GROW(l->ids, l->nr + 1, l->alloc);
	hashcpy(l->ids[l->nr++], sha1);
	return 0;
}

/* Remove (or name, with -n) the loose objects of one fan-out. */
static int prune_fanout(unsigned int first)
{
	struct packed_loose l = { NULL, 0, 0 };
	char dir[8];
	size_t i;
	int ret = 0;

	for_each_loose_in_fanout(first, note_if_packed, NULL, &l);
	for (i = 0; i < l.nr; i++) {
		const char *path = sha1_file_name(l.ids[i]);

		if (dry_run)
			printf("rm -f %s\n", path);
		else if (unlink(path) < 0 && errno != ENOENT)
			ret = error_errno("unlink '%s'", path);
	}
	free(l.ids);
	if (!dry_run) {
		char *path;

		snprintf(dir, sizeof(dir), "%02x", first);
		path = path_join(get_object_directory(), dir);
		rmdir(path);	/* only when empty */
		free(path);
	}
	return ret;
}

int main(int argc, char **argv)
{
	unsigned int i;
	int ret = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, prune_packed_usage);
	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "-n"))
			dry_run = 1;
		else if (strcmp(argv[i], "-q"))
			usage(prune_packed_usage);
	}
	if (setup_repository() < 0)
		exit(128);
	for (i = 0; i < 256; i++)
		if (prune_fanout(i) < 0)
			ret = 1;
	if (fflush(stdout) || ferror(stdout))
		die_errno("write to standard output");
	return ret ? 128 : 0;
}
