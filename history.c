/*
 * history.c: the objects a history walk meets, commits parsed once,
 * lists of commits by date and the merge bases of commits, computed
 * as git merge-base does (so that scripts get git's answer even on a
 * criss-cross history, where there are several).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cache.h"
#include "history.h"

/* ---- memory that a walk touches at random ---- */

/*
 * The object table and the objects are read at random, a few times
 * each per tree entry walked: with pages of 4 KiB nearly every lookup
 * also misses the TLB.  Memory asked for here comes in blocks aligned
 * to 2 MiB, and the kernel is asked to back them with huge pages.
 */
#define HUGE_PAGE ((size_t)2 << 20)

/* size bytes of zeroes (malloc'd: free() takes them back). */
static void *alloc_zeroed(size_t size)
{
	void *p;

	if (size < HUGE_PAGE || posix_memalign(&p, HUGE_PAGE, size))
		return xcalloc(1, size);
#ifdef MADV_HUGEPAGE
	madvise(p, size, MADV_HUGEPAGE);
#endif
	memset(p, 0, size);
	return p;
}

/* Objects are carved out of blocks and live until the process ends. */
static void *alloc_object(size_t size)
{
	static unsigned char *block;
	static size_t left;
	void *obj;

	size = (size + 7) & ~(size_t)7;
	if (left < size) {
		block = alloc_zeroed(HUGE_PAGE);
		left = HUGE_PAGE;
	}
	obj = block;
	block += size;
	left -= size;
	return obj;
}

/* ---- the object table: open addressing on the id ---- */

/*
 * A slot keeps bytes 8-11 of its object's id beside it: a probe that
 * meets another object is told by them, without reading the object
 * (a cache miss each, and a walk looks up every entry of every tree).
 */
struct object_slot {
	uint32_t check;
	struct object *obj;
};

static struct object_slot *table;
static size_t table_size, table_nr;

static size_t hash_slot(const unsigned char *sha1)
{
	size_t h;

	memcpy(&h, sha1, sizeof(h));
	return h & (table_size - 1);
}

static uint32_t slot_check(const unsigned char *sha1)
{
	uint32_t c;

	memcpy(&c, sha1 + 8, sizeof(c));
	return c;
}

static void insert_object(struct object *obj)
{
	size_t i = hash_slot(obj->sha1);

	while (table[i].obj)
		i = (i + 1) & (table_size - 1);
	table[i].check = slot_check(obj->sha1);
	table[i].obj = obj;
}

static void grow_table(void)
{
	struct object_slot *old = table;
	size_t i, old_size = table_size;

	table_size = table_size ? table_size * 2 : 1024;
	table = alloc_zeroed(table_size * sizeof(*table));
	for (i = 0; i < old_size; i++)
		if (old[i].obj)
			insert_object(old[i].obj);
	free(old);
}

/*
 * Are the ids equal?  Inline: a call to memcmp costs more than this.
 * The first 20 bytes decide a SHA-1 id; a SHA-256 one has 12 more.
 */
static int same_id(const unsigned char *a, const unsigned char *b)
{
	uint64_t a0, a1, b0, b1;
	uint32_t a2, b2;

	memcpy(&a0, a, 8);
	memcpy(&b0, b, 8);
	memcpy(&a1, a + 8, 8);
	memcpy(&b1, b + 8, 8);
	memcpy(&a2, a + 16, 4);
	memcpy(&b2, b + 16, 4);
	if ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2))
		return 0;
	return the_hash->rawsz == 20 || !memcmp(a + 20, b + 20, 12);
}

static struct object *find_object(const unsigned char *sha1)
{
	uint32_t check = slot_check(sha1);
	size_t i;

	if (!table_size)
		return NULL;
	for (i = hash_slot(sha1); table[i].obj; i = (i + 1) & (table_size - 1))
		if (table[i].check == check && same_id(table[i].obj->sha1, sha1))
			return table[i].obj;
	return NULL;
}

