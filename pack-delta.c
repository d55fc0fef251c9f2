/*
 * pack-delta.c: pack-objects' search for delta bases, as git's.
 *
 * The objects are sorted so that versions of one file come together:
 * by type, by the hash of their path (its last characters weigh the
 * most), then biggest first, since a delta that removes is smaller
 * than one that adds.  Each object is tried against the ten (the
 * window) before it, biggest first among the same file's versions;
 * the best delta is kept when it beats what git allows for it: half
 * the object, less as the base's chain grows, less than the delta
 * already found.  A base's block index is made once, the first time
 * it is tried, and serves every target after it in the window.
 *
 * Threads: the sorted list is cut into pieces at changes of the name
 * hash (a cut costs only the bases a piece's first objects could have
 * had from the piece before), and the pieces are shared out among
 * the threads, each with a window of its own.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cache.h"
#include "pack.h"

/* An object of the window: its content, and its index once made. */
struct unpacked {
	struct object_entry *entry;
	void *data;
	struct delta_index *index;
	size_t mem;		/* bytes of data and index */
};

struct search {
	const struct delta_search *opt;
	struct object_entry **list;
	size_t *cuts;		/* piece i is [cuts[i], cuts[i + 1]) */
	int failed;
};

uint32_t pack_name_hash(const char *path)
{
	uint32_t hash = 0;
	unsigned char c;

	if (!path)
		return 0;
	while ((c = *path++)) {
		if (isspace(c))
			continue;
		hash = (hash >> 2) + ((uint32_t)c << 24);
	}
	return hash;
}

unsigned char *zlib_deflate(const void *buf, size_t len, int level,
			    size_t *zlen)
{
	z_stream z;
	unsigned char *out;
	size_t bound;
	int ret;

	memset(&z, 0, sizeof(z));
	if (deflateInit(&z, level) != Z_OK) {
		error("zlib: cannot deflate at level %d", level);
		return NULL;
	}
	bound = deflateBound(&z, len);
	out = xmalloc(bound);
	z.next_in = (unsigned char *)buf;
	z.next_out = out;
	/* zlib counts in 32 bits: big objects go in pieces. */
	do {
		size_t in = len - (z.next_in - (unsigned char *)buf);
		size_t room = bound - z.total_out;

		z.avail_in = in > UINT32_MAX ? UINT32_MAX : in;
		z.avail_out = room > UINT32_MAX ? UINT32_MAX : room;
		ret = deflate(&z, z.avail_in == in ? Z_FINISH : Z_NO_FLUSH);
	} while (ret == Z_OK);
	deflateEnd(&z);
	if (ret != Z_STREAM_END) {
		free(out);
		error("zlib: deflate failed (%d)", ret);
		return NULL;
	}
	*zlen = z.total_out;
	return out;
}

