/*
 * revision.c: walking history in git rev-list's order.
 *
 * The order is part of the output scripts read, so the walk is git's:
 * a list kept newest first by committer date (a commit goes after
 * those of its date already queued), parents queued as each commit is
 * handed out.  With an excluded commit (^c) or --topo-order the whole
 * set is found first, as git's limit_list does: excluded commits paint
 * their ancestors, and the walk stops a few commits (git's "slop")
 * after nothing interesting is left to reach.  --topo-order then sorts
 * that set depth-first from the tips, as git does without a
 * commit-graph file.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cache.h"
#include "history.h"
#include "pack.h"

/* Commits git walks on after the last interesting one, in case of skew. */
#define SLOP 5

void init_revisions(struct rev_info *revs)
{
	memset(revs, 0, sizeof(*revs));
	revs->max_count = -1;
	revs->max_age = -1;
	revs->min_age = -1;
}

/* The name git gives a tag in --objects output: its "tag" line. */
static char *tag_name(const unsigned char *sha1)
{
	size_t size;
	char *buf = read_object_of_type(sha1, OBJ_TAG, &size), *p, *nl;
	char *name = NULL;

	if (!buf)
		return xstrdup("");
	for (p = buf; p < buf + size; p = nl + 1) {
		nl = memchr(p, '\n', buf + size - p);
		if (!nl || nl == p)
			break;
		if (nl - p > 4 && !memcmp(p, "tag ", 4)) {
			*nl = '\0';
			name = xstrdup(p + 4);
			break;
		}
	}
	free(buf);
	return name ? name : xstrdup("");
}

static void mark_tree_uninteresting(const unsigned char *sha1);

/* Queue obj for walk_objects; name (malloc'd) is the pending's now. */
static void add_pending(struct rev_info *revs, struct object *obj,
			char *name)
{
	ALLOC_GROW(revs->pending, revs->nr_pending + 1, revs->alloc_pending);
	revs->pending[revs->nr_pending].obj = obj;
	revs->pending[revs->nr_pending++].name = name;
}

/* A tree or blob tip: listed from "" by walk_objects, or excluded. */
static int add_non_commit(struct rev_info *revs, const unsigned char *sha1,
			  enum object_type type, int excluded)
{
	struct object *obj;

	if (!revs->tree_objects)
		return 0;
	if (type == OBJ_TREE && excluded) {
		mark_tree_uninteresting(sha1);
		revs->trees_excluded = 1;
		return 0;
	}
	if (excluded)
		return 0;	/* as git: an excluded blob hides nothing */
	obj = lookup_object(sha1, type);
	if (!obj)
		return -1;
	add_pending(revs, obj, xstrdup(""));
	return 0;
}

/*
 * The object a tag names, in sha1 (which held the tag's id): 0, or -1
 * after error().
 */
static int peel_once(unsigned char *sha1)
{
	size_t size;
	char *buf = read_object_of_type(sha1, OBJ_TAG, &size);
	enum object_type type;
	int ret;

	if (!buf)
		return -1;
	ret = parse_tag_buffer(buf, size, sha1, &type);
	free(buf);
	if (ret < 0)
		return error("bad tag %s", sha1_to_hex(sha1));
	return 0;
}

int add_revision(struct rev_info *revs, const unsigned char *sha1,
		 int excluded)
{
	unsigned char cur[HASH_MAX_RAWSZ];
	enum object_type type;
	struct commit *c;
	size_t size;

	hashcpy(cur, sha1);
	for (;;) {	/* git queues every tag of a chain, outermost first */
		if (sha1_object_info(cur, &type, &size) < 0)
			return error("bad object %s", sha1_to_hex(cur));
		if (type != OBJ_TAG)
			break;
		if (revs->tree_objects && !excluded) {
			struct object *tag = lookup_object(cur, OBJ_TAG);

			if (!tag)
				return -1;
			add_pending(revs, tag, tag_name(cur));
		}
		if (peel_once(cur) < 0)
			return -1;
	}
	if (type != OBJ_COMMIT)
		return add_non_commit(revs, cur, type, excluded);
	c = lookup_commit(cur);
	if (!c || parse_commit(c) < 0)
		return -1;
	if (excluded)
		c->object.flags |= UNINTERESTING;
	ALLOC_GROW(revs->starts, revs->nr_starts + 1, revs->alloc_starts);
	revs->starts[revs->nr_starts++] = c;
	return 0;
}

