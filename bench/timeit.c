/*
 * timeit: run a command and append "seconds peak-kilobytes" to a file.
 *
 *   timeit OUTFILE command [args...]
 *
 * /usr/bin/time reports elapsed time in hundredths of a second, too
 * coarse for a diff-tree that takes 20 ms; this reads a monotonic clock
 * around fork/exec and takes the peak RSS from wait4(2).  The command's
 * exit status is passed on, so a failing run stops the benchmark.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start, secs;
	int status;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: timeit <outfile> <command> [<arg>...]\n");
		return 129;
	}
	start = now();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "timeit: fork: %s\n", strerror(errno));
		return 128;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "timeit: exec '%s': %s\n", argv[2],
			strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		fprintf(stderr, "timeit: wait: %s\n", strerror(errno));
		return 128;
	}
	secs = now() - start;
	out = fopen(argv[1], "a");
	if (!out || fprintf(out, "%.4f %ld\n", secs, ru.ru_maxrss) < 0 ||
	    fclose(out)) {
		fprintf(stderr, "timeit: write '%s': %s\n", argv[1],
			strerror(errno));
		return 128;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}
