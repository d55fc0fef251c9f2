/*
 * inflate.c: a zlib stream inflated whole, in memory, to a size known
 * before it starts (a pack entry's header gives it).
 *
 * zlib's inflate() is written for streams that come in pieces: it keeps
 * its state between calls, decodes the last few hundred bytes of every
 * buffer in a slow state machine, and allocates that state each time.
 * A pack entry is in memory whole and its size is known, so this
 * decoder reads the input 8 bytes at a time into a 64-bit bit buffer,
 * writes straight into the result, and copies matches by words; while
 * enough input and output remain, in a loop that checks no bound (the
 * careful one takes the last bytes of each).  It
 * accepts exactly the streams zlib accepts (fuzz/fuzz-inflate compares
 * them) and does not compute the Adler-32 of the result unless asked:
 * every reader hashes what it hands out against its id, a stronger
 * check of the same bytes; fsck-cache asks, to report what git fsck
 * reports.
 *
 * RFC 1950 (the zlib wrapper) and RFC 1951 (DEFLATE).  This file has
 * the wrapper and the blocks of a stream; inflate-table.c builds the
 * decoding tables, inflate-huffman.c decodes (inflate.h between them).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cache.h"
#include "inflate.h"

static int check_adler32;	/* set_inflate_checksum() */

void set_inflate_checksum(int on)
{
	check_adler32 = on;
}

static struct tables fixed;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static pthread_key_t first_key;	/* each thread's first_block */
static int have_first_key;

/* The fixed code's tables, the decode loop, each thread's key. */
static void make_tables(void)
{
	inflate_fixed_tables(&fixed);
	inflate_choose_loop();
	have_first_key = !pthread_key_create(&first_key, free);
}

/*
 * The Adler-32 of len bytes (RFC 1950): s1 is 1 plus the bytes, s2 the
 * sum of s1 after each, both modulo 65521.  With SSE2 (every x86-64),
 * 16 bytes a step: the block's bytes add to s1 (psadbw), and to s2
 * each weighted by how many of s2's sums in the block it is in, 16 for
 * the first down to 1 (pmaddwd), with 16 times s1 at the block's start
 * (the sums of the blocks before, kept apart and added at the end).
 * Reduced every ADLER_NMAX bytes, as zlib does, before a 32-bit lane
 * could overflow.  Elsewhere, zlib's.
 */
#define ADLER_MOD 65521
#define ADLER_NMAX 5552

#ifdef __SSE2__
#include <emmintrin.h>

static uint64_t sum_lanes(__m128i v)
{
	uint32_t l[4];

	_mm_storeu_si128((__m128i *)l, v);
	return (uint64_t)l[0] + l[1] + l[2] + l[3];
}

static uint32_t adler32_of(const unsigned char *p, size_t len)
{
	const __m128i zero = _mm_setzero_si128();
	const __m128i w_lo = _mm_set_epi16(9, 10, 11, 12, 13, 14, 15, 16);
	const __m128i w_hi = _mm_set_epi16(1, 2, 3, 4, 5, 6, 7, 8);
	uint64_t s1 = 1, s2 = 0;

	while (len) {
		size_t n = len < ADLER_NMAX ? len : ADLER_NMAX, blocks = n / 16;
		__m128i vs1 = zero, vs2 = zero, before = zero;
		size_t k;

		len -= n;
		for (k = 0; k < blocks; k++, p += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)p);

			before = _mm_add_epi32(before, vs1);
			vs1 = _mm_add_epi32(vs1, _mm_sad_epu8(v, zero));
			vs2 = _mm_add_epi32(vs2, _mm_madd_epi16(
				_mm_unpacklo_epi8(v, zero), w_lo));
			vs2 = _mm_add_epi32(vs2, _mm_madd_epi16(
				_mm_unpackhi_epi8(v, zero), w_hi));
		}
		s2 += 16 * (blocks * s1 + sum_lanes(before)) + sum_lanes(vs2);
		s1 += sum_lanes(vs1);
		for (n -= blocks * 16; n; n--) {
			s1 += *p++;
			s2 += s1;
		}
		s1 %= ADLER_MOD;
		s2 %= ADLER_MOD;
	}
	return (uint32_t)(s2 << 16 | s1);
}
#else
static uint32_t adler32_of(const unsigned char *p, size_t len)
{
	return adler32_z(adler32(0, NULL, 0), p, len);
}
#endif

static int zlib_header(const unsigned char *in, size_t len)
{
	if (len < 2)
		return INFLATE_TRUNCATED;
	if ((in[0] << 8 | in[1]) % 31 || (in[0] & 15) != 8 || in[0] >> 4 > 7 ||
	    in[1] & 0x20)
		return INFLATE_CORRUPT;
	return 0;
}

