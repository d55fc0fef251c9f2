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
 * and each object is independent of the others.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

static const char fsck_usage[] =
	"fsck-cache [--strict] [--verbose] [--unreachable] "
	"[<commit-or-tree-id>...]";

static int strict, verbose, show_unreachable;

#define F_PRESENT 1
#define F_REACHABLE 2
#define F_REFERENCED 4

/*
 * One copy of an object: a loose file of the store (pack and alt NULL)
 * or of an alternate (alt), or an entry of a pack.  Every copy is
 * checked; copies of one id are then merged into one object.
 */
struct object {
	struct fsck_object fo;	/* id, type (OBJ_NONE: not in the store) */
	unsigned char flags;
	struct packed_git *pack;
	uint32_t pos;
	const char *alt;
	char *problem;		/* lines for stderr, malloc'd */
	int bad;		/* an error among them */
};

static struct object *objects;
static size_t nr_objects, alloc_objects;

/* The exit status, as git fsck's: bits for bad objects and missing ones. */
#define ERROR_OBJECT 1
#define ERROR_MISSING 2
static int errors_found;

/* ---- phase 1: list the store ---- */

static int list_object(const unsigned char *sha1, void *data)
{
	struct object *o;

	(void)data;
	ALLOC_GROW(objects, nr_objects + 1, alloc_objects);
	o = &objects[nr_objects++];
	memset(o, 0, sizeof(*o));
	memcpy(o->fo.sha1, sha1, 20);
	o->flags = F_PRESENT;
	return 0;
}

/* A temporary object is a writer at work (or a crash): only -v shows it. */
static void list_garbage(const char *path, const char *name, void *data)
{
	(void)data;
	if (verbose || strncmp(name, "tmp_obj_", 8))
		fprintf(stderr, "%s: garbage in the store: %s\n", progname(),
			path);
}

static int list_packed(const unsigned char *sha1, struct packed_git *p,
		       uint32_t n, void *data)
{
	list_object(sha1, data);
	objects[nr_objects - 1].pack = p;
	objects[nr_objects - 1].pos = n;
	return 0;
}

static int list_alternate(const unsigned char *sha1, void *data)
{
	list_object(sha1, NULL);
	objects[nr_objects - 1].alt = data;
	return 0;
}

/* Entries of one pack by offset; packs apart (by address: any order). */
static int compare_pack_order(const void *a, const void *b)
{
	const struct object *x = a, *y = b;
	uint64_t ox, oy;

	if (x->pack != y->pack)
		return x->pack < y->pack ? -1 : 1;
	ox = nth_packed_offset(x->pack, x->pos);
	oy = nth_packed_offset(y->pack, y->pos);
	return ox < oy ? -1 : ox > oy;
}

/*
 * Packed objects are checked in pack order: a delta's bases come
 * before it in a pack, and whoever resolved them last left them in
 * the delta-base cache, so a chain is resolved about once, not once
 * per object of it.
 */
static void list_objects(void)
{
	const char *const *alt;
	size_t first_packed;

	for_each_loose_object(list_object, list_garbage, NULL);
	first_packed = nr_objects;
	for_each_packed_object(list_packed, NULL);
	if (nr_objects - first_packed > 1)
		qsort(objects + first_packed, nr_objects - first_packed,
		      sizeof(*objects), compare_pack_order);
	for (alt = alternate_object_dirs(); *alt; alt++)
		for_each_loose_in_dir(*alt, list_alternate, (void *)*alt);
}

