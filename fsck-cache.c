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
#include <pthread.h>
#include <stdarg.h>
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
#define F_WALKED 8		/* --unreachable: its links followed */
#define F_MISTYPED 16		/* a link says it is of another type */

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
	unsigned char bad;	/* an error among its problems */
	uint32_t rank;		/* its place in the order of reading */
	struct packed_git *pack;
	uint32_t pos;
	const char *alt;
	char *problem;		/* lines for stderr, malloc'd */
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

static void list_objects(void)
{
	const char *const *alt;

	for_each_loose_object(list_object, list_garbage, NULL);
	for_each_packed_object(list_packed, NULL);
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

static void hash_objects(void)
{
	size_t i, size = 1024;

	while (size < 2 * nr_objects)
		size *= 2;
	free(slots);
	slots = xcalloc(size, sizeof(*slots));
	slot_mask = size - 1;
	for (i = 0; i < nr_objects; i++) {
		size_t s = slot_of(objects[i].fo.sha1);

		if (i && !memcmp(objects[i].fo.sha1, objects[i - 1].fo.sha1,
				 20))
			continue;
		while (slots[s])
			s = (s + 1) & slot_mask;
		slots[s] = i + 1;
	}
}

static struct object *find_object(const unsigned char *sha1)
{
	size_t s = slot_of(sha1);

	for (; slots[s]; s = (s + 1) & slot_mask) {
		struct object *o = &objects[slots[s] - 1];

		if (!memcmp(o->fo.sha1, sha1, 20))
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
static void order_packs(void)
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
static int pack_errors;

static void *verify_packs(void *data)
{
	struct packed_git *p;

	(void)data;
	for (p = get_packs(); p; p = p->next) {
		if (verbose)
			fprintf(stderr, "%s: checking pack %s\n", progname(),
				p->pack_name);
		if (!p->idx || verify_pack_checksums(p, pack_problem, NULL))
			pack_errors = ERROR_OBJECT;
	}
	return NULL;
}

/* Missing objects, each reported once however many refer to it. */
struct missing {
	unsigned char sha1[20];
	int type;
};
static struct missing *missing;
static size_t nr_missing, alloc_missing;
static pthread_mutex_t missing_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_missing(const unsigned char *sha1, int type)
{
	pthread_mutex_lock(&missing_lock);
	ALLOC_GROW(missing, nr_missing + 1, alloc_missing);
	memcpy(missing[nr_missing].sha1, sha1, 20);
	missing[nr_missing++].type = type;
	pthread_mutex_unlock(&missing_lock);
}

/* ---- phase 2: verify and parse each object (in parallel) ---- */

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

/* An object being read, and its links, gathered to be looked up. */
struct reading {
	struct object *o;
	struct fsck_link *links;
	size_t nr, alloc;
};

/* fsck.c's report: "error in <type> <id>: ..." or "warning in ...". */
static void fsck_line(void *data, enum fsck_level level, const char *msg)
{
	struct object *o = ((struct reading *)data)->o;

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

/* The link hook of fsck.c: links are looked up once the object is read. */
static void gather_link(void *data, const unsigned char *sha1, int type)
{
	struct reading *r = data;

	ALLOC_GROW(r->links, r->nr + 1, r->alloc);
	memcpy(r->links[r->nr].sha1, sha1, 20);
	r->links[r->nr++].type = type;
}

/* How many links ahead the slot, and half as many the object, is fetched. */
#define LOOKAHEAD 16

/*
 * fn on each link of r and its target (NULL: not in the store).  Each
 * lookup misses the cache twice, slot then object; the links of a tree
 * are all known, so the memory of those ahead is asked for early.
 */
static void follow_links(struct reading *r,
			 void (*fn)(struct object *o, const struct fsck_link *l,
				    struct object *t))
{
	const struct fsck_link *l = r->links;
	size_t i;

	for (i = 0; i < r->nr; i++) {
		if (i + LOOKAHEAD < r->nr)
			__builtin_prefetch(&slots[slot_of(l[i + LOOKAHEAD].sha1)]);
		if (i + LOOKAHEAD / 2 < r->nr) {
			uint32_t v = slots[slot_of(l[i + LOOKAHEAD / 2].sha1)];

			if (v)
				__builtin_prefetch(&objects[v - 1], 1);
		}
		fn(r->o, &l[i], find_object(l[i].sha1));
	}
}

/*
 * A link, as its object is read: the target is marked referenced (as
 * what), or noted missing.  A commit's and a tag's links are kept for
 * the walk of --unreachable; a tree's are read again there.
 */
static void mark_link(struct object *o, const struct fsck_link *l,
		      struct object *t)
{
	if (!t) {
		note_missing(l->sha1, l->type);
		return;
	}
	__atomic_fetch_or(&t->refs, 1 << l->type, __ATOMIC_RELAXED);
	if (show_unreachable && o->fo.type != OBJ_TREE)
		fsck_add_link(&o->fo, l->sha1, l->type);
}

/*
 * Read a copy, verify it and gather its links in r; its problems are
 * reported unless it is read again (report 0).  Blobs, nearly all
 * of a store, are checked as a stream and never held whole.
 */
static void read_copy(struct object *o, int report, struct reading *r)
{
	struct fsck_options opt = { strict, report ? fsck_line : NULL, r,
				    NULL, 0 };
	struct object_stream st;
	struct fault f;
	char *buf = NULL;
	int ret;

	if (open_copy(o, &st, &f) < 0) {
		if (report)
			report_bad_object(o, &f);
		return;
	}
	ret = fsck_object_links(&o->fo, &st, &opt, gather_link, &buf, &f);
	close_object_stream(&st);
	free(buf);
	if (ret < 0 && report)
		report_bad_object(o, &f);
}

/*
 * What a reader marked lately: the trees read one after another are
 * mostly versions of one directory, naming the same objects again.  A
 * link already marked as its type here is not looked up again; this
 * table sits in the core's cache where the object table does not.
 * One for each thread at work (taken, given back), none when all are.
 */
#define SEEN_SIZE 4096
struct seen {
	int busy;
	struct fsck_link *links;	/* kept for the next reading */
	size_t alloc_links;
	struct {
		unsigned char sha1[20];
		unsigned char refs;
	} e[SEEN_SIZE];
};
#define NR_SEEN 8
static struct seen *seen_tables;

static struct seen *take_seen(void)
{
	int i;

	for (i = 0; i < NR_SEEN; i++)
		if (!__atomic_exchange_n(&seen_tables[i].busy, 1,
					 __ATOMIC_ACQUIRE))
			return &seen_tables[i];
	return NULL;
}

static void give_seen(struct seen *s)
{
	if (s)
		__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

static size_t seen_slot(const unsigned char *sha1)
{
	return (sha1[8] << 8 | sha1[9]) % SEEN_SIZE;
}

/* Drop the links s says are marked already. */
static void skip_seen(struct reading *r, const struct seen *s)
{
	size_t i, nr = 0;

	for (i = 0; i < r->nr; i++) {
		const struct fsck_link *l = &r->links[i];
		size_t k = seen_slot(l->sha1);

		if (s->e[k].refs & 1 << l->type &&
		    !memcmp(s->e[k].sha1, l->sha1, 20))
			continue;
		r->links[nr++] = *l;
	}
	r->nr = nr;
}

static void remember_seen(const struct reading *r, struct seen *s)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct fsck_link *l = &r->links[i];
		size_t k = seen_slot(l->sha1);

		if (memcmp(s->e[k].sha1, l->sha1, 20)) {
			memcpy(s->e[k].sha1, l->sha1, 20);
			s->e[k].refs = 0;
		}
		s->e[k].refs |= 1 << l->type;
	}
}

/* Copies in the order they are read: by pack, then by offset. */
static uint32_t *order;

static size_t check_nth_object(void *data, size_t i)
{
	struct object *o = &objects[order[i]];
	struct reading r = { o, NULL, 0, 0 };
	struct seen *s = NULL;

	(void)data;
	if (verbose)
		fprintf(stderr, "%s: checking %s\n", progname(),
			sha1_to_hex(o->fo.sha1));
	s = take_seen();
	if (s) {
		r.links = s->links;
		r.alloc = s->alloc_links;
	}
	read_copy(o, 1, &r);
	if (s && o->fo.type == OBJ_TREE)
		skip_seen(&r, s);
	follow_links(&r, mark_link);
	if (s && o->fo.type == OBJ_TREE)
		remember_seen(&r, s);
	if (s) {
		s->links = r.links;
		s->alloc_links = r.alloc;
	} else {
		free(r.links);
	}
	give_seen(s);
	return 1;
}

/* Read a copy again, for fn on each of its links. */
static void reread_copy(struct object *o,
			void (*fn)(struct object *o, const struct fsck_link *l,
				   struct object *t))
{
	struct reading r = { o, NULL, 0, 0 };

	read_copy(o, 0, &r);
	follow_links(&r, fn);
	free(r.links);
}

struct order_key {
	uint64_t offset;
	uintptr_t pack;		/* 0: loose; packs apart by address */
	uint32_t index;
};

static int compare_order(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->pack != y->pack)
		return x->pack < y->pack ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Packed objects are checked in pack order: a delta's bases come
 * before it in a pack, and whoever resolved them last left them in
 * the delta-base cache, so a chain is resolved about once, not once
 * per object of it.
 */
static void order_objects(void)
{
	struct order_key *keys = xmalloc((nr_objects ? nr_objects : 1) *
					 sizeof(*keys));
	size_t i;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];

		keys[i].index = i;
		keys[i].pack = (uintptr_t)o->pack;
		keys[i].offset = o->pack ? nth_packed_offset(o->pack, o->pos) :
			0;
	}
	qsort(keys, nr_objects, sizeof(*keys), compare_order);
	order = xmalloc((nr_objects ? nr_objects : 1) * sizeof(*order));
	for (i = 0; i < nr_objects; i++) {
		order[i] = keys[i].index;
		objects[keys[i].index].rank = i;
	}
	free(keys);
}

static void check_all_objects(void)
{
	int i;

	order_objects();
	seen_tables = xcalloc(NR_SEEN, sizeof(*seen_tables));
	run_parallel(0, nr_objects, check_nth_object, NULL, NULL, 0);
	for (i = 0; i < NR_SEEN; i++)
		free(seen_tables[i].links);
	free(seen_tables);
	free(order);
	order = NULL;
}

/* ---- phase 3: links and reachability ---- */

/* Take o over into keep, the object it merges into, keeping its marks. */
static void take_copy(struct object *keep, struct object *o)
{
	struct object marks = *keep;

	free(keep->fo.links);
	*keep = *o;
	keep->flags |= marks.flags;
	keep->refs |= marks.refs;
	keep->bad |= marks.bad;
	keep->problem = marks.problem;
	o->fo.links = NULL;
	o->problem = NULL;
}

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
			o->problem = NULL;
		}
		keep->flags |= o->flags;
		keep->refs |= o->refs;
		keep->bad |= o->bad;
		if (keep->fo.type <= 0 && o->fo.type > 0)
			take_copy(keep, o);
		else
			free(o->fo.links);
	}
	nr_objects = out;
	hash_objects();
}

