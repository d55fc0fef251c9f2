/*
 * load-index: how long read_cache() takes on the index in the current
 * directory, the fixed cost every tool pays before its real work.
 * Loads it RUNS times (default 21) in one process, so the page cache
 * is warm, and prints "entries N min S median S" in seconds.
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

int main(int argc, char **argv)
{
	int i, runs = argc > 1 ? atoi(argv[1]) : 21, nr = 0;
	double *t;

	setup_tool(argv[0]);
	if (runs < 1)
		runs = 1;
	t = calloc(runs, sizeof(*t));
	if (!t)
		return 1;
	for (i = 0; i < runs; i++) {
		double start = now();

		nr = read_cache();
		if (nr < 0)
			return 1;
		t[i] = now() - start;
		discard_cache();
	}
	qsort(t, runs, sizeof(*t), cmp_double);
	printf("entries %d min %.4f median %.4f\n", nr, t[0], t[runs / 2]);
	return 0;
}
