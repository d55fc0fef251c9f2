/*
 * fsck-reach.c: fsck-cache's third phase: the copies of one id merged,
 * links to objects of another type found, and what is reachable from
 * the roots (refs, HEAD, the index, or the ids given) marked.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

		if (!out || !hasheq(keep->fo.sha1, o->fo.sha1)) {
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
	o->bad |= ERROR_OBJECT;
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

void check_links(void)
{
	size_t i, nr_mistyped = 0;

	for (i = 0; i < nr_objects; i++) {
		struct object *o = &objects[i];

		if (!o->refs)
			continue;
		o->flags |= F_REFERENCED;
		if (o->fo.type > 0 && o->refs & ~(1 << o->fo.type)) {
			o->flags |= F_MISTYPED;
			nr_mistyped++;
		}
	}
	if (nr_mistyped)
		run_parallel(0, nr_objects, find_mistyped_nth, NULL, NULL, 0);
}

/*
 * The roots, in the order git fsck marks them: the refs, HEAD, the
 * other worktrees' HEADs, then the index's blobs (name NULL).
 */
enum root_kind {
	ROOT_INDEX, ROOT_REF, ROOT_GIVEN, ROOT_REFLOG,
	ROOT_UNBORN,		/* HEAD names a branch not born: a notice */
	ROOT_END_OF_REFS	/* where git says it found no ref */
};

struct root {
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *name;		/* a ref, its reflog, or the id given */
	enum root_kind kind;
};
static struct root *roots;
static size_t nr_roots, alloc_roots;

static void push_root(const unsigned char *sha1, const char *name,
		      enum root_kind kind)
{
	struct root *r;

	ALLOC_GROW(roots, nr_roots + 1, alloc_roots);
	r = &roots[nr_roots++];
	hashcpy(r->sha1, sha1);
	r->name = name ? xstrdup(name) : NULL;
	r->kind = kind;
}

void add_root(const unsigned char *sha1, const char *name)
{
	push_root(sha1, name, ROOT_GIVEN);
}

static int add_ref_root(const char *name, const unsigned char *sha1,
			void *data)
{
	(void)data;
	push_root(sha1, name, ROOT_REF);
	return 0;
}

/*
 * Each entry of a reflog names two ids, the old and the new; both are
 * roots (a null one is not), in the order of the file.
 */
static void add_reflog_roots(const char *path, const char *name)
{
	static const unsigned char null_sha1[HASH_MAX_RAWSZ];
	unsigned char old[HASH_MAX_RAWSZ], new[HASH_MAX_RAWSZ];
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line), hexsz = the_hash->hexsz;

		if (len >= 2 * hexsz + 2 && line[hexsz] == ' ' &&
		    line[2 * hexsz + 1] == ' ' && !get_sha1_hex(line, old) &&
		    !get_sha1_hex(line + hexsz + 1, new)) {
			if (!hasheq(old, null_sha1))
				push_root(old, name, ROOT_REFLOG);
			if (!hasheq(new, null_sha1))
				push_root(new, name, ROOT_REFLOG);
		}
		/* the rest of a long line (its message) */
		while (len && line[len - 1] != '\n' && fgets(line, sizeof(line), f))
			len = strlen(line);
	}
	fclose(f);
}

/*
 * The reflogs under dir/name, in the order git 2.39 walks them: the
 * directory's own order (readdir), each subdirectory where it is met.
 */
static void add_reflogs_in(const char *dir, char *name, size_t len,
			   size_t room)
{
	struct dirent *de;
	char *path;
	DIR *d;

	path = xmalloc(strlen(dir) + room + 2);
	sprintf(path, "%s/%s", dir, name);
	d = opendir(path);
	while (d && (de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		struct stat st;

		if (de->d_name[0] == '.' || len + n + 2 > room)
			continue;
		sprintf(name + len, "%s%s", len ? "/" : "", de->d_name);
		sprintf(path, "%s/%s", dir, name);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			add_reflogs_in(dir, name, strlen(name), room);
		else if (S_ISREG(st.st_mode))
			add_reflog_roots(path, name);
		name[len] = '\0';
	}
	if (d)
		closedir(d);
	free(path);
}

static void add_all_reflogs(void)
{
	char *dir = xmalloc(strlen(get_common_dir()) + 6);
	char name[1024] = "";

	sprintf(dir, "%s/logs", get_common_dir());
	add_reflogs_in(dir, name, 0, sizeof(name));
	free(dir);
}

/* The ids the index names, kept from before the store was listed. */
static unsigned char (*index_ids)[HASH_MAX_RAWSZ];
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
			hashcpy(index_ids[nr_index_ids++],
				active_cache[i]->sha1);
	discard_cache();
}

