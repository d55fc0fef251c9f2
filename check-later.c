/*
 * check-later.c: objects read now and checked on another core.
 *
 * A reader that only prints what it finds (diff-tree) can use an
 * object before it is checked, if it holds what it prints until the
 * check is done: the content is read unverified, handed to a thread
 * that hashes it against its id (collision detection included) and,
 * for a tree, runs check_tree on it, while the reader goes on with the
 * next object.  The reader waits for the checks (wait_check_later)
 * before it lets its output go.  Parsing a tree not yet checked is
 * safe (tree_entry_next trusts nothing); what the walk made of a bad
 * one is thrown away with the output held.
 *
 * An object is shared by the reader and the thread: it is freed when
 * both are done with it.  The bytes read and not yet checked are
 * bounded; past the bound the reader waits for the thread.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* Bytes read ahead of the checks: past this the reader waits. */
#define LATER_BYTES ((size_t)64 << 20)
/*
 * The thread is woken when this much waits for it, not for each
 * object: a wake-up costs more than hashing a small tree.
 */
#define WAKE_BYTES ((size_t)64 << 10)

struct later_job {
	struct later_job *next;
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	void *buf;
	size_t size;
	char *path;		/* a tree's, for the message; or NULL */
	uint64_t seq;		/* its place in the queue, from 0 */
	int released;		/* the reader is done with it */
	int checked;		/* the thread is */
};

struct check_later {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct later_job *head, **tail;	/* queued for the thread */
	struct later_job *dead;		/* done on both sides: to free */
	size_t bytes;		/* of the jobs queued or being checked */
	size_t queued;		/* of the jobs queued */
	int busy;		/* the thread is checking a batch */
	int thread_waits, reader_waits;
	int stop;
	int failed;		/* a check failed: first_* say which */
	char *first_why;	/* the message for the first that failed */
	uint64_t nr_queued;	/* jobs ever queued */
	uint64_t nr_checked;	/* jobs checked: the first ones queued */
	uint64_t good;		/* those before the first that failed */
};

/*
 * Only the reader frees (the thread leaves what it finished on the
 * dead list), so that all the buffers go back to the reader's arena.
 */
static void free_dead(struct check_later *cl)
{
	struct later_job *j;

	pthread_mutex_lock(&cl->lock);
	j = cl->dead;
	cl->dead = NULL;
	pthread_mutex_unlock(&cl->lock);
	while (j) {
		struct later_job *next = j->next;

		free(j->buf);
		free(j->path);
		free(j);
		j = next;
	}
}

static void put_job(struct check_later *cl, struct later_job *j)
{
	int last;

	pthread_mutex_lock(&cl->lock);
	j->released = 1;
	last = j->checked;
	pthread_mutex_unlock(&cl->lock);
	if (last) {
		free(j->buf);
		free(j->path);
		free(j);
	}
}

/* printf into a string of its own (malloc'd). */
static char *message(const char *fmt, ...)
{
	va_list ap;
	char *buf;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	buf = xmalloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(buf, n + 1, fmt, ap);
	va_end(ap);
	return buf;
}

/*
 * What is wrong with j: NULL when nothing, else a message (malloc'd)
 * worded as a read that checks at once words it.
 */
static char *check_job(const struct later_job *j)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	char id[HASH_MAX_HEXSZ + 1], got[HASH_MAX_HEXSZ + 1];
	const char *bad;

	memcpy(id, sha1_to_hex(j->sha1), the_hash->hexsz + 1);
	if (hash_sha1_file(j->buf, j->size, j->type, sha1) < 0)
		return message("object %s is corrupt: SHA-1 collision attack "
			       "detected", id);
	if (!hasheq(sha1, j->sha1)) {
		memcpy(got, sha1_to_hex(sha1), the_hash->hexsz + 1);
		return message("hash mismatch %s: its content hashes to %s",
			       id, got);
	}
	if (j->type != OBJ_TREE || !(bad = check_tree(j->buf, j->size)))
		return NULL;
	if (j->path)
		return message("refusing tree %s of '%s': %s", id, j->path,
			       bad);
	return message("refusing tree %s: %s", id, bad);
}