/* ---- excluding ---- */

/* Mark every known ancestor of c uninteresting (parsed ones recursively). */
static void mark_parents_uninteresting(struct commit *c)
{
	struct commit **stack = NULL;
	size_t nr = 0, alloc = 0, i;

	for (i = 0; i < c->nr_parents; i++) {
		ALLOC_GROW(stack, nr + 1, alloc);
		stack[nr++] = c->parents[i];
	}
	while (nr) {
		struct commit *p = stack[--nr];

		if (p->object.flags & UNINTERESTING)
			continue;
		p->object.flags |= UNINTERESTING;
		for (i = 0; i < p->nr_parents; i++) {
			ALLOC_GROW(stack, nr + 1, alloc);
			stack[nr++] = p->parents[i];
		}
	}
	free(stack);
}

/* Queue the parents of c not queued yet, by date. */
static int process_parents(struct commit *c, struct commit_list **list)
{
	size_t i;

	if (c->object.flags & ADDED)
		return 0;
	c->object.flags |= ADDED;
	for (i = 0; i < c->nr_parents; i++) {
		struct commit *p = c->parents[i];

		if (c->object.flags & UNINTERESTING)
			p->object.flags |= UNINTERESTING;
		if (parse_commit(p) < 0) {
			if (c->object.flags & UNINTERESTING)
				continue;	/* git forgives these */
			return -1;
		}
		if (c->object.flags & UNINTERESTING)
			mark_parents_uninteresting(p);
		if (p->object.flags & SEEN)
			continue;
		p->object.flags |= SEEN;
		commit_list_insert_by_date(p, list);
	}
	return 0;
}

static int everybody_uninteresting(const struct commit_list *list)
{
	for (; list; list = list->next)
		if (!(list->item->object.flags & UNINTERESTING))
			return 0;
	return 1;
}

/* Worth walking on?  git's still_interesting. */
static int still_interesting(const struct commit_list *src, uint64_t date,
			     int slop)
{
	if (!src)
		return 0;
	if (date <= src->item->date)
		return SLOP;
	if (!everybody_uninteresting(src))
		return SLOP;
	return slop - 1;
}

/* Find the whole set of commits to show, in the order met. */
static int limit_list(struct rev_info *revs)
{
	struct commit_list *list = revs->commits, *out = NULL;
	struct commit_list **tail = &out;
	uint64_t date = UINT64_MAX;
	int slop = SLOP;

	while (list) {
		struct commit *c = pop_commit(&list);

		if (revs->max_age != -1 && (int64_t)c->date < revs->max_age)
			c->object.flags |= UNINTERESTING;
		if (process_parents(c, &list) < 0) {
			free_commit_list(list);
			free_commit_list(out);
			revs->commits = NULL;
			return -1;
		}
		if (c->object.flags & UNINTERESTING) {
			mark_parents_uninteresting(c);
			slop = still_interesting(list, date, slop);
			if (slop)
				continue;
			break;
		}
		if (revs->min_age != -1 && (int64_t)c->date > revs->min_age)
			continue;
		date = c->date;
		tail = &commit_list_append(c, tail)->next;
	}
	free_commit_list(list);
	revs->commits = out;
	return 0;
}

/* ---- --topo-order ---- */

/*
 * git's sort in graph order: a commit's indegree is 1 plus its
 * children in the set; tips start a stack (the first tip on top), a
 * parent is pushed when its last child has been emitted.
 */
static void sort_in_topological_order(struct commit_list **list)
{
	struct commit **stack = NULL;
	struct commit_list *l, *out = NULL, **tail = &out;
	size_t nr = 0, alloc = 0, i, j;

	for (l = *list; l; l = l->next)
		l->item->indegree = 1;
	for (l = *list; l; l = l->next)
		for (i = 0; i < l->item->nr_parents; i++)
			if (l->item->parents[i]->indegree)
				l->item->parents[i]->indegree++;
	for (l = *list; l; l = l->next)
		if (l->item->indegree == 1) {
			ALLOC_GROW(stack, nr + 1, alloc);
			stack[nr++] = l->item;
		}
	for (i = 0, j = nr; i < j / 2; i++) {
		struct commit *t = stack[i];

		stack[i] = stack[j - 1 - i];
		stack[j - 1 - i] = t;
	}
	free_commit_list(*list);
	while (nr) {
		struct commit *c = stack[--nr];

		for (i = 0; i < c->nr_parents; i++) {
			struct commit *p = c->parents[i];

			if (p->indegree && --p->indegree == 1) {
				ALLOC_GROW(stack, nr + 1, alloc);
				stack[nr++] = p;
			}
		}
		c->indegree = 0;
		tail = &commit_list_append(c, tail)->next;
	}
	free(stack);
	*list = out;
}

