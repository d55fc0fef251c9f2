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
 *
 * Most trees of a pack are deltas of other trees, and copy most of
 * their entries from them.  The thread keeps, for the trees it read
 * last, where their entries start; a tree stored as a delta of one of
 * those is handed over with its base's id and, for each entry, whether
 * the delta copies it whole from an entry of the base.  The walk took
 * that base before this tree; when it walked it whole, every such
 * entry is seen already, and the walk need not look it up.
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


/* Bytes of the maps of entries kept for trees a delta may copy from. */
#define STARTS_BYTES ((size_t)32 << 20)
#define STARTS_BUCKETS 65536

/*
 * A tree the thread read from a pack, by its entry there: where its
 * entries start.  A tree stored as a delta copies runs of its base;
 * an entry of it copied whole from where an entry of the base starts
 * is that entry of the base, byte for byte.
 */
struct tree_starts {
	struct tree_starts *next;	/* in its bucket */
	struct tree_starts *newer;	/* in the order read */
	struct packed_git *pack;
	uint64_t offset;
	unsigned char sha1[HASH_MAX_RAWSZ];
	size_t size;
	unsigned char bits[];		/* bit o set: an entry starts at o */
};

/*
 * The last trees read, in a ring of STARTS_BYTES: each is put at head
 * (back at the start when it does not fit before the end), over the
 * oldest ones, which are the ones there.
 */
struct starts_map {
	struct tree_starts **buckets;
	unsigned char *ring;
	size_t head;
	struct tree_starts *oldest, *newest;
};

/* The trees the thread met: open addressing on the id's first bytes. */
struct tree_set {
	unsigned char (*ids)[HASH_MAX_RAWSZ];
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
	unsigned char (*roots)[HASH_MAX_RAWSZ];	/* given so far */
	size_t nr_roots, alloc_roots;
	int roots_end;			/* no more roots will come */
	struct ahead_tree *spare;	/* done with: entries kept for reuse */
	size_t nr_spare;

	/* the thread's own */
	size_t next_root;
	struct tree_set seen;
	struct starts_map starts;
	struct delta_copies dc;		/* of the tree read last */
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
		if (hasheq(s->ids[i], sha1))
			return 0;
	s->used[i] = 1;
	hashcpy(s->ids[i], sha1);
	s->nr++;
	return 1;
}

static struct tree_starts **starts_bucket(struct starts_map *m,
					  struct packed_git *p,
					  uint64_t offset)
{
	uintptr_t h = (uintptr_t)p / sizeof(void *) + offset * 2654435761u;

	return &m->buckets[(h ^ (h >> 19)) % STARTS_BUCKETS];
}

static struct tree_starts *find_starts(struct starts_map *m,
				       struct packed_git *p, uint64_t offset)
{
	struct tree_starts *s;

	if (!m->buckets)
		return NULL;
	for (s = *starts_bucket(m, p, offset); s; s = s->next)
		if (s->pack == p && s->offset == offset)
			return s;
	return NULL;
}

static void drop_oldest_starts(struct starts_map *m)
{
	struct tree_starts *s = m->oldest, **link;

	link = starts_bucket(m, s->pack, s->offset);
	while (*link != s)
		link = &(*link)->next;
	*link = s->next;
	m->oldest = s->newer;
	if (!m->oldest)
		m->newest = NULL;
}

/* Drop the oldest while they lie in the ring from head to head + room. */
static void make_room(struct starts_map *m, size_t room)
{
	while (m->oldest &&
	       (unsigned char *)m->oldest >= m->ring + m->head &&
	       (unsigned char *)m->oldest < m->ring + m->head + room)
		drop_oldest_starts(m);
}

/* A map of a tree of size bytes, all clear, kept as the newest. */
static struct tree_starts *add_starts(struct starts_map *m,
				      struct packed_git *p, uint64_t offset,
				      const unsigned char *sha1, size_t size)
{
	size_t n = size / 8 + 1;
	size_t room = (sizeof(struct tree_starts) + n + 7) & ~(size_t)7;
	struct tree_starts *s, **bucket;

	if (room > STARTS_BYTES / 4)
		return NULL;
	if (!m->ring) {
		m->buckets = xcalloc(STARTS_BUCKETS, sizeof(*m->buckets));
		m->ring = xmalloc(STARTS_BYTES);
	}
	if (m->head + room > STARTS_BYTES) {
		make_room(m, STARTS_BYTES - m->head);
		m->head = 0;
	}
	make_room(m, room);
	s = (struct tree_starts *)(m->ring + m->head);
	m->head += room;
	memset(s->bits, 0, n);
	s->pack = p;
	s->offset = offset;
	hashcpy(s->sha1, sha1);
	s->size = size;
	bucket = starts_bucket(m, p, offset);
	s->next = *bucket;
	*bucket = s;
	s->newer = NULL;
	if (m->newest)
		m->newest->newer = s;
	else
		m->oldest = s;
	m->newest = s;
	return s;
}

static void clear_starts(struct starts_map *m)
{
	free(m->ring);
	free(m->buckets);
}

static int starts_at(const struct tree_starts *s, size_t o)
{
	return o < s->size && (s->bits[o / 8] >> (o % 8) & 1);
}

/*
 * Is the entry of the tree at [start, end) copied whole from where an
 * entry of the base starts?  *k: the copy to look at first (the
 * entries come in order, and so do the copies).
 */