/* A link from o to an object of another type than it says. */
static void check_type(struct object *o, const struct fsck_link *l,
		       struct object *t)
{
	if (!t || !(t->flags & F_MISTYPED) || t->fo.type == l->type)
		return;
	add_problem(o, "error in %s %s: broken link to %s %s, which is a %s",
		    type_name(o->fo.type), sha1_to_hex(o->fo.sha1),
		    type_name(l->type), sha1_to_hex(l->sha1),
		    type_name(t->fo.type));
	o->bad = 1;
}

/*
 * A store where a link names an object of another type (never a sound
 * one) is read again, trees, commits and tags, to say which objects
 * hold such links.
 */
static size_t find_mistyped_nth(void *data, size_t i)
{
	struct object *o = &objects[i];

	(void)data;
	if (o->fo.type == OBJ_TREE || o->fo.type == OBJ_COMMIT ||
	    o->fo.type == OBJ_TAG)
		reread_copy(o, check_type);
	return 1;
}

static int lowest_type(unsigned int refs)
{
	int type = OBJ_COMMIT;

	while (!(refs & 1 << type))
		type++;
	return type;
}

static void check_links(void)
{
	size_t i, nr_mistyped = 0;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];

		if (!o->refs)
			continue;
		o->flags |= F_REFERENCED;
		if (o->fo.type == OBJ_BAD) {
			note_missing(o->fo.sha1, lowest_type(o->refs));
		} else if (o->fo.type > 0 && o->refs & ~(1 << o->fo.type)) {
			o->flags |= F_MISTYPED;
			nr_mistyped++;
		}
	}
	if (nr_mistyped)
		run_parallel(0, nr_objects, find_mistyped_nth, NULL, NULL, 0);
}