/* ---- the walk ---- */

/* Stable merge sort of the starting points, newest first. */
static struct commit_list *sort_by_date(struct commit_list *list)
{
	struct commit_list *a = list, *b, *mid = list, *fast = list->next;
	struct commit_list *out = NULL, **tail = &out;

	if (!list->next)
		return list;
	while (fast && fast->next) {	/* mid: the end of the first half */
		mid = mid->next;
		fast = fast->next->next;
	}
	b = mid->next;
	mid->next = NULL;
	a = sort_by_date(a);
	b = sort_by_date(b);
	while (a && b) {
		/* on equal dates the first half's commit goes first */
		struct commit_list **from = b->item->date > a->item->date ?
					    &b : &a;
		struct commit_list *n = *from;

		*from = n->next;
		n->next = NULL;
		*tail = n;
		tail = &n->next;
	}
	*tail = a ? a : b;
	return out;
}

/* Trees the excluded commits next to the walk have: not listed. */
static void mark_edges_uninteresting(struct rev_info *revs)
{
	struct commit_list *l;
	size_t i;

	for (l = revs->commits; l; l = l->next) {
		struct commit *c = l->item;

		if (c->object.flags & UNINTERESTING) {
			mark_tree_uninteresting(c->tree);
			revs->trees_excluded = 1;
			continue;
		}
		for (i = 0; i < c->nr_parents; i++)
			if (c->parents[i]->object.flags & UNINTERESTING &&
			    c->parents[i]->parsed) {
				mark_tree_uninteresting(c->parents[i]->tree);
				revs->trees_excluded = 1;
			}
	}
}

static int is_promisor_pack(const struct packed_git *p);
static struct tree_ahead *start_ahead(struct rev_info *revs);

/*
 * --exclude-promisor-objects: what a promisor pack holds is neither
 * walked nor listed, as if seen and excluded (after the tips are
 * queued, as git marks them).
 */
static int exclude_promisor_packed(const unsigned char *sha1,
				   struct packed_git *p, uint32_t n,
				   void *data)
{
	enum object_type type;
	struct object *obj;
	size_t size;

	(void)n;
	(void)data;
	if (!is_promisor_pack(p) || sha1_object_info(sha1, &type, &size) < 0)
		return 0;
	obj = lookup_object(sha1, type);
	if (obj)
		obj->flags |= UNINTERESTING | SEEN;
	return 0;
}

int prepare_revision_walk(struct rev_info *revs)
{
	struct commit_list **tail = &revs->commits;
	size_t i;

	for (i = 0; i < revs->nr_starts; i++) {
		struct commit *c = revs->starts[i];

		if (c->object.flags & UNINTERESTING) {
			mark_parents_uninteresting(c);
			revs->limited = 1;
		}
		if (c->object.flags & SEEN)
			continue;
		c->object.flags |= SEEN;
		tail = &commit_list_append(c, tail)->next;
	}
	if (revs->exclude_promisor_objects) {
		for_each_packed_object(exclude_promisor_packed, NULL);
		revs->trees_excluded = 1;
	}
	if (revs->commits)
		revs->commits = sort_by_date(revs->commits);
	if (revs->topo_order)
		revs->limited = 1;	/* git does so without a commit-graph */
	if (revs->limited) {
		if (limit_list(revs) < 0)
			return -1;
		if (revs->topo_order)
			sort_in_topological_order(&revs->commits);
	}
	if (revs->tree_objects) {
		mark_edges_uninteresting(revs);
		revs->ahead = start_ahead(revs);
	}
	return 0;
}

static struct commit *next_commit(struct rev_info *revs)
{
	struct commit *c;

