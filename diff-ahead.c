/*
 * diff-ahead.c: the trees of a diff read from its far end, on another
 * core.
 *
 * A recursive diff of two trees walks, depth first, the pairs of
 * subtrees that differ.  The walk tells this thread the pairs of each
 * directory it enters (a level); the thread takes them from the last
 * one back, and reads each pair's whole subtree walk itself (the same
 * merge of the two sides, the same pairs descended into), each tree
 * read with its hash checked against its id and check_tree run on it,
 * into a table.  The walk goes from the first pair on; when it comes
 * to a pair the thread took, it finds the trees there, or waits for
 * them.  So the two meet in the middle of the deepest level where
 * pairs were left, and a level whose pairs are all taken lets the
 * thread go down to the next one the walk entered.
 *
 * The thread reads silently: a tree it cannot read, or that fails a
 * check, is not put in the table, and the walk reads it again itself,
 * to say why.  The trees not yet taken are bounded in bytes: past the
 * bound the thread takes no new pair.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* Bytes of trees read ahead and not taken: past this no pair is taken. */
#define AHEAD_MAX ((size_t)32 << 20)
#define AHEAD_BUCKETS 4096
/* Deeper subtrees are left to the walk (which refuses them). */
#define AHEAD_DEPTH 4096

struct ahead_level {
	struct ahead_level *up;
	struct ahead_pair *pairs;
	uint64_t *ticket;	/* the thread's ticket of each pair taken */
	size_t nr, next, end;	/* the walk's next pair; the thread's end */
};

struct ahead_entry {
	struct ahead_entry *next;
	unsigned char sha1[HASH_MAX_RAWSZ];
	void *buf;
	size_t size;
};

struct diff_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ahead_level *top;	/* the walk's deepest level */
	struct ahead_entry *table[AHEAD_BUCKETS];
	size_t bytes;			/* in the table */
	uint64_t taken, done;		/* pairs taken, pairs done */
	int busy;			/* walking a pair */
	int thread_waits, walk_waits;
	int stop;
};

static unsigned int bucket(const unsigned char *sha1)
{
	return (sha1[0] | sha1[1] << 8) % AHEAD_BUCKETS;
}

