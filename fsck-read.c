/*
 * fsck-read.c: fsck-cache's second phase, every copy of every object
 * read and verified on every core, in the order of the packs, and its
 * links marked in the table as they are read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pack.h"
#include "fsck-cache.h"

/* fsck.c's report: "error in <type> <id>: ..." or "warning in ...". */
static void fsck_line(void *data, enum fsck_level level, const char *msg)
{
	struct object *o = ((struct reading *)data)->o;

	add_problem(o, "%s in %s %s: %s",
		    level == FSCK_ERROR ? "error" : "warning",
		    type_name(o->fo.type), sha1_to_hex(o->fo.sha1), msg);
	if (level == FSCK_ERROR)
		o->bad |= o->pack ? ERROR_PACK : ERROR_OBJECT;
}

static void report_bad_object(struct object *o, const struct fault *f)
{
	o->fo.type = OBJ_BAD;
	o->bad |= o->pack ? ERROR_PACK : ERROR_OBJECT;
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
		char *name = xmalloc(strlen(o->alt) + the_hash->hexsz + 3);

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

	if (type & (FSCK_LINK_GITMODULES | FSCK_LINK_GITATTRIBUTES)) {
		note_special_blob(sha1, type, r->o->flags & F_PROMISOR);
		type &= ~(FSCK_LINK_GITMODULES | FSCK_LINK_GITATTRIBUTES);
	}
	ALLOC_GROW(r->links, r->nr + 1, r->alloc);
	hashcpy(r->links[r->nr].sha1, sha1);
	r->links[r->nr++].type = type;
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
		note_missing(l->sha1, l->type, o->flags & F_PROMISOR);
		return;
	}
	__atomic_fetch_or(&t->refs, 1 << l->type, __ATOMIC_RELAXED);
	if (fsck_show_unreachable && o->fo.type != OBJ_TREE)
		fsck_add_link(&o->fo, l->sha1, l->type);
}

/*
 * Read a copy, verify it and gather its links in r; its problems are
 * reported unless it is read again (report 0).  Blobs, nearly all
 * of a store, are checked as a stream and never held whole.
 */
static void read_copy(struct object *o, int report, struct reading *r)
{
	struct fsck_options opt = { fsck_strict, report ? fsck_line : NULL,
				    r, NULL, 0 };
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
		unsigned char sha1[HASH_MAX_RAWSZ];
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
		    hasheq(s->e[k].sha1, l->sha1))
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

		if (!hasheq(s->e[k].sha1, l->sha1)) {
			hashcpy(s->e[k].sha1, l->sha1);
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
	if (fsck_verbose)
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
void reread_copy(struct object *o,
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

void check_all_objects(void)
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