	while ((c = pop_commit(&revs->commits)) != NULL) {
		if (!revs->limited) {
			if (revs->max_age != -1 &&
			    (int64_t)c->date < revs->max_age)
				continue;
			if (process_parents(c, &revs->commits) < 0) {
				revs->failed = 1;
				return NULL;
			}
		}
		if (c->object.flags & (SHOWN | UNINTERESTING))
			continue;
		if (revs->min_age != -1 && (int64_t)c->date > revs->min_age)
			continue;
		return c;
	}
	return NULL;
}

struct commit *get_revision(struct rev_info *revs)
{
	struct commit *c = NULL;

	if (revs->max_count) {
		c = next_commit(revs);
		if (revs->max_count > 0)
			revs->max_count--;
	}
	if (!c)
		return NULL;
	c->object.flags |= SHOWN;
	if (revs->tree_objects) {
		struct object *tree = lookup_object(c->tree, OBJ_TREE);

		if (!tree) {
			revs->failed = 1;
			return NULL;
		}
		add_pending(revs, tree, NULL);
		if (revs->ahead)
			add_tree_ahead(revs->ahead, tree->sha1);
	}
	return c;
}

void release_revisions(struct rev_info *revs)
{
	size_t i;

	stop_tree_ahead(revs->ahead);
	free_commit_list(revs->commits);
	free(revs->starts);
	for (i = 0; i < revs->nr_pending; i++)
		free(revs->pending[i].name);
	free(revs->pending);
	memset(revs, 0, sizeof(*revs));
}

/* ---- --objects ---- */

/*
 * Every tree and blob below the tree sha1 is known to the excluded
 * side.  A tree already marked was marked with all below it.
 */
static void mark_tree_uninteresting(const unsigned char *sha1)
{
	struct object *tree = lookup_object(sha1, OBJ_TREE);
	struct tree_desc desc;
	struct name_entry e;
	size_t size;
	void *buf;

	if (!tree || tree->flags & UNINTERESTING)
		return;
	tree->flags |= UNINTERESTING;
	buf = read_object_of_type(sha1, OBJ_TREE, &size);
	if (!buf)
		return;		/* an excluded side may be incomplete */
	init_tree_desc(&desc, buf, size);
	while (tree_entry_next(&desc, &e) > 0) {
		struct object *obj;

		if (S_ISDIR(e.mode)) {
			mark_tree_uninteresting(e.sha1);
		} else if (!S_ISGITLINK(e.mode)) {
			obj = lookup_object(e.sha1, OBJ_BLOB);
			if (obj)
				obj->flags |= UNINTERESTING;
		}
	}
	free(buf);
}

struct object_walk {
	show_object_fn fn;
	void *data;
	int missing_trees_ok;
	char *path;
	size_t len, alloc;
	struct tree_ahead *ahead;	/* the trees, read on another core */
};

/* Set the walk's path to its first len bytes plus name. */
static void set_path(struct object_walk *w, size_t len, const char *name,
		     size_t namelen)
{
	w->len = len;
	ALLOC_GROW(w->path, len + namelen + 2, w->alloc);
	memcpy(w->path + len, name, namelen);
	w->len += namelen;
	w->path[w->len] = '\0';
}

/*
 * How many entries ahead the walk asks for the object table's slots
 * (twice this) and objects (this): the lookups of a tree's entries
 * are the walk's main cost, each a cache miss or two.
 */
#define LOOKUP_AHEAD 8

/* The entries of a checked tree, gitlinks left out (malloc'd), in *nr. */
static struct name_entry *tree_entries(const void *buf, size_t size,
				       size_t *nr)
{
	/* an entry takes 24 bytes at least: "1 a", NUL, the id */
	struct name_entry *entries = xmalloc((size / 24 + 1) *
					     sizeof(*entries));
	struct tree_desc desc;
	struct name_entry e;

	*nr = 0;
	init_tree_desc(&desc, buf, size);
	while (tree_entry_next(&desc, &e) > 0)
		if (!S_ISGITLINK(e.mode))
			entries[(*nr)++] = e;
	return entries;
}

static int walk_tree(struct object_walk *w, struct object *tree);