static int copied_entry(const struct delta_copies *dc, size_t *k,
			const struct tree_starts *base, size_t start,
			size_t end)
{
	const struct delta_copy *c;

	while (*k < dc->nr && dc->v[*k].to + dc->v[*k].len <= start)
		(*k)++;
	if (*k == dc->nr)
		return 0;
	c = &dc->v[*k];
	return c->to <= start && end <= c->to + c->len &&
	       starts_at(base, c->from + (start - c->to));
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
	free(t->copied);
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
	unsigned char *copied;
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
	copied = t->copied;
	alloc = t->alloc_entries;
	memset(t, 0, sizeof(*t));
	t->entries = entries;
	t->copied = copied;
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

/* The entries of t, gitlinks left out. */
static void parse_ahead(struct ahead_tree *t)
{
	struct tree_desc desc;
	struct name_entry e;

	init_tree_desc(&desc, t->buf, t->size);
	while (tree_entry_next(&desc, &e) > 0)
		if (!S_ISGITLINK(e.mode))
			t->entries[t->nr++] = e;
}

/*
 * The same, for a tree read from a pack (ra->dc says where and what it
 * copies): where its entries start is kept, and each entry is told
 * copied whole from an entry of its base when the base was read before
 * (so the walk, which takes trees in the order they were read, walked
 * it before this tree, if it walked it whole).
 */
static void parse_ahead_copies(struct tree_ahead *ra, struct ahead_tree *t)
{
	const unsigned char *buf = t->buf;
	struct tree_starts *base = NULL, *self;
	struct tree_desc desc;
	struct name_entry e;
	size_t k = 0, start;

	/* first: making room for this one may drop the base */
	self = add_starts(&ra->starts, ra->dc.pack, ra->dc.offset, t->sha1,
			  t->size);
	if (ra->dc.base)
		base = find_starts(&ra->starts, ra->dc.pack, ra->dc.base);
	if (base) {
		t->has_base = 1;
		hashcpy(t->base_sha1, base->sha1);
	}
	init_tree_desc(&desc, buf, t->size);
	for (;;) {
		start = desc.buf - buf;
		if (tree_entry_next(&desc, &e) <= 0)
			break;
		if (self)
			self->bits[start / 8] |= 1u << (start % 8);
		if (S_ISGITLINK(e.mode))
			continue;
		t->copied[t->nr] = base && copied_entry(&ra->dc, &k, base,
				start, e.sha1 + the_hash->rawsz - buf);
		t->entries[t->nr++] = e;
	}
}

static struct ahead_tree *read_ahead(struct tree_ahead *ra,
				     const unsigned char *sha1)
{
	struct ahead_tree *t = new_ahead_tree(ra);
	struct object_stream st;
	struct packed_ref r;
	struct fault f;

	hashcpy(t->sha1, sha1);
	if (!read_packed_copies(sha1, &r, &ra->dc, &f)) {
		if (r.type == OBJ_TREE) {
			t->buf = r.buf;
			t->size = r.size;
			t->owned = r.owned;
			t->ref = r.ref;
		} else {
			release_packed_ref(&r);
		}
	} else {
		ra->dc.pack = NULL;	/* not from a pack: nothing kept */
		if (f.code == FAULT_MISSING &&
		    !open_object_unverified(&st, sha1, &f)) {
			if (st.type == OBJ_TREE) {
				t->owned = read_object_stream_whole(&st, &f);
				t->buf = t->owned;
				t->size = st.size;
			}
			close_object_stream(&st);
		}
	}
	if (!t->buf) {
		t->size = 0;
		return t;
	}
	/*
	 * An entry takes 24 bytes at least: "1 a", NUL, the id.  The room
	 * goes up in powers of two, so that the arrays reused fit the
	 * trees that come more often.
	 */
	if (t->size / 24 + 1 > t->alloc_entries) {
		free(t->entries);
		free(t->copied);
		t->alloc_entries = 64;
		while (t->alloc_entries < t->size / 24 + 1)
			t->alloc_entries *= 2;
		t->entries = xmalloc(t->alloc_entries * sizeof(*t->entries));
		t->copied = xmalloc(t->alloc_entries);
	}
	if (ra->dc.pack)
		parse_ahead_copies(ra, t);
	else
		parse_ahead(t);
	return t;
}

/*
 * Hash t and check it.  A tree whose content is not its id's, or whose
 * hash looks like a collision attack, is not read here: the walk reads
 * it again and reports what is wrong with it.
 */
static void check_ahead_tree(struct ahead_tree *t)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (t->buf) {
		if (hash_sha1_file(t->buf, t->size, OBJ_TREE, sha1) < 0 ||
		    !hasheq(sha1, t->sha1)) {
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
	unsigned char (*subs)[HASH_MAX_RAWSZ] = NULL;
	size_t i, nr = 0, alloc = 0;
	int ret = 0;

	if (!set_insert(&ra->seen, sha1))
		return 0;
	t = read_ahead(ra, sha1);
	for (i = 0; i < t->nr; i++) {
		if (!S_ISDIR(t->entries[i].mode))
			continue;
		ALLOC_GROW(subs, nr + 1, alloc);
		hashcpy(subs[nr++], t->entries[i].sha1);
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
		hashcpy(sha1, ra->roots[ra->next_root++]);
		ret = 0;
	}
	pthread_mutex_unlock(&ra->lock);
	return ret;
}

static void *run_ahead(void *data)
{
	struct tree_ahead *ra = data;
	unsigned char sha1[HASH_MAX_RAWSZ];

	while (!next_root(ra, sha1))
		if (walk_ahead(ra, sha1) < 0)
			break;
	pthread_mutex_lock(&ra->lock);
	ra->done = 1;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

struct tree_ahead *start_tree_ahead(const unsigned char (*roots)[HASH_MAX_RAWSZ],
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
		hashcpy(ra->roots[ra->nr_roots++], sha1);
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
	if (ra->head && hasheq(ra->head->sha1, sha1)) {
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
	clear_starts(&ra->starts);
	free(ra->dc.v);
	free(ra->roots);
	free(ra);
}
