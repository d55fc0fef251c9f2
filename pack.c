/*
 * pack.c: git's pack files, found and parsed.  A pack is two files:
 * pack-<hex>.idx, the sorted ids with a fan-out table (256 counts by
 * first byte) and each object's offset (version 1: 4-byte offsets;
 * version 2: CRC32s and a table of 64-bit offsets as well), and
 * pack-<hex>.pack, "PACK", version 2 or 3, the count, then entries: a
 * type and size in a base-128 header, for a delta its base (an offset
 * back, or an id), and zlib data; a SHA-1 of all of it at the end.
 *
 * Everything read from either file is checked before it is used: the
 * idx when it is mapped (sizes, the fan-out, ids strictly ascending),
 * offsets when the pack is first opened, each entry's header as it is
 * read.  The pack is mapped in windows, so a pack of many GiB needs
 * address space for the entries in use, not memory.  Parsing entries,
 * resolving deltas and handing out objects is pack-read.c's work.
 */
#define _GNU_SOURCE
#include <dirent.h>
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

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* ---- the idx ---- */

const unsigned char *nth_packed_sha1(const struct packed_git *p, uint32_t n)
{
	if (p->idx_version == 1)
		return p->names + 24 * (size_t)n + 4;
	return p->names + 20 * (size_t)n;
}

/* UINT64_MAX for a 64-bit offset that is not in the table. */
uint64_t nth_packed_offset(const struct packed_git *p, uint32_t n)
{
	uint32_t off;
	const unsigned char *big;

	if (p->idx_version == 1)
		return get_be32(p->names + 24 * (size_t)n);
	off = get_be32(p->offsets + 4 * (size_t)n);
	if (!(off & 0x80000000))
		return off;
	off &= 0x7fffffff;
	if (off >= p->nr_offsets64)
		return UINT64_MAX;
	big = p->offsets64 + 8 * (size_t)off;
	return (uint64_t)get_be32(big) << 32 | get_be32(big + 4);
}

uint32_t nth_packed_crc(const struct packed_git *p, uint32_t n)
{
	return p->crcs ? get_be32(p->crcs + 4 * (size_t)n) : 0;
}

/*
 * Binary search in the fan-out's bucket.  The order of the ids is not
 * checked when the idx is mapped (a walk over every id, a cost a tool
 * reading a few objects would pay in full): the search checks the ids
 * on its own path.  Each one it meets must have the
 * bucket's first byte and lie strictly between those met before on
 * either side, and the one found must not be listed twice; else -2,
 * a corrupt idx.  verify-pack and fsck-cache check every id
 * (check_pack_idx_order).
 */
/*
 * memcmp of two ids, the first eight bytes as one big-endian number:
 * they nearly always differ there, and the search below makes three
 * comparisons a step.
 */
static inline int cmp_id(const unsigned char *a, const unsigned char *b)
{
	uint64_t x, y;

	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	if (x != y) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		x = __builtin_bswap64(x);
		y = __builtin_bswap64(y);
#endif
		return x < y ? -1 : 1;
	}
	return memcmp(a + 8, b + 8, 12);
}

int64_t find_pack_pos(const struct packed_git *p, const unsigned char *sha1)
{
	const unsigned char *fanout = p->idx + (p->idx_version == 1 ? 0 : 8);
	const unsigned char *below = NULL, *above = NULL;
	uint32_t lo = sha1[0] ? get_be32(fanout + 4 * (sha1[0] - 1)) : 0;
	uint32_t hi = get_be32(fanout + 4 * sha1[0]);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const unsigned char *s = nth_packed_sha1(p, mid);
		int cmp = cmp_id(sha1, s);

		if (s[0] != sha1[0] || (below && cmp_id(s, below) <= 0) ||
		    (above && cmp_id(s, above) >= 0))
			return -2;
		if (!cmp) {
			if ((mid && !cmp_id(nth_packed_sha1(p, mid - 1), s)) ||
			    (mid + 1 < p->nr &&
			     !cmp_id(nth_packed_sha1(p, mid + 1), s)))
				return -2;
			return mid;
		}
		if (cmp < 0) {
			hi = mid;
			above = s;
		} else {
			lo = mid + 1;
			below = s;
		}
	}
	return -1;
}