/* Biggest type, name hash and size first; then the order given. */
static int compare_for_delta(const void *a_, const void *b_)
{
	const struct object_entry *a = *(struct object_entry *const *)a_;
	const struct object_entry *b = *(struct object_entry *const *)b_;

	if (a->type != b->type)
		return a->type > b->type ? -1 : 1;
	if (a->name_hash != b->name_hash)
		return a->name_hash > b->name_hash ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The bytes a delta of trg on src may take at most; 0: do not try. */
static size_t max_delta_size(const struct object_entry *trg,
			     const struct object_entry *src, int max_depth)
{
	size_t rawsz = the_hash->rawsz;
	uint64_t max;
	unsigned int ref_depth;

	if (trg->delta) {
		max = trg->delta_size;
		ref_depth = trg->depth;
	} else {
		/* git's rule: half the object, less a REF_DELTA's base id */
		max = trg->size / 2 > rawsz ? trg->size / 2 - rawsz : 0;
		ref_depth = 1;
	}
	return max * (max_depth - src->depth) / (max_depth - ref_depth + 1);
}

/*
 * When the pack that holds both keeps trg whole, its maker tried
 * this pair already (git's rule): not again, when reusing deltas.
 */
static int tried_before(const struct object_entry *t,
			const struct object_entry *s)
{
	return t->in_pack && t->in_pack == s->in_pack &&
		t->reuse == REUSE_WHOLE;
}

/*
 * Try src as trg's base: 1 when its delta is the best yet, 0 when
 * not, -1 when src is of another type (nor will any further be).
 */
static int try_delta(struct unpacked *trg, struct unpacked *src,
		     const struct delta_search *opt)
{
	struct object_entry *t = trg->entry, *s = src->entry;
	size_t max_size, sizediff, delta_size;
	int max_depth = opt->depth;
	void *delta;

	if (t->type != s->type)
		return -1;
	if (opt->reuse_delta && tried_before(t, s))
		return 0;
	if (s->depth + 1 + t->height > (unsigned int)max_depth)
		return 0;
	max_size = max_delta_size(t, s, max_depth);
	if (!max_size)
		return 0;
	sizediff = s->size < t->size ? t->size - s->size : 0;
	if (sizediff >= max_size || t->size < s->size / 32)
		return 0;
	if (!src->index) {
		src->index = create_delta_index(src->data, s->size);
		if (!src->index)
			return 0;
		src->mem += sizeof_delta_index(src->index);
	}
	delta = create_delta_from_index(src->index, trg->data, t->size,
					max_size, &delta_size);
	if (!delta)
		return 0;
	/* Of two deltas the same size, keep the shallower. */
	if (t->delta && delta_size == t->delta_size &&
	    s->depth + 1 >= t->depth) {
		free(delta);
		return 0;
	}
	free(t->delta_data);
	t->delta_data = delta;
	t->delta_size = delta_size;
	t->delta = s;
	t->depth = s->depth + 1;
	return 1;
}

/* Empty u: the bytes it gave back. */
static size_t release_unpacked(struct unpacked *u)
{
	size_t mem = u->mem;

	free_delta_index(u->index);
	free(u->data);
	u->index = NULL;
	u->data = NULL;
	u->entry = NULL;
	u->mem = 0;
	return mem;
}

/* Read e's content into u; -1 (reported once for all threads). */
static int load(struct search *s, struct unpacked *u, struct object_entry *e)
{
	struct fault f;
	enum object_type type;
	size_t size;

	release_unpacked(u);
	u->entry = e;
	u->data = read_object(e->sha1, &type, &size, &f);
	if (u->data && (type != e->type || size != e->size)) {
		free(u->data);
		u->data = NULL;
		set_fault(&f, FAULT_CORRUPT, "changed type or size");
	}
	if (u->data) {
		u->mem = size;
		return 0;
	}
	if (!__atomic_exchange_n(&s->failed, 1, __ATOMIC_RELAXED))
		report_object_fault(e->sha1, &f);
	return -1;
}

/* Deflate the delta kept for e: its bytes in the pack. */
static int deflate_delta(struct search *s, struct object_entry *e)
{
	unsigned char *z = zlib_deflate(e->delta_data, e->delta_size,
					s->opt->level, &e->delta_zlen);

	free(e->delta_data);
	e->delta_data = z;
	if (!z)
		__atomic_store_n(&s->failed, 1, __ATOMIC_RELAXED);
	return z ? 0 : -1;
}

/* Move the best base next to the newest entry: it stays the longest. */
static void keep_best(struct unpacked *win, size_t w, size_t idx,
		      size_t best)
{
	struct unpacked swap = win[best];
	size_t dist = (w + idx - best) % w, dst = best;

	while (dist--) {
		size_t src = (dst + 1) % w;

		win[dst] = win[src];
		dst = src;
	}
	win[dst] = swap;
}

/*
 * The bytes of the window slots other than idx (their contents and
 * indexes): past opt->window_memory, the oldest go, though never the
 * newest (it is the likeliest base).  A kernel's biggest headers
 * (tens of MB, a dozen of them sorted side by side) would otherwise
 * fill each thread's window with hundreds of MB.
 */
static void bound_window(struct unpacked *win, size_t w, size_t idx,
			 size_t limit)
{
	size_t held = 0, j, newest = (idx + w - 1) % w;

	if (!limit)
		return;
	for (j = 0; j < w; j++)
		if (j != idx)
			held += win[j].mem;
	for (j = 1; j < w - 1 && held > limit; j++) {
		size_t old = (idx + j) % w;

		if (old != newest && win[old].entry)
			held -= release_unpacked(&win[old]);
	}
}

/* One piece of the list, with a window of its own. */
static size_t search_piece(void *data, size_t piece)
{
	struct search *s = data;
	const struct delta_search *opt = s->opt;
	size_t w = opt->window + 1, idx = 0, i, j;
	size_t first = s->cuts[piece], end = s->cuts[piece + 1];
	struct unpacked *win = xcalloc(w, sizeof(*win));

	for (i = first; i < end; i++) {
		struct object_entry *e = s->list[i];
		size_t best = SIZE_MAX;

		release_unpacked(&win[idx]);
		bound_window(win, w, idx, opt->window_memory);
		if (__atomic_load_n(&s->failed, __ATOMIC_RELAXED) ||
		    load(s, &win[idx], e) < 0)
			break;
		for (j = w - 1; j > 0; j--) {
			size_t other = (idx + j) % w;
			int ret;

			if (!win[other].entry)
				break;
			ret = try_delta(&win[idx], &win[other], opt);
			if (ret < 0)
				break;
			if (ret > 0)
				best = other;
		}
		if (e->delta && deflate_delta(s, e) < 0)
			break;
		/* At the deepest, it can be no one's base: reuse its slot. */
		if (e->delta && e->depth >= (unsigned int)opt->depth)
			continue;
		if (best != SIZE_MAX)
			keep_best(win, w, idx, best);
		idx = (idx + 1) % w;
	}
	for (j = 0; j < w; j++)
		release_unpacked(&win[j]);
	free(win);
	return end - first;
}

/* Cut the sorted list into pieces of about `size`, at name changes. */
static size_t cut_list(struct object_entry **list, size_t nr, size_t size,
		       size_t **cuts)
{
	size_t n = 0, alloc = 0, at = 0;

	*cuts = NULL;
	while (at < nr) {
		size_t next = at + size;

		ALLOC_GROW(*cuts, n + 1, alloc);
		(*cuts)[n++] = at;
		if (next >= nr)
			break;
		while (next < nr && next < at + 2 * size &&
		       list[next]->name_hash == list[next - 1]->name_hash)
			next++;
		at = next;
	}
	ALLOC_GROW(*cuts, n + 1, alloc);
	(*cuts)[n] = nr;
	return n;
}

int find_deltas(struct object_entry **list, size_t nr,
		const struct delta_search *opt)
{
	struct search s = { opt, list, NULL, 0 };
	size_t pieces, size;
	int threads = opt->threads > 0 ? opt->threads : 1;

	if (!nr || opt->window <= 0 || opt->depth <= 0)
		return 0;
	qsort(list, nr, sizeof(*list), compare_for_delta);
	/* Enough pieces that no thread waits long for the last one. */
	size = nr / (threads * 16) + 1;
	if (size < 64)
		size = 64;
	pieces = cut_list(list, nr, size, &s.cuts);
	run_parallel_threads(threads, 0, pieces, search_piece, &s,
			     opt->progress, 0);
	free(s.cuts);
	return s.failed ? -1 : 0;
}