/* Read a tree with every check; NULL when it cannot be, silently. */
static void *read_tree_silently(const unsigned char *sha1, size_t *size)
{
	struct object_stream st;
	struct fault f;
	void *buf = NULL;

	if (open_object_stream(&st, sha1, &f) < 0)
		return NULL;
	if (st.type == OBJ_TREE)
		buf = read_object_stream_whole(&st, &f);
	*size = st.size;
	close_object_stream(&st);
	if (buf && check_tree(buf, *size)) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

static void put_entry(struct diff_ahead *da, const unsigned char *sha1,
		      void *buf, size_t size)
{
	struct ahead_entry *e = xmalloc(sizeof(*e));
	struct ahead_entry **b = &da->table[bucket(sha1)];

	hashcpy(e->sha1, sha1);
	e->buf = buf;
	e->size = size;
	pthread_mutex_lock(&da->lock);
	e->next = *b;
	*b = e;
	da->bytes += size;
	if (da->walk_waits)
		pthread_cond_broadcast(&da->cond);
	pthread_mutex_unlock(&da->lock);
}

struct sub_pairs {
	struct ahead_pair *pairs;
	size_t nr, alloc;
};

static int note_pair(int n, const struct name_entry **e, void *data)
{
	struct sub_pairs *s = data;
	const struct name_entry *x = e[0] ? e[0] : e[1];

	(void)n;
	if (!S_ISDIR(x->mode) || (e[0] && e[1] && e[0]->mode == e[1]->mode &&
				  hasheq(e[0]->sha1, e[1]->sha1)))
		return 0;
	ALLOC_GROW(s->pairs, s->nr + 1, s->alloc);
	memset(&s->pairs[s->nr], 0, sizeof(s->pairs[0]));
	if (e[0]) {
		s->pairs[s->nr].has_one = 1;
		hashcpy(s->pairs[s->nr].one, e[0]->sha1);
	}
	if (e[1]) {
		s->pairs[s->nr].has_two = 1;
		hashcpy(s->pairs[s->nr].two, e[1]->sha1);
	}
	s->nr++;
	return 0;
}

int diff_tree_pairs(const void *buf1, size_t size1, const void *buf2,
		    size_t size2, struct ahead_pair **pairs, size_t *nr)
{
	struct sub_pairs s = { NULL, 0, 0 };
	struct tree_desc t[2];
	int ret;

	init_tree_desc(&t[0], buf1, size1);
	init_tree_desc(&t[1], buf2, size2);
	ret = traverse_tree_changes(t, note_pair, &s);
	*pairs = s.pairs;
	*nr = s.nr;
	return ret;
}

/* The pair's subtree walk, each tree read put in the table. */
static void walk_pair(struct diff_ahead *da, const struct ahead_pair *p,
		      unsigned int depth)
{
	void *buf1 = NULL, *buf2 = NULL;
	size_t size1 = 0, size2 = 0, nr = 0, i;
	struct ahead_pair *subs = NULL;

	if (da->stop || depth >= AHEAD_DEPTH)
		return;
	if (p->has_one && !(buf1 = read_tree_silently(p->one, &size1)))
		return;
	if (p->has_two && !(buf2 = read_tree_silently(p->two, &size2))) {
		free(buf1);
		return;
	}
	/* the walk may take and free them at once: list the pairs first */
	if (diff_tree_pairs(buf1, size1, buf2, size2, &subs, &nr) < 0)
		nr = 0;
	if (buf1)
		put_entry(da, p->one, buf1, size1);
	if (buf2)
		put_entry(da, p->two, buf2, size2);
	for (i = 0; i < nr; i++)
		walk_pair(da, &subs[i], depth + 1);
	free(subs);
}

/* The last pair left on the shallowest level that has one; NULL: none. */
static struct ahead_level *level_with_work(struct diff_ahead *da)
{
	struct ahead_level *l, *found = NULL;

	/* the walk's next pair is left to it: it is about to read it */
	for (l = da->top; l; l = l->up)
		if (l->end > l->next + 1)
			found = l;
	return found;
}

static void *run_ahead(void *data)
{
	struct diff_ahead *da = data;

	pthread_mutex_lock(&da->lock);
	for (;;) {
		struct ahead_level *l = NULL;
		struct ahead_pair p;
		unsigned int depth = 0;

		while (!da->stop && (da->bytes > AHEAD_MAX ||
				     !(l = level_with_work(da)))) {
			da->thread_waits = 1;
			pthread_cond_wait(&da->cond, &da->lock);
			da->thread_waits = 0;
		}
		if (da->stop)
			break;
		p = l->pairs[--l->end];
		l->ticket[l->end] = ++da->taken;
		for (; l->up; l = l->up)
			depth++;
		da->busy = 1;
		pthread_mutex_unlock(&da->lock);
		walk_pair(da, &p, depth + 1);
		pthread_mutex_lock(&da->lock);
		da->busy = 0;
		da->done++;
		if (da->walk_waits)
			pthread_cond_broadcast(&da->cond);
	}
	pthread_mutex_unlock(&da->lock);
	return NULL;
}

struct diff_ahead *start_diff_ahead(void)
{
	struct diff_ahead *da = xcalloc(1, sizeof(*da));

	pthread_mutex_init(&da->lock, NULL);
	pthread_cond_init(&da->cond, NULL);
	if (pthread_create(&da->thread, NULL, run_ahead, da)) {
		pthread_mutex_destroy(&da->lock);
		pthread_cond_destroy(&da->cond);
		free(da);
		return NULL;
	}
	return da;
}

void ahead_push_level(struct diff_ahead *da, struct ahead_pair *pairs,
		      size_t nr)
{
	struct ahead_level *l = xcalloc(1, sizeof(*l));

	l->pairs = pairs;
	l->ticket = xcalloc(nr + 1, sizeof(*l->ticket));
	l->nr = l->end = nr;
	pthread_mutex_lock(&da->lock);
	l->up = da->top;
	da->top = l;
	/* worth a wake-up only when there is a pair the walk will not take */
	if (da->thread_waits && nr > 1)
		pthread_cond_signal(&da->cond);
	pthread_mutex_unlock(&da->lock);
}

/* Free what no walk took (a tree met twice, a walk cut short). */
static void clear_table(struct diff_ahead *da)
{
	size_t i;

	for (i = 0; i < AHEAD_BUCKETS; i++) {
		while (da->table[i]) {
			struct ahead_entry *e = da->table[i];

			da->table[i] = e->next;
			da->bytes -= e->size;
			free(e->buf);
			free(e);
		}
	}
}

void ahead_pop_level(struct diff_ahead *da)
{
	struct ahead_level *l;

	pthread_mutex_lock(&da->lock);
	l = da->top;
	da->top = l->up;
	/* the diff is over: nothing will take what is left */
	if (!da->top) {
		while (da->busy) {
			da->walk_waits = 1;
			pthread_cond_wait(&da->cond, &da->lock);
			da->walk_waits = 0;
		}
		clear_table(da);
	}
	pthread_mutex_unlock(&da->lock);
	free(l->pairs);
	free(l->ticket);
	free(l);
}

uint64_t ahead_claim(struct diff_ahead *da)
{
	struct ahead_level *l;
	uint64_t ticket = 0;

	pthread_mutex_lock(&da->lock);
	l = da->top;
	if (l && l->next < l->nr) {
		if (l->next >= l->end)
			ticket = l->ticket[l->next];
		l->next++;
	}
	pthread_mutex_unlock(&da->lock);
	return ticket;
}

int ahead_take(struct diff_ahead *da, uint64_t ticket,
	       const unsigned char *sha1, struct later_obj *o)
{
	int ret = -1;

	pthread_mutex_lock(&da->lock);
	for (;;) {
		struct ahead_entry **b = &da->table[bucket(sha1)], *e;

		while (*b && hashcmp((*b)->sha1, sha1))
			b = &(*b)->next;
		e = *b;
		if (e) {
			/* only the bound can hold the thread back that a take lifts */
			int lifts = da->bytes > AHEAD_MAX &&
				    da->bytes - e->size <= AHEAD_MAX;

			*b = e->next;
			da->bytes -= e->size;
			o->buf = e->buf;
			o->size = e->size;
			o->job = NULL;
			free(e);
			ret = 0;
			if (da->thread_waits && lifts)
				pthread_cond_signal(&da->cond);
			break;
		}
		if (da->done >= ticket)
			break;
		da->walk_waits = 1;
		pthread_cond_wait(&da->cond, &da->lock);
		da->walk_waits = 0;
	}
	pthread_mutex_unlock(&da->lock);
	return ret;
}

void stop_diff_ahead(struct diff_ahead *da)
{
	if (!da)
		return;
	pthread_mutex_lock(&da->lock);
	da->stop = 1;
	pthread_cond_broadcast(&da->cond);
	pthread_mutex_unlock(&da->lock);
	pthread_join(da->thread, NULL);
	while (da->top) {
		struct ahead_level *l = da->top;

		da->top = l->up;
		free(l->pairs);
		free(l->ticket);
		free(l);
	}
	clear_table(da);
	pthread_mutex_destroy(&da->lock);
	pthread_cond_destroy(&da->cond);
	free(da);
}
