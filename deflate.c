/*
 * deflate.c: zlib streams (RFC 1950) written by our own compressor.
 *
 * Adding a tree is bound by deflate: zlib's level 1 runs at 110-160
 * MB/s a core, against 1.4 GB/s for SHA-1 and a page cache that gives
 * every file of a kernel in about a second.  This compressor takes its
 * input a chunk of 64 KiB at a time, after the 32 KiB window of the
 * chunk before: a greedy LZ77 with a one-entry hash table of 4-byte
 * sequences (positions kept from one stream to the next and told
 * apart by an offset, so the table is not cleared for each object),
 * matches extended 8 bytes at a time; deflate-block.c makes the blocks.
 *
 * The result is a valid zlib stream that any inflater reads
 * (fuzz/fuzz-deflate inflates each one with zlib and with inflate.c
 * and compares); it is not the bytes zlib's level 1 would write, and a
 * little bigger (1-2% on source code).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cache.h"
#include "rfc1951.h"
#include "deflate.h"

#define MIN_MATCH 4		/* what the table finds; deflate allows 3 */

/* ---- matches ---- */

static uint32_t hash4(uint32_t seq)
{
	return (seq * 0x9e3779b1u) >> (32 - HASH_BITS);
}

/* How far a (at least MIN_MATCH bytes) equals b, up to max. */
static unsigned int match_length(const unsigned char *a,
				 const unsigned char *b, unsigned int max)
{
	unsigned int n = MIN_MATCH;

	while (n + 8 <= max) {
		uint64_t x = load_le64(a + n) ^ load_le64(b + n);

		if (x)
			return n + (__builtin_ctzll(x) >> 3);
		n += 8;
	}
	while (n < max && a[n] == b[n])
		n++;
	return n;
}

/*
 * Past this many bytes without a match, look at every other position,
 * then every third...: incompressible data goes through fast.
 */
#define SKIP_SHIFT 6
#define SKIP_MAX 64

/*
 * The symbols of data[i, len), data[0, i) being the window before
 * them, putting out a block each time the items fill.  The state's
 * counts are kept in locals: its arrays are uint32_t too, and every
 * store to one would make the compiler load them again.
 */
static void compress_data(struct deflate_state *s, const unsigned char *data,
			  size_t i, size_t len, size_t *block_start)
{
	uint32_t base = s->base, *head = s->head, *items = s->items;
	uint32_t *lit_freq = s->litlen_freq, *dist_freq = s->dist_freq;
	unsigned int nr = s->nr_items;
	size_t misses = 0;

	while (i + MIN_MATCH <= len) {
		uint32_t seq = load_le32(data + i);
		uint32_t *slot = &head[hash4(seq)];
		uint32_t dist = base + i - *slot;

		*slot = base + i;
		if (dist - 1 < WINDOW_SIZE &&
		    load_le32(data + i - dist) == seq) {
			unsigned int max = len - i < MAX_MATCH ? len - i :
								MAX_MATCH;
			unsigned int n = match_length(data + i, data + i - dist,
						      max);

			items[nr++] = MATCH_ITEM(n, dist);
			lit_freq[257 + deflate_length_sym[n]]++;
			dist_freq[dist_sym(dist)]++;
			/* the match's end, for the next repeat of it */
			if (i + n + 2 <= len)
				head[hash4(load_le32(data + i + n - 2))] =
					base + i + n - 2;
			i += n;
			misses = 0;
		} else {
			size_t step = 1 + (misses++ >> SKIP_SHIFT);

			if (step > SKIP_MAX)
				step = SKIP_MAX;
			for (; step && i < len; step--) {
				items[nr++] = data[i];
				lit_freq[data[i++]]++;
			}
		}
		if (nr > BLOCK_ITEMS - SKIP_MAX) {
			s->nr_items = nr;
			put_block(s, data, *block_start, i, 0);
			*block_start = i;
			nr = 0;
		}
	}
	for (; i < len; i++) {
		items[nr++] = data[i];
		lit_freq[data[i]]++;
	}
	s->nr_items = nr;
}

/* ---- the stream ---- */

/*
 * Input is compressed a chunk at a time, each chunk after the window
 * of the one before (kept in front of it in buf), so that a file of
 * any size is streamed in flat memory and positions stay 32-bit.
 */
#define CHUNK_SIZE (64 * 1024)
#define BUF_SIZE (WINDOW_SIZE + CHUNK_SIZE)
/* A chunk's stream at worst: stored blocks, a few bytes of framing. */
#define OUT_SIZE (BUF_SIZE + BUF_SIZE / 1024 + 64 + 8)

struct deflate_writer {
	struct deflate_state *s;
	unsigned char *buf;	/* window, then the chunk being filled */
	size_t window, have;	/* bytes of window; of window and chunk */
	uint32_t adler;
	int fd;			/* or -1: into mem */
	unsigned char *mem;
	size_t mem_len, mem_alloc;
};