static void mark_reachable(const unsigned char *sha1, int type)
{
	struct object *o = find_object(sha1);

	if (!o)
		note_missing(sha1, type);
	else
		o->flags |= F_REACHABLE;
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
	for_each_other_head(mark_ref, NULL);
	/* A detached HEAD holds an id; a symbolic one names a ref. */
	if (!read_ref("HEAD", sha1))
		mark_reachable(sha1, OBJ_COMMIT);
	for (i = 0; i < nr_index_ids; i++)
		mark_reachable(index_ids[i], OBJ_BLOB);
}

/*
 * Without --unreachable no walk is needed: an object no other object
 * names is reachable only if it is a root, and one that is named is
 * not dangling either way.  With it, reachability is walked in rounds:
 * the links kept of the commits and tags reached, then the trees
 * reached, read again in the order of reading (a chain's bases are
 * still in the cache) on every core, until nothing new is reached.
 */
static void walk_link(struct object *o, const struct fsck_link *l,
		      struct object *t)
{
	(void)o;
	(void)l;
	if (t)
		__atomic_fetch_or(&t->flags, F_REACHABLE, __ATOMIC_RELAXED);
}

static size_t walk_nth_tree(void *data, size_t i)
{
	reread_copy(&objects[((uint32_t *)data)[i]], walk_link);
	return 1;
}