/* Every id in its fan-out bucket and above the one before it. */
const char *check_pack_idx_order(const struct packed_git *p)
{
	const unsigned char *fanout = p->idx + (p->idx_version == 1 ? 0 : 8);
	uint32_t i;

	for (i = 0; i < p->nr; i++) {
		const unsigned char *s = nth_packed_sha1(p, i);
		uint32_t below = s[0] ? get_be32(fanout + 4 * (s[0] - 1)) : 0;

		if (i < below || i >= get_be32(fanout + 4 * s[0]))
			return "fan-out table does not match the ids";
		if (i && memcmp(nth_packed_sha1(p, i - 1), s, 20) >= 0)
			return "ids are duplicated or out of order";
	}
	return NULL;
}

/* Sizes and the fan-out table; NULL when good. */
const char *check_pack_idx(struct packed_git *p)
{
	const unsigned char *fanout = p->idx;
	size_t size = p->idx_size, min;
	uint32_t prev = 0, i;

	if (size >= 8 && !memcmp(p->idx, "\377tOc", 4)) {
		if (get_be32(p->idx + 4) != 2)
			return "unsupported index version";
		p->idx_version = 2;
		fanout += 8;
	} else {
		p->idx_version = 1;
	}
	if (size < (p->idx_version == 1 ? 0 : 8) + 1024 + 40)
		return "index file is too small";
	for (i = 0; i < 256; i++) {
		uint32_t n = get_be32(fanout + 4 * i);

		if (n < prev)
			return "non-monotonic fan-out table";
		prev = n;
	}
	p->nr = prev;
	p->names = fanout + 1024;
	if (p->idx_version == 1) {
		if (size != 1024 + 24 * (size_t)p->nr + 40)
			return "index file has the wrong size";
	} else {
		min = 8 + 1024 + 28 * (size_t)p->nr + 40;
		if (size < min || (size - min) % 8 ||
		    (size - min) / 8 > (p->nr ? p->nr - 1 : 0))
			return "index file has the wrong size";
		p->crcs = p->names + 20 * (size_t)p->nr;
		p->offsets = p->crcs + 4 * (size_t)p->nr;
		p->offsets64 = p->offsets + 4 * (size_t)p->nr;
		p->nr_offsets64 = (size - min) / 8;
	}
	return NULL;
}

static struct packed_git *new_pack(const char *idx_name)
{
	struct packed_git *p = xcalloc(1, sizeof(*p));
	size_t len = strlen(idx_name);

	p->idx_name = xstrdup(idx_name);
	p->pack_name = xmalloc(len + 6);
	if (len > 4 && !strcmp(idx_name + len - 4, ".idx"))
		len -= 4;
	memcpy(p->pack_name, idx_name, len);
	strcpy(p->pack_name + len, ".pack");
	p->fd = -1;
	pthread_mutex_init(&p->lock, NULL);
	return p;
}