void add_default_roots(void)
{
	static const unsigned char null_sha1[HASH_MAX_RAWSZ];
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *head = NULL;
	unsigned int i;

	for_each_ref(add_ref_root, NULL);
	/* A detached HEAD holds an id; a symbolic one names a ref. */
	if (!resolve_ref("HEAD", sha1, NULL))
		push_root(sha1, "HEAD", ROOT_REF);
	else if (resolve_ref("HEAD", sha1, &head) < 0 && head &&
		 !strncmp(head, "refs/heads/", 11))
		push_root(null_sha1, head + 11, ROOT_UNBORN);
	free(head);
	/* git fsck's too: what a reflog names is reachable */
	add_all_reflogs();
	for_each_other_head(add_ref_root, NULL);
	push_root(null_sha1, NULL, ROOT_END_OF_REFS);
	for (i = 0; i < nr_index_ids; i++) {
		push_root(index_ids[i], NULL, ROOT_INDEX);
		if (!find_object(index_ids[i]))
			note_missing(index_ids[i], OBJ_BLOB, 0);
	}
	free(index_ids);
	index_ids = NULL;
}

/* ---- the walk in git's order, when something is missing ---- */

int walked_in_order;
static struct object **stack;
static size_t nr_stack, alloc_stack;
static int walk_errors;

/*
 * git fsck's mark_object: an object met for the first time is marked
 * reachable and, unless a promisor pack holds it, its links are to be
 * followed; a missing one met from a parent is a broken link, said
 * at once, unless a promisor pack names it.
 */
static void broken_link(const struct object *parent,
			const unsigned char *sha1, int type)
{
	printf("broken link from %7s %s\n", type_name(parent->fo.type),
	       sha1_to_hex(parent->fo.sha1));
	printf("              to %7s %s\n", type_name(type),
	       sha1_to_hex(sha1));
	walk_errors |= ERROR_MISSING;
}

/*
 * A packed copy that failed its checks is no copy to git: a link to it
 * is broken.  A bad loose one is still there (only "missing" later).
 */
static void reach(struct object *parent, const unsigned char *sha1,
		  int type, struct object *t)
{
	struct missing *m;

	if (t) {
		if (t->flags & F_REACHABLE)
			return;
		t->flags |= F_REACHABLE;
		if (t->fo.type > 0 && !(t->flags & F_PROMISOR)) {
			ALLOC_GROW(stack, nr_stack + 1, alloc_stack);
			stack[nr_stack++] = t;
		} else if (t->fo.type <= 0 && t->pack && parent) {
			broken_link(parent, sha1, type);
		}
		return;
	}
	m = find_missing(sha1);
	if (!m || m->reached)
		return;
	m->reached = 1;
	if (!m->promised && parent)
		broken_link(parent, sha1, m->type);
}

static void reach_link(struct object *o, const struct fsck_link *l,
		       struct object *t)
{
	reach(o, l->sha1, l->type, t);
}

/* Is anything missing that a walk would have to find and say? */
static int anything_missing(void)
{
	size_t i;

	for (i = 0; i < nr_missing; i++)
		if (!missing[i].promised)
			return 1;
	for (i = 0; i < nr_objects; i++)
		if (objects[i].fo.type <= 0)
			return 1;
	return 0;
}

/* Refs found that name an object (or one a promisor pack names). */
static unsigned int default_refs;

/* A root: present, or an error as git says it (stderr), or missing. */
static void mark_root(const struct root *r)
{
	struct object *o = find_object(r->sha1);
	struct missing *m;

	if (r->kind == ROOT_UNBORN) {
		fprintf(stderr, "notice: HEAD points to an unborn branch "
			"(%s)\n", r->name);
		return;
	}
	if (r->kind == ROOT_END_OF_REFS) {
		if (!default_refs)
			fprintf(stderr, "notice: No default references\n");
		return;
	}
	if (r->kind == ROOT_REF && ((o && o->fo.type > 0) ||
	    ((m = find_missing(r->sha1)) && m->promised)))
		default_refs++;
	if (r->kind == ROOT_INDEX) {
		reach(NULL, r->sha1, OBJ_COMMIT, o);
		return;
	}
	if (o && o->fo.type > 0) {
		reach(NULL, r->sha1, OBJ_COMMIT, o);
		return;
	}
	m = find_missing(r->sha1);
	if (m && m->promised)
		return;
	if (r->kind == ROOT_GIVEN) {
		fprintf(stderr, "error: %s: object missing\n",
			sha1_to_hex(r->sha1));
		walk_errors |= ERROR_OBJECT;
	} else if (r->kind == ROOT_REFLOG) {
		fprintf(stderr, "error: %s: invalid reflog entry %s\n",
			r->name, sha1_to_hex(r->sha1));
		walk_errors |= ERROR_MISSING;
	} else {
		fprintf(stderr, "error: %s: invalid sha1 pointer %s\n",
			r->name, sha1_to_hex(r->sha1));
		walk_errors |= ERROR_MISSING;
	}
}

/* Depth first, the last pushed first, as git's pending stack. */
static void walk_in_order(void)
{
	while (nr_stack) {
		struct object *o = stack[--nr_stack];

		reread_copy(o, reach_link);
	}
}

int mark_roots(void)
{
	int walk;
	size_t i;

	sort_missing();
	walk = anything_missing();
	if (!walk)
		nr_stack = 0;
	for (i = 0; i < nr_roots; i++) {
		mark_root(&roots[i]);
		if (!walk)
			nr_stack = 0;	/* reachability is not needed */
		free(roots[i].name);
	}
	free(roots);
	roots = NULL;
	nr_roots = alloc_roots = 0;
	if (walk) {
		walk_in_order();
		walked_in_order = 1;
	}
	free(stack);
	stack = NULL;
	return walk_errors;
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

