/*
 * csum-file.c: a file written through a buffer and hashed as it goes,
 * ending in the hash (the_hash) of all that came before (the index, a
 * pack, an idx), and put_be32/put_be64 (inline, in cache.h).  The bytes are
 * hashed a buffer at a time, just before they are written, so the file
 * is read once by the hash and written in big pieces.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

struct hashfile *hashfd(int fd)
{
	struct hashfile *f = xmalloc(sizeof(*f));

	f->fd = fd;
	f->total = 0;
	f->used = 0;
	f->failed = 0;
	f->name = NULL;
	hash_init(&f->ctx, the_hash);
	return f;
}

/* Hash and write len bytes at p; -1 with errno. */
static int hash_and_write(struct hashfile *f, const void *p, size_t len)
{
	hash_update(&f->ctx, p, len);
	if (write_in_full(f->fd, p, len) < 0) {
		f->failed = 1;
		f->used = sizeof(f->buf);	/* hashwrite's fast path too */
		return -1;
	}
	return 0;
}

static int hashflush(struct hashfile *f)
{
	if (f->used && hash_and_write(f, f->buf, f->used) < 0)
		return -1;
	f->used = 0;
	return 0;
}

/*
 * The buffer is written only when full, so that the writes are all of
 * its size and aligned to it; what is as big as the buffer and finds
 * it empty goes straight out.
 */
int hashwrite_slow(struct hashfile *f, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (f->failed)
		return -1;
	f->total += len;
	while (len) {
		size_t n = sizeof(f->buf) - f->used;

		if (!f->used && len >= sizeof(f->buf))
			return hash_and_write(f, p, len);
		if (n > len)
			n = len;
		memcpy(f->buf + f->used, p, n);
		f->used += n;
		p += n;
		len -= n;
		if (f->used == sizeof(f->buf) && hashflush(f) < 0)
			return -1;
	}
	return 0;
}

int hashfile_finish(struct hashfile *f, unsigned char *sha1)
{
	unsigned char tmp[HASH_MAX_RAWSZ];
	int ret = f->failed ? -1 : hashflush(f);

	if (!sha1)
		sha1 = tmp;
	if (!ret && hash_final(sha1, &f->ctx) < 0) {
		sha1_collision_error(f->name ? f->name : "file written");
		errno = EBADMSG;
		ret = -1;
	} else if (!ret) {
		ret = write_in_full(f->fd, sha1, the_hash->rawsz) < 0 ? -1 : 0;
	}
	free(f);
	return ret;
}
