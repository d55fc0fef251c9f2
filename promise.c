/*
 * promise.c: the top of the store's writing.  write_sha1_file writes an
 * object at once (object-write.c) or, while promise_writes(1) asks for
 * it, hashes it now and writes it at the next flush_to_disk; the
 * lookups that count what is promised (has_sha1_file_listed,
 * sha1_file_unlisted) are here too, above the reader they ask.
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
 *
 * What is kept goes to a scratch file with no name in the object
 * directory (the spool), each object at its own offset, not to the
 * heap: a kernel series kept 32 MB between two checkpoints, more than
 * the rest of applymbox's memory.  Between checkpoints the spool lives
 * in the page cache, which the kernel may write back under pressure;
 * drop_promises empties it before that is due, so it rarely reaches
 * the disk, and a kill leaves nothing behind.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

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
static int spool_fd = -1;
static uint64_t spool_end;	/* the next object's offset */

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

		if (hasheq(p->sha1, sha1))
			return p;
	}
	return NULL;
}

int promised_object(const unsigned char *sha1, size_t *len)
{
	struct pack_object *p;

	pthread_mutex_lock(&promise_lock);
	p = find_promise(sha1);
	if (p && len)
		*len = p->len;
	pthread_mutex_unlock(&promise_lock);
	return p != NULL;
}

/* The spot is written once, before the promise is made: read unlocked. */
void *read_promised_object(const unsigned char *sha1, size_t *len)
{
	struct pack_object *p, copy;
	void *buf;

	pthread_mutex_lock(&promise_lock);
	p = find_promise(sha1);
	if (p)
		copy = *p;
	pthread_mutex_unlock(&promise_lock);
	if (!p || !pack_object_content(&copy, &buf))
		return NULL;
	*len = copy.len;
	return buf;
}

/* The spool, opened on first use under promise_lock; -1 after error(). */
static int open_spool(void)
{
	const char *dir = get_object_directory();

	if (spool_fd < 0)
		spool_fd = open_scratch_file(dir);
	if (spool_fd < 0)
		return error_errno("create a scratch file in '%s'", dir);
	return 0;
}

/* A spot of len bytes in the spool: its offset, or -1 after error(). */
static int64_t spool_spot(size_t len)
{
	int64_t at = -1;

	pthread_mutex_lock(&promise_lock);
	if (!open_spool()) {
		at = spool_end;
		spool_end += len;
	}
	pthread_mutex_unlock(&promise_lock);
	return at;
}

/* Promise sha1, its len bytes at offset at in the spool, unless kept. */
static void add_promise(const unsigned char *sha1, enum object_type type,
			uint64_t at, size_t len)
{
	struct pack_object *p;

	pthread_mutex_lock(&promise_lock);
	if (find_promise(sha1)) {
		pthread_mutex_unlock(&promise_lock);
		return;
	}
	grow_slots();
	ALLOC_GROW(promises, nr_promises + 1, alloc_promises);
	p = &promises[nr_promises];
	hashcpy(p->sha1, sha1);
	p->type = type;
	p->buf = NULL;
	p->len = len;
	p->fd = spool_fd;
	p->offset = at;
	add_slot(nr_promises++);
	pthread_mutex_unlock(&promise_lock);
}

int promise_object(const void *buf, size_t len, enum object_type type,
		   unsigned char *sha1)
{
	int64_t at;

	if (hash_sha1_file(buf, len, type, sha1) < 0)
		return sha1_collision_error(sha1_to_hex(sha1));
	if (promised_object(sha1, NULL))
		return 0;
	if (has_sha1_file(sha1))	/* stored: checked as write_sha1_file does */
		return write_hashed_object(buf, len, type, sha1);
	at = spool_spot(len);
	if (at < 0)
		return -1;
	if (pwrite_in_full(spool_fd, buf, len, at) < 0)
		return error_errno("keep object %s for the next flush",
				   sha1_to_hex(sha1));
	add_promise(sha1, type, at, len);
	return 0;
}

static size_t write_nth_promise(void *data, size_t i)
{
	struct pack_object *p = &((struct pack_object *)data)[i];
	void *to_free;
	const void *buf = pack_object_content(p, &to_free);

	if (!buf || write_hashed_object(buf, p->len, p->type, p->sha1) < 0)
		__atomic_store_n(&failed_promises, 1, __ATOMIC_RELAXED);
	free(to_free);
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

/* Emptied, the spool's pages go without being written back. */
void drop_promises(void)
{
	nr_promises = nr_written = 0;
	if (slots)
		memset(slots, 0, nr_slots * sizeof(*slots));
	if (spool_fd >= 0 && ftruncate(spool_fd, 0) < 0)
		warning("empty the scratch file of kept objects: %s",
			strerror(errno));
	spool_end = 0;
}

/* ---- writing, now or at the flush ---- */

int write_sha1_file(const void *buf, size_t len, enum object_type type,
		    unsigned char *sha1)
{
	if (promising_writes())
		return promise_object(buf, len, type, sha1);
	if (hash_sha1_file(buf, len, type, sha1) < 0)
		return sha1_collision_error(sha1_to_hex(sha1));
	return write_hashed_object(buf, len, type, sha1);
}

int flush_to_disk(int fd)
{
	if (write_promised_objects() < 0)
		return -1;
	return sync_written_objects(fd);
}

/* ---- lookups in the listings, promises counted ---- */

int has_sha1_file_listed(const unsigned char *sha1)
{
	if (loose_listed(sha1) || promised_object(sha1, NULL))
		return 1;
	return has_sha1_file(sha1);	/* it may have come since, or be packed */
}

int sha1_file_unlisted(const unsigned char *sha1)
{
	struct packed_git *p;
	uint32_t pos;

	return !loose_listed(sha1) && !promised_object(sha1, NULL) &&
	       !promising_writes() && find_packed(sha1, &p, &pos) < 0 &&
	       !*alternate_object_dirs();
}
