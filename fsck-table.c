/*
 * fsck-table.c: fsck-cache's table of the store's objects: every copy
 * listed (loose, packed, in an alternate), sorted and hashed by id,
 * links looked up in it, the missing ones noted, each object's
 * problems kept for the report; and the packs' own checks (their order
 * of offsets, their checksums).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pack.h"
#include "fsck-cache.h"

int fsck_strict, fsck_verbose, fsck_show_unreachable;
struct object *objects;
size_t nr_objects;
static size_t alloc_objects;

static int list_object(const unsigned char *sha1, void *data)
{
	struct object *o;

	(void)data;
	ALLOC_GROW(objects, nr_objects + 1, alloc_objects);
	o = &objects[nr_objects++];
	memset(o, 0, sizeof(*o));
	hashcpy(o->fo.sha1, sha1);
	o->flags = F_PRESENT;
	return 0;
}

/* A temporary object is a writer at work (or a crash): only -v shows it. */
static void list_garbage(const char *path, const char *name, void *data)
{
	(void)data;
	if (fsck_verbose || strncmp(name, "tmp_obj_", 8))
		fprintf(stderr, "%s: garbage in the store: %s\n", progname(),
			path);
}

/* The last pack asked about, and whether it is a promisor pack. */
static const struct packed_git *last_pack;
static int last_promisor;

static int list_packed(const unsigned char *sha1, struct packed_git *p,
		       uint32_t n, void *data)
{
	int *partial = data;

	list_object(sha1, NULL);
	objects[nr_objects - 1].pack = p;
	objects[nr_objects - 1].pos = n;
	if (p != last_pack) {
		last_pack = p;
		last_promisor = *partial && is_promisor_pack_file(p);
	}
	if (last_promisor)
		objects[nr_objects - 1].flags |= F_PROMISOR;
	return 0;
}

static int list_alternate(const unsigned char *sha1, void *data)
{
	list_object(sha1, NULL);
	objects[nr_objects - 1].alt = data;
	return 0;
}

void list_objects(void)
{
	const char *const *alt;
	int partial = promisor_remote_configured();

	for_each_loose_object(list_object, list_garbage, NULL);
	for_each_packed_object(list_packed, &partial);
	for (alt = alternate_object_dirs(); *alt; alt++)
		for_each_loose_in_dir(*alt, list_alternate, (void *)*alt);
	sort_sha1_table(objects, nr_objects, sizeof(*objects));
}

/*
 * The table by id, hashed: every link of every tree is looked up, and
 * a search through the sorted table costs twenty steps where a slot
 * costs one.  A slot holds the index + 1 of the first copy of an id.
 */
static uint32_t *slots;
static size_t slot_mask;

static size_t slot_of(const unsigned char *sha1)
{
	return get_be32(sha1 + 4) & slot_mask;
}

void hash_objects(void)
{
	size_t i, size = 1024;

	while (size < 2 * nr_objects)
		size *= 2;
	free(slots);
	slots = xcalloc(size, sizeof(*slots));
	slot_mask = size - 1;
	for (i = 0; i < nr_objects; i++) {
		size_t s = slot_of(objects[i].fo.sha1);

		if (i && hasheq(objects[i].fo.sha1, objects[i - 1].fo.sha1))
			continue;
		while (slots[s])
			s = (s + 1) & slot_mask;
		slots[s] = i + 1;
	}
}

struct object *find_object(const unsigned char *sha1)
{
	size_t s = slot_of(sha1);

