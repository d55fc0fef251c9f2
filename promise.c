/*
 * promise.c: objects hashed now and written at the next flush_to_disk.
 *
 * applymbox stores some 20 blobs a patch and makes them durable only
 * at its checkpoints; deflating each as it comes is most of its time
 * on one core.  Kept here until the flush, they are deflated and
 * written by every core at once: as one pack when they are many
 * (pack-write.c: two files rather than hundreds, each synced), else
 * as loose objects (run_parallel), which the syncfs that follows
 * covers.
 *
 * Promises are made from many threads at once (write-tree stores its
 * trees on every core), so the table is behind a lock: two threads
 * filling one slot gave an id one tree's name and another's bytes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static struct pack_object *promises;
static size_t nr_promises, alloc_promises;
/*
 * Fewer objects than this are written loose: a pack per handful of
 * objects would leave many small packs for every lookup to search.
 */
#define PACK_AT_LEAST 16
static size_t nr_written;	/* promises[0..nr_written) are stored */
static int failed_promises;
static int promising;
static pthread_mutex_t promise_lock = PTHREAD_MUTEX_INITIALIZER;

void promise_writes(int on)
{
	promising = on;
}

int promising_writes(void)
{
	return promising;
}

/* Open addressing over promises (index + 1; 0 is empty). */
static size_t *slots;
static size_t nr_slots;		/* a power of two, at least 2 * nr */

static size_t first_slot(const unsigned char *sha1)
{
	size_t h;

	memcpy(&h, sha1, sizeof(h));
	return h & (nr_slots - 1);
}

static void add_slot(size_t i)
{
	size_t s = first_slot(promises[i].sha1);

	while (slots[s])
		s = (s + 1) & (nr_slots - 1);
	slots[s] = i + 1;
}

static void grow_slots(void)
{
	size_t i;

	if (2 * (nr_promises + 1) <= nr_slots)
		return;
	free(slots);
	nr_slots = nr_slots ? 2 * nr_slots : 256;
	slots = xcalloc(nr_slots, sizeof(*slots));
	for (i = 0; i < nr_promises; i++)
		add_slot(i);
}

/* The promise of sha1, or NULL; the caller holds promise_lock. */
static struct pack_object *find_promise(const unsigned char *sha1)
{
	size_t s;

	if (!nr_promises)
		return NULL;
	for (s = first_slot(sha1); slots[s]; s = (s + 1) & (nr_slots - 1)) {
		struct pack_object *p = &promises[slots[s] - 1];

		if (!memcmp(p->sha1, sha1, 20))
			return p;
	}
	return NULL;
}

/* The content stays put until drop_promises: it outlives the lock. */
const void *promised_object(const unsigned char *sha1, size_t *len)
{
	struct pack_object *p;
	const void *buf = NULL;

	pthread_mutex_lock(&promise_lock);
	p = find_promise(sha1);
	if (p) {
		buf = p->buf;
		if (len)
			*len = p->len;
	}
	pthread_mutex_unlock(&promise_lock);
	return buf;
}

/* Keep copy (len bytes, made by the caller) as sha1's, unless kept. */
static void add_promise(const unsigned char *sha1, enum object_type type,
			void *copy, size_t len)
{
	struct pack_object *p;

	pthread_mutex_lock(&promise_lock);
	if (find_promise(sha1)) {
		pthread_mutex_unlock(&promise_lock);
		free(copy);
		return;
	}
	grow_slots();
	ALLOC_GROW(promises, nr_promises + 1, alloc_promises);
	p = &promises[nr_promises];
	memcpy(p->sha1, sha1, 20);
	p->type = type;
	p->buf = copy;
	p->len = len;
	add_slot(nr_promises++);
	pthread_mutex_unlock(&promise_lock);
}

int promise_object(const void *buf, size_t len, enum object_type type,
		   unsigned char *sha1)
{
	void *copy;

	if (len > UINT_MAX - MAX_HEADER_LEN)
		return error("object of %zu bytes is too large (4 GiB at most)",
			     len);
	hash_sha1_file(buf, len, type, sha1);
	if (promised_object(sha1, NULL))
		return 0;
	if (has_sha1_file(sha1))	/* stored: checked as write_sha1_file does */
		return write_hashed_object(buf, len, type, sha1);
	copy = xmalloc(len ? len : 1);
	memcpy(copy, buf, len);
	add_promise(sha1, type, copy, len);
	return 0;
}

static size_t write_nth_promise(void *data, size_t i)
{
	struct pack_object *p = &((struct pack_object *)data)[i];

	if (write_hashed_object(p->buf, p->len, p->type, p->sha1) < 0)
		__atomic_store_n(&failed_promises, 1, __ATOMIC_RELAXED);
	return 1;
}

int write_promised_objects(void)
{
	size_t start = nr_written;

	if (nr_written == nr_promises)
		return 0;
	nr_written = nr_promises;
	if (nr_promises - start >= PACK_AT_LEAST)
		return write_pack_objects(promises + start,
					  nr_promises - start);
	run_parallel(start, nr_promises, write_nth_promise, promises, NULL, 0);
	if (failed_promises) {
		failed_promises = 0;
		return error("unable to write the objects made since the last "
			     "flush");
	}
	return 0;
}

void drop_promises(void)
{
	size_t i;

	for (i = 0; i < nr_promises; i++)
		free(promises[i].buf);
	nr_promises = nr_written = 0;
	if (slots)
		memset(slots, 0, nr_slots * sizeof(*slots));
}
