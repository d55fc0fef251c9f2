/*
 * parallel.c: the one way the tools spread work over the cores.
 *
 * Items are handed out one at a time from an atomic counter, so a big
 * file on one thread does not hold up the rest; every thread of the
 * pool, the caller's included, takes the next item until none is left.
 */
#define _GNU_SOURCE	/* unshare */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "cache.h"

#define MAX_THREADS 8
/* What run_parallel_threads starts at most when asked for more. */
#define MAX_THREADS_ASKED 64
/* Below this many items a thread costs more than it brings. */
#define MIN_PARALLEL 64

struct pool {
	size_t next, end;
	size_t (*fn)(void *data, size_t i);
	void *data;
	struct progress *progress;
	size_t done;
	pthread_mutex_t progress_lock;
};

static void *pool_worker(void *arg)
{
	struct pool *pool = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED)) <
	       pool->end) {
		size_t units = pool->fn(pool->data, i);

		pthread_mutex_lock(&pool->progress_lock);
		pool->done += units;
		display_progress(pool->progress, pool->done);
		pthread_mutex_unlock(&pool->progress_lock);
	}
	return NULL;
}

static int count_threads(size_t nr)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (nr < MIN_PARALLEL || cores < 2)
		return 1;
	return cores > MAX_THREADS ? MAX_THREADS : cores;
}

/*
 * The pool's threads: nr_threads workers, the caller one of them when
 * caller_works is set, or else only when no thread could start.  A
 * thread that cannot start leaves its share to the others.
 */
static size_t run_pool(struct pool *pool, int nr_threads,
		       void *(*worker)(void *), int caller_works)
{
	pthread_t threads[MAX_THREADS_ASKED];
	int first = caller_works ? 1 : 0, i, started;

	if (nr_threads > MAX_THREADS_ASKED)
		nr_threads = MAX_THREADS_ASKED;
	for (i = first; i < nr_threads; i++)
		if (pthread_create(&threads[i], NULL, worker, pool))
			break;
	started = i;
	if (caller_works || !started)
		pool_worker(pool);
	for (i = first; i < started; i++)
		pthread_join(threads[i], NULL);
	return pool->done;
}

size_t run_parallel_threads(int nr_threads, size_t start, size_t end,
			    size_t (*fn)(void *data, size_t i), void *data,
			    struct progress *progress, size_t done)
{
	struct pool pool = {
		.next = start, .end = end, .fn = fn, .data = data,
		.progress = progress, .done = done,
		.progress_lock = PTHREAD_MUTEX_INITIALIZER,
	};

	return run_pool(&pool, nr_threads, pool_worker, 1);
}

/*
 * A thread of run_parallel_own_fds: a copy of the file table of its
 * own first.  fstatat(dirfd, ...) on a table that no other thread
 * shares borrows the fd; on a shared one it takes a reference on the
 * file and drops it again, two atomic operations a call (fdget_raw and
 * fput were 2.6% of show-diff's time, 1.0% so), and openat and close
 * take the table's lock, which no other thread wants then.  When
 * unshare fails the thread works on the shared table, as before.
 */
static void *own_fds_worker(void *arg)
{
#ifdef CLONE_FILES
	unshare(CLONE_FILES);
#endif
	return pool_worker(arg);
}

/* The caller does not work: its file table stays the process's. */
size_t run_parallel_own_fds(int nr_threads, size_t start, size_t end,
			    size_t (*fn)(void *data, size_t i), void *data)
{
	struct pool pool = {
		.next = start, .end = end, .fn = fn, .data = data,
		.progress_lock = PTHREAD_MUTEX_INITIALIZER,
	};

	return run_pool(&pool, nr_threads, own_fds_worker, 0);
}

size_t run_parallel(size_t start, size_t end,
		    size_t (*fn)(void *data, size_t i), void *data,
		    struct progress *progress, size_t done)
{
	return run_parallel_threads(count_threads(end > start ?
						  end - start : 0),
				    start, end, fn, data, progress, done);
}