/*
 * A walk that knows the ids it will look up next asks for their slots,
 * then their objects, ahead of time: each lookup is a cache miss or
 * two, and misses asked for together overlap instead of queueing.
 */
void prefetch_object_slot(const unsigned char *sha1)
{
#ifdef __GNUC__
	if (table_size)
		__builtin_prefetch(&table[hash_slot(sha1)]);
#else
	(void)sha1;
#endif
}

void prefetch_object(const unsigned char *sha1)
{
#ifdef __GNUC__
	struct object_slot *s;

	if (!table_size)
		return;
	s = &table[hash_slot(sha1)];
	if (s->obj && s->check == slot_check(sha1))
		__builtin_prefetch(s->obj);
#else
	(void)sha1;
#endif
}

struct object *lookup_object(const unsigned char *sha1,
			     enum object_type type)
{
	struct object *obj = find_object(sha1);

	if (obj || type == OBJ_NONE) {
		if (obj && type != OBJ_NONE && obj->type != type) {
			error("object %s is a %s, not a %s", sha1_to_hex(sha1),
			      type_name(obj->type), type_name(type));
			return NULL;
		}
		return obj;
	}
	if (2 * (table_nr + 1) > table_size)
		grow_table();
	obj = alloc_object(type == OBJ_COMMIT ? sizeof(struct commit) :
			   sizeof(*obj));
	hashcpy(obj->sha1, sha1);
	obj->type = type;
	insert_object(obj);
	table_nr++;
	return obj;
}

struct commit *lookup_commit(const unsigned char *sha1)
{
	return (struct commit *)lookup_object(sha1, OBJ_COMMIT);
}

void clear_object_flags(unsigned int flags)
{
	size_t i;

	for (i = 0; i < table_size; i++)
		if (table[i].obj)
			table[i].obj->flags &= ~flags;
}

/* ---- parsing ---- */

/*
 * The committer time, as git reads it: the author line must follow
 * the parents and the committer line the author; the number after the
 * committer's '>' is the date.  Anything else reads as 0.
 */
static uint64_t parse_commit_date(const char *p, const char *end)
{
	const char *nl;

	if (end - p < 7 || memcmp(p, "author ", 7))
		return 0;
	nl = memchr(p, '\n', end - p);
	if (!nl)
		return 0;
	p = nl + 1;
	if (end - p < 10 || memcmp(p, "committer ", 10))
		return 0;
	nl = memchr(p, '\n', end - p);
	if (!nl)
		return 0;
	p = memchr(p, '>', nl - p);
	if (!p)
		return 0;
	p++;
	while (p < nl && *p == ' ')
		p++;
	if (p == nl || *p < '0' || *p > '9')
		return 0;
	errno = 0;
	{
		uintmax_t v = strtoumax(p, NULL, 10);

		return errno ? 0 : (uint64_t)v;
	}
}

/* The bytes after the tree and parent lines: where "author" must be. */
static const char *after_parents(const char *buf, size_t nr_parents)
{
	size_t hexsz = the_hash->hexsz;

	/* "tree <hex>\n", then "parent <hex>\n" for each */
	return buf + 6 + hexsz + (8 + hexsz) * nr_parents;
}

int parse_commit(struct commit *c)
{
	struct commit_info ci;
	size_t size, i;
	char *buf;

	if (c->parsed)
		return 0;
	buf = read_object_of_type(c->object.sha1, OBJ_COMMIT, &size);
	if (!buf)
		return -1;
	if (parse_commit_buffer(buf, size, &ci) < 0) {
		free(buf);
		return error("commit %s is corrupt", sha1_to_hex(c->object.sha1));
	}
	hashcpy(c->tree, ci.tree);
	c->date = parse_commit_date(after_parents(buf, ci.nr_parents),
				    buf + size);
	if (is_shallow_commit(c->object.sha1))
		ci.nr_parents = 0;	/* the parents were never fetched */
	c->parents = xcalloc(ci.nr_parents ? ci.nr_parents : 1,
			     sizeof(*c->parents));
	for (i = 0; i < ci.nr_parents; i++) {
		c->parents[i] = lookup_commit(ci.parents[i]);
		if (!c->parents[i]) {
			free_commit_info(&ci);
			free(buf);
			return -1;
		}
	}
	c->nr_parents = ci.nr_parents;
	c->parsed = 1;
	free_commit_info(&ci);
	free(buf);
	return 0;
}

