/*
 * stream.c: an object's bytes, in and out of zlib.  The lowest layer of
 * the store, shared by every source (loose objects now, pack entries
 * later): the "<type> <size>\0" header, a struct object_stream that
 * hands out an object's content a piece at a time and checks it as it
 * goes (the zlib stream must end exactly where the content ends, with
 * nothing after it, and the content must hash to the id), and the one
 * deflate writer that makes a loose object.  It knows nothing of where
 * objects live.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* deflate never expands less than this ratio; more is a lie. */
#define MAX_INFLATE_RATIO 1032

/* ---- headers ---- */

int format_object_header(char *hdr, enum object_type type, size_t len)
{
	return snprintf(hdr, MAX_HEADER_LEN, "%s %zu", type_name(type),
			len) + 1;
}

int parse_object_header(const unsigned char *hdr, size_t avail,
			enum object_type *type, size_t *size)
{
	const unsigned char *sp, *p, *end;
	size_t n = 0;

	end = memchr(hdr, '\0', avail);
	if (!end)
		return -1;
	sp = memchr(hdr, ' ', end - hdr);
	if (!sp)
		return -1;
	*type = type_from_string((const char *)hdr, sp - hdr);
	if (*type == OBJ_BAD)
		return -1;
	p = sp + 1;
	if (p == end || (*p == '0' && p + 1 != end))
		return -1;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (n > (SIZE_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	*size = n;
	return end - hdr + 1;
}

int hash_buffer(const void *buf, size_t len, unsigned char *sha1)
{
	struct hash_ctx c;

	hash_init(&c, the_hash);
	hash_update(&c, buf, len);
	return hash_final(sha1, &c);
}

int hash_sha1_file(const void *buf, size_t len, enum object_type type,
		   unsigned char *sha1)
{
	char hdr[MAX_HEADER_LEN];
	int hdrlen = format_object_header(hdr, type, len);
	struct hash_ctx c;

	hash_init(&c, the_hash);
	hash_update(&c, hdr, hdrlen);
	hash_update(&c, buf, len);
	return hash_final(sha1, &c);
}

/* ---- reading ---- */

/*
 * zlib takes its input in pieces (it counts in 32 bits): the stream is
 * given FEED_MAX bytes more whenever it has used what it has, and its
 * source told (st->fed), to give back the pages of a mapping read.
 */
#define FEED_MAX ((size_t)8 << 20)

static void feed_input(struct object_stream *st)
{
	size_t n = st->zin_left > FEED_MAX ? FEED_MAX : st->zin_left;

	if (st->z.avail_in || !n)
		return;
	if (st->fed && st->z.total_in)
		st->fed(st);
	st->z.avail_in = n;
	st->zin_left -= n;
}

static void start_inflate(struct object_stream *st, const void *zbuf,
			  size_t len)
{
	memset(&st->z, 0, sizeof(st->z));
	st->z.next_in = (unsigned char *)zbuf;
	st->zin_left = len;
	feed_input(st);
	st->zlen = len;
	st->inflating = inflateInit(&st->z) == Z_OK;
}

/* One call of inflate, its input fed first. */
static int inflate_fed(struct object_stream *st, int flush)
{
	feed_input(st);
	return inflate(&st->z, flush);
}

/*
 * A size the zlib bytes cannot hold is refused before anyone allocates
 * it.  Any size that can is taken: content is read a piece at a time.
 */
static int check_claimed_size(struct object_stream *st, struct fault *f)
{
	if (st->size / MAX_INFLATE_RATIO > st->zlen || st->size == SIZE_MAX)
		return set_fault(f, FAULT_CORRUPT, "header claims more bytes "
				 "than its data can hold");
	return 0;
}

int open_loose_stream(struct object_stream *st, const void *zbuf,
		      size_t len, struct fault *f)
{
	return open_loose_prefix(st, zbuf, len, len, f);
}

/*
 * The header of a whole loose object by inflate.c, zlib not started
 * (for most objects it never is): 1 when read so, 0 when zlib must say
 * what is there.  A match that runs past the first bytes may leave the
 * header short: zlib then reads it.
 */
static int header_without_zlib(struct object_stream *st, const void *zbuf,
			       size_t len)
{
	unsigned char head[MAX_HEADER_LEN + INFLATE_SLACK];
	size_t got;
	int hdrlen;

	if (inflate_prefix(zbuf, len, head, MAX_HEADER_LEN, &got))
		return 0;
	hdrlen = parse_object_header(head, got, &st->type, &st->size);
	if (hdrlen < 0 || got - hdrlen > st->size)
		return 0;
	memcpy(st->early, head, got);
	st->early_pos = hdrlen;
	st->early_len = got;
	st->zbuf = zbuf;
	st->zlen = len;
	st->zlib_later = 1;
	return 1;
}

/* The header by zlib, which then goes on with the content. */
static int header_by_zlib(struct object_stream *st, const void *zbuf,
			  size_t avail, size_t len, struct fault *f)
{
	size_t got;
	int ret, hdrlen;

	start_inflate(st, zbuf, avail);
	st->zlen = len;
	if (!st->inflating)
		return set_fault(f, FAULT_IO, "zlib: inflateInit failed");
	st->z.next_out = st->early;
	st->z.avail_out = MAX_HEADER_LEN;
	ret = inflate_fed(st, Z_SYNC_FLUSH);
	st->ended = ret == Z_STREAM_END;
	got = MAX_HEADER_LEN - st->z.avail_out;
	hdrlen = ret == Z_OK || ret == Z_STREAM_END ?
		 parse_object_header(st->early, got, &st->type, &st->size) : -1;
	if (hdrlen < 0)
		return set_fault(f, FAULT_CORRUPT, "bad header");
	st->early_pos = hdrlen;
	st->early_len = got;
	if (got - hdrlen > st->size)
		return set_fault(f, FAULT_CORRUPT, "longer than its header says");
	return 0;
}

int open_loose_prefix(struct object_stream *st, const void *zbuf,
		      size_t avail, size_t len, struct fault *f)
{
	memset(st, 0, sizeof(*st));
	if ((avail != len || !header_without_zlib(st, zbuf, len)) &&
	    header_by_zlib(st, zbuf, avail, len, f) < 0)
		return -1;
	/* The header is part of what the id hashes. */
	hash_init(&st->ctx, the_hash);
	hash_update(&st->ctx, st->early, st->early_pos);
	st->left = st->size;
	return check_claimed_size(st, f);
}

int open_raw_stream(struct object_stream *st, const void *zbuf, size_t len,
		    int exact, enum object_type type, size_t size,
		    struct fault *f)
{
	char hdr[MAX_HEADER_LEN];

	memset(st, 0, sizeof(*st));
	start_inflate(st, zbuf, len);
	st->zlen_bound = !exact;
	if (!st->inflating)
		return set_fault(f, FAULT_IO, "zlib: inflateInit failed");
	st->type = type;
	st->size = st->left = size;
	hash_init(&st->ctx, the_hash);
	hash_update(&st->ctx, hdr, format_object_header(hdr, type, size));
	return check_claimed_size(st, f);
}

void open_memory_stream(struct object_stream *st, const void *buf,
			enum object_type type, size_t size)
{
	char hdr[MAX_HEADER_LEN];

	memset(st, 0, sizeof(*st));
	st->mem = buf;
	st->type = type;
	st->size = st->left = size;
	hash_init(&st->ctx, the_hash);
	hash_update(&st->ctx, hdr, format_object_header(hdr, type, size));
}

void verify_object_stream(struct object_stream *st, const unsigned char *sha1)
{
	hashcpy(st->sha1, sha1);
	st->verify = 1;
}

void set_zlib_check(struct object_stream *st, int on)
{
	st->zlib_check_off = !on;
	if (st->inflating)
		inflateValidate(&st->z, on);
}

/*
 * open_loose_prefix inflated the header (and maybe a few bytes more)
 * with zlib, to learn the size; the rest is faster in one call of
 * inflate_whole, from the stream's start.  Nothing is decided here:
 * anything it does not accept exactly as zlib would (a wrong size,
 * bytes after the stream, a bad Adler-32 when it is checked) leaves
 * the stream to zlib, which says why.
 */
static void inflate_rest_whole(struct object_stream *st, size_t max)
{
	const unsigned char *zbuf = st->z.next_in - st->z.total_in;
	size_t hdrlen = st->early_pos, total = hdrlen + st->size, used;
	unsigned char *out;

	/* loose streams only (a header inflated): a pack's are not whole */
	if (!hdrlen || !st->inflating || st->ended || st->zlen_bound ||
	    st->mem || st->left != st->size || st->size > max ||
	    st->zlen > UINT_MAX || st->z.total_in + st->z.avail_in != st->zlen)
		return;
	out = malloc(total + INFLATE_SLACK);
	if (!out)
		return;
	if (inflate_whole(zbuf, st->zlen, out, total, &used,
			  !st->zlib_check_off) ||
	    used != st->zlen || memcmp(out, st->early, hdrlen)) {
		free(out);
		return;
	}
	inflateEnd(&st->z);
	st->inflating = 0;
	st->ended = 1;
	st->early_len = st->early_pos;
	st->whole = out;
	st->mem = out + hdrlen;
}

/*
 * zlib takes over a stream whose header inflate.c read: it inflates
 * again the bytes inflate.c did, which must be the same.
 */
static int start_zlib_late(struct object_stream *st, struct fault *f)
{
	unsigned char again[MAX_HEADER_LEN];
	int ret;

	start_inflate(st, st->zbuf, st->zlen);
	if (!st->inflating)
		return set_fault(f, FAULT_IO, "zlib: inflateInit failed");
	inflateValidate(&st->z, !st->zlib_check_off);
	st->z.next_out = again;
	st->z.avail_out = st->early_len;
	ret = inflate_fed(st, Z_SYNC_FLUSH);
	if ((ret != Z_OK && ret != Z_STREAM_END) || st->z.avail_out ||
	    memcmp(again, st->early, st->early_len))
		return set_fault(f, FAULT_CORRUPT, "truncated or damaged zlib "
				 "stream");
	st->ended = ret == Z_STREAM_END;
	return 0;
}

/*
 * The content of a stream whose header inflate.c read, at its first
 * read: inflated whole by inflate.c when it is small enough and the
 * stream is exactly what zlib would accept, else left to zlib, which
 * says what is wrong.
 */
static int inflate_late(struct object_stream *st, size_t max,
			struct fault *f)
{
	size_t hdrlen = st->early_pos, total = hdrlen + st->size, used;
	unsigned char *out;

	st->zlib_later = 0;
	if (st->size > max)
		return start_zlib_late(st, f);
	out = malloc(total + INFLATE_SLACK);
	if (!out)
		return start_zlib_late(st, f);
	if (inflate_whole(st->zbuf, st->zlen, out, total, &used,
			  !st->zlib_check_off) ||
	    used != st->zlen || memcmp(out, st->early, st->early_len)) {
		free(out);
		return start_zlib_late(st, f);
	}
	st->ended = 1;
	st->early_len = st->early_pos;
	st->whole = out;
	st->mem = out + hdrlen;
	return 0;
}

/*
 * Inflate into buf (n bytes) until it is full or the stream ends, in
 * pieces of at most UINT_MAX bytes (what zlib takes).  When buf takes
 * all the content left (a small object, or one read whole), Z_FINISH
 * on the last piece lets zlib end the stream in this call without
 * keeping a window: no 32 KB allocated and copied into per object.
 */
static int inflate_into(struct object_stream *st, unsigned char *buf,
			size_t n, int last, struct fault *f)
{
	while (n && !st->ended) {
		uInt piece = n > UINT_MAX ? UINT_MAX : n;
		int flush = last && piece == n ? Z_FINISH : Z_NO_FLUSH;

		st->z.next_out = buf;
		st->z.avail_out = piece;
		while (st->z.avail_out && !st->ended) {
			int ret = inflate_fed(st, flush);

			if (ret == Z_STREAM_END)
				st->ended = 1;
			else if (ret == Z_BUF_ERROR && !st->z.avail_out)
				break;		/* full; the end is read later */
			else if (ret != Z_OK)
				return set_fault(f, FAULT_CORRUPT, "truncated "
						 "or damaged zlib stream");
		}
		buf += piece - st->z.avail_out;
		n -= piece - st->z.avail_out;
	}
	if (n)
		return set_fault(f, FAULT_CORRUPT, "shorter than its header "
				 "says");
	return 0;
}

/* The next n content bytes (n <= st->left) into buf. */
static int fill(struct object_stream *st, unsigned char *buf, size_t n,
		struct fault *f)
{
	size_t early;

	if (st->zlib_later && inflate_late(st, WHOLE_INFLATE_MAX, f) < 0)
		return -1;
	if (st->left == st->size)
		inflate_rest_whole(st, WHOLE_INFLATE_MAX);
	early = st->early_len - st->early_pos;
	if (st->mem) {
		memcpy(buf, st->mem + (st->size - st->left), n);
		return 0;
	}
	if (early > n)
		early = n;
	memcpy(buf, st->early + st->early_pos, early);
	st->early_pos += early;
	return n > early ? inflate_into(st, buf + early, n - early,
					n == st->left, f) : 0;
}

/*
 * All content is out: the zlib stream must end here, with no byte of
 * output and no byte of input after it, and the id must match.
 */
static int check_end(struct object_stream *st, struct fault *f)
{
	unsigned char spare, check[HASH_MAX_RAWSZ];

	if (st->zlib_later && inflate_late(st, WHOLE_INFLATE_MAX, f) < 0)
		return -1;
	if (st->inflating && !st->ended) {
		st->z.next_out = &spare;
		st->z.avail_out = 1;
		while (!st->ended && st->z.avail_out) {
			int ret = inflate_fed(st, Z_NO_FLUSH);

			if (ret == Z_STREAM_END)
				st->ended = 1;
			else if (ret != Z_OK)
				return set_fault(f, FAULT_CORRUPT, "truncated "
						 "or damaged zlib stream");
		}
		if (!st->z.avail_out)
			return set_fault(f, FAULT_CORRUPT, "longer than its "
					 "header says");
	}
	if (st->inflating && (st->z.avail_in || st->zin_left) &&
	    !st->zlen_bound)
		return set_fault(f, FAULT_CORRUPT, "garbage after the zlib "
				 "stream");
	if (!st->verify)
		return 0;
	if (hash_final(check, &st->ctx) < 0)
		return set_fault(f, FAULT_CORRUPT, "SHA-1 collision attack "
				 "detected");
	if (!hasheq(check, st->sha1))
		return set_fault(f, FAULT_HASH_MISMATCH, "its content hashes "
				 "to %s", sha1_to_hex(check));
	return 0;
}

ssize_t read_object_stream(struct object_stream *st, void *buf, size_t len,
			   struct fault *f)
{
	size_t n = len < st->left ? len : st->left;

	if (st->done)
		return 0;
	if (!n) {
		if (check_end(st, f) < 0)
			return -1;
		st->done = 1;
		return 0;
	}
	if (fill(st, buf, n, f) < 0)
		return -1;
	if (st->verify)
		hash_update(&st->ctx, buf, n);
	st->left -= n;
	return n;
}

/*
 * A stream on content its source malloc'd (st->owned) hands that over
 * instead of a copy, checked as read_object_stream would check it.
 */
static void *take_owned(struct object_stream *st, struct fault *f)
{
	unsigned char *buf = st->owned;

	if (st->verify)
		hash_update(&st->ctx, buf, st->size);
	st->left = 0;
	if (check_end(st, f) < 0)
		return NULL;
	st->done = 1;
	st->owned = NULL;
	st->mem = NULL;
	return buf;
}

void *read_object_stream_whole(struct object_stream *st, struct fault *f)
{
	unsigned char *buf;
	size_t got = 0;

	if (st->owned && st->mem == st->owned && st->left == st->size &&
	    !st->done)
		return take_owned(st, f);
	buf = malloc(st->size + 1);

	if (!buf) {
		set_fault(f, FAULT_IO, "out of memory for %zu bytes", st->size);
		return NULL;
	}
	for (;;) {
		ssize_t n = read_object_stream(st, buf + got, st->size - got, f);

		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (!n)
			break;
		got += n;
	}
	buf[st->size] = '\0';
	return buf;
}

int read_object_stream_in_memory(struct object_stream *st,
				 const unsigned char **buf, struct fault *f)
{
	*buf = NULL;
	if (st->done || st->left != st->size ||
	    (!st->mem && st->size > WHOLE_INFLATE_MAX))
		return 1;
	if (st->zlib_later && inflate_late(st, WHOLE_INFLATE_MAX, f) < 0)
		return -1;
	if (!st->mem)
		inflate_rest_whole(st, WHOLE_INFLATE_MAX);
	if (!st->mem)
		return 1;	/* zlib streams it, and says why not */
	if (st->verify)
		hash_update(&st->ctx, st->mem, st->size);
	st->left = 0;
	if (check_end(st, f) < 0)
		return -1;
	st->done = 1;
	*buf = st->mem;
	return 0;
}

int check_object_stream(struct object_stream *st, char **buf,
			struct fault *f)
{
	unsigned char *chunk;
	size_t len;
	ssize_t n;

	*buf = NULL;
	if (st->type != OBJ_BLOB) {
		*buf = read_object_stream_whole(st, f);
		return *buf ? 0 : -1;
	}
	len = st->size < OBJECT_CHUNK ? st->size + 1 : OBJECT_CHUNK;
	chunk = xmalloc(len);
	while ((n = read_object_stream(st, chunk, len, f)) > 0)
		;
	free(chunk);
	return n < 0 ? -1 : 0;
}

void close_object_stream(struct object_stream *st)
{
	if (st->inflating)
		inflateEnd(&st->z);
	st->inflating = 0;
	free(st->whole);
	st->whole = NULL;
	free(st->owned);
	st->owned = NULL;
	if (st->release)
		st->release(st);
	st->release = NULL;
}

/* ---- writing ---- */

/*
 * One zlib stream of len bytes in memory (malloc'd, *zlen bytes), for
 * an entry of a pack (content alone, no header).
 */
unsigned char *deflate_to_memory(const void *buf, size_t len, size_t *zlen)
{
	struct deflate_writer *w;
	unsigned char *out;

	*zlen = 0;
	w = deflate_writer_start(-1);
	deflate_writer_add(w, buf, len, 1);
	out = deflate_writer_result(w, zlen);
	deflate_writer_end(w);
	return out;
}

int deflate_object(int fd, enum object_type type, const void *buf,
		   size_t len)
{
	struct deflate_writer *w = deflate_writer_start(fd);
	char hdr[MAX_HEADER_LEN];
	int ret;

	ret = deflate_writer_add(w, hdr, format_object_header(hdr, type, len),
				 0);
	if (!ret)
		ret = deflate_writer_add(w, buf, len, 1);
	deflate_writer_end(w);
	return ret;
}
