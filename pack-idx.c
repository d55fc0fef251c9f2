/*
 * pack-idx.c: a pack's idx file, checked and searched.  pack-<hex>.idx
 * holds the sorted ids with a fan-out table (256 counts by first byte)
 * and each object's offset in the pack (version 1: 4-byte offsets;
 * version 2: CRC32s and a table of 64-bit offsets as well).  The idx
 * is mapped whole and its sizes and fan-out are checked when it is
 * mapped; the order of the ids by each search on its path, or whole by
 * check_pack_idx_order.  The pack file itself is pack-map.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pack.h"

const unsigned char *nth_packed_sha1(const struct packed_git *p, uint32_t n)
{
	if (p->idx_version == 1)
		return p->names + (the_hash->rawsz + 4) * (size_t)n + 4;
	return p->names + the_hash->rawsz * (size_t)n;
}

/* UINT64_MAX for a 64-bit offset that is not in the table. */
uint64_t nth_packed_offset(const struct packed_git *p, uint32_t n)
{
	uint32_t off;
	const unsigned char *big;

	if (p->idx_version == 1)
		return get_be32(p->names + (the_hash->rawsz + 4) * (size_t)n);
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
 * Search in the fan-out's bucket.  The order of the ids is not
 * checked when the idx is mapped (a walk over every id, a cost a tool
 * reading a few objects would pay in full): the search checks the ids
 * on its own path.  Each one it meets must have the
 * bucket's first byte and lie strictly between those met before on
 * either side, and the one found must not be listed twice; else -2,
 * a corrupt idx.  verify-pack and fsck-cache check every id
 * (check_pack_idx_order).
 *
 * Ids are spread evenly, so the first steps guess where sha1 lies
 * between the ids met on either side (interpolation) rather than
 * halve: a few ids read in place of ten or so, each of them likely a
 * cache miss in an idx of megabytes.  The guessing steps are bounded
 * (INTERPOLATE_STEPS), then the search halves: an idx whose ids are
 * not spread evenly costs a few steps more, never a long search.
 */
#define INTERPOLATE_STEPS 3

/*
 * hashcmp of two ids, the first eight bytes as one big-endian number:
 * they nearly always differ there, and the search below makes three
 * comparisons a step.
 */
static inline uint64_t id_head(const unsigned char *a)
{
	uint64_t x;

	memcpy(&x, a, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

static inline int cmp_id(const unsigned char *a, const unsigned char *b,
			 size_t rawsz)
{
	uint64_t x = id_head(a), y = id_head(b);

	if (x != y)
		return x < y ? -1 : 1;
	if (rawsz == 20)
		return memcmp(a + 8, b + 8, 12);
	return memcmp(a + 8, b + 8, HASH_MAX_RAWSZ - 8);
}

/*
 * The next place to look in [lo, hi): where key falls between the
 * heads kl and kh of the ids around the range, or the middle.
 */
static uint32_t guess_pos(uint64_t key, uint64_t kl, uint64_t kh,
			  uint32_t lo, uint32_t hi, int interpolate)
{
	uint64_t step, at;

	if (!interpolate || key <= kl || key >= kh ||
	    !(step = (kh - kl) / (hi - lo)))
		return lo + (hi - lo) / 2;
	at = (key - kl) / step;
	return at < hi - lo ? lo + at : hi - 1;
}

int64_t find_pack_pos(const struct packed_git *p, const unsigned char *sha1)
{
	const unsigned char *fanout = p->idx + (p->idx_version == 1 ? 0 : 8);
	const unsigned char *below = NULL, *above = NULL;
	uint32_t lo = sha1[0] ? get_be32(fanout + 4 * (sha1[0] - 1)) : 0;
	uint32_t hi = get_be32(fanout + 4 * sha1[0]);
	/* nth_packed_sha1, with the sizes read once */
	size_t rawsz = the_hash->rawsz;
	size_t stride = p->idx_version == 1 ? rawsz + 4 : rawsz;
	const unsigned char *names = p->names + (p->idx_version == 1 ? 4 : 0);
	uint64_t key = id_head(sha1);
	uint64_t kl = (uint64_t)sha1[0] << 56;
	uint64_t kh = sha1[0] == 255 ? UINT64_MAX : kl + ((uint64_t)1 << 56);
	int steps = 0;

	while (lo < hi) {
		uint32_t mid = guess_pos(key, kl, kh, lo, hi,
					 steps++ < INTERPOLATE_STEPS);
		const unsigned char *s = names + stride * mid;
		int cmp = cmp_id(sha1, s, rawsz);

		if (s[0] != sha1[0] || (below && cmp_id(s, below, rawsz) <= 0) ||
		    (above && cmp_id(s, above, rawsz) >= 0))
			return -2;
		if (!cmp) {
			if ((mid && !cmp_id(s - stride, s, rawsz)) ||
			    (mid + 1 < p->nr && !cmp_id(s + stride, s, rawsz)))
				return -2;
			return mid;
		}
		if (cmp < 0) {
			hi = mid;
			above = s;
			kh = id_head(s);
		} else {
			lo = mid + 1;
			below = s;
			kl = id_head(s);
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
		if (i && hashcmp(nth_packed_sha1(p, i - 1), s) >= 0)
			return "ids are duplicated or out of order";
	}
	return NULL;
}

/*
 * The count of 64-bit offsets an idx of size bytes holds with ids of
 * rawsz bytes, or -1 when its size does not fit p->nr objects.
 */
static int64_t idx_offsets64(const struct packed_git *p, size_t size,
			     size_t rawsz)
{
	size_t min;

	if (p->idx_version == 1)
		return size == 1024 + (rawsz + 4) * p->nr + 2 * rawsz ? 0 : -1;
	min = 8 + 1024 + (rawsz + 8) * p->nr + 2 * rawsz;
	if (size < min || (size - min) % 8 ||
	    (size - min) / 8 > (p->nr ? p->nr - 1 : 0))
		return -1;
	return (size - min) / 8;
}

/* Sizes and the fan-out table for ids of rawsz bytes; NULL when good. */
static const char *check_idx_as(struct packed_git *p, size_t rawsz)
{
	const unsigned char *fanout = p->idx;
	size_t size = p->idx_size;
	uint32_t prev = 0, i;
	int64_t nr64;

	if (size >= 8 && !memcmp(p->idx, "\377tOc", 4)) {
		if (get_be32(p->idx + 4) != 2)
			return "unsupported index version";
		p->idx_version = 2;
		fanout += 8;
	} else {
		p->idx_version = 1;
	}
	if (size < (p->idx_version == 1 ? 0 : 8) + 1024 + 2 * rawsz)
		return "index file is too small";
	for (i = 0; i < 256; i++) {
		uint32_t n = get_be32(fanout + 4 * i);

		if (n < prev)
			return "non-monotonic fan-out table";
		prev = n;
	}
	p->nr = prev;
	p->names = fanout + 1024;
	nr64 = idx_offsets64(p, size, rawsz);
	if (nr64 < 0)
		return "index file has the wrong size";
	if (p->idx_version == 2) {
		p->crcs = p->names + rawsz * p->nr;
		p->offsets = p->crcs + 4 * (size_t)p->nr;
		p->offsets64 = p->offsets + 4 * (size_t)p->nr;
		p->nr_offsets64 = nr64;
	}
	return NULL;
}

static const struct hash_algo *other_hash(void)
{
	return the_hash == &hash_sha1 ? &hash_sha256 : &hash_sha1;
}

/*
 * An idx of the other hash's ids never fits this one's sizes (nor the
 * reverse): it is named for what it is.
 */
const char *check_pack_idx(struct packed_git *p)
{
	struct packed_git q = *p;
	const char *bad = check_idx_as(p, the_hash->rawsz);

	if (bad && !check_idx_as(&q, other_hash()->rawsz))
		return the_hash == &hash_sha1 ?
			"index file has sha256 ids, the store is sha1" :
			"index file has sha1 ids, the store is sha256";
	return bad;
}

const struct hash_algo *guess_idx_hash(const unsigned char *head,
				       size_t size)
{
	struct packed_git q;

	memset(&q, 0, sizeof(q));
	q.idx = head;
	q.idx_size = size;
	if (check_idx_as(&q, the_hash->rawsz) &&
	    !check_idx_as(&q, other_hash()->rawsz))
		return other_hash();
	return the_hash;
}

const struct hash_algo *guess_idx_file_hash(const char *idx_name)
{
	unsigned char head[8 + 1024];
	const struct hash_algo *algo = the_hash;
	struct stat st;
	int fd = open(idx_name, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return the_hash;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size >= (off_t)sizeof(head) &&
	    pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head))
		algo = guess_idx_hash(head, st.st_size);
	close(fd);
	return algo;
}

struct packed_git *new_packed_git(const char *idx_name)
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
int load_pack_idx(struct packed_git *p)
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