static int compare_rank(const void *a, const void *b)
{
	uint32_t x = objects[*(const uint32_t *)a].rank;
	uint32_t y = objects[*(const uint32_t *)b].rank;

	return x < y ? -1 : x > y;
}

/* Is o reached, but its links not followed yet? */
static int to_walk(const struct object *o)
{
	return (o->flags & (F_REACHABLE | F_WALKED)) == F_REACHABLE;
}

/* Follow the kept links of the commits and tags reached, and on. */
static void walk_kept_links(void)
{
	struct object **stack = NULL;
	size_t i, j, nr = 0, alloc = 0;

	for (i = 0; i < nr_objects; i++) {
		if (!to_walk(&objects[i]) || objects[i].fo.type == OBJ_TREE)
			continue;
		ALLOC_GROW(stack, nr + 1, alloc);
		stack[nr++] = &objects[i];
		while (nr) {
			struct object *o = stack[--nr];

			if (o->flags & F_WALKED)
				continue;
			o->flags |= F_WALKED;
			for (j = 0; j < o->fo.nr_links; j++) {
				struct object *t;

				t = find_object(o->fo.links[j].sha1);

				if (!t)
					continue;
				t->flags |= F_REACHABLE;
				if (to_walk(t) && t->fo.type != OBJ_TREE) {
					ALLOC_GROW(stack, nr + 1, alloc);
					stack[nr++] = t;
				}
			}
		}
	}
	free(stack);
}

static void walk_reachable(void)
{
	uint32_t *trees = NULL;
	size_t i, nr, alloc = 0;

	for (;;) {
		walk_kept_links();
		nr = 0;
		for (i = 0; i < nr_objects; i++) {
			struct object *o = &objects[i];

			if (!to_walk(o) || o->fo.type != OBJ_TREE)
				continue;
			o->flags |= F_WALKED;
			ALLOC_GROW(trees, nr + 1, alloc);
			trees[nr++] = i;
		}
		if (!nr)
			break;
		qsort(trees, nr, sizeof(*trees), compare_rank);
		run_parallel(0, nr, walk_nth_tree, trees, NULL, 0);
	}
	free(trees);
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
	int i, roots = 0, verifying = 0;
	pthread_t verifier;

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
			die("bad object name '%s'", argv[i]);
		mark_reachable(sha1, OBJ_COMMIT);
	}
	if (!roots)
		mark_default_roots();
	if (show_unreachable)
		walk_reachable();
	report();
	finish_stdout();
	return errors_found;
}