struct commit *lookup_commit_peeled(const unsigned char *sha1)
{
	unsigned char peeled[HASH_MAX_RAWSZ];
	struct commit *c;
	size_t size;
	void *buf = read_object_peeled(sha1, OBJ_COMMIT, &size, peeled);

	if (!buf)
		return NULL;
	free(buf);
	c = lookup_commit(peeled);
	if (!c || parse_commit(c) < 0)
		return NULL;
	return c;
}

/* ---- lists ---- */

struct commit_list *commit_list_insert_by_date(struct commit *c,
					       struct commit_list **list)
{
	struct commit_list **pp = list, *node = xmalloc(sizeof(*node));

	while (*pp && (*pp)->item->date >= c->date)
		pp = &(*pp)->next;
	node->item = c;
	node->next = *pp;
	*pp = node;
	return node;
}

struct commit_list *commit_list_append(struct commit *c,
				       struct commit_list **tail)
{
	struct commit_list *node = xmalloc(sizeof(*node));

	node->item = c;
	node->next = *tail;
	*tail = node;
	return node;
}

struct commit *pop_commit(struct commit_list **list)
{
	struct commit_list *top = *list;
	struct commit *c;

	if (!top)
		return NULL;
	c = top->item;
	*list = top->next;
	free(top);
	return c;
}

void free_commit_list(struct commit_list *list)
{
	while (list)
		pop_commit(&list);
}

/* ---- a queue by date, newest first, equal dates first in first out ---- */

struct date_queue {
	struct queued {
		struct commit *c;
		size_t ctr;
	} *heap;
	size_t nr, alloc, ctr;
};

static int queued_before(const struct queued *a, const struct queued *b)
{
	if (a->c->date != b->c->date)
		return a->c->date > b->c->date;
	return a->ctr < b->ctr;
}

static void swap_queued(struct queued *a, struct queued *b)
{
	struct queued t = *a;

	*a = *b;
	*b = t;
}

