/*
 * fsck-reach.c: fsck-cache's third phase: the copies of one id merged,
 * links to objects of another type found, and what is reachable from
 * the roots (refs, HEAD, the index, or the ids given) marked.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pack.h"
#include "fsck-cache.h"

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
void merge_copies(void)
{
	size_t i, out = 0;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];
		struct object *keep = &objects[out ? out - 1 : 0];

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

void check_links(void)
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

void mark_reachable(const unsigned char *sha1, int type)
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
void read_index_ids(void)
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

void mark_default_roots(void)
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

void walk_reachable(void)
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