	for (; slots[s]; s = (s + 1) & slot_mask) {
		struct object *o = &objects[slots[s] - 1];

		if (hasheq(o->fo.sha1, sha1))
			return o;
	}
	return NULL;
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
void order_packs(void)
{
	struct packed_git *p;
	struct fault f;

	for (p = get_packs(); p; p = p->next)
		if (p->idx)
			pack_order(p, &f);
}

/*
 * Each pack's checksums and CRCs; a pack whose idx is bad was reported.
 * It runs beside the objects' check, on a thread of its own: hashing
 * a whole pack is a while on one core.
 */
int pack_errors;

void *verify_packs(void *data)
{
	struct packed_git *p;

	(void)data;
	for (p = get_packs(); p; p = p->next) {
		if (fsck_verbose)
			fprintf(stderr, "%s: checking pack %s\n", progname(),
				p->pack_name);
		if (!p->idx || verify_pack_checksums(p, pack_problem, NULL))
			pack_errors = ERROR_PACK;
	}
	return NULL;
}

struct missing *missing;
size_t nr_missing;
static size_t alloc_missing;
static pthread_mutex_t missing_lock = PTHREAD_MUTEX_INITIALIZER;

void note_missing(const unsigned char *sha1, int type, int promised)
{
	struct missing *m;

	pthread_mutex_lock(&missing_lock);
	ALLOC_GROW(missing, nr_missing + 1, alloc_missing);
	m = &missing[nr_missing++];
	hashcpy(m->sha1, sha1);
	m->type = type;
	m->promised = !!promised;
	m->reached = 0;
	pthread_mutex_unlock(&missing_lock);
}

/* The .gitmodules and .gitattributes blobs met (they are few). */
static struct missing *specials;
static size_t nr_specials, alloc_specials;

void note_special_blob(const unsigned char *sha1, int kind, int promised)
{
	struct missing *m;

	pthread_mutex_lock(&missing_lock);
	ALLOC_GROW(specials, nr_specials + 1, alloc_specials);
	m = &specials[nr_specials++];
	hashcpy(m->sha1, sha1);
	m->type = kind;
	m->promised = !!promised;
	m->reached = 0;
	pthread_mutex_unlock(&missing_lock);
}

static int compare_missing(const void *a, const void *b);

/* Say each missing blob of this kind; git: .gitmodules ones first. */
static int report_special_kind(int kind, const char *id, const char *name)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < nr_specials; i = j) {
		struct missing *m = &specials[i];
		const struct object *o = find_object(m->sha1);
		int kinds = 0, promised = 0;

		for (j = i; j < nr_specials &&
		     hasheq(specials[j].sha1, m->sha1); j++) {
			kinds |= specials[j].type;
			promised |= specials[j].promised;
		}
		if (!(kinds & kind) || (o && o->fo.type > 0) || promised)
			continue;
		fprintf(stderr, "error in blob %s: %s: unable to read %s blob\n",
			sha1_to_hex(m->sha1), id, name);
		ret = ERROR_OBJECT;
	}
	return ret;
}

int report_special_blobs(void)
{
	int ret;

	if (nr_specials > 1)
		qsort(specials, nr_specials, sizeof(*specials),
		      compare_missing);
	ret = report_special_kind(FSCK_LINK_GITMODULES, "gitmodulesMissing",
				  ".gitmodules");
	ret |= report_special_kind(FSCK_LINK_GITATTRIBUTES,
				   "gitattributesMissing", ".gitattributes");
	free(specials);
	specials = NULL;
	nr_specials = alloc_specials = 0;
	return ret;
}

static int compare_missing(const void *a, const void *b)
{
	const struct missing *x = a, *y = b;

	return hashcmp(x->sha1, y->sha1);
}

/* An id noted by links of two types keeps one of them. */
void sort_missing(void)
{
	size_t i, out = 0;

	if (nr_missing > 1)
		qsort(missing, nr_missing, sizeof(*missing), compare_missing);
	for (i = 0; i < nr_missing; i++) {
		if (out && hasheq(missing[out - 1].sha1, missing[i].sha1)) {
			missing[out - 1].promised |= missing[i].promised;
			missing[out - 1].reached |= missing[i].reached;
			continue;
		}
		missing[out++] = missing[i];
	}
	nr_missing = out;
}

struct missing *find_missing(const unsigned char *sha1)
{
	struct missing key;

	if (!nr_missing)
		return NULL;
	hashcpy(key.sha1, sha1);
	return bsearch(&key, missing, nr_missing, sizeof(*missing),
		       compare_missing);
}

void add_problem(struct object *o, const char *fmt, ...)
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

/* How many links ahead the slot, and half as many the object, is fetched. */
#define LOOKAHEAD 16

/*
 * fn on each link of r and its target (NULL: not in the store).  Each
 * lookup misses the cache twice, slot then object; the links of a tree
 * are all known, so the memory of those ahead is asked for early.
 */
void follow_links(struct reading *r,
			 void (*fn)(struct object *o, const struct fsck_link *l,
				    struct object *t))
{
	const struct fsck_link *l = r->links;
	size_t i;

	for (i = 0; i < r->nr; i++) {
		if (i + LOOKAHEAD < r->nr)
			__builtin_prefetch(&slots[slot_of(
				l[i + LOOKAHEAD].sha1)]);
		if (i + LOOKAHEAD / 2 < r->nr) {
			uint32_t v = slots[slot_of(l[i + LOOKAHEAD / 2].sha1)];

			if (v)
				__builtin_prefetch(&objects[v - 1], 1);
		}
		fn(r->o, &l[i], find_object(l[i].sha1));
	}
}