/* Check a batch taken off the queue; under the lock: who is done. */
static void check_batch(struct check_later *cl, struct later_job *j)
{
	while (j) {
		struct later_job *next = j->next;
		char *why = check_job(j);

		pthread_mutex_lock(&cl->lock);
		if (why && !cl->failed) {
			cl->failed = 1;
			cl->good = j->seq;
			cl->first_why = why;
			why = NULL;
		}
		free(why);
		cl->bytes -= j->size;
		cl->nr_checked++;
		j->checked = 1;
		if (j->released) {
			j->next = cl->dead;
			cl->dead = j;
		}
		if (cl->reader_waits)
			pthread_cond_broadcast(&cl->cond);
		pthread_mutex_unlock(&cl->lock);
		j = next;
	}
}

static void *run_checks(void *data)
{
	struct check_later *cl = data;

	pthread_mutex_lock(&cl->lock);
	for (;;) {
		struct later_job *batch;

		while (!cl->head && !cl->stop) {
			cl->thread_waits = 1;
			pthread_cond_wait(&cl->cond, &cl->lock);
			cl->thread_waits = 0;
		}
		batch = cl->head;
		if (!batch)
			break;
		cl->head = NULL;
		cl->queued = 0;
		cl->tail = &cl->head;
		cl->busy = 1;
		pthread_mutex_unlock(&cl->lock);
		check_batch(cl, batch);
		pthread_mutex_lock(&cl->lock);
		cl->busy = 0;
		if (cl->reader_waits)
			pthread_cond_broadcast(&cl->cond);
	}
	pthread_mutex_unlock(&cl->lock);
	return NULL;
}

struct check_later *start_check_later(void)
{
	struct check_later *cl = xcalloc(1, sizeof(*cl));

	cl->tail = &cl->head;
	pthread_mutex_init(&cl->lock, NULL);
	pthread_cond_init(&cl->cond, NULL);
	if (pthread_create(&cl->thread, NULL, run_checks, cl)) {
		pthread_mutex_destroy(&cl->lock);
		pthread_cond_destroy(&cl->cond);
		free(cl);
		return NULL;
	}
	return cl;
}

/* Queue j for the thread, waiting while too much is queued. */
static void queue_job(struct check_later *cl, struct later_job *j)
{
	if (cl->dead)	/* a racy peek: the next call takes the rest */
		free_dead(cl);
	pthread_mutex_lock(&cl->lock);
	while (cl->bytes && cl->bytes + j->size > LATER_BYTES) {
		cl->reader_waits = 1;
		pthread_cond_wait(&cl->cond, &cl->lock);
		cl->reader_waits = 0;
	}
	j->next = NULL;
	j->seq = cl->nr_queued++;
	*cl->tail = j;
	cl->tail = &j->next;
	cl->bytes += j->size;
	cl->queued += j->size;
	if (cl->thread_waits && cl->queued >= WAKE_BYTES)
		pthread_cond_signal(&cl->cond);
	pthread_mutex_unlock(&cl->lock);
}

/* Read sha1 whole, of type want, unverified; NULL after error(). */
static void *read_unverified(const unsigned char *sha1, enum object_type want,
			     size_t *size)
{
	struct object_stream st;
	struct fault f;
	void *buf = NULL;

	if (open_object_unverified(&st, sha1, &f) < 0) {
		report_object_fault(sha1, &f);
		return NULL;
	}
	if (st.type != want)
		error("object %s is a %s, not a %s", sha1_to_hex(sha1),
		      type_name(st.type), type_name(want));
	else if (!(buf = read_object_stream_whole(&st, &f)))
		report_object_fault(sha1, &f);
	*size = st.size;
	close_object_stream(&st);
	return buf;
}

/* Without a thread: read verified, and check a tree now. */
static void *read_checked_now(const unsigned char *sha1,
			      enum object_type want, const char *path,
			      size_t *size)
{
	void *buf = read_object_of_type(sha1, want, size);
	const char *bad;

	if (!buf || want != OBJ_TREE || !(bad = check_tree(buf, *size)))
		return buf;
	if (path)
		error("refusing tree %s of '%s': %s", sha1_to_hex(sha1), path,
		      bad);
	else
		error("refusing tree %s: %s", sha1_to_hex(sha1), bad);
	free(buf);
	return NULL;
}

int read_later(struct check_later *cl, const unsigned char *sha1,
	       enum object_type want, const char *path, struct later_obj *o)
{
	struct later_job *j;