/* The entries of a tree (nr of them), in order, below w's path. */
static int walk_entries(struct object_walk *w, const struct name_entry *entries,
			size_t nr)
{
	size_t i, base = w->len;
	int ret = 0;

	for (i = 0; i < nr && i < 2 * LOOKUP_AHEAD; i++)
		prefetch_object_slot(entries[i].sha1);
	for (i = 0; i < nr && i < LOOKUP_AHEAD; i++)
		prefetch_object(entries[i].sha1);
	for (i = 0; !ret && i < nr; i++) {
		const struct name_entry *e = &entries[i];
		struct object *obj;

		if (i + 2 * LOOKUP_AHEAD < nr)
			prefetch_object_slot(entries[i + 2 * LOOKUP_AHEAD].sha1);
		if (i + LOOKUP_AHEAD < nr)
			prefetch_object(entries[i + LOOKUP_AHEAD].sha1);
		obj = lookup_object(e->sha1, S_ISDIR(e->mode) ? OBJ_TREE :
				    OBJ_BLOB);
		if (!obj)
			return -1;
		if (S_ISDIR(e->mode)) {
			if (obj->flags & (UNINTERESTING | SEEN))
				continue;
			set_path(w, base, e->path, e->pathlen);
			ret = walk_tree(w, obj);
		} else if (!(obj->flags & (UNINTERESTING | SEEN))) {
			obj->flags |= SEEN;
			set_path(w, base, e->path, e->pathlen);
			ret = w->fn(obj, w->path, w->data);
		}
	}
	return ret;
}

/* A tree's content: listed, checked (bad: how it is not), entries walked. */
static int walk_tree_entries(struct object_walk *w, struct object *tree,
			     const char *bad, const struct name_entry *entries,
			     size_t nr)
{
	int ret;

	tree->flags |= READ_OK;
	ret = w->fn(tree, w->path, w->data);
	if (ret)
		return ret;
	if (bad)
		return error("tree %s is corrupt: %s", sha1_to_hex(tree->sha1),
			     bad);
	if (w->len)
		set_path(w, w->len, "/", 1);
	return walk_entries(w, entries, nr);
}

/*
 * Leave out of t's entries those its delta copies whole from entries
 * of a base the walk walked whole before (from a tree read ahead, so
 * checked against its id): each is seen or excluded already, and
 * looking it up would find so.  How many are left.
 */
static size_t uncopied_entries(struct ahead_tree *t)
{
	struct object *base;
	size_t i, nr = 0;

	if (!t->has_base)
		return t->nr;
	base = lookup_object(t->base_sha1, OBJ_NONE);
	if (!base || !(base->flags & WALKED))
		return t->nr;
	for (i = 0; i < t->nr; i++)
		if (!t->copied[i])
			t->entries[nr++] = t->entries[i];
	return nr;
}

static int walk_tree(struct object_walk *w, struct object *tree)
{
	struct ahead_tree *t = NULL;
	struct name_entry *entries;
	size_t size, nr = 0;
	const char *bad;
	void *buf;
	int ret;

	if (tree->flags & (UNINTERESTING | SEEN))
		return 0;
	tree->flags |= SEEN;
	if (w->ahead)
		t = take_tree_ahead(w->ahead, tree->sha1);
	if (t && t->buf) {
		nr = t->bad ? 0 : uncopied_entries(t);
		ret = walk_tree_entries(w, tree, t->bad, t->entries, nr);
		if (!ret && !t->bad)
			tree->flags |= WALKED;
		done_tree_ahead(w->ahead, t);
		return ret;
	}
	if (t)
		done_tree_ahead(w->ahead, t);
	if (w->missing_trees_ok && !has_sha1_file(tree->sha1))
		return w->fn(tree, w->path, w->data);	/* its contents unknown */
	buf = read_object_of_type(tree->sha1, OBJ_TREE, &size);
	if (!buf)
		return error("bad tree object %s", sha1_to_hex(tree->sha1));
	bad = check_tree(buf, size);
	entries = bad ? NULL : tree_entries(buf, size, &nr);
	ret = walk_tree_entries(w, tree, bad, entries, nr);
	free(entries);
	free(buf);
	return ret;
}

/*
 * The trees walk_objects will start from, in order, for the thread
 * that reads ahead; NULL when it must not run (trees are excluded:
 * it would read them, and the walk would never take them).
 */
