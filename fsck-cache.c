/*
 * fsck-cache: prove the object store whole.  Every object file is
 * read and verified (zlib stream complete with nothing after it, a
 * well-formed header whose size is the inflated length, the SHA-1 of
 * the content equal to the file's name), every tree and commit is
 * checked as git fsck checks it (fsck.c: the same message ids and
 * severities, warnings made errors by --strict), and the links between
 * objects are followed from the given ids, or from HEAD, refs/
 * (packed-refs too) and the index, to find missing objects.  As in git
 * fsck, problems with objects go to stderr ("error in tree <id>:
 * duplicateEntries: ...", "warning in tag <id>: missingTaggerEntry:
 * ...", "error: object <id> is corrupt: ..."), and stdout carries the
 * listing: "missing blob <id>", "dangling commit <id>".  The exit
 * status is git's: 1 for a bad object, 2 for a missing one, 3 both.
 *
 * Objects are verified on all cores: inflating and hashing is the cost,
 * and each object is independent of the others.  The phases are in the
 * library (fsck-cache.h): the table of objects (fsck-table.c), reading
 * them (fsck-read.c), reachability (fsck-reach.c); this file runs them
 * and reports.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pack.h"
#include "fsck-cache.h"

static const char fsck_usage[] =
	"fsck-cache [--strict] [--verbose] [--unreachable] "
	"[<commit-or-tree-id>...]";

static int errors_found;

static int compare_missing(const void *a, const void *b)
{
	return memcmp(((const struct missing *)a)->sha1,
		      ((const struct missing *)b)->sha1, 20);
}

static void report(void)
{
	size_t i;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];

		if (o->problem)
			fputs(o->problem, stderr);
		if (o->bad)
			errors_found |= ERROR_OBJECT;
	}
	if (nr_missing > 1)
		qsort(missing, nr_missing, sizeof(*missing), compare_missing);
	for (i = 0; i < nr_missing; i++) {
		if (i && !memcmp(missing[i].sha1, missing[i - 1].sha1, 20))
			continue;
		printf("missing %s %s\n", type_name(missing[i].type),
		       sha1_to_hex(missing[i].sha1));
		errors_found |= ERROR_MISSING;
	}
	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];

		if (o->flags & F_REACHABLE || o->fo.type <= 0)
			continue;
		if (fsck_show_unreachable)
			printf("unreachable %s %s\n", type_name(o->fo.type),
			       sha1_to_hex(o->fo.sha1));
		else if (!(o->flags & F_REFERENCED))
			printf("dangling %s %s\n", type_name(o->fo.type),
			       sha1_to_hex(o->fo.sha1));
	}
}

int main(int argc, char **argv)
{
	int i, roots = 0, verifying = 0;
	pthread_t verifier;

	setup_tool(argv[0]);
	handle_help(argc, argv, fsck_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--strict"))
			fsck_strict = 1;
		else if (!strcmp(argv[i], "--verbose") ||
			 !strcmp(argv[i], "-v"))
			fsck_verbose = 1;
		else if (!strcmp(argv[i], "--unreachable"))
			fsck_show_unreachable = 1;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else
			usage(fsck_usage);
	}

	if (setup_repository() < 0)
		exit(128);
	/* Packs are read in order: what lies behind is not needed again. */
	set_pack_mapped_limit(0);
	/* zlib's own checksum of packed entries too, as git fsck */
	set_inflate_checksum(1);
	if (i == argc)
		read_index_ids();
	list_objects();
	hash_objects();
	order_packs();
	if (pthread_create(&verifier, NULL, verify_packs, NULL))
		verify_packs(NULL);
	else
		verifying = 1;
	check_all_objects();
	if (verifying)
		pthread_join(verifier, NULL);
	errors_found |= pack_errors;
	merge_copies();
	check_links();
	for (; i < argc; i++, roots++) {
		unsigned char sha1[20];

		if (get_sha1(argv[i], sha1) < 0)
			exit(128);
		mark_reachable(sha1, OBJ_COMMIT);
	}
	if (!roots)
		mark_default_roots();
	if (fsck_show_unreachable)
		walk_reachable();
	report();
	finish_stdout();
	return errors_found;
}
