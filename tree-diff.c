/*
 * tree-diff.c: the files two trees hold differently, in git's tree
 * order, limited by a pathspec, for the history tools (log-tree).
 *
 * Entries whose mode and id match on both sides are skipped without
 * being read, so the cost grows with the change, not with the trees.
 * Every tree read is checked with check_tree(); a missing or hostile
 * one ends the walk with an error naming it.  The empty tree is known
 * without being stored, as git knows it.  A reader that holds its
 * output (log-tree) may have the trees read unverified and checked on
 * another core instead (tree_diff_check_later).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* Deeper trees are refused: a hostile store could nest them forever. */
#define MAX_TREE_DIFF_DEPTH 4096

struct tree_diff {
	const struct pathspec *ps;
	tree_change_fn fn;
	void *data;
	char *path;		/* the directory walked, "" or "dir/" */
	size_t len, alloc;
	unsigned int depth;
};

/*
 * The trees read last, kept checked: a walk down history reads each
 * commit's tree twice (against its child, then against its parent),
 * and the directories above a change again and again.  A slot in use
 * by a walk (pinned) is not reused; when all are, a tree is read
 * uncached.
 */
#define TREE_CACHE_SIZE 64

struct cached_tree {
	unsigned char sha1[HASH_MAX_RAWSZ];
	struct later_obj o;	/* o.buf NULL: an empty slot */
	unsigned int pinned;
};

static struct cached_tree tree_cache[TREE_CACHE_SIZE];
static unsigned int tree_cache_next;
/* The checks of the trees read, or NULL: checked as read. */
static struct check_later *tree_checker;

/* A tree as a walk holds it: from the cache (slot) or its own (o). */
struct held_tree {
	struct cached_tree *slot;
	struct later_obj o;
	void *buf;
	size_t size;
};

void tree_diff_check_later(struct check_later *cl)
{
	unsigned int i;

	for (i = 0; i < TREE_CACHE_SIZE; i++)
		if (!tree_cache[i].pinned)
			release_later(tree_checker, &tree_cache[i].o);
	tree_checker = cl;
}

static struct cached_tree *cache_slot(const unsigned char *sha1)
{
	unsigned int i;

	for (i = 0; i < TREE_CACHE_SIZE; i++)
		if (tree_cache[i].sha1[0] == sha1[0] && tree_cache[i].o.buf &&
		    hasheq(tree_cache[i].sha1, sha1))
			return &tree_cache[i];
	for (i = 0; i < TREE_CACHE_SIZE; i++) {
		struct cached_tree *t = &tree_cache[tree_cache_next++ %
						    TREE_CACHE_SIZE];

		if (!t->pinned) {
			release_later(tree_checker, &t->o);
			return t;
		}
	}
	return NULL;
}

/*
 * The tree sha1 into o: checked now, or read unverified and queued on
 * tree_checker.  -1 after error().
 */
static int read_checked_tree(struct later_obj *o, const unsigned char *sha1,
			     const char *path)
{
	void *buf;
	size_t size;
	const char *bad;

	if (tree_checker) {
		if (read_later(tree_checker, sha1, OBJ_TREE, path, o) < 0)
			return error("unable to read tree %s of '%s'",
				     sha1_to_hex(sha1), path);
		return 0;
	}
	memset(o, 0, sizeof(*o));
	buf = read_object_of_type(sha1, OBJ_TREE, &size);
	if (!buf)
		return error("unable to read tree %s of '%s'",
			     sha1_to_hex(sha1), path);
	bad = check_tree(buf, size);
	if (bad) {
		error("refusing tree %s of '%s': %s", sha1_to_hex(sha1), path,
		      bad);
		free(buf);
		return -1;
	}
	o->buf = buf;
	o->size = size;
	return 0;
}

/* Hold the tree sha1, checked; NULL and the empty tree are empty. */
static int hold_tree(struct held_tree *h, const unsigned char *sha1,
		     const char *path)
{
	struct cached_tree *t;

	memset(h, 0, sizeof(*h));
	if (!sha1 || (hasheq(sha1, the_hash->empty_tree) &&
		      !has_sha1_file(sha1)))
		return 0;
	t = cache_slot(sha1);
	if (t && t->o.buf) {
		t->pinned++;
		h->slot = t;
		h->buf = t->o.buf;
		h->size = t->o.size;
		return 0;
	}
	if (read_checked_tree(&h->o, sha1, path) < 0)
		return -1;
	h->buf = h->o.buf;
	h->size = h->o.size;
	if (t) {
		hashcpy(t->sha1, sha1);
		t->o = h->o;
		memset(&h->o, 0, sizeof(h->o));
		t->pinned = 1;
		h->slot = t;
	}
	return 0;
}

static void release_tree(struct held_tree *h)
{
	if (h->slot)
		h->slot->pinned--;
	else
		release_later(tree_checker, &h->o);
}

static int diff_tree_level(struct tree_diff *td, const unsigned char *old,
			   const unsigned char *new, int all);

