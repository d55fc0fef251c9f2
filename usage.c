/*
 * usage.c: how every tool reports.  One line on stderr,
 * "tool: what: why", so a script's stdout carries only results.
 * die() exits 128 and usage() 129, as git does, so that tests can
 * tell a refusal from a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

static const char *prog = "dircache";

void set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	prog = slash ? slash + 1 : argv0;
}

const char *progname(void)
{
	return prog;
}

static void report(const char *fmt, va_list ap, int err)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (err)
		fprintf(stderr, "%s: %s: %s\n", prog, msg, strerror(err));
	else
		fprintf(stderr, "%s: %s\n", prog, msg);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, 0);
	va_end(ap);
	exit(128);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, err);
	va_end(ap);
	exit(128);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, 0);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, err);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: warning: %s\n", prog, msg);
}

void usage(const char *usage_line)
{
	fprintf(stderr, "usage: %s\n", usage_line);
	exit(129);
}

/*
 * The manual page of the running tool, found from where its binary
 * really is (symbolic links followed): Documentation/<tool>.1 beside
 * it in the build tree, else ../share/man/man1/<tool>.1 as make install
 * lays it out.  NULL when there is none.
 */
static char *find_manual_page(const char *argv0)
{
	static const char *const places[] = {
		"%s/Documentation/%s.1", "%s/../share/man/man1/%s.1"
	};
	char exe[PATH_MAX], page[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	size_t i;

	if (n > 0)
		exe[n] = '\0';
	else if (!strchr(argv0, '/') || !realpath(argv0, exe))
		return NULL;
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	for (i = 0; i < sizeof(places) / sizeof(*places); i++) {
		snprintf(page, sizeof(page), places[i], exe, slash + 1);
		if (!access(page, R_OK))
			return xstrdup(page);
	}
	return NULL;
}

/*
 * --help: the manual page through man(1), paged on a terminal; into a
 * pipe or a file as plain text (MANPAGER=cat), so that "tool --help |
 * cat" never waits on a pager.  Returns only when there is no page or
 * no man to show it.
 */
static void show_manual_page(const char *argv0)
{
	char *page = find_manual_page(argv0);

	if (!page)
		return;
	fflush(stdout);
	if (!isatty(1)) {
		setenv("MANPAGER", "cat", 1);
		setenv("PAGER", "cat", 1);
	}
	execlp("man", "man", "-l", page, (char *)NULL);
	free(page);
}

void handle_help(int argc, char **argv, const char *usage_line)
{
	if (argc != 2)
		return;
	if (!strcmp(argv[1], "--help"))
		show_manual_page(argv[0]);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		printf("usage: %s\n", usage_line);
		finish_stdout();
		exit(0);
	}
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu * %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory copying a string");
	return p;
}

void *grow_array(void *ptr, size_t nr, size_t *alloc, size_t elem)
{
	size_t n = *alloc;

	if (nr <= n)
		return ptr;
	n = n < 16 ? 16 : n;
	while (n < nr) {
		if (n > SIZE_MAX / 2 / elem)
			die("out of memory growing an array to %zu", nr);
		n = n * 3 / 2 + 16;
	}
	*alloc = n;
	return xrealloc(ptr, n * elem);
}

/*
 * Write all of buf: with write() when offset is negative, else with
 * pwrite() from offset on.  A write of nothing is a full disk.
 */
static int put_in_full(int fd, const void *buf, size_t len, int64_t offset)
{
	const char *p = buf;

	while (len) {
		ssize_t n = offset < 0 ? write(fd, p, len) :
			pwrite(fd, p, len, offset);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!n) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= n;
		if (offset >= 0)
			offset += n;
	}
	return 0;
}

int write_in_full(int fd, const void *buf, size_t len)
{
	return put_in_full(fd, buf, len, -1);
}

int pwrite_in_full(int fd, const void *buf, size_t len, uint64_t offset)
{
	if (offset > INT64_MAX) {
		errno = EINVAL;
		return -1;
	}
	return put_in_full(fd, buf, len, (int64_t)offset);
}

int pread_in_full(int fd, void *buf, size_t len, uint64_t offset)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, offset);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!n) {
			errno = EIO;	/* the file is shorter than promised */
			return -1;
		}
		p += n;
		len -= n;
		offset += n;
	}
	return 0;
}

ssize_t read_in_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!n)
			break;
		got += n;
	}
	return got;
}

char *read_small_file(const char *path, size_t max, size_t *len)
{
	struct stat st;
	ssize_t n = -1;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		/* errno is fstat's */
	} else if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	} else if ((uintmax_t)st.st_size >= max) {
		errno = EFBIG;
	} else {
		buf = xmalloc(st.st_size + 1);
		n = read_in_full(fd, buf, st.st_size);
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * Progress for long work, like git's: only when stderr is a terminal,
 * so that scripts see nothing new.  Redrawn when the percentage moves.
 */
struct progress {
	const char *title;
	size_t total;
	int last_percent;
};

static int progress_mode;

void set_progress_mode(int mode)
{
	progress_mode = mode;
}

struct progress *start_progress(const char *title, size_t total)
{
	struct progress *p;

	if (progress_mode < 0 || (!progress_mode &&
				  (total < PROGRESS_MIN || !isatty(2))))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = title;
	p->total = total;
	p->last_percent = -1;
	return p;
}

void display_progress(struct progress *p, size_t done)
{
	int percent;

	if (!p)
		return;
	percent = p->total ? done * 100 / p->total : 100;
	if (percent == p->last_percent)
		return;
	p->last_percent = percent;
	fprintf(stderr, "\r%s: %3d%% (%zu/%zu)", p->title, percent, done,
		p->total);
}

void stop_progress(struct progress **pp)
{
	struct progress *p = *pp;

	if (!p)
		return;
	display_progress(p, p->total);
	fprintf(stderr, ", done.\n");
	free(p);
	*pp = NULL;
}

static void vset_fault(struct fault *f, enum fault_code code,
		       const char *fmt, va_list ap)
{
	f->code = code;
	f->err = 0;
	f->path = NULL;
	f->line = 0;
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
}

int set_fault(struct fault *f, enum fault_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_fault(f, code, fmt, ap);
	va_end(ap);
	return -1;
}

int set_fault_at(struct fault *f, enum fault_code code, const char *path,
		 unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_fault(f, code, fmt, ap);
	va_end(ap);
	f->path = path;
	f->line = line;
	return -1;
}

int set_fault_errno(struct fault *f, const char *fmt, ...)
{
	int err = errno;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vset_fault(f, FAULT_IO, fmt, ap);
	va_end(ap);
	f->err = err;
	len = strlen(f->msg);
	snprintf(f->msg + len, sizeof(f->msg) - len, ": %s", strerror(err));
	errno = err;
	return -1;
}

void finish_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		die_errno("write to standard output");
}