/* Map and check the idx; -1 after error(). */
static int load_idx(struct packed_git *p)
{
	struct stat st;
	const char *bad;
	void *map;
	int fd = open(p->idx_name, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return error_errno("open '%s'", p->idx_name);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return error("index file %s is not a regular file or is empty",
			     p->idx_name);
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return error_errno("mmap '%s'", p->idx_name);
	p->idx = map;
	p->idx_size = st.st_size;
	bad = check_pack_idx(p);
	if (bad) {
		munmap(map, st.st_size);
		p->idx = NULL;
		p->nr = 0;
		return error("index file %s is corrupt: %s", p->idx_name, bad);
	}
	return 0;
}

struct packed_git *open_pack_index(const char *idx_name)
{
	struct packed_git *p = new_pack(idx_name);

	if (load_idx(p) < 0) {
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
	free(p->pack_name);
	free(p->idx_name);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* ---- the list of packs ---- */

static struct packed_git *packs;
static pthread_mutex_t packs_lock = PTHREAD_MUTEX_INITIALIZER;
static int packs_scanned;
static uint64_t scan_stamp;

static int known_pack(const char *idx_name)
{
	struct packed_git *p;

	for (p = packs; p; p = p->next)
		if (!strcmp(p->idx_name, idx_name))
			return 1;
	return 0;
}

/* A stamp of the pack directories' times, to see that one changed. */
static uint64_t stamp_dir(const char *objdir)
{
	char *dir = path_join(objdir, "pack");
	struct stat st;
	uint64_t s = 0;

	if (!stat(dir, &st))
		s = (uint64_t)st.st_mtim.tv_sec * 1000000007u +
		    st.st_mtim.tv_nsec + st.st_ino;
	free(dir);
	return s;
}

/* Add the packs of objdir/pack not listed yet; returns how many came. */
static int scan_dir(const char *objdir)
{
	char *dir = path_join(objdir, "pack");
	DIR *d = opendir(dir);
	struct dirent *de;
	int added = 0;

	while (d && (de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		struct packed_git *p;
		struct stat st;
		char *idx;

		if (len < 10 || strncmp(de->d_name, "pack-", 5) ||
		    strcmp(de->d_name + len - 4, ".idx"))
			continue;
		idx = path_join(dir, de->d_name);
		if (known_pack(idx)) {
			free(idx);
			continue;
		}
		p = new_pack(idx);
		free(idx);
		/* An idx without its pack is a pack being written. */
		if (stat(p->pack_name, &st) < 0) {
			close_pack(p);
			continue;
		}
		load_idx(p);	/* a bad one stays listed, empty */
		__atomic_store_n(&p->next, packs, __ATOMIC_RELAXED);
		__atomic_store_n(&packs, p, __ATOMIC_RELEASE);
		added++;
	}
	if (d)
		closedir(d);
	free(dir);
	return added;
}

static int scan_all(void)
{
	const char *const *alt;
	int added = scan_dir(get_object_directory());
	uint64_t stamp = stamp_dir(get_object_directory());

	for (alt = alternate_object_dirs(); *alt; alt++) {
		added += scan_dir(*alt);
		stamp += stamp_dir(*alt);
	}
	scan_stamp = stamp;
	return added;
}

struct packed_git *get_packs(void)
{
	if (!__atomic_load_n(&packs_scanned, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&packs_lock);
		if (!packs_scanned) {
			scan_all();
			__atomic_store_n(&packs_scanned, 1, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&packs_lock);
	}
	return __atomic_load_n(&packs, __ATOMIC_ACQUIRE);
}

int rescan_packs(void)
{
	const char *const *alt;
	uint64_t stamp;
	int added = 0;

	get_packs();
	pthread_mutex_lock(&packs_lock);
	stamp = stamp_dir(get_object_directory());
	for (alt = alternate_object_dirs(); *alt; alt++)
		stamp += stamp_dir(*alt);
	if (stamp != scan_stamp)
		added = scan_all();
	pthread_mutex_unlock(&packs_lock);
	return added > 0;
}

int find_packed(const unsigned char *sha1, struct packed_git **pp,
		uint32_t *pos)
{
	struct packed_git *p;

	for (p = get_packs(); p; p = p->next) {
		int64_t n;

		if (!p->nr)
			continue;
		n = find_pack_pos(p, sha1);
		if (n >= 0) {
			*pp = p;
			*pos = n;
			return 0;
		}
	}
	return -1;
}

int for_each_packed_object(int (*fn)(const unsigned char *sha1,
				     struct packed_git *p, uint32_t n,
				     void *data), void *data)
{
	struct packed_git *p;
	uint32_t i;
	int ret = 0;

	for (p = get_packs(); p && !ret; p = p->next)
		for (i = 0; i < p->nr && !ret; i++)
			ret = fn(nth_packed_sha1(p, i), p, i, data);
	return ret;
}

/* ---- abbreviations ---- */

/* The first position whose id is not below sha1. */
static uint32_t lower_bound(const struct packed_git *p,
			    const unsigned char *sha1)
{
	uint32_t lo = 0, hi = p->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (memcmp(nth_packed_sha1(p, mid), sha1, 20) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int for_each_packed_prefix(const char *hex, size_t len,
			   int (*fn)(const unsigned char *sha1, void *data),
			   void *data)
{
	unsigned char low[20] = { 0 };
	struct packed_git *p;
	size_t i;
	int ret = 0;

	for (i = 0; i < len; i++)
		low[i / 2] |= hexval(hex[i]) << (i % 2 ? 0 : 4);
	for (p = get_packs(); p && !ret; p = p->next) {
		uint32_t n;

		for (n = lower_bound(p, low); n < p->nr && !ret; n++) {
			const unsigned char *s = nth_packed_sha1(p, n);

			if (strncmp(sha1_to_hex(s), hex, len))
				break;
			ret = fn(s, data);
		}
	}
	return ret;
}

static int common_digits(const unsigned char *a, const unsigned char *b)
{
	int i = 0;

	while (i < 20 && a[i] == b[i])
		i++;
	if (i == 20)
		return 40;
	return 2 * i + ((a[i] >> 4) == (b[i] >> 4));
}

int packed_abbrev_len(const unsigned char *sha1, int len)
{
	struct packed_git *p;
	int n;

	for (p = get_packs(); p; p = p->next) {
		uint32_t lo = lower_bound(p, sha1);

		if (lo && (n = common_digits(nth_packed_sha1(p, lo - 1),
					     sha1) + 1) > len)
			len = n;
		if (lo < p->nr && !memcmp(nth_packed_sha1(p, lo), sha1, 20))
			lo++;
		if (lo < p->nr && (n = common_digits(nth_packed_sha1(p, lo),
						     sha1) + 1) > len)
			len = n;
	}
	return len;
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
	unsigned char hdr[12], trailer[20];
	struct stat st;

	if (p->fd >= 0)
		return 0;
	p->fd = open(p->pack_name, O_RDONLY | O_NONBLOCK);
	if (p->fd < 0)
		return set_fault_errno(f, "open '%s'", p->pack_name);
	if (fstat(p->fd, &st) < 0 || !S_ISREG(st.st_mode))
		return pack_unusable(p, f, "%s is not a regular file");
	p->pack_size = st.st_size;
	if (p->pack_size < 32 || pread(p->fd, hdr, 12, 0) != 12 ||
	    pread(p->fd, trailer, 20, p->pack_size - 20) != 20)
		return pack_unusable(p, f, "packfile %s is truncated");
	if (memcmp(hdr, "PACK", 4) ||
	    (get_be32(hdr + 4) != 2 && get_be32(hdr + 4) != 3))
		return pack_unusable(p, f, "packfile %s is not a "
				     "version 2 or 3 pack");
	if (get_be32(hdr + 8) != p->nr ||
	    memcmp(trailer, p->idx + p->idx_size - 40, 20))
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
		if (o[2 * i] < 12 || o[2 * i] >= p->pack_size - 20) {
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
	o[2 * p->nr] = p->pack_size - 20;
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
	if (offset < 12 || offset >= p->pack_size - 20) {
		set_fault(f, FAULT_CORRUPT, "index file %s points past the "
			  "end of the pack", p->idx_name);
		return 0;
	}
	if (!p->by_offset && whole_pack(p))
		return p->pack_size - 20;
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