const char *inflate_error(int ret)
{
	switch (ret) {
	case INFLATE_LONGER:
		return "longer than its header says";
	case INFLATE_SHORTER:
		return "shorter than its header says";
	case INFLATE_NOMEM:
		return "out of memory";
	case INFLATE_CHECKSUM:
		return "zlib checksum (adler32) mismatch";
	case INFLATE_WINDOW:
		return "a block bigger than the window to inflate it in";
	default:
		return "truncated or damaged zlib stream";
	}
}

/*
 * A loose object is inflated twice: its first bytes for its header
 * (inflate_prefix, to learn its size), then whole (inflate_whole), and
 * both would read its first block's code lengths and build its tables.
 * So the prefix keeps, per thread, the tables of a first block that is
 * dynamic and the bits after its code lengths, with the input they
 * came from: every byte the bit reader had passed (FIRST_MAX at most)
 * and the stream's length.  A whole inflate of a stream with the same
 * length that starts with the same bytes is in the same state there,
 * so it takes them instead of building them again.
 */
#define FIRST_MAX 320

struct first_block {
	size_t len;		/* the stream's length */
	size_t loaded;		/* its first bytes, kept below; 0: none */
	unsigned char start[FIRST_MAX];
	uint64_t buf;		/* the bits after the code lengths */
	unsigned int count;
	int last;		/* the block's last-block bit */
	struct tables t;
};

enum { FIRST_NONE, FIRST_KEEP, FIRST_TAKE };

/* This thread's first_block, allocated when keep is set; or NULL. */
static struct first_block *first_block(int keep)
{
	struct first_block *f;

	if (!have_first_key)
		return NULL;
	f = pthread_getspecific(first_key);
	if (!f && keep && (f = malloc(sizeof(*f)))) {
		f->loaded = 0;
		if (pthread_setspecific(first_key, f)) {
			free(f);
			f = NULL;
		}
	}
	return f;
}

/* The first block kept, if the stream b starts with it: into b. */
static struct first_block *take_first(struct bits *b)
{
	struct first_block *f = first_block(0);

	if (!f || !f->loaded || f->len != (size_t)(b->end - b->start) ||
	    memcmp(f->start, b->start, f->loaded))
		return NULL;
	b->p = b->start + f->loaded;
	b->buf = f->buf;
	b->count = f->count;
	return f;
}

/* Keep the state of b, its code lengths just read into f->t. */
static void keep_first(struct first_block *f, const struct bits *b, int last)
{
	size_t loaded = b->p - b->start;

	if (b->p > b->end || loaded > FIRST_MAX)
		return;
	memcpy(f->start, b->start, loaded);
	f->len = b->end - b->start;
	/* bits above the count may come from bytes past p: not kept */
	f->buf = b->count < 64 ? b->buf & ((1ull << b->count) - 1) : b->buf;
	f->count = b->count;
	f->last = last;
	f->loaded = loaded;
}

/* The next block of a stream, its header first, into o; *last its bit. */
static int inflate_block(struct bits *b, struct out *o, struct tables **t,
			 int *last)
{
	unsigned int type;
	int ret;

	refill(b);
	*last = take(b, 1);
	type = take(b, 2);
	if (type == 0)
		return inflate_stored_block(b, o);
	if (type == 1)
		return inflate_huffman_block(b, o, fixed.litlen, fixed.dist);
	if (type != 2)
		return INFLATE_CORRUPT;
	if (!*t && !(*t = malloc(sizeof(**t))))
		return INFLATE_NOMEM;
	ret = inflate_dynamic_tables(b, *t);
	return ret ? ret : inflate_huffman_block(b, o, (*t)->litlen,
						 (*t)->dist);
}

/* Whether the block that b starts is a dynamic one (nothing taken). */
static int starts_dynamic(struct bits *b)
{
	refill(b);
	return (b->buf >> 1 & 3) == 2;
}

/*
 * The blocks of a stream whose zlib header b has passed, into o; the
 * first block's tables kept or taken as first says.
 */
static int inflate_blocks(struct bits *b, struct out *o, int first)
{
	struct tables *t = NULL;
	struct first_block *f;
	int ret = 0, last = 0;

	pthread_once(&tables_once, make_tables);
	if (first == FIRST_TAKE && (f = take_first(b))) {
		last = f->last;
		ret = inflate_huffman_block(b, o, f->t.litlen, f->t.dist);
	} else if (first == FIRST_KEEP && starts_dynamic(b) &&
		   (f = first_block(1))) {
		last = take(b, 1);
		take(b, 2);
		f->loaded = 0;
		ret = inflate_dynamic_tables(b, &f->t);
		if (!ret)
			keep_first(f, b, last);
		if (!ret)
			ret = inflate_huffman_block(b, o, f->t.litlen,
						    f->t.dist);
	}
	while (!ret && !last)
		ret = inflate_block(b, o, &t, &last);
	free(t);
	return ret;
}