/*
 * States kept for the next stream, as zlib's were: a few slots taken
 * and given back with atomic exchanges, so the threads of an add each
 * reuse one (its hash table is never cleared: positions of an earlier
 * stream are outside the window by then).
 */
#define SPARE_STATES 8
static struct deflate_state *spare_states[SPARE_STATES];

static struct deflate_state *get_state(void)
{
	struct deflate_state *s = NULL;
	int i;

	deflate_tables_init();
	for (i = 0; i < SPARE_STATES && !s; i++)
		s = __atomic_exchange_n(&spare_states[i], NULL,
					__ATOMIC_ACQUIRE);
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->base = WINDOW_SIZE + 1;
		s->out_buf = xmalloc(OUT_SIZE);
		s->in_buf = xmalloc(BUF_SIZE);
	}
	return s;
}

static void put_state(struct deflate_state *s)
{
	int i;

	for (i = 0; i < SPARE_STATES; i++) {
		struct deflate_state *none = NULL;

		if (__atomic_compare_exchange_n(&spare_states[i], &none, s, 0,
						__ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
	}
	free(s->out_buf);
	free(s->in_buf);
	free(s);
}

struct deflate_writer *deflate_writer_start(int fd)
{
	struct deflate_writer *w = xcalloc(1, sizeof(*w));
	struct deflate_state *s = get_state();

	w->s = s;
	w->buf = s->in_buf;
	w->fd = fd;
	w->adler = 1;
	s->nr_items = 0;
	memset(s->litlen_freq, 0, sizeof(s->litlen_freq));
	memset(s->dist_freq, 0, sizeof(s->dist_freq));
	s->bo.out = s->out_buf;
	s->bo.bits = 0;
	s->bo.nr_bits = 0;
	*s->bo.out++ = 0x78;	/* deflate, 32 KiB window */
	*s->bo.out++ = 0x01;	/* fastest, no dictionary, check bits */
	return w;
}

/* What the state's stream holds in whole bytes, to fd or to mem. */
static int write_out(struct deflate_writer *w)
{
	struct deflate_state *s = w->s;
	size_t n = s->bo.out - s->out_buf;

	s->bo.out = s->out_buf;
	if (w->fd >= 0)
		return write_in_full(w->fd, s->out_buf, n) < 0 ? -1 : 0;
	ALLOC_GROW(w->mem, w->mem_len + n, w->mem_alloc);
	memcpy(w->mem + w->mem_len, s->out_buf, n);
	w->mem_len += n;
	return 0;
}

/* The chunk in buf as blocks, then the window kept for the next. */
static int compress_chunk(struct deflate_writer *w, int last)
{
	struct deflate_state *s = w->s;
	size_t block_start = w->window, keep;

	/* the positions of every earlier stream stay out of the window */
	if (s->base > UINT32_MAX - 2 * BUF_SIZE) {
		memset(s->head, 0, sizeof(s->head));
		s->base = WINDOW_SIZE + 1;
	}
	compress_data(s, w->buf, w->window, w->have, &block_start);
	if (last || s->nr_items)
		put_block(s, w->buf, block_start, w->have, last);
	if (last) {
		align_bits(&s->bo);
		*s->bo.out++ = w->adler >> 24;
		*s->bo.out++ = w->adler >> 16;
		*s->bo.out++ = w->adler >> 8;
		*s->bo.out++ = w->adler;
	}
	keep = last || w->have < WINDOW_SIZE ? w->have : WINDOW_SIZE;
	memmove(w->buf, w->buf + w->have - keep, keep);
	s->base += w->have - keep;
	w->window = w->have = keep;
	if (last)
		s->base += keep + WINDOW_SIZE + 1;
	return write_out(w);
}

int deflate_writer_add(struct deflate_writer *w, const void *buf, size_t len,
		       int last)
{
	const unsigned char *p = buf;

	if (len)	/* adler32() of NULL is the initial value */
		w->adler = adler32_z(w->adler, p, len);
	while (len) {
		size_t n = BUF_SIZE - w->have;

		if (n > len)
			n = len;
		memcpy(w->buf + w->have, p, n);
		w->have += n;
		p += n;
		len -= n;
		if (w->have == BUF_SIZE && (len || !last) &&
		    compress_chunk(w, 0) < 0)
			return -1;
	}
	return last ? compress_chunk(w, 1) : 0;
}

unsigned char *deflate_writer_result(struct deflate_writer *w, size_t *len)
{
	unsigned char *mem = w->mem;

	*len = w->mem_len;
	w->mem = NULL;
	w->mem_len = w->mem_alloc = 0;
	return mem;
}

void deflate_writer_end(struct deflate_writer *w)
{
	if (!w)
		return;
	put_state(w->s);
	free(w->mem);
	free(w);
}
