/*
 * load-index: how long loading the index in the current directory
 * takes, the fixed cost every tool pays before its real work.  Loads
 * it RUNS times (default 21) in one process, so the page cache is
 * warm, and prints "entries N min S median S checked-min S
 * checked-median S" in seconds: first until the entries can be used
 * (read_cache_overlapped, a big index's checksum still computed on a
 * thread of its own, beside the tool's work), then until the
 * checksum is confirmed too (read_cache, what a tool that has nothing
 * to do meanwhile waits for).  Each as the tools load it: show-diff,
 * the one that overlaps, writes no index, so it parses no cache tree
 * and keeps no digest of the entries for one (index_read_only); a tool
 * that may write one (update-cache, read-tree, write-tree) keeps it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../cache.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* RUNS loads, each timed until it returns: its times sorted into t. */
static int time_loads(int runs, double *t, int overlapped)
{
	int i, nr = 0;

	for (i = 0; i < runs; i++) {
		double start = now();

		nr = overlapped ? read_cache_overlapped() : read_cache();
		if (nr < 0)
			return -1;
		t[i] = now() - start;
		if (finish_index_check() < 0)
			return -1;
		discard_cache();
	}
	qsort(t, runs, sizeof(*t), cmp_double);
	return nr;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 21, nr;
	double *t, *c;

	setup_tool(argv[0]);
	if (setup_repository() < 0)	/* its format: SHA-1 or SHA-256 */
		return 1;
	if (runs < 1)
		runs = 1;
	t = calloc(runs, sizeof(*t));
	c = calloc(runs, sizeof(*c));
	if (!t || !c)
		return 1;
	if (time_loads(runs, c, 0) < 0)
		return 1;
	index_read_only();	/* as show-diff, from here on */
	nr = time_loads(runs, t, 1);
	if (nr < 0)
		return 1;
	printf("entries %d min %.4f median %.4f checked-min %.4f "
	       "checked-median %.4f\n", nr, t[0], t[runs / 2], c[0],
	       c[runs / 2]);
	return 0;
}
