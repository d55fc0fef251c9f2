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

/*
 * A line of the listing: git fsck prints them walking its table of
 * objects, slot by slot, where an object's slot is the first four
 * bytes of its id (in the machine's order) modulo the table's size, a
 * power of two at least twice the number of objects.  Two objects of
 * one slot, or of one run of full slots, come here by id.
 */
struct line {
	uint32_t slot;
	const unsigned char *sha1;
	const char *what;	/* "missing", "dangling", "unreachable" */
	int type;
};

static int compare_lines(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return hashcmp(x->sha1, y->sha1);
}

static uint32_t table_mask(void)
{
	size_t n = nr_missing, size = 32, i;

	for (i = 0; i < nr_objects; i++)
		n += objects[i].fo.type > 0;
	while (size < 2 * n)
		size *= 2;
	return size - 1;
}

static void add_line(struct line **lines, size_t *nr, size_t *alloc,
		     const unsigned char *sha1, const char *what, int type)
{
	static uint32_t mask;
	unsigned int h;
	struct line *l;

	if (!mask)
		mask = table_mask();
	memcpy(&h, sha1, sizeof(h));
	ALLOC_GROW(*lines, *nr + 1, *alloc);
	l = &(*lines)[(*nr)++];
	l->slot = h & mask;
	l->sha1 = sha1;
	l->what = what;
	l->type = type;
}

/* The type a bad object is named as: what a link says (blob if none). */
static int lowest_type(unsigned int refs)
{
	int type = OBJ_COMMIT;

	if (!refs)
		return OBJ_BLOB;
	while (!(refs & 1 << type))
		type++;
	return type;
}

/* What git fsck says of o, if anything: missing, dangling, unreachable. */
static const char *listing_of(const struct object *o)
{
	if (o->flags & F_REACHABLE)
		return o->fo.type <= 0 && walked_in_order ? "missing" : NULL;
	if (o->fo.type <= 0)
		return NULL;
	if (fsck_show_unreachable)
		return "unreachable";
	return o->flags & F_REFERENCED ? NULL : "dangling";
}

static int compare_rank(const void *a, const void *b)
{
	uint32_t x = (*(struct object *const *)a)->rank;
	uint32_t y = (*(struct object *const *)b)->rank;

	return x < y ? -1 : x > y;
}

/*
 * Problems go to stderr in the order the objects were read, loose ones
 * first, then each pack's by offset: the order git fsck reads them in.
 */
static void report_problems(void)
{
	struct object **with = NULL;
	size_t i, nr = 0, alloc = 0;

	for (i = 0; i < nr_objects; i++) {
		if (!objects[i].problem)
			continue;
		ALLOC_GROW(with, nr + 1, alloc);
		with[nr++] = &objects[i];
	}
	if (nr > 1)
		qsort(with, nr, sizeof(*with), compare_rank);
	for (i = 0; i < nr; i++)
		fputs(with[i]->problem, stderr);
	free(with);
}

static void report(void)
{
	struct line *lines = NULL;
	size_t i, nr = 0, alloc = 0;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];
		const char *what = listing_of(o);

		errors_found |= o->bad;
		if (what)
			add_line(&lines, &nr, &alloc, o->fo.sha1, what,
				 o->fo.type > 0 ? o->fo.type :
				 lowest_type(o->refs));
	}
	for (i = 0; i < nr_missing; i++)
		if (missing[i].reached && !missing[i].promised)
			add_line(&lines, &nr, &alloc, missing[i].sha1,
				 "missing", missing[i].type);
	if (nr > 1)
		qsort(lines, nr, sizeof(*lines), compare_lines);
	for (i = 0; i < nr; i++) {
		printf("%s %s %s\n", lines[i].what, type_name(lines[i].type),
		       sha1_to_hex(lines[i].sha1));
		if (lines[i].what[0] == 'm')
			errors_found |= ERROR_MISSING;
	}
	free(lines);
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
	/* stderr in git's order: objects, their special blobs, then refs */
	report_problems();
	errors_found |= report_special_blobs();
	for (; i < argc; i++, roots++) {
		unsigned char sha1[HASH_MAX_RAWSZ];

		if (get_sha1(argv[i], sha1) < 0)
			exit(128);
		add_root(sha1, argv[i]);
	}
	if (!roots)
		add_default_roots();
	errors_found |= mark_roots();
	if (fsck_show_unreachable && !walked_in_order)
		walk_reachable();
	report();
	finish_stdout();
	return errors_found;
}
