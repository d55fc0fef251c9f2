/*
 * pack-map.c: a pack file opened and mapped.  pack-<hex>.pack is
 * "PACK", version 2 or 3, the count, then entries: a type and size in
 * a base-128 header, for a delta its base (an offset back, or an id),
 * and zlib data; a hash of all of it (the_hash) at the end.  The header and
 * trailer are checked against the idx (pack-idx.c) when the pack is
 * first opened, and every offset before it is used.  The pack is
 * mapped in windows, so a pack of many GiB needs address space for the
 * entries in use, not memory.  Parsing entries, resolving deltas and
 * handing out objects is pack-read.c's work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pack.h"

/* Windows of 64 MiB, and at most 1 GiB of one pack mapped at once. */
#define WINDOW_SIZE ((size_t)64 << 20)
static size_t mapped_limit = (size_t)1 << 30;

void set_pack_mapped_limit(size_t bytes)
{
	mapped_limit = bytes < 2 * WINDOW_SIZE ? 2 * WINDOW_SIZE : bytes;
}

/*
 * A reader going through a whole pack (a checkout, fsck-cache) touches
 * every page of it, and every page it keeps mapped counts in its
 * memory: each time it has read this much, the windows' pages are
 * given back (they stay in the page cache; a page read again is mapped
 * again).
 */
static size_t trim_bytes = (size_t)32 << 20;

/*
 * A touch maps more than the bytes read: the kernel maps the pages of
 * the 64 KiB around the page faulted in (its fault-around), or a whole
 * folio of the page cache.  A reader of scattered small entries (the
 * trees of a checkout, the headers read-tree or verify-objects look
 * at) reads little but would soon have most of a big pack mapped: each
 * 64 KiB block touched for the first time since the last trim counts
 * as 64 KiB read (a bit per block, p->touched).
 */
#define TOUCH_SHIFT 16

static void note_touch(struct packed_git *p, uint64_t offset)
{
	uint64_t block = offset >> TOUCH_SHIFT;

	if (!trim_bytes)
		return;
	if (!p->touched)
		p->touched = xcalloc((p->pack_size >> TOUCH_SHIFT) / 8 + 1, 1);
	if (p->touched[block / 8] & (1 << (block % 8)))
		return;
	p->touched[block / 8] |= 1 << (block % 8);
	p->read_since_trim += (size_t)1 << TOUCH_SHIFT;
}

void set_pack_trim_bytes(size_t bytes)
{
	trim_bytes = bytes;
}

/* A pack up to this size (and the limit above) is one window. */
#define WHOLE_MAX ((uint64_t)512 << 20)

struct pack_window {
	struct pack_window *next;
	struct packed_git *pack;
	unsigned char *base;
	uint64_t offset;
	size_t len;
	unsigned int inuse;
	uint64_t last_used;
};

/* ---- one pack, opened by its idx ---- */

struct packed_git *open_pack_index(const char *idx_name)
{
	struct packed_git *p = new_packed_git(idx_name);

	if (load_pack_idx(p) < 0) {
		close_pack(p);
		return NULL;
	}
	return p;
}