	o->buf = NULL;
	o->size = 0;
	o->job = NULL;
	if (!cl) {
		o->buf = read_checked_now(sha1, want, path, &o->size);
		return o->buf ? 0 : -1;
	}
	o->buf = read_unverified(sha1, want, &o->size);
	if (!o->buf)
		return -1;
	j = xmalloc(sizeof(*j));
	hashcpy(j->sha1, sha1);
	j->type = want;
	j->buf = o->buf;
	j->size = o->size;
	j->path = path && want == OBJ_TREE ? xstrdup(path) : NULL;
	j->released = 0;
	j->checked = 0;
	o->job = j;
	queue_job(cl, j);
	return 0;
}

void release_later(struct check_later *cl, struct later_obj *o)
{
	if (o->job)
		put_job(cl, o->job);
	else
		free(o->buf);
	o->buf = NULL;
	o->job = NULL;
}

int wait_check_later(struct check_later *cl)
{
	int failed;

	if (!cl)
		return 0;
	pthread_mutex_lock(&cl->lock);
	while (cl->head || cl->busy) {
		cl->reader_waits = 1;
		if (cl->thread_waits)
			pthread_cond_signal(&cl->cond);
		pthread_cond_wait(&cl->cond, &cl->lock);
		cl->reader_waits = 0;
	}
	failed = cl->failed;
	pthread_mutex_unlock(&cl->lock);
	free_dead(cl);
	if (failed)
		return error("%s", cl->first_why);
	return 0;
}

void stop_check_later(struct check_later *cl)
{
	if (!cl)
		return;
	pthread_mutex_lock(&cl->lock);
	cl->stop = 1;
	pthread_cond_broadcast(&cl->cond);
	pthread_mutex_unlock(&cl->lock);
	pthread_join(cl->thread, NULL);
	free_dead(cl);
	free(cl->first_why);
	pthread_mutex_destroy(&cl->lock);
	pthread_cond_destroy(&cl->cond);
	free(cl);
}

uint64_t later_mark(struct check_later *cl)
{
	uint64_t n;

	if (!cl)
		return 0;
	pthread_mutex_lock(&cl->lock);
	n = cl->nr_queued;
	pthread_mutex_unlock(&cl->lock);
	return n;
}

uint64_t later_passed_mark(struct check_later *cl)
{
	uint64_t n;

	if (!cl)
		return 0;
	pthread_mutex_lock(&cl->lock);
	n = cl->failed ? cl->good : cl->nr_checked;
	pthread_mutex_unlock(&cl->lock);
	return n;
}

/* ---- output held until the objects it was made of pass ---- */

/* Output sent whole: a fresh buffer from this size on. */
#define HELD_RESET ((size_t)1 << 20)

int hold_output(struct held_output *h, struct check_later *cl)
{
	h->checker = cl;
	h->buf = NULL;
	h->len = 0;
	h->sent = 0;
	h->out = open_memstream(&h->buf, &h->len);
	if (!h->out)
		return error_errno("open_memstream");
	return 0;
}

void held_mark_end(struct held_output *h)
{
	ALLOC_GROW(h->ends, h->nr_ends + 1, h->alloc_ends);
	h->ends[h->nr_ends].at = ftell(h->out);
	h->ends[h->nr_ends].mark = later_mark(h->checker);
	h->nr_ends++;
}

size_t held_unsent(struct held_output *h)
{
	return ftell(h->out) - h->sent;
}

int send_held(struct held_output *h, int wait)
{
	uint64_t good;
	size_t k, at = h->sent;
	int failed = 0;

	if (fflush(h->out))
		return error_errno("write to memory");
	if (wait)
		failed = wait_check_later(h->checker) < 0;
	good = later_passed_mark(h->checker);
	for (k = 0; k < h->nr_ends && h->ends[k].mark <= good; k++)
		at = h->ends[k].at;
	memmove(h->ends, h->ends + k, (h->nr_ends - k) * sizeof(*h->ends));
	h->nr_ends -= k;
	if (at > h->sent &&
	    fwrite(h->buf + h->sent, 1, at - h->sent, stdout) != at - h->sent)
		return error_errno("write standard output");
	h->sent = at;
	if (failed)
		return 1;
	if (h->sent < h->len || h->len < HELD_RESET)
		return 0;
	/* all of it went: start again rather than grow for ever */
	if (fclose(h->out))
		return error_errno("write to memory");
	free(h->buf);
	return hold_output(h, h->checker);
}

int stop_holding(struct held_output *h)
{
	int ret;

	held_mark_end(h);
	ret = send_held(h, 1);
	if (fclose(h->out) && !ret)
		ret = error_errno("write to memory");
	free(h->buf);
	free(h->ends);
	memset(h, 0, sizeof(*h));
	return ret;
}
