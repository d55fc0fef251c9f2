/*
 * mbuf.c: the library's one growing string buffer, always
 * NUL-terminated.  It never dies: when memory runs out (or a size would
 * overflow) the call returns -1, the buffer keeps what it held, and
 * every later write to it fails too (b->failed), so that a caller may
 * write a whole text and check once at the end.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

void mbuf_init(struct mbuf *b)
{
	memset(b, 0, sizeof(*b));
}

static int mbuf_fail(struct mbuf *b)
{
	b->failed = 1;
	return -1;
}

/*
 * DIRCACHE_TEST_MBUF_FAIL_AFTER=<n>[:once], for the tests only: the
 * allocations after the first n fail (with ":once", only the next one),
 * as if memory had run out.  Read once; costs a test per allocation,
 * none per byte.
 */
static long fail_after;
static int fail_set, fail_once;
static pthread_once_t fail_init = PTHREAD_ONCE_INIT;

static void read_fail_after(void)
{
	const char *env = getenv("DIRCACHE_TEST_MBUF_FAIL_AFTER");
	char *end;

	if (!env || !*env)
		return;
	fail_after = strtol(env, &end, 10);
	fail_set = 1;
	fail_once = !strcmp(end, ":once");
}

static int test_alloc_fails(void)
{
	long left;

	pthread_once(&fail_init, read_fail_after);
	if (!fail_set)
		return 0;
	left = __atomic_sub_fetch(&fail_after, 1, __ATOMIC_RELAXED);
	if (left == -1)
		return 1;
	if (left < -1 && !fail_once)
		return 1;
	return 0;
}

int mbuf_grow(struct mbuf *b, size_t extra)
{
	size_t want = b->len + extra + 1, alloc;
	char *buf;

	if (b->failed)
		return -1;
	if (want <= b->len)
		return mbuf_fail(b);
	if (b->buf && want <= b->alloc)
		return 0;
	alloc = b->alloc < 64 ? 64 : b->alloc;
	while (alloc < want)
		alloc = alloc * 2 < alloc ? want : alloc * 2;
	buf = test_alloc_fails() ? NULL : realloc(b->buf, alloc);
	if (!buf)
		return mbuf_fail(b);
	b->buf = buf;
	b->alloc = alloc;
	b->buf[b->len] = '\0';
	return 0;
}

int mbuf_add(struct mbuf *b, const void *data, size_t len)
{
	if (mbuf_grow(b, len) < 0)
		return -1;
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
	return 0;
}

int mbuf_addbuf(struct mbuf *b, const struct mbuf *src)
{
	if (src->failed)
		return mbuf_fail(b);
	return mbuf_add(b, mbuf_str(src), src->len);
}

int mbuf_addch(struct mbuf *b, int c)
{
	char ch = (char)c;

	return mbuf_add(b, &ch, 1);
}

int mbuf_addstr(struct mbuf *b, const char *s)
{
	return mbuf_add(b, s, strlen(s));
}

int mbuf_addf(struct mbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (mbuf_grow(b, 64) < 0)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return mbuf_fail(b);
	if ((size_t)n >= b->alloc - b->len) {
		if (mbuf_grow(b, n) < 0)
			return -1;
		va_start(ap, fmt);
		vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += n;
	return 0;
}

int mbuf_setlen(struct mbuf *b, size_t len)
{
	if (mbuf_grow(b, 0) < 0)
		return -1;
	if (len <= b->len) {
		b->len = len;
		b->buf[len] = '\0';
	}
	return 0;
}

int mbuf_reset(struct mbuf *b)
{
	return mbuf_setlen(b, 0);
}

void mbuf_release(struct mbuf *b)
{
	free(b->buf);
	mbuf_init(b);
}

char *mbuf_detach(struct mbuf *b, size_t *len)
{
	char *buf;

	if (mbuf_grow(b, 0) < 0) {
		mbuf_release(b);
		return NULL;
	}
	buf = b->buf;
	if (len)
		*len = b->len;
	mbuf_init(b);
	return buf;
}

int mbuf_remove(struct mbuf *b, size_t pos, size_t len)
{
	if (pos > b->len || len > b->len - pos)
		return 0;
	if (len)
		memmove(b->buf + pos, b->buf + pos + len, b->len - pos - len);
	return mbuf_setlen(b, b->len - len);
}

int mbuf_insert(struct mbuf *b, size_t pos, const void *data, size_t len)
{
	if (pos > b->len)
		return 0;
	if (mbuf_grow(b, len) < 0)
		return -1;
	memmove(b->buf + pos + len, b->buf + pos, b->len - pos);
	memcpy(b->buf + pos, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
	return 0;
}

int mbuf_rtrim(struct mbuf *b)
{
	size_t len = b->len;

	while (len && isspace((unsigned char)b->buf[len - 1]))
		len--;
	return mbuf_setlen(b, len);
}

int mbuf_trim(struct mbuf *b)
{
	size_t skip = 0;

	if (mbuf_rtrim(b) < 0)
		return -1;
	while (skip < b->len && isspace((unsigned char)b->buf[skip]))
		skip++;
	return mbuf_remove(b, 0, skip);
}

const char *mbuf_str(const struct mbuf *b)
{
	return b->buf ? b->buf : "";
}