static void pack_problem(void *data, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void pack_problem(void *data, const char *fmt, ...)
{
	va_list ap;

	(void)data;
	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Each pack's table of offsets, before any object is read: with it an
 * entry is read to its exact end, so bytes between entries are found
 * (a reader without it stops at the zlib stream's end, as git's
 * does).  Building it checks the order of the ids; a failure is
 * reported by verify_packs.
 */
static void order_packs(void)
{
	struct packed_git *p;
	struct fault f;

	for (p = get_packs(); p; p = p->next)
		if (p->idx)
			pack_order(p, &f);
}

/* Each pack's checksums and CRCs; a pack whose idx is bad was reported. */
static void verify_packs(void)
{
	struct packed_git *p;

	for (p = get_packs(); p; p = p->next) {
		if (verbose)
			fprintf(stderr, "%s: checking pack %s\n", progname(),
				p->pack_name);
		if (!p->idx || verify_pack_checksums(p, pack_problem, NULL))
			errors_found |= ERROR_OBJECT;
	}
}

/* ---- phase 1: verify and parse each object (in parallel) ---- */

static void add_problem(struct object *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_problem(struct object *o, const char *fmt, ...)
{
	size_t old = o->problem ? strlen(o->problem) : 0;
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	o->problem = xrealloc(o->problem, old + n + 2);
	memcpy(o->problem + old, line, n);
	o->problem[old + n] = '\n';
	o->problem[old + n + 1] = '\0';
}

/* fsck.c's report: "error in <type> <id>: ..." or "warning in ...". */
static void fsck_line(void *data, enum fsck_level level, const char *msg)
{
	struct object *o = data;

	add_problem(o, "%s in %s %s: %s",
		    level == FSCK_ERROR ? "error" : "warning",
		    type_name(o->fo.type), sha1_to_hex(o->fo.sha1), msg);
	if (level == FSCK_ERROR)
		o->bad = 1;
}

static void report_bad_object(struct object *o, const struct fault *f)
{
	o->fo.type = OBJ_BAD;
	o->bad = 1;
	if (f->code == FAULT_HASH_MISMATCH)
		add_problem(o, "error: hash mismatch %s: %s",
			    sha1_to_hex(o->fo.sha1), f->msg);
	else
		add_problem(o, "error: object %s is corrupt: %s",
			    sha1_to_hex(o->fo.sha1), f->msg);
}

/* Open this copy of the object, to be verified against its id. */
static int open_copy(struct object *o, struct object_stream *st,
		     struct fault *f)
{
	int ret;

	if (o->pack) {
		ret = open_pack_entry(st, o->pack, o->pos, f);
	} else if (o->alt) {
		const char *hex = sha1_to_hex(o->fo.sha1);
		char *name = xmalloc(strlen(o->alt) + 43);

		sprintf(name, "%s/%.2s/%s", o->alt, hex, hex + 2);
		ret = open_object_file_stream(st, name, f);
		free(name);
	} else {
		const char *name = sha1_file_name(o->fo.sha1);

		ret = name ? open_object_file_stream(st, name, f) :
		      set_fault(f, FAULT_IO, "object directory name too long");
	}
	return ret;
}

/*
 * Blobs, nearly all of a store, are checked as a stream and never held
 * whole; only trees, commits and tags are read into memory to parse.
 * Each object is opened once: its header says which it is.
 */
static void check_one_object(struct object *o)
{
	struct fsck_options opt = { strict, fsck_line, o, NULL, 0 };
	struct object_stream st;
	struct fault f;
	char *buf = NULL;
	int ret;

	if (verbose)
		fprintf(stderr, "%s: checking %s\n", progname(),
			sha1_to_hex(o->fo.sha1));
	if (open_copy(o, &st, &f) < 0) {
		report_bad_object(o, &f);
		return;
	}
	ret = fsck_object_stream(&o->fo, &st, &opt, &buf, &f);
	close_object_stream(&st);
	if (ret < 0)
		report_bad_object(o, &f);
	free(buf);
}

static size_t check_nth_object(void *data, size_t i)
{
	check_one_object((struct object *)data + i);
	return 1;
}

static void check_all_objects(void)
{
	run_parallel(0, nr_objects, check_nth_object, objects, NULL, 0);
}

/* ---- phase 2: links and reachability ---- */

/*
 * Copies of one id become one object: present if any copy is good (its
 * type and links), bad if any is bad, with every copy's problems.
 */
static void merge_copies(void)
{
	size_t i, out = 0;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i], *keep = &objects[out ? out - 1 : 0];

		if (!out || memcmp(keep->fo.sha1, o->fo.sha1, 20)) {
			objects[out++] = *o;
			continue;
		}
		if (o->problem) {
			size_t a = keep->problem ? strlen(keep->problem) : 0;

			keep->problem = xrealloc(keep->problem,
						 a + strlen(o->problem) + 1);
			strcpy(keep->problem + a, o->problem);
			free(o->problem);
		}
		keep->bad |= o->bad;
		if (keep->fo.type <= 0 && o->fo.type > 0) {
			free(keep->fo.links);
			keep->fo = o->fo;
		} else {
			free(o->fo.links);
		}
	}
	nr_objects = out;
}

static struct object *find_object(const unsigned char *sha1)
{
	return find_sha1_in_table(sha1, objects, nr_objects, sizeof(*objects));
}

/* Missing objects, each reported once however many refer to it. */
struct missing {
	unsigned char sha1[20];
	int type;
};
static struct missing *missing;
static size_t nr_missing, alloc_missing;

static void note_missing(const unsigned char *sha1, int type)
{
	ALLOC_GROW(missing, nr_missing + 1, alloc_missing);
	memcpy(missing[nr_missing].sha1, sha1, 20);
	missing[nr_missing++].type = type;
}

static void check_links(void)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];

		for (j = 0; j < o->fo.nr_links; j++) {
			struct fsck_link *l = &o->fo.links[j];
			struct object *t = find_object(l->sha1);

			if (!t || t->fo.type == OBJ_BAD) {
				note_missing(l->sha1, l->type);
				if (!t)
					continue;
			}
			t->flags |= F_REFERENCED;
			if (t->fo.type > 0 && t->fo.type != l->type) {
				add_problem(o, "error in %s %s: broken link "
					    "to %s %s, which is a %s",
					    type_name(o->fo.type),
					    sha1_to_hex(o->fo.sha1),
					    type_name(l->type),
					    sha1_to_hex(l->sha1),
					    type_name(t->fo.type));
				o->bad = 1;
			}
		}
	}
}

