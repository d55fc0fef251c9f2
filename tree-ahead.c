/*
 * tree-ahead.c: trees read ahead of a walk, on another core.
 *
 * rev-list --objects reads every tree it lists once, in an order known
 * before it starts: depth first from each tip's tree, each subtree
 * when it is first met.  A second thread walks the same trees the same
 * way (keeping its own set of trees met, so it never touches the
 * walk's objects) and reads and parses each one, so that inflating,
 * resolving deltas and hashing are done on the other core while the
 * walk looks up and prints entries.  The walk takes the trees in order.
 * The roots come while the walk of the commits finds them, so that the
 * thread reads while the commits are read.  The thread reads silently:
 * a tree it cannot read is handed over empty and the walk reads it
 * again itself, to say why.  Parsing before the check is safe
 * (tree_entry_next trusts nothing); the subtrees of a tree the walk
 * then refuses are read for nothing.  Checking a tree (check_tree) is
 * done by whichever side has time: the thread, when it is far enough
 * ahead, checks the trees it reads before it queues them, and the walk
 * checks the ones it takes unchecked.  The check includes the hash of
 * the tree against its id (read_object's), as the thread reads them
 * unverified: one that fails it is handed over as not read.  A walk
 * that would skip trees the thread reads (excluded ones) must not use
 * it: the thread would wait for it forever, and the walk would read
 * everything itself.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "history.h"
#include "pack.h"

/* How many trees the walk is done with are kept for the thread to reuse. */
#define SPARE_TREES 64

/* How far ahead the thread may read, in bytes of trees not yet taken. */
#define AHEAD_BYTES ((size_t)32 << 20)


/* The trees the thread met: open addressing on the id's first bytes. */
struct tree_set {
	unsigned char (*ids)[20];
	unsigned char *used;
	size_t size, nr;
};

struct tree_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ahead_tree *head, **tail;
	size_t bytes;			/* of the trees queued */
	int stop;			/* the walk is over: give up */
	int done;			/* the thread has read all it will */
	int walk_waits, thread_waits;	/* on cond: wake it when it may go */
	unsigned char (*roots)[20];	/* given so far */
	size_t nr_roots, alloc_roots;
	int roots_end;			/* no more roots will come */
	struct ahead_tree *spare;	/* done with: entries kept for reuse */
	size_t nr_spare;

	/* the thread's own */
	size_t next_root;
	struct tree_set seen;
};

static size_t set_slot(const struct tree_set *s, const unsigned char *sha1)
{
	size_t h;

	memcpy(&h, sha1, sizeof(h));
	return h & (s->size - 1);
}

static int set_insert(struct tree_set *s, const unsigned char *sha1);

static void set_grow(struct tree_set *s)
{
	struct tree_set old = *s;
	size_t i;

	s->size = s->size ? 2 * s->size : 1024;
	s->nr = 0;
	s->ids = xmalloc(s->size * sizeof(*s->ids));
	s->used = xcalloc(s->size, 1);
	for (i = 0; i < old.size; i++)
		if (old.used[i])
			set_insert(s, old.ids[i]);
	free(old.ids);
	free(old.used);
}

/* Add sha1: 1 when it is new, 0 when it was there. */
static int set_insert(struct tree_set *s, const unsigned char *sha1)
{
	size_t i;

	if (2 * (s->nr + 1) > s->size)
		set_grow(s);
	for (i = set_slot(s, sha1); s->used[i]; i = (i + 1) & (s->size - 1))
		if (!memcmp(s->ids[i], sha1, 20))
			return 0;
	s->used[i] = 1;
	memcpy(s->ids[i], sha1, 20);
	s->nr++;
	return 1;
}

static void release_tree_buf(struct ahead_tree *t)
{
	free(t->owned);
	release_cached_base(t->ref);
	t->buf = t->owned = NULL;
	t->ref = NULL;
}

void free_ahead_tree(struct ahead_tree *t)
{
	if (!t)
		return;
	release_tree_buf(t);
	free(t->entries);
	free(t);
}

/*
 * Read and parse one tree, silently; buf NULL when it cannot be.  It is
 * not checked yet, not even against its id: the thread has more to do
 * than the walk, so that is left to whichever side has time.
 */
/* A tree to read into: a spare one (its entries' room kept), or new. */
static struct ahead_tree *new_ahead_tree(struct tree_ahead *ra)
{
	struct ahead_tree *t;
	struct name_entry *entries;
	size_t alloc;