static void queue_put(struct date_queue *q, struct commit *c)
{
	size_t i;

	ALLOC_GROW(q->heap, q->nr + 1, q->alloc);
	i = q->nr++;
	q->heap[i].c = c;
	q->heap[i].ctr = q->ctr++;
	while (i && queued_before(&q->heap[i], &q->heap[(i - 1) / 2])) {
		swap_queued(&q->heap[i], &q->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static struct commit *queue_get(struct date_queue *q)
{
	struct commit *top;
	size_t i = 0;

	if (!q->nr)
		return NULL;
	top = q->heap[0].c;
	q->heap[0] = q->heap[--q->nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;

		if (l < q->nr && queued_before(&q->heap[l], &q->heap[best]))
			best = l;
		if (r < q->nr && queued_before(&q->heap[r], &q->heap[best]))
			best = r;
		if (best == i)
			break;
		swap_queued(&q->heap[i], &q->heap[best]);
		i = best;
	}
	return top;
}

static int queue_has_nonstale(const struct date_queue *q)
{
	size_t i;

	for (i = 0; i < q->nr; i++)
		if (!(q->heap[i].c->object.flags & STALE))
			return 1;
	return 0;
}

/* ---- merge bases ---- */

/*
 * Paint the ancestors of one PARENT1 and those of twos PARENT2, newest
 * first; a commit painted both is a common ancestor, and everything
 * below one is STALE.  The common ancestors found (newest first) go to
 * *result; the painting stays on the commits for the caller to read.
 */
static int paint_down_to_common(struct commit *one, struct commit **twos,
				size_t n, struct commit_list **result)
{
	struct date_queue q = { NULL, 0, 0, 0 };
	size_t i;
	int ret = 0;

	*result = NULL;
	one->object.flags |= PARENT1;
	if (!n) {
		commit_list_append(one, result);
		return 0;
	}
	queue_put(&q, one);
	for (i = 0; i < n; i++) {
		twos[i]->object.flags |= PARENT2;
		queue_put(&q, twos[i]);
	}
	while (!ret && queue_has_nonstale(&q)) {
		struct commit *c = queue_get(&q);
		unsigned int flags = c->object.flags &
				     (PARENT1 | PARENT2 | STALE);

		if (flags == (PARENT1 | PARENT2)) {
			if (!(c->object.flags & RESULT)) {
				c->object.flags |= RESULT;
				commit_list_insert_by_date(c, result);
			}
			flags |= STALE;
		}
		for (i = 0; i < c->nr_parents; i++) {
			struct commit *p = c->parents[i];

			if ((p->object.flags & flags) == flags)
				continue;
			if (parse_commit(p) < 0) {
				ret = -1;
				break;
			}
			p->object.flags |= flags;
			queue_put(&q, p);
		}
	}
	free(q.heap);
	return ret;
}

/*
 * Drop the commits of array that are ancestors of another one there;
 * the rest keep their order at the front.  Returns how many remain.
 */
static int remove_redundant(struct commit **array, size_t cnt, size_t *left)
{
	struct commit **work = xcalloc(cnt, sizeof(*work));
	size_t *index = xcalloc(cnt, sizeof(*index));
	char *redundant = xcalloc(cnt, 1);
	size_t i, j, filled;
	int ret = 0;

	for (i = 0; i < cnt && !ret; i++) {
		struct commit_list *common;

		if (redundant[i])
			continue;
		for (j = filled = 0; j < cnt; j++) {
			if (i == j || redundant[j])
				continue;
			index[filled] = j;
			work[filled++] = array[j];
		}
		ret = paint_down_to_common(array[i], work, filled, &common);
		if (array[i]->object.flags & PARENT2)
			redundant[i] = 1;
		for (j = 0; j < filled; j++)
			if (work[j]->object.flags & PARENT1)
				redundant[index[j]] = 1;
		clear_object_flags(MERGE_BASE_FLAGS);
		free_commit_list(common);
	}
	for (i = filled = 0; i < cnt; i++)
		if (!redundant[i])
			array[filled++] = array[i];
	*left = filled;
	free(work);
	free(index);
	free(redundant);
	return ret;
}

static int list_to_array(struct commit_list *list, struct commit ***array,
			 size_t *nr)
{
	struct commit_list *l;
	size_t n = 0;

	for (l = list; l; l = l->next)
		n++;
	*array = n ? xcalloc(n, sizeof(**array)) : NULL;
	for (n = 0; list; list = list->next)
		(*array)[n++] = list->item;
	*nr = n;
	return 0;
}

int get_merge_bases(struct commit *one, struct commit **twos, size_t n,
		    struct commit ***bases, size_t *nr)
{
	struct commit_list *found, *result = NULL;
	size_t i, left;
	int ret;

	*bases = NULL;
	*nr = 0;
	for (i = 0; i < n; i++)
		if (one == twos[i]) {
			*bases = xcalloc(1, sizeof(**bases));
			(*bases)[0] = one;
			*nr = 1;
			return 0;
		}
	ret = paint_down_to_common(one, twos, n, &found);
	while (found) {
		struct commit *c = pop_commit(&found);

		if (!(c->object.flags & STALE))
			commit_list_insert_by_date(c, &result);
	}
	clear_object_flags(MERGE_BASE_FLAGS);
	if (ret < 0) {
		free_commit_list(result);
		return -1;
	}
	list_to_array(result, bases, nr);
	free_commit_list(result);
	if (*nr < 2)
		return 0;
	ret = remove_redundant(*bases, *nr, &left);
	result = NULL;
	for (i = 0; i < left; i++)
		commit_list_insert_by_date((*bases)[i], &result);
	free(*bases);
	list_to_array(result, bases, nr);
	free_commit_list(result);
	return ret;
}