static void mark_reachable(const unsigned char *sha1, int type)
{
	struct object **stack = NULL;
	size_t nr = 0, alloc = 0;
	struct object *o = find_object(sha1);
	unsigned int j;

	if (!o) {
		note_missing(sha1, type);
		return;
	}
	ALLOC_GROW(stack, nr + 1, alloc);
	stack[nr++] = o;
	while (nr) {
		o = stack[--nr];
		if (o->flags & F_REACHABLE)
			continue;
		o->flags |= F_REACHABLE;
		for (j = 0; j < o->fo.nr_links; j++) {
			struct object *t = find_object(o->fo.links[j].sha1);

			if (t && !(t->flags & F_REACHABLE)) {
				ALLOC_GROW(stack, nr + 1, alloc);
				stack[nr++] = t;
			}
		}
	}
	free(stack);
}

static int mark_ref(const char *name, const unsigned char *sha1, void *data)
{
	(void)name;
	(void)data;
	mark_reachable(sha1, OBJ_COMMIT);
	return 0;
}

/* The ids the index names, kept from before the store was listed. */
static unsigned char (*index_ids)[20];
static unsigned int nr_index_ids;

/*
 * The index is read first and only its ids are kept: a kernel's index
 * in memory is twice the size of the object table, and holding both at
 * once made our peak memory git's and more.
 */
static void read_index_ids(void)
{
	unsigned int i;

	if (read_cache() < 0)
		return;
	index_ids = xmalloc((active_nr ? active_nr : 1) * sizeof(*index_ids));
	for (i = 0; i < active_nr; i++)
		if (!S_ISGITLINK(active_cache[i]->ce_mode))
			memcpy(index_ids[nr_index_ids++], active_cache[i]->sha1,
			       20);
	discard_cache();
}

static void mark_default_roots(void)
{
	unsigned char sha1[20];
	unsigned int i;

	for_each_ref(mark_ref, NULL);
	/* A detached HEAD holds an id; a symbolic one names a ref. */
	if (!read_ref("HEAD", sha1))
		mark_reachable(sha1, OBJ_COMMIT);
	for (i = 0; i < nr_index_ids; i++)
		mark_reachable(index_ids[i], OBJ_BLOB);
}

/* ---- reporting ---- */

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
		if (show_unreachable)
			printf("unreachable %s %s\n", type_name(o->fo.type),
			       sha1_to_hex(o->fo.sha1));
		else if (!(o->flags & F_REFERENCED))
			printf("dangling %s %s\n", type_name(o->fo.type),
			       sha1_to_hex(o->fo.sha1));
	}
}

int main(int argc, char **argv)
{
	int i, roots = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, fsck_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--strict"))
			strict = 1;
		else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "--unreachable"))
			show_unreachable = 1;
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
	order_packs();
	check_all_objects();
	sort_sha1_table(objects, nr_objects, sizeof(*objects));
	merge_copies();
	verify_packs();
	check_links();
	for (; i < argc; i++, roots++) {
		unsigned char sha1[20];

		if (get_sha1(argv[i], sha1) < 0)
			die("bad object name '%s'", argv[i]);
		mark_reachable(sha1, OBJ_COMMIT);
	}
	if (!roots)
		mark_default_roots();
	report();
	finish_stdout();
	return errors_found;
}