	pthread_mutex_lock(&ra->lock);
	t = ra->spare;
	if (t) {
		ra->spare = t->next;
		ra->nr_spare--;
	}
	pthread_mutex_unlock(&ra->lock);
	if (!t)
		return xcalloc(1, sizeof(*t));
	entries = t->entries;
	alloc = t->alloc_entries;
	memset(t, 0, sizeof(*t));
	t->entries = entries;
	t->alloc_entries = alloc;
	return t;
}

void done_tree_ahead(struct tree_ahead *ra, struct ahead_tree *t)
{
	if (!t)
		return;
	release_tree_buf(t);
	pthread_mutex_lock(&ra->lock);
	if (ra->nr_spare < SPARE_TREES) {
		t->next = ra->spare;
		ra->spare = t;
		ra->nr_spare++;
		t = NULL;
	}
	pthread_mutex_unlock(&ra->lock);
	free_ahead_tree(t);
}

static struct ahead_tree *read_ahead(struct tree_ahead *ra,
				     const unsigned char *sha1)
{
	struct ahead_tree *t = new_ahead_tree(ra);
	struct object_stream st;
	struct packed_ref r;
	struct tree_desc desc;
	struct name_entry e;
	struct fault f;

	memcpy(t->sha1, sha1, 20);
	if (!read_packed_ref(sha1, &r, &f)) {
		if (r.type == OBJ_TREE) {
			t->buf = r.buf;
			t->size = r.size;
			t->owned = r.owned;
			t->ref = r.ref;
		} else {
			release_packed_ref(&r);
		}
	} else if (f.code == FAULT_MISSING &&
		   !open_object_unverified(&st, sha1, &f)) {
		if (st.type == OBJ_TREE) {
			t->owned = read_object_stream_whole(&st, &f);
			t->buf = t->owned;
			t->size = st.size;
		}
		close_object_stream(&st);
	}
	if (!t->buf) {
		t->size = 0;
		return t;
	}
	/* an entry takes 24 bytes at least: "1 a", NUL, the id */
	if (t->size / 24 + 1 > t->alloc_entries) {
		free(t->entries);
		t->alloc_entries = t->size / 24 + 1;
		t->entries = xmalloc(t->alloc_entries * sizeof(*t->entries));
	}
	init_tree_desc(&desc, t->buf, t->size);
	while (tree_entry_next(&desc, &e) > 0)
		if (!S_ISGITLINK(e.mode))
			t->entries[t->nr++] = e;
	return t;
}

/*
 * Hash t and check it.  A tree whose content is not its id's, or whose
 * hash looks like a collision attack, is not read here: the walk reads
 * it again and reports what is wrong with it.
 */
static void check_ahead_tree(struct ahead_tree *t)
{
	unsigned char sha1[20];

	if (t->buf) {
		if (hash_sha1_file(t->buf, t->size, OBJ_TREE, sha1) < 0 ||
		    memcmp(sha1, t->sha1, 20)) {
			release_tree_buf(t);
			t->nr = 0;
		}
	}
	t->bad = t->buf ? check_tree(t->buf, t->size) : NULL;
	t->checked = 1;
}

/* Is the thread so far ahead that it has time to check what it reads? */
static int ahead_enough(struct tree_ahead *ra)
{
	size_t bytes;

	pthread_mutex_lock(&ra->lock);
	bytes = ra->bytes;
	pthread_mutex_unlock(&ra->lock);
	return bytes > AHEAD_BYTES / 2;
}

/* Queue t for the walk, waiting for room; -1 when the walk is over. */
static int queue_tree(struct tree_ahead *ra, struct ahead_tree *t)
{
	pthread_mutex_lock(&ra->lock);
	while (!ra->stop && ra->head && ra->bytes + t->size > AHEAD_BYTES) {
		ra->thread_waits = 1;
		pthread_cond_wait(&ra->cond, &ra->lock);
		ra->thread_waits = 0;
	}
	if (ra->stop) {
		pthread_mutex_unlock(&ra->lock);
		free_ahead_tree(t);
		return -1;
	}
	t->next = NULL;
	*ra->tail = t;
	ra->tail = &t->next;
	ra->bytes += t->size;
	if (ra->walk_waits)
		pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	return 0;
}

/*
 * The tree sha1 and, depth first, its subtrees not met before, in the
 * walk's order.  The ids of the subtrees are copied before the tree is
 * queued: once queued it is the walk's, and may be freed.
 */