void close_pack(struct packed_git *p)
{
	struct pack_window *w, *next;

	if (!p)
		return;
	forget_cached_pack(p);
	for (w = p->windows; w; w = next) {
		next = w->next;
		munmap(w->base, w->len);
		free(w);
	}
	if (p->idx)
		munmap((void *)p->idx, p->idx_size);
	if (p->fd >= 0)
		close(p->fd);
	free(p->by_offset);
	free(p->touched);
	free(p->pack_name);
	free(p->idx_name);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* ---- the pack file: opening, windows, the order of entries ---- */

/* Why the pack cannot be used (fmt names it with %s): closed again. */
static int pack_unusable(struct packed_git *p, struct fault *f,
			 const char *fmt)
{
	close(p->fd);
	p->fd = -1;
	return set_fault(f, FAULT_CORRUPT, fmt, p->pack_name);
}

/*
 * Open the pack and check its header and trailer against the idx.  A
 * pack that fails is closed again, so that every reader is told why
 * (it was left open, and the next reader used it unchecked).
 */
static int open_pack_file(struct packed_git *p, struct fault *f)
{
	unsigned char hdr[12], trailer[HASH_MAX_RAWSZ];
	size_t rawsz = the_hash->rawsz;
	struct stat st;

	if (p->fd >= 0)
		return 0;
	p->fd = open(p->pack_name, O_RDONLY | O_NONBLOCK);
	if (p->fd < 0)
		return set_fault_errno(f, "open '%s'", p->pack_name);
	if (fstat(p->fd, &st) < 0 || !S_ISREG(st.st_mode))
		return pack_unusable(p, f, "%s is not a regular file");
	p->pack_size = st.st_size;
	if (p->pack_size < 12 + rawsz || pread(p->fd, hdr, 12, 0) != 12 ||
	    pread(p->fd, trailer, rawsz, p->pack_size - rawsz) !=
	    (ssize_t)rawsz)
		return pack_unusable(p, f, "packfile %s is truncated");
	if (memcmp(hdr, "PACK", 4) ||
	    (get_be32(hdr + 4) != 2 && get_be32(hdr + 4) != 3))
		return pack_unusable(p, f, "packfile %s is not a "
				     "version 2 or 3 pack");
	if (get_be32(hdr + 8) != p->nr ||
	    !hasheq(trailer, p->idx + p->idx_size - 2 * rawsz))
		return pack_unusable(p, f, "packfile %s does not "
				     "match index");
	return 0;
}

/*
 * Sort the nr pairs of words at o by their first word (below max): a
 * radix sort, 14 bits a pass over the bits max needs (two passes for
 * a pack under 256 MiB).  qsort of a kernel's 100,000 offsets was a
 * fifth of a packed diff-tree.
 */
#define RADIX_BITS 14
#define RADIX_MASK ((1u << RADIX_BITS) - 1)

static int sort_pairs(uint64_t *o, uint32_t nr, uint64_t max)
{
	uint64_t *tmp = malloc(16 * (size_t)nr), *src = o, *dst = tmp, *t;
	size_t *count = calloc(RADIX_MASK + 2, sizeof(*count));
	unsigned int shift;

	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -1;
	}
	for (shift = 0; shift < 64 && (max >> shift); shift += RADIX_BITS) {
		uint32_t i;

		memset(count, 0, (RADIX_MASK + 2) * sizeof(*count));
		for (i = 0; i < nr; i++)
			count[((src[2 * i] >> shift) & RADIX_MASK) + 1]++;
		for (i = 1; i < RADIX_MASK + 2; i++)
			count[i] += count[i - 1];
		for (i = 0; i < nr; i++) {
			size_t at = count[(src[2 * i] >> shift) & RADIX_MASK]++;

			dst[2 * at] = src[2 * i];
			dst[2 * at + 1] = src[2 * i + 1];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != o)
		memcpy(o, src, 16 * (size_t)nr);
	free(tmp);
	free(count);
	return 0;
}

/*
 * by_offset: the idx positions sorted by offset, each as offset << 32
 * | position would not fit a 64-bit offset, so two words an entry:
 * [2i] the offset, [2i + 1] the position.  Every offset must be an
 * entry after the header and before the trailer, and none twice.
 */
static int make_order(struct packed_git *p, struct fault *f)
{
	uint64_t end = p->pack_size - the_hash->rawsz;
	const char *bad;
	uint64_t *o;
	uint32_t i;

	if (p->by_offset)
		return 0;
	bad = check_pack_idx_order(p);
	if (bad)
		return set_fault(f, FAULT_CORRUPT, "index file %s is corrupt: "
				 "%s", p->idx_name, bad);
	o = malloc(16 * ((size_t)p->nr + 1));
	if (!o)
		return set_fault(f, FAULT_IO, "out of memory");
	for (i = 0; i < p->nr; i++) {
		o[2 * i] = nth_packed_offset(p, i);
		o[2 * i + 1] = i;
		if (o[2 * i] < 12 || o[2 * i] >= end) {
			free(o);
			return set_fault(f, FAULT_CORRUPT, "index file %s "
					 "points past the end of the pack",
					 p->idx_name);
		}
	}
	if (sort_pairs(o, p->nr, p->pack_size) < 0) {
		free(o);
		return set_fault(f, FAULT_IO, "out of memory");
	}
	for (i = 1; i < p->nr; i++)
		if (o[2 * i] == o[2 * i - 2]) {
			uint64_t twice = o[2 * i];

			free(o);
			return set_fault(f, FAULT_CORRUPT, "index file %s "
					 "lists offset %llu twice", p->idx_name,
					 (unsigned long long)twice);
		}
	o[2 * p->nr] = end;
	o[2 * p->nr + 1] = UINT32_MAX;
	p->by_offset = o;
	return 0;
}

const uint64_t *pack_order(struct packed_git *p, struct fault *f)
{
	int ret;

	pthread_mutex_lock(&p->lock);
	ret = open_pack_file(p, f);
	if (!ret)
		ret = make_order(p, f);
	pthread_mutex_unlock(&p->lock);
	return ret ? NULL : p->by_offset;
}

/* Where the entry at offset ends (the next one starts); 0 if none starts there. */
static uint64_t entry_end(const struct packed_git *p, uint64_t offset)
{
	size_t lo = 0, hi = p->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t o = p->by_offset[2 * mid];

		if (o == offset)
			return p->by_offset[2 * mid + 2];
		if (o < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Unmap windows no one uses, oldest first, until need more fits. */
static void make_room(struct packed_git *p, size_t need)
{
	while (p->mapped + need > mapped_limit) {
		struct pack_window **wp, **oldest = NULL;

		for (wp = &p->windows; *wp; wp = &(*wp)->next)
			if (!(*wp)->inuse &&
			    (!oldest || (*wp)->last_used < (*oldest)->last_used))
				oldest = wp;
		if (!oldest)
			return;
		{
			struct pack_window *w = *oldest;

			*oldest = w->next;
			munmap(w->base, w->len);
			p->mapped -= w->len;
			free(w);
		}
	}
}

/* A pack that fits is mapped whole, once. */
static int whole_pack(const struct packed_git *p)
{
	return p->pack_size <= WHOLE_MAX && p->pack_size <= mapped_limit;
}

static struct pack_window *map_window(struct packed_git *p, uint64_t offset,
				      size_t len, struct fault *f)
{
	struct pack_window *w;
	uint64_t start = offset & ~(uint64_t)(WINDOW_SIZE / 2 - 1);
	uint64_t end = offset + len;

	for (w = p->windows; w; w = w->next)
		if (w->offset <= offset && end <= w->offset + w->len)
			goto found;
	/*
	 * Windows overlap by half, and a page mapped twice counts twice
	 * in the peak memory: a pack that fits is mapped whole, once.
	 */
	if (whole_pack(p)) {
		start = 0;
		end = p->pack_size;
	} else if (end - start < WINDOW_SIZE) {
		end = start + WINDOW_SIZE;
	}
	if (end > p->pack_size)
		end = p->pack_size;
	make_room(p, end - start);
	w = xcalloc(1, sizeof(*w));
	w->pack = p;
	w->offset = start;
	w->len = end - start;
	w->base = mmap(NULL, w->len, PROT_READ, MAP_PRIVATE, p->fd, start);
	if (w->base == MAP_FAILED) {
		free(w);
		set_fault_errno(f, "mmap '%s'", p->pack_name);
		return NULL;
	}
	p->mapped += w->len;
	w->next = p->windows;
	p->windows = w;
found:
	w->inuse++;
	w->last_used = ++p->tick;
	return w;
}

/*
 * Where the entry at offset may end.  A pack mapped whole needs no
 * table: the entry is bounded by the pack's trailer (its zlib stream
 * ends it, and what it inflates to is hashed against its id); the
 * table of offsets, sorted, costs a sort of every offset, more than a
 * diff-tree of two kernel trees spends reading.  A pack read in
 * windows needs the exact end, to map no more than the entry.  0
 * (f) when offset is not within the pack's entries.
 */
static uint64_t entry_bound(struct packed_git *p, uint64_t offset,
			    struct fault *f)
{
	uint64_t end;

	if (open_pack_file(p, f) < 0)
		return 0;
	if (offset < 12 || offset >= p->pack_size - the_hash->rawsz) {
		set_fault(f, FAULT_CORRUPT, "index file %s points past the "
			  "end of the pack", p->idx_name);
		return 0;
	}
	if (!p->by_offset && whole_pack(p))
		return p->pack_size - the_hash->rawsz;
	if (make_order(p, f) < 0)
		return 0;
	end = entry_end(p, offset);
	if (!end)
		set_fault(f, FAULT_CORRUPT, "no object starts at offset %llu "
			  "of %s", (unsigned long long)offset, p->pack_name);
	return end;
}

/*
 * The bytes of the entry at offset, mapped, and their count: from its
 * header to where the next entry starts, or (*exact 0) to the pack's
 * trailer.  The window stays mapped until unuse_pack.
 */
const unsigned char *use_pack_entry(struct packed_git *p, uint64_t offset,
				    size_t *len, int *exact,
				    struct pack_window **wp, struct fault *f)
{
	struct pack_window *w = NULL;
	uint64_t end;

	pthread_mutex_lock(&p->lock);
	end = entry_bound(p, offset, f);
	if (end && end - offset > SIZE_MAX)
		set_fault(f, FAULT_CORRUPT, "entry too large");
	else if (end)
		w = map_window(p, offset, end - offset, f);
	if (w)
		note_touch(p, offset);
	if (exact)
		*exact = p->by_offset != NULL;
	pthread_mutex_unlock(&p->lock);
	*wp = w;
	if (!w)
		return NULL;
	*len = end - offset;
	return w->base + (offset - w->offset);
}

/*
 * Drop the pages of p's windows from the process.  Safe while others
 * read through them: the mappings stay, the pages are read in again
 * from the page cache on the next touch (read-only, nothing is lost).
 */
static void trim_windows(struct packed_git *p)
{
	struct pack_window *w;

	for (w = p->windows; w; w = w->next)
		madvise(w->base, w->len, MADV_DONTNEED);
	p->read_since_trim = 0;
	if (p->touched)
		memset(p->touched, 0, (p->pack_size >> TOUCH_SHIFT) / 8 + 1);
}

void unuse_pack_read(struct pack_window *w, size_t bytes)
{
	struct packed_git *p;

	if (!w)
		return;
	p = w->pack;
	pthread_mutex_lock(&p->lock);
	w->inuse--;
	p->read_since_trim += bytes;
	if (trim_bytes && p->read_since_trim >= trim_bytes)
		trim_windows(p);
	pthread_mutex_unlock(&p->lock);
}

void unuse_pack(struct pack_window *w)
{
	unuse_pack_read(w, 0);
}

void trim_window_pack(struct pack_window *w)
{
	trim_pack(w->pack);
}

void trim_pack(struct packed_git *p)
{
	pthread_mutex_lock(&p->lock);
	trim_windows(p);
	pthread_mutex_unlock(&p->lock);
}