/* One name of the walk: one or two may be NULL, never both. */
static int diff_one_entry(struct tree_diff *td, const struct name_entry *one,
			  const struct name_entry *two, int all)
{
	const struct name_entry *e = one ? one : two;
	size_t base = td->len;
	int is_dir = S_ISDIR(e->mode);
	enum interest in = ALL_INTERESTING;
	int ret = 0;

	if (one && two && one->mode == two->mode &&
	    hasheq(one->sha1, two->sha1))
		return 0;
	ALLOC_GROW(td->path, td->len + e->pathlen + 2, td->alloc);
	memcpy(td->path + td->len, e->path, e->pathlen);
	td->len += e->pathlen;
	td->path[td->len] = '\0';
	if (!all && td->ps)
		in = pathspec_interest(td->ps, td->path, td->len, is_dir);
	if (in != NOT_INTERESTING) {
		if (is_dir) {
			td->path[td->len++] = '/';
			td->path[td->len] = '\0';
			ret = diff_tree_level(td, one ? one->sha1 : NULL,
					      two ? two->sha1 : NULL,
					      in == ALL_INTERESTING);
		} else {
			ret = td->fn(td->path, td->len, one, two, td->data);
		}
	}
	td->len = base;
	td->path[base] = '\0';
	return ret;
}

struct level_walk {
	struct tree_diff *td;
	int all;
};

static int diff_step(int n, const struct name_entry **e, void *data)
{
	struct level_walk *w = data;

	(void)n;
	return diff_one_entry(w->td, e[0], e[1], w->all);
}

static int diff_tree_level(struct tree_diff *td, const unsigned char *old,
			   const unsigned char *new, int all)
{
	struct tree_desc t[2];
	struct level_walk w = { td, all };
	struct held_tree h1, h2;
	int ret = -1;

	if (++td->depth >= MAX_TREE_DIFF_DEPTH) {
		error("refusing trees nested deeper than %d levels at '%.64s...'",
		      MAX_TREE_DIFF_DEPTH, td->path);
		goto out;
	}
	if (hold_tree(&h1, old, td->path) < 0)
		goto out;
	if (hold_tree(&h2, new, td->path) < 0)
		goto out_release;
	init_tree_desc(&t[0], h1.buf, h1.size);
	init_tree_desc(&t[1], h2.buf, h2.size);
	/* checked trees parse: a -1 is fn's, after its error() */
	ret = traverse_tree_changes(t, diff_step, &w);
	release_tree(&h2);
out_release:
	release_tree(&h1);
out:
	td->depth--;
	return ret;
}

int diff_trees(const unsigned char *old, const unsigned char *new,
	       const struct pathspec *ps, tree_change_fn fn, void *data)
{
	struct tree_diff td = { ps, fn, data, NULL, 0, 0, 0 };
	int ret;

	ALLOC_GROW(td.path, 1, td.alloc);
	td.path[0] = '\0';
	ret = diff_tree_level(&td, old, new, !ps || ps->match_all);
	free(td.path);
	return ret;
}

static int note_change(const char *path, size_t len,
		       const struct name_entry *one,
		       const struct name_entry *two, void *data)
{
	(void)path;
	(void)len;
	(void)one;
	(void)two;
	(void)data;
	return 1;
}

/* The entry called name (len bytes) in a checked tree: 1, or 0 if none. */
static int find_entry(const struct held_tree *h, const char *name, size_t len,
		      struct name_entry *out)
{
	struct tree_desc d;

	init_tree_desc(&d, h->buf, h->size);
	while (tree_entry_next(&d, out) > 0)
		if (out->pathlen == len && !memcmp(out->path, name, len))
			return 1;
	return 0;
}

/*
 * Does what the literal item names (from its byte off on) differ
 * between trees t1 and t2 (NULL: none)?  Only the entries on its path
 * are looked at, not whole trees: 1, 0, or -1 after error().
 */
static int literal_differs(const unsigned char *t1, const unsigned char *t2,
			   const struct pathspec_item *item, size_t off)
{
	const char *comp = item->match + off;
	const char *slash = memchr(comp, '/', item->len - off);
	size_t clen = slash ? (size_t)(slash - comp) : item->len - off;
	struct held_tree h1, h2;
	struct name_entry e1, e2;
	int has1, has2, ret;

	if (!t1 && !t2)
		return 0;
	if (t1 && t2 && hasheq(t1, t2))
		return 0;
	if (hold_tree(&h1, t1, item->match) < 0)
		return -1;
	if (hold_tree(&h2, t2, item->match) < 0) {
		release_tree(&h1);
		return -1;
	}
	has1 = find_entry(&h1, comp, clen, &e1);
	has2 = find_entry(&h2, comp, clen, &e2);
	/* on the way, and at the end of "dir/", only a tree counts */
	if (has1 && (slash || item->dir_only) && !S_ISDIR(e1.mode))
		has1 = 0;
	if (has2 && (slash || item->dir_only) && !S_ISDIR(e2.mode))
		has2 = 0;
	if (slash)
		ret = literal_differs(has1 ? e1.sha1 : NULL,
				      has2 ? e2.sha1 : NULL, item,
				      off + clen + 1);
	else if (has1 != has2)
		ret = 1;
	else
		ret = has1 && (e1.mode != e2.mode ||
			       hashcmp(e1.sha1, e2.sha1));
	release_tree(&h2);
	release_tree(&h1);
	return ret;
}

static int all_literal(const struct pathspec *ps)
{
	size_t i;

	for (i = 0; i < ps->nr; i++)
		if (ps->items[i].literal_len < ps->items[i].len)
			return 0;
	return 1;
}

int trees_differ(const unsigned char *old, const unsigned char *new,
		 const struct pathspec *ps)
{
	size_t i;
	int r;

	if (old && new && hasheq(old, new))
		return 0;
	if (!ps || ps->match_all || !all_literal(ps))
		return diff_trees(old, new, ps, note_change, NULL);
	for (i = 0; i < ps->nr; i++) {
		r = literal_differs(old, new, &ps->items[i], 0);
		if (r)
			return r;
	}
	return 0;
}