static int walk_ahead(struct tree_ahead *ra, const unsigned char *sha1)
{
	struct ahead_tree *t;
	unsigned char (*subs)[20] = NULL;
	size_t i, nr = 0, alloc = 0;
	int ret = 0;

	if (!set_insert(&ra->seen, sha1))
		return 0;
	t = read_ahead(ra, sha1);
	for (i = 0; i < t->nr; i++) {
		if (!S_ISDIR(t->entries[i].mode))
			continue;
		ALLOC_GROW(subs, nr + 1, alloc);
		memcpy(subs[nr++], t->entries[i].sha1, 20);
	}
	if (ahead_enough(ra))
		check_ahead_tree(t);
	if (queue_tree(ra, t) < 0)
		ret = -1;
	for (i = 0; !ret && i < nr; i++)
		ret = walk_ahead(ra, subs[i]);
	free(subs);
	return ret;
}

/* The next root into sha1, waiting for it: 0, or -1 when there is none. */
static int next_root(struct tree_ahead *ra, unsigned char *sha1)
{
	int ret = -1;

	pthread_mutex_lock(&ra->lock);
	while (!ra->stop && ra->next_root == ra->nr_roots && !ra->roots_end) {
		ra->thread_waits = 1;
		pthread_cond_wait(&ra->cond, &ra->lock);
		ra->thread_waits = 0;
	}
	if (!ra->stop && ra->next_root < ra->nr_roots) {
		memcpy(sha1, ra->roots[ra->next_root++], 20);
		ret = 0;
	}
	pthread_mutex_unlock(&ra->lock);
	return ret;
}

static void *run_ahead(void *data)
{
	struct tree_ahead *ra = data;
	unsigned char sha1[20];

	while (!next_root(ra, sha1))
		if (walk_ahead(ra, sha1) < 0)
			break;
	pthread_mutex_lock(&ra->lock);
	ra->done = 1;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

struct tree_ahead *start_tree_ahead(const unsigned char (*roots)[20],
				    size_t nr)
{
	struct tree_ahead *ra = xcalloc(1, sizeof(*ra));

	ra->tail = &ra->head;
	ALLOC_GROW(ra->roots, nr + 1, ra->alloc_roots);
	if (nr)
		memcpy(ra->roots, roots, nr * sizeof(*ra->roots));
	ra->nr_roots = nr;
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	if (pthread_create(&ra->thread, NULL, run_ahead, ra)) {
		pthread_mutex_destroy(&ra->lock);
		pthread_cond_destroy(&ra->cond);
		free(ra->roots);
		free(ra);
		return NULL;
	}
	return ra;
}

void add_tree_ahead(struct tree_ahead *ra, const unsigned char *sha1)
{
	pthread_mutex_lock(&ra->lock);
	if (!ra->roots_end) {
		ALLOC_GROW(ra->roots, ra->nr_roots + 1, ra->alloc_roots);
		memcpy(ra->roots[ra->nr_roots++], sha1, 20);
		if (ra->thread_waits && ra->next_root + 1 == ra->nr_roots)
			pthread_cond_broadcast(&ra->cond);
	}
	pthread_mutex_unlock(&ra->lock);
}

void end_tree_ahead(struct tree_ahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	ra->roots_end = 1;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
}

struct ahead_tree *take_tree_ahead(struct tree_ahead *ra,
				   const unsigned char *sha1)
{
	struct ahead_tree *t = NULL;

	pthread_mutex_lock(&ra->lock);
	while (!ra->head && !ra->done) {
		ra->walk_waits = 1;
		pthread_cond_wait(&ra->cond, &ra->lock);
		ra->walk_waits = 0;
	}
	if (ra->head && !memcmp(ra->head->sha1, sha1, 20)) {
		t = ra->head;
		ra->head = t->next;
		if (!ra->head)
			ra->tail = &ra->head;
		ra->bytes -= t->size;
		/* wake the thread only when there is room for a few trees */
		if (ra->thread_waits && ra->bytes < AHEAD_BYTES / 2)
			pthread_cond_broadcast(&ra->cond);
	}
	pthread_mutex_unlock(&ra->lock);
	if (t && !t->checked)
		check_ahead_tree(t);
	return t;
}

void stop_tree_ahead(struct tree_ahead *ra)
{
	struct ahead_tree *t;

	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	while ((t = ra->head) != NULL) {
		ra->head = t->next;
		free_ahead_tree(t);
	}
	while ((t = ra->spare) != NULL) {
		ra->spare = t->next;
		free_ahead_tree(t);
	}
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->cond);
	free(ra->seen.ids);
	free(ra->seen.used);
	free(ra->roots);
	free(ra);
}
