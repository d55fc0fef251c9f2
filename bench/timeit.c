/*
 * timeit: run a command and append one line of figures to a file:
 *
 *   timeit OUTFILE command [args...]
 *
 *   seconds peak-KB user sys others load-before load-after
 *   avail-MB-before avail-MB-after
 *
 * /usr/bin/time reports elapsed time in hundredths of a second, too
 * coarse for a diff-tree that takes 20 ms; this reads a monotonic clock
 * around fork/exec and takes the CPU times and the peak RSS from
 * wait4(2).  "others" is the CPU time the rest of the machine used
 * while the command ran: what /proc/stat counts on every core (steal
 * included), less the command's own, in seconds; over the elapsed time
 * it is how many cores were busy with something else.  It says whether
 * a run can be trusted better than the load average, which lags by a
 * minute and counts the benchmark itself; it is counted in clock ticks,
 * so only a sum over runs of a second or more means much.
 * The load average and MemAvailable before and after are recorded as
 * well.  The command's exit status is passed on, so a failing run stops
 * the benchmark.
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

/* Seconds of CPU every core spent busy since boot (-1 if unknown). */
static double busy_cpu_seconds(void)
{
	unsigned long long v[8] = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	/* user nice system idle iowait irq softirq steal */
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 7 || hz <= 0)
		return -1;
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
}

static double load_average(void)
{
	double load = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	return load;
}

static long available_mb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

static double seconds(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	double start, secs, busy0, busy1, load0, user, sys, others;
	long mem0;
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: timeit <outfile> <command> [<arg>...]\n");
		return 129;
	}
	load0 = load_average();
	mem0 = available_mb();
	busy0 = busy_cpu_seconds();
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
	busy1 = busy_cpu_seconds();
	user = seconds(&ru.ru_utime);
	sys = seconds(&ru.ru_stime);
	others = busy0 < 0 || busy1 < 0 ? 0 : busy1 - busy0 - user - sys;
	if (others < 0)		/* clock ticks are coarser than rusage */
		others = 0;
	out = fopen(argv[1], "a");
	if (!out || fprintf(out, "%.4f %ld %.3f %.3f %.3f %.2f %.2f %ld %ld\n",
			    secs, ru.ru_maxrss, user, sys, others, load0,
			    load_average(), mem0, available_mb()) < 0 ||
	    fclose(out)) {
		fprintf(stderr, "timeit: write '%s': %s\n", argv[1],
			strerror(errno));
		return 128;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	/* No shell waits on the command to say so: a crash is silent. */
	fprintf(stderr, "timeit: %s: killed by signal %d (%s)\n", argv[2],
		WTERMSIG(status), strsignal(WTERMSIG(status)));
	return 128 + WTERMSIG(status);
}