static struct tree_ahead *start_ahead(struct rev_info *revs)
{
	unsigned char (*roots)[HASH_MAX_RAWSZ] = NULL;
	struct tree_ahead *ra;
	size_t i, nr = 0, alloc = 0;

	if (revs->trees_excluded)
		return NULL;
	for (i = 0; i < revs->nr_pending; i++) {
		struct object *obj = revs->pending[i].obj;

		if (obj->type != OBJ_TREE || obj->flags & (UNINTERESTING | SEEN))
			continue;
		ALLOC_GROW(roots, nr + 1, alloc);
		hashcpy(roots[nr++], obj->sha1);
	}
	ra = start_tree_ahead((const unsigned char (*)[HASH_MAX_RAWSZ])roots, nr);
	free(roots);
	return ra;
}

int walk_objects(struct rev_info *revs, show_object_fn fn, void *data)
{
	struct object_walk w = { fn, data, revs->missing_trees_ok, NULL, 0, 0,
				  revs->ahead };
	size_t i;
	int ret = 0;

	if (w.ahead)
		end_tree_ahead(w.ahead);
	for (i = 0; i < revs->nr_pending && !ret; i++) {
		struct object *obj = revs->pending[i].obj;

		if (obj->flags & (UNINTERESTING | SEEN))
			continue;
		if (obj->type != OBJ_TREE) {	/* a tag, or a blob tip */
			obj->flags |= SEEN;
			ret = fn(obj, revs->pending[i].name ?
				 revs->pending[i].name : "", data);
			continue;
		}
		set_path(&w, 0, "", 0);
		ret = walk_tree(&w, obj);
	}
	stop_tree_ahead(w.ahead);
	revs->ahead = NULL;
	free(w.path);
	return ret;
}

/* ---- promised objects ---- */

#define PROMISED	(1u << 20)	/* a promisor pack has or names it */

static void mark_promised(const unsigned char *sha1, enum object_type type)
{
	struct object *obj = lookup_object(sha1, type);

	if (obj)
		obj->flags |= PROMISED;
}

/* What a packed object names is promised with it. */
static void promise_named(const unsigned char *sha1, enum object_type type)
{
	unsigned char named[HASH_MAX_RAWSZ];
	enum object_type named_type;
	struct tree_desc desc;
	struct name_entry e;
	size_t size, i;
	char *buf = read_object_of_type(sha1, type, &size);

	if (!buf)
		return;
	if (type == OBJ_TREE && !check_tree(buf, size)) {
		init_tree_desc(&desc, buf, size);
		while (tree_entry_next(&desc, &e) > 0)
			if (!S_ISGITLINK(e.mode))
				mark_promised(e.sha1, S_ISDIR(e.mode) ? OBJ_TREE :
					OBJ_BLOB);
	} else if (type == OBJ_COMMIT) {
		struct commit *c = lookup_commit(sha1);

		if (c && !parse_commit(c)) {
			mark_promised(c->tree, OBJ_TREE);
			for (i = 0; i < c->nr_parents; i++)
				c->parents[i]->object.flags |= PROMISED;
		}
	} else if (type == OBJ_TAG &&
		   !parse_tag_buffer(buf, size, named, &named_type)) {
		mark_promised(named, named_type);
	}
	free(buf);
}

/* is_promisor_pack_file, remembered for the pack asked last. */
static int is_promisor_pack(const struct packed_git *p)
{
	static const struct packed_git *last;
	static int last_answer;

	if (p != last) {
		last = p;
		last_answer = is_promisor_pack_file(p);
	}
	return last_answer;
}

static int promise_packed(const unsigned char *sha1, struct packed_git *p,
			  uint32_t n, void *data)
{
	enum object_type type;
	size_t size;

	(void)n;
	(void)data;
	if (!is_promisor_pack(p) || sha1_object_info(sha1, &type, &size) < 0)
		return 0;
	mark_promised(sha1, type);
	promise_named(sha1, type);
	return 0;
}

int is_promisor_object(const unsigned char *sha1)
{
	static int prepared;
	struct object *obj;

	if (!prepared) {
		prepared = 1;
		if (promisor_remote_configured())
			for_each_packed_object(promise_packed, NULL);
	}
	obj = lookup_object(sha1, OBJ_NONE);
	return obj && (obj->flags & PROMISED);
}