int inflate_prefix(const void *in, size_t len, unsigned char *out,
		   size_t want, size_t *got)
{
	struct bits b = { in, in, (const unsigned char *)in + len, 0, 0 };
	struct out o = { out, 0, want };
	int ret = zlib_header(in, len);

	*got = 0;
	if (ret)
		return ret;
	b.p += 2;
	ret = inflate_blocks(&b, &o, FIRST_KEEP);
	*got = o.pos;
	return ret == INFLATE_LONGER ? 0 : ret;
}

int inflate_whole(const void *in, size_t len, unsigned char *out,
		  size_t size, size_t *used, int check)
{
	struct bits b = { in, in, (const unsigned char *)in + len, 0, 0 };
	struct out o = { out, 0, size };
	int ret = zlib_header(in, len);

	*used = 0;
	if (ret)
		return ret;
	b.p += 2;
	ret = inflate_blocks(&b, &o, FIRST_TAKE);
	if (ret)
		return ret;
	/* the Adler-32 of the result: only when asked (see the top) */
	align_to_byte(&b);
	if (b.p > b.end || b.end - b.p < 4)
		return INFLATE_TRUNCATED;
	*used = b.p + 4 - b.start;
	if (o.pos < size)
		return INFLATE_SHORTER;
	if ((check || check_adler32) && adler32_of(out, size) !=
	    ((uint32_t)b.p[0] << 24 | b.p[1] << 16 | b.p[2] << 8 | b.p[3]))
		return INFLATE_CHECKSUM;
	return 0;
}

/*
 * inflate_windows: the buffer holds the last WINDOW_HISTORY bytes given
 * out (the farthest a match reaches back), then the blocks that follow.
 * Past half the room, what the blocks gave is handed to the sink and
 * the history moved down.  A block that runs past the room is started
 * again from the bits and the history it started with, after the move:
 * its code lengths, bits and matches depend on nothing else.
 */
#define WINDOW_HISTORY 32768

struct window {
	struct out o;
	size_t room;
	size_t base;		/* where buf[0] is in the whole output */
	size_t given;		/* how much of it the sink has had */
	inflate_sink fn;
	void *data;
};

/* Hand what came since the last time to the sink. */
static int give_out(struct window *w)
{
	size_t from = w->given - w->base, n = w->o.pos - from;

	w->given += n;
	return n ? w->fn(w->data, w->o.buf + from, n) : 0;
}

/* Hand it out and keep only the history (INFLATE_WINDOW: nothing to drop). */
static int slide(struct window *w)
{
	size_t drop;
	int ret;

	if (w->o.pos <= WINDOW_HISTORY)
		return INFLATE_WINDOW;
	ret = give_out(w);
	if (ret)
		return ret;
	drop = w->o.pos - WINDOW_HISTORY;
	memmove(w->o.buf, w->o.buf + drop, WINDOW_HISTORY);
	w->base += drop;
	w->o.pos = WINDOW_HISTORY;
	return 0;
}

static int inflate_in_windows(struct bits *b, struct window *w, size_t size)
{
	struct tables *t = NULL;
	int ret = 0, last = 0;

	while (!last) {
		struct bits before = *b;
		size_t pos = w->o.pos, left = size - w->base;

		w->o.size = left < w->room ? left : w->room;
		ret = inflate_block(b, &w->o, &t, &last);
		if (ret == INFLATE_LONGER && w->o.size < left) {
			*b = before;
			w->o.pos = pos;
			last = 0;
			ret = slide(w);
		} else if (!ret && !last && w->o.pos > w->room / 2) {
			ret = slide(w);
		}
		if (ret)
			break;
	}
	free(t);
	return ret ? ret : give_out(w);
}

int inflate_windows(const void *in, size_t len, size_t size, size_t *used,
		    unsigned char *buf, size_t room, inflate_sink fn,
		    void *data)
{
	struct bits b = { in, in, (const unsigned char *)in + len, 0, 0 };
	struct window w = { { buf, 0, 0 }, room, 0, 0, fn, data };
	int ret = zlib_header(in, len);

	*used = 0;
	if (ret)
		return ret;
	if (room < 2 * WINDOW_HISTORY)
		return INFLATE_WINDOW;
	pthread_once(&tables_once, make_tables);
	b.p += 2;
	ret = inflate_in_windows(&b, &w, size);
	if (ret)
		return ret;
	align_to_byte(&b);
	if (b.p > b.end || b.end - b.p < 4)
		return INFLATE_TRUNCATED;
	*used = b.p + 4 - b.start;
	return w.base + w.o.pos < size ? INFLATE_SHORTER : 0;
}
