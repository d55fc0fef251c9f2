/*
 * pack-cache.c: the delta-base cache.  The bases a delta chain passes
 * are kept here, bounded in bytes, as walking a history reads the same
 * trees' bases over and over; the least recently used goes first.  The
 * cache is shared by the threads of a tool (fsck-cache reads on every
 * core), behind one lock; it hands out copies, and takes a base over
 * without a copy once its delta is applied.  Entries are keyed by
 * pack and offset, and know nothing else of packs.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pack.h"

#define CACHE_BUCKETS 4096
#define CACHE_LIMIT ((size_t)96 << 20)

/*
 * One object kept: found by its pack and offset through a bucket's
 * chain, evicted from the old end of a list kept in order of use.
 */
struct cached_base {
	struct cached_base *next;		/* in its bucket */
	struct cached_base *newer, *older;	/* in the use list */
	struct packed_git *pack;
	uint64_t offset;
	enum object_type type;
	unsigned char *buf;
	size_t size;
	int refs;				/* references handed out */
	int dropped;				/* evicted: freed at refs 0 */
};

static struct cached_base *buckets[CACHE_BUCKETS];
static struct cached_base *newest, *oldest;
static size_t cache_bytes;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static struct cached_base **bucket_of(struct packed_git *p, uint64_t offset)
{
	uintptr_t h = (uintptr_t)p / sizeof(void *) + offset * 2654435761u;

	return &buckets[(h ^ (h >> 17)) % CACHE_BUCKETS];
}

/* The link that points at the entry for p and offset (*link NULL: none). */
static struct cached_base **find_cached(struct packed_git *p, uint64_t offset)
{
	struct cached_base **link = bucket_of(p, offset);

	while (*link && ((*link)->pack != p || (*link)->offset != offset))
		link = &(*link)->next;
	return link;
}

static void unlink_use(struct cached_base *c)
{
	if (c->newer)
		c->newer->older = c->older;
	else
		newest = c->older;
	if (c->older)
		c->older->newer = c->newer;
	else
		oldest = c->newer;
}

static void link_newest(struct cached_base *c)
{
	c->newer = NULL;
	c->older = newest;
	if (newest)
		newest->newer = c;
	else
		oldest = c;
	newest = c;
}

static void free_cached(struct cached_base *c)
{
	free(c->buf);
	free(c);
}

/* Drop the entry *link points at (freed when its last reference goes). */
static void drop_cached(struct cached_base **link)
{
	struct cached_base *c = *link;

	*link = c->next;
	unlink_use(c);
	cache_bytes -= c->size;
	if (c->refs)
		c->dropped = 1;
	else
		free_cached(c);
}

/* A copy of the cached object at offset of p, or NULL. */
unsigned char *get_cached_base(struct packed_git *p, uint64_t offset,
			       enum object_type *type, size_t *size)
{
	struct cached_base *c;
	unsigned char *copy = NULL;

	pthread_mutex_lock(&cache_lock);
	c = *find_cached(p, offset);
	if (c) {
		copy = malloc(c->size + 1);
		if (copy) {
			memcpy(copy, c->buf, c->size + 1);
			*type = c->type;
			*size = c->size;
			unlink_use(c);
			link_newest(c);
		}
	}
	pthread_mutex_unlock(&cache_lock);
	return copy;
}

const unsigned char *ref_cached_base(struct packed_git *p, uint64_t offset,
				    enum object_type *type, size_t *size,
				    struct cached_base **ref)
{
	struct cached_base *c;

	pthread_mutex_lock(&cache_lock);
	c = *find_cached(p, offset);
	if (c) {
		c->refs++;
		*type = c->type;
		*size = c->size;
		unlink_use(c);
		link_newest(c);
	}
	pthread_mutex_unlock(&cache_lock);
	*ref = c;
	return c ? c->buf : NULL;
}

void release_cached_base(struct cached_base *ref)
{
	int gone;

	if (!ref)
		return;
	pthread_mutex_lock(&cache_lock);
	gone = !--ref->refs && ref->dropped;
	pthread_mutex_unlock(&cache_lock);
	if (gone)
		free_cached(ref);
}

/*
 * Keep buf (malloc'd, size bytes and a NUL) as the object at offset
 * of p, evicting the least recently used first: the cache owns it from
 * here, and frees it when it cannot be kept.
 */
void give_cached_base(struct packed_git *p, uint64_t offset,
		      enum object_type type, unsigned char *buf, size_t size)
{
	struct cached_base *c, **link;

	if (size > CACHE_LIMIT / 4 || !(c = malloc(sizeof(*c)))) {
		free(buf);
		return;
	}
	c->pack = p;
	c->offset = offset;
	c->type = type;
	c->buf = buf;
	c->size = size;
	c->refs = 0;
	c->dropped = 0;
	pthread_mutex_lock(&cache_lock);
	link = find_cached(p, offset);
	if (*link)
		drop_cached(link);
	while (oldest && cache_bytes + size > CACHE_LIMIT)
		drop_cached(find_cached(oldest->pack, oldest->offset));
	c->next = *bucket_of(p, offset);
	*bucket_of(p, offset) = c;
	link_newest(c);
	cache_bytes += size;
	pthread_mutex_unlock(&cache_lock);
}

void forget_cached_pack(struct packed_git *p)
{
	struct cached_base *c, *older;

	pthread_mutex_lock(&cache_lock);
	for (c = newest; c; c = older) {
		older = c->older;
		if (c->pack == p)
			drop_cached(find_cached(p, c->offset));
	}
	pthread_mutex_unlock(&cache_lock);
}

/* Keep a copy of buf (size bytes and a NUL); the caller keeps buf. */
void put_cached_base(struct packed_git *p, uint64_t offset,
		     enum object_type type, const unsigned char *buf,
		     size_t size)
{
	unsigned char *copy;

	if (size > CACHE_LIMIT / 4 || !(copy = malloc(size + 1)))
		return;
	memcpy(copy, buf, size + 1);
	give_cached_base(p, offset, type, copy, size);
}
