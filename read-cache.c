/*
 * read-cache.c: the index file ("directory cache"), in git's index
 * formats v2, v3 and v4, and the memory of its entries.  Reading trusts
 * nothing: signature, version, entry count, every name and the order
 * of entries are checked against the file's size before the checksum
 * is.  A split index (the "link" extension) is read whole with its
 * shared index; a sparse one keeps its directory entries.  Writing
 * goes to index.lock (O_EXCL) and is renamed over the index, so a
 * reader sees the old index or the new one, never half of one; the
 * index is written in the version it was read in, unsplit.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cache.h"

#define CACHE_SIGNATURE 0x44495243	/* "DIRC" */
#define HEADER_SIZE 12
#define ONDISK_FIXED 62			/* stat data, sha1, flags */
#define MIN_ONDISK_ENTRY 64		/* fixed + 1-byte name + NUL pad */
/* Far beyond any real index (a 75,000-file tree needs ~8 MiB). */
#define MAX_INDEX_SIZE ((off_t)1 << 31)

struct cache_entry **active_cache;
unsigned int active_nr;
size_t active_alloc;

/* Entries read from disk share one block and are not freed one by one. */
static char *entry_block;
static size_t entry_block_size;
static struct cache_time index_mtime;

/* ---- entries ---- */

unsigned int ce_mode_from_stat(unsigned int st_mode)
{
	if (S_ISLNK(st_mode))
		return 0120000;
	if (S_ISDIR(st_mode))
		return 040000;
	return 0100000 | ((st_mode & 0100) ? 0755 : 0644);
}

static size_t ce_size_for(size_t len)
{
	return sizeof(struct cache_entry) + len + 1;
}

struct cache_entry *make_cache_entry(const char *name, size_t len)
{
	struct cache_entry *ce = xcalloc(1, ce_size_for(len));

	memcpy(ce->name, name, len);
	ce->ce_namelen = len;
	ce->ce_flags = len < CE_NAMEMASK ? len : CE_NAMEMASK;
	return ce;
}

/*
 * The block the entries are parsed into: for a big index, mapped and
 * asked for huge pages, one fault a 2 MiB rather than a 4 KiB page
 * (faulting 16 MiB in 4 KiB pages was a tenth of ls-files -s on a
 * kernel index).
 */
#define HUGE_BLOCK ((size_t)4 << 20)
static int entry_block_mapped;

static char *alloc_entry_block(size_t size)
{
	void *p;

	entry_block_mapped = 0;
	if (size < HUGE_BLOCK)
		return xmalloc(size);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return xmalloc(size);
#ifdef MADV_HUGEPAGE
	madvise(p, size, MADV_HUGEPAGE);
#endif
	entry_block_mapped = 1;
	return p;
}

static void free_entry_block(void)
{
	if (entry_block_mapped)
		munmap(entry_block, entry_block_size);
	else
		free(entry_block);
}

void free_cache_entry(struct cache_entry *ce)
{
	char *p = (char *)ce;

	if (entry_block && p >= entry_block &&
	    p < entry_block + entry_block_size)
		return;
	free(ce);
}

void fill_stat_cache_info(struct cache_entry *ce, const struct stat *st)
{
	ce->ce_ctime.sec = st->st_ctim.tv_sec;
	ce->ce_ctime.nsec = st->st_ctim.tv_nsec;
	ce->ce_mtime.sec = st->st_mtim.tv_sec;
	ce->ce_mtime.nsec = st->st_mtim.tv_nsec;
	ce->ce_dev = st->st_dev;
	ce->ce_ino = st->st_ino;
	ce->ce_uid = st->st_uid;
	ce->ce_gid = st->st_gid;
	ce->ce_size = st->st_size;
	ce->ce_mode = ce_mode_from_stat(st->st_mode);
	ce->ce_state |= CE_UPTODATE;
}

/*
 * An entry whose mtime is not older than the index file could have
 * been modified after it was hashed without its stat data showing it.
 * Seconds only, as git: git reads this index too, and it compares
 * timestamps to the second.
 */
int ce_is_racy(const struct cache_entry *ce)
{
	return index_mtime.sec && ce->ce_mtime.sec >= index_mtime.sec;
}

unsigned int ce_match_stat_basic(const struct cache_entry *ce,
				 const struct stat *st)
{
	unsigned int changed = 0;

	if (ce_mode_from_stat(st->st_mode) != ce->ce_mode) {
		if ((ce->ce_mode & S_IFMT) != (ce_mode_from_stat(st->st_mode) &
					       S_IFMT))
			changed |= TYPE_CHANGED;
		else
			changed |= MODE_CHANGED;
	}
	if (ce->ce_mtime.sec != (uint32_t)st->st_mtim.tv_sec ||
	    ce->ce_mtime.nsec != (uint32_t)st->st_mtim.tv_nsec)
		changed |= MTIME_CHANGED;
	if (ce->ce_ctime.sec != (uint32_t)st->st_ctim.tv_sec ||
	    ce->ce_ctime.nsec != (uint32_t)st->st_ctim.tv_nsec)
		changed |= CTIME_CHANGED;
	if (ce->ce_uid != (uint32_t)st->st_uid ||
	    ce->ce_gid != (uint32_t)st->st_gid)
		changed |= OWNER_CHANGED;
	if (ce->ce_ino != (uint32_t)st->st_ino ||
	    ce->ce_dev != (uint32_t)st->st_dev)
		changed |= INODE_CHANGED;
	if (ce->ce_size != (uint32_t)st->st_size)
		changed |= DATA_CHANGED;
	return changed;
}

/*
 * A gitlink's stat data says nothing (git ignores it): it is changed
 * when its path is no directory, or holds a repository whose HEAD is
 * another commit; an empty directory (a submodule not cloned) is not.
 */
static unsigned int gitlink_match(const struct cache_entry *ce,
				  const struct stat *st)
{
	unsigned char head[20];

	if (!S_ISDIR(st->st_mode))
		return TYPE_CHANGED;
	if (!resolve_gitlink_head(ce->name, head) && memcmp(head, ce->sha1, 20))
		return DATA_CHANGED;
	return 0;
}

unsigned int ce_match_stat(const struct cache_entry *ce,
			   const struct stat *st)
{
	unsigned int changed;

	if (S_ISGITLINK(ce->ce_mode))
		return gitlink_match(ce, st);
	changed = ce_match_stat_basic(ce, st);

	if (!changed && ce_is_racy(ce) && !S_ISGITLINK(ce->ce_mode) &&
	    path_matches_sha1(ce->name, st, ce->sha1) != 1)
		changed |= DATA_CHANGED;
	return changed;
}

/*
 * Before a write: a racy entry whose content no longer matches gets
 * size 0, so that it shows as changed however late it is looked at.
 */
static void smudge_racy_entries(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];
		struct stat st;

		if (ce_stage(ce) || (ce->ce_state & CE_UPTODATE) ||
		    !ce_is_racy(ce) || !ce->ce_size)
			continue;
		if (lstat_work_path(ce->name, &st) || ce_match_stat(ce, &st))
			ce->ce_size = 0;
	}
}

/* ---- reading ---- */

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint16_t get_be16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The stat data, id and flags of the on-disk entry at p. */
static void fill_ondisk_fields(struct cache_entry *ce, const unsigned char *p,
			       uint16_t flags, size_t fixed)
{
	ce->ce_ctime.sec = get_be32(p);
	ce->ce_ctime.nsec = get_be32(p + 4);
	ce->ce_mtime.sec = get_be32(p + 8);
	ce->ce_mtime.nsec = get_be32(p + 12);
	ce->ce_dev = get_be32(p + 16);
	ce->ce_ino = get_be32(p + 20);
	ce->ce_mode = get_be32(p + 24);
	ce->ce_uid = get_be32(p + 28);
	ce->ce_gid = get_be32(p + 32);
	ce->ce_size = get_be32(p + 36);
	memcpy(ce->sha1, p + 40, 20);
	ce->ce_flags = flags & ~CE_EXTENDED;
	ce->ce_ext_flags = fixed > ONDISK_FIXED ? get_be16(p + 62) : 0;
	ce->ce_state = 0;
}

/* Parse one on-disk entry at p (avail bytes); returns its size or 0. */
static size_t parse_entry(const unsigned char *p, size_t avail, int version,
			  struct cache_entry *ce, size_t name_room)
{
	size_t fixed = ONDISK_FIXED, namelen, total;
	uint16_t flags;
	const unsigned char *name;

	if (avail < fixed + 2)
		return 0;
	flags = get_be16(p + 60);
	if (flags & CE_EXTENDED) {
		if (version < 3)
			return 0;
		fixed += 2;
	}
	name = p + fixed;
	namelen = flags & CE_NAMEMASK;
	if (namelen == CE_NAMEMASK) {
		const unsigned char *nul = memchr(name, '\0', avail - fixed);

		if (!nul)
			return 0;
		namelen = nul - name;
	}
	total = (fixed + namelen + 8) & ~(size_t)7;
	if (total > avail || name[namelen] != '\0' || namelen > name_room)
		return 0;
	ce->ce_namelen = namelen;
	memcpy(ce->name, name, namelen);
	ce->name[namelen] = '\0';
	fill_ondisk_fields(ce, p, flags, fixed);
	return total;
}

/* git's offset varint: 7 bits a byte, each continuation adding one. */
static int get_varint(const unsigned char **p, const unsigned char *end,
		      size_t *value)
{
	size_t v;
	unsigned char c;

	if (*p >= end)
		return -1;
	c = *(*p)++;
	v = c & 127;
	while (c & 128) {
		if (*p >= end || v > (SIZE_MAX >> 8))
			return -1;
		c = *(*p)++;
		v = ((v + 1) << 7) | (c & 127);
	}
	*value = v;
	return 0;
}

/*
 * Index v4: each name is the previous one less its last N bytes, then
 * a NUL-terminated suffix, and entries are not padded.  The entry is
 * allocated on its own (*cep); returns the bytes used, or 0.
 */
static size_t parse_entry_v4(const unsigned char *p, size_t avail,
			     const struct cache_entry *prev,
			     struct cache_entry **cep)
{
	const unsigned char *q, *nul, *end = p + avail;
	size_t fixed = ONDISK_FIXED, strip, keep, prev_len;
	struct cache_entry *ce;
	uint16_t flags;

	if (avail < fixed + 2)
		return 0;
	flags = get_be16(p + 60);
	if (flags & CE_EXTENDED)
		fixed += 2;
	q = p + fixed;
	prev_len = prev ? prev->ce_namelen : 0;
	if (get_varint(&q, end, &strip) < 0 || strip > prev_len)
		return 0;
	nul = memchr(q, '\0', end - q);
	if (!nul)
		return 0;
	keep = prev_len - strip;
	ce = make_cache_entry("", 0);
	ce = xrealloc(ce, sizeof(*ce) + keep + (nul - q) + 1);
	memcpy(ce->name, prev ? prev->name : "", keep);
	memcpy(ce->name + keep, q, nul - q);
	ce->ce_namelen = keep + (nul - q);
	ce->name[ce->ce_namelen] = '\0';
	fill_ondisk_fields(ce, p, flags, fixed);
	*cep = ce;
	return nul + 1 - p;
}

static int valid_index_mode(uint32_t mode)
{
	return mode == 0100644 || mode == 0100755 || mode == 0120000 ||
	       mode == S_IFGITLINK;
}

/* Bytes at the start of a and b that are the same. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (i + 8 <= n && !memcmp(a + i, b + i, 8))
		i += 8;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Is ce after prev in the index order?  *verified is set to the bytes
 * of ce's path, up to a '/', that are prev's too: prev's path passed
 * verify_path, so those components need no second look.
 */
static int in_order(const struct cache_entry *prev,
		    const struct cache_entry *ce, size_t *verified)
{
	size_t n = prev->ce_namelen < ce->ce_namelen ?
		   prev->ce_namelen : ce->ce_namelen;
	size_t same = common_prefix(prev->name, ce->name, n);
	const char *slash = memrchr(ce->name, '/', same);

	*verified = slash ? (size_t)(slash - ce->name) + 1 : 0;
	if (same < n)
		return (unsigned char)prev->name[same] <
		       (unsigned char)ce->name[same];
	if (prev->ce_namelen != ce->ce_namelen)
		return prev->ce_namelen < ce->ce_namelen;
	return ce_stage(prev) < ce_stage(ce);
}

/* A sparse index's directory: "dir/", a tree, stage 0, skip-worktree. */
static int bad_sparse_dir(const struct cache_entry *ce)
{
	return !ce->ce_namelen || ce->name[ce->ce_namelen - 1] != '/' ||
	       !(ce->ce_ext_flags & CE_SKIP_WORKTREE) || ce_stage(ce);
}

static int check_entry(const struct cache_entry *ce,
		       const struct cache_entry *prev, const char *file)
{
	size_t verified = 0, len = ce->ce_namelen;
	int ordered = !prev || in_order(prev, ce, &verified);

	if (ce_sparse_dir(ce)) {
		if (bad_sparse_dir(ce))
			return error("index '%s' is corrupt: bad directory "
				     "entry '%s'", file, ce->name);
		len--;
		if (verified > len)
			verified = len;
	} else if (!valid_index_mode(ce->ce_mode)) {
		return error("index '%s' is corrupt: bad mode %o for '%s'",
			     file, ce->ce_mode, ce->name);
	}
	if (!verify_path_from(ce->name, len, verified))
		return error("index '%s' is corrupt: invalid path '%s'", file,
			     ce->name);
	if (!ordered)
		return error("index '%s' is corrupt: entries unsorted or "
			     "duplicated at '%s'", file, ce->name);
	if (prev && ce_sparse_dir(prev) && ce->ce_namelen > prev->ce_namelen &&
	    !memcmp(ce->name, prev->name, prev->ce_namelen))
		return error("index '%s' is corrupt: '%s' is inside sparse "
			     "directory '%s'", file, ce->name, prev->name);
	return 0;
}

/*
 * Extensions, as git's rules say for a tool that rewrites the index:
 * the cache tree (TREE) is kept, and the directories whose paths
 * changed are marked invalid in it when the index is written; the
 * resolve-undo record (REUC) is kept, so "git checkout -m" can still
 * recreate a conflict; a sparse index's "sdir" is written again while
 * directory entries remain.  The caches we cannot keep true (UNTR,
 * FSMN) and the offset tables (EOIE, IEOT) are dropped, which git
 * reads as "not cached".  A split index's "link" is read (the index
 * is then written whole); any other required (lower-case) extension
 * describes entries we would misread, and is refused.
 */
struct cache_tree *active_cache_tree;
static unsigned char *kept_reuc;
static size_t kept_reuc_len;
static int index_version;	/* as read; 0 when there was no index */
static const unsigned char *link_ext;	/* in the buffer being read */
static size_t link_len;
static int sdir_seen;

static int read_extensions(const unsigned char *p, size_t avail,
			   const char *file)
{
	while (avail) {
		uint32_t len;

		if (avail < 8)
			return error("index '%s' is corrupt: truncated "
				     "extension", file);
		len = get_be32(p + 4);
		if (len > avail - 8)
			return error("index '%s' is corrupt: extension larger "
				     "than the file", file);
		if (!memcmp(p, "TREE", 4)) {
			/* a bad cache tree is no cache tree, as in git */
			cache_tree_free(active_cache_tree);
			active_cache_tree = cache_tree_parse(p + 8, len);
		} else if (!memcmp(p, "REUC", 4)) {
			free(kept_reuc);
			kept_reuc_len = 8 + len;
			kept_reuc = xmalloc(kept_reuc_len);
			memcpy(kept_reuc, p, kept_reuc_len);
		} else if (!memcmp(p, "link", 4)) {
			link_ext = p + 8;
			link_len = len;
		} else if (!memcmp(p, "sdir", 4)) {
			sdir_seen = 1;
		} else if (p[0] < 'A' || p[0] > 'Z') {
			return error("index '%s' uses extension '%.4s', which "
				     "this version does not understand", file,
				     (const char *)p);
		}
		p += 8 + len;
		avail -= 8 + len;
	}
	return 0;
}

/*
 * Parse the entries (and, but for a split index's shared file, which
 * has none, the extensions).  A split index's entries that replace
 * shared ones have no name: they are checked once merged.
 */
static int parse_index(const unsigned char *map, size_t size,
		       const char *file, int shared)
{
	uint32_t version = get_be32(map + 4), nr = get_be32(map + 8), i;
	const unsigned char *p = map + HEADER_SIZE, *end = map + size - 20;
	const struct cache_entry *last = NULL;
	unsigned int unnamed = 0;
	char *block;

	if (get_be32(map) != CACHE_SIGNATURE)
		return error("index '%s' is corrupt: bad signature", file);
	if (version < 2 || version > 4)
		return error("index '%s' has version %u; only 2, 3 and 4 are "
			     "supported", file, version);
	if (nr > (size - HEADER_SIZE - 20) / MIN_ONDISK_ENTRY)
		return error("index '%s' is corrupt: %u entries cannot fit in "
			     "%zu bytes", file, nr, size);
	if (!shared)
		index_version = version;
	/* Each entry's name is at most its on-disk size: one block fits all. */
	entry_block_size = (size_t)nr * sizeof(struct cache_entry) + size;
	block = entry_block = alloc_entry_block(entry_block_size);
	active_alloc = nr;
	active_cache = xcalloc(nr, sizeof(*active_cache));
	for (i = 0; i < nr; i++) {
		struct cache_entry *ce = (struct cache_entry *)block;
		size_t used = version == 4 ?
			parse_entry_v4(p, end - p, i ? active_cache[i - 1] :
				       NULL, &ce) :
			parse_entry(p, end - p, version, ce,
				    entry_block + entry_block_size - block -
				    sizeof(*ce) - 1);

		if (!used)
			return error("index '%s' is corrupt: entry %u is "
				     "truncated or malformed", file, i);
		if (!ce->ce_namelen && !shared) {
			unnamed++;
		} else if (check_entry(ce, last, file) < 0) {
			free_cache_entry(ce);
			return -1;
		} else {
			last = ce;
		}
		active_cache[active_nr++] = ce;
		p += used;
		if (version < 4)
			block += (ce_size_for(ce->ce_namelen) + 7) & ~(size_t)7;
	}
	if (shared)
		return 0;
	if (read_extensions(p, end - p, file) < 0)
		return -1;
	if (unnamed && !link_ext)
		return error("index '%s' is corrupt: an entry has no name",
			     file);
	return 0;
}

/* The index checksum, computed beside the parse when the index is big. */
struct index_hash {
	const unsigned char *buf;
	size_t len;
	unsigned char sha1[20];
};

static void *hash_index(void *arg)
{
	struct index_hash *h = arg;

	hash_buffer(h->buf, h->len, h->sha1);
	return NULL;
}

/*
 * Hashing a kernel's 8 MB index takes as long as parsing it twice, so
 * past this size a second thread hashes while this one parses.
 */
#define PARALLEL_HASH_MIN (256 * 1024)

/* Parse buf (an index file of size bytes) and check its checksum. */
static int parse_checked(const void *buf, size_t size, const char *name,
			 int shared)
{
	struct index_hash h = { buf, 0, { 0 } };
	int threaded = 0, ret;
	pthread_t thread;

	if (size < HEADER_SIZE + 20)
		return error("index '%s' is corrupt: too short", name);
	h.len = size - 20;
	if (size >= PARALLEL_HASH_MIN && sysconf(_SC_NPROCESSORS_ONLN) > 1)
		threaded = !pthread_create(&thread, NULL, hash_index, &h);
	ret = parse_index(buf, size, name, shared);
	if (threaded)
		pthread_join(thread, NULL);
	else if (!ret)
		hash_index(&h);
	if (!ret && memcmp(h.sha1, h.buf + h.len, 20))
		ret = error("index '%s' is corrupt: bad checksum", name);
	return ret;
}

/* Map an index file: 0, 1 when there is none, or -1. */
static int map_index_file(const char *file, void **map, size_t *size,
			  struct stat *st)
{
	int fd = open(file, O_RDONLY);

	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		return error_errno("open index '%s'", file);
	}
	if (fstat(fd, st) < 0) {
		close(fd);
		return error_errno("stat index '%s'", file);
	}
	if (!S_ISREG(st->st_mode) || st->st_size < HEADER_SIZE + 20 ||
	    st->st_size > MAX_INDEX_SIZE) {
		close(fd);
		return error("index '%s' is corrupt: bad size %lld", file,
			     (long long)st->st_size);
	}
	*size = st->st_size;
	*map = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (*map == MAP_FAILED)
		return error_errno("mmap index '%s'", file);
	return 0;
}

/* ---- the split index ---- */

static uint64_t get_be64(const unsigned char *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

struct bit_list {
	uint32_t *bits;
	size_t nr, alloc;
};

static int add_bit(struct bit_list *l, uint64_t bit, uint32_t limit)
{
	if (bit >= limit)
		return -1;
	ALLOC_GROW(l->bits, l->nr + 1, l->alloc);
	l->bits[l->nr++] = bit;
	return 0;
}

/*
 * An EWAH bitmap as git stores it: bits, words (each 64 bits, big
 * endian), then the offset of the last marker word.  A marker holds a
 * run bit (bit 0), the run's length in words (the next 32 bits) and
 * the count of literal words that follow it (the top 31).  Set bits
 * at or past limit (the shared index's entries) make it corrupt.
 * Returns the bytes used, or 0.
 */
static size_t read_ewah(const unsigned char *p, size_t avail,
			uint32_t limit, struct bit_list *l)
{
	uint64_t pos = 0, k;
	size_t words, i = 0;

	if (avail < 8)
		return 0;
	words = get_be32(p + 4);
	if ((avail - 8) / 8 < words || avail - 8 - 8 * words < 4)
		return 0;
	p += 8;
	while (i < words) {
		uint64_t w = get_be64(p + 8 * i++);
		uint64_t run = (w >> 1) & 0xffffffffu, lits = w >> 33;

		for (k = 0; (w & 1) && k < run * 64; k++)
			if (add_bit(l, pos + k, limit) < 0)
				return 0;
		pos += run * 64;
		if (lits > words - i)
			return 0;
		for (; lits; lits--, pos += 64) {
			uint64_t lit = get_be64(p + 8 * i++);

			for (k = 0; k < 64; k++)
				if (((lit >> k) & 1) &&
				    add_bit(l, pos + k, limit) < 0)
					return 0;
		}
	}
	return 12 + 8 * words;
}

static struct cache_entry *dup_entry(const struct cache_entry *ce,
				     const char *name, size_t len)
{
	struct cache_entry *n = xmalloc(ce_size_for(len));

	memcpy(n, ce, sizeof(*n));
	memcpy(n->name, name, len);
	n->name[len] = '\0';
	n->ce_namelen = len;
	n->ce_flags = (ce->ce_flags & ~CE_NAMEMASK) |
		      (len < CE_NAMEMASK ? len : CE_NAMEMASK);
	return n;
}

/* The array of entries and the entry block freed, the index empty. */
static void forget_entry_array(void)
{
	free(active_cache);
	free_entry_block();
	active_cache = NULL;
	entry_block = NULL;
	entry_block_size = 0;
	active_nr = active_alloc = 0;
}

/* The entries read so far, out of the entry block (which is freed). */
static struct cache_entry **take_entries(unsigned int *nr)
{
	struct cache_entry **ces = xcalloc(active_nr + 1, sizeof(*ces));
	unsigned int i;

	for (i = 0; i < active_nr; i++) {
		ces[i] = dup_entry(active_cache[i], active_cache[i]->name,
				   active_cache[i]->ce_namelen);
		free_cache_entry(active_cache[i]);
	}
	*nr = active_nr;
	forget_entry_array();
	return ces;
}

/* Read $GIT_DIR/sharedindex.<sha1> into active_cache. */
static int read_shared_index(const unsigned char *sha1)
{
	char name[64];
	char *file;
	struct stat st;
	void *map;
	size_t size;
	int ret;

	if (!get_git_dir())
		return error("split index: no repository for its shared index");
	snprintf(name, sizeof(name), "sharedindex.%s", sha1_to_hex(sha1));
	file = path_join(get_git_dir(), name);
	ret = map_index_file(file, &map, &size, &st);
	if (ret > 0)
		ret = error("split index: shared index '%s' is missing", file);
	if (!ret) {
		ret = parse_checked(map, size, file, 1);
		if (!ret && memcmp((unsigned char *)map + size - 20, sha1, 20))
			ret = error("split index: '%s' is not the shared "
				    "index it names", file);
		munmap(map, size);
	}
	free(file);
	return ret;
}

static int entry_cmp(const struct cache_entry *a, const struct cache_entry *b)
{
	size_t n = a->ce_namelen < b->ce_namelen ? a->ce_namelen :
		   b->ce_namelen;
	int cmp = memcmp(a->name, b->name, n);

	if (cmp)
		return cmp;
	if (a->ce_namelen != b->ce_namelen)
		return a->ce_namelen < b->ce_namelen ? -1 : 1;
	return (int)ce_stage(a) - (int)ce_stage(b);
}

/* The shared entries not deleted, and the split file's added ones. */
static void merge_added(struct cache_entry **add, unsigned int add_nr,
			const unsigned char *gone)
{
	struct cache_entry **out = xcalloc(active_nr + add_nr + 1,
					   sizeof(*out));
	unsigned int i = 0, j = 0, n = 0;

	while (i < active_nr || j < add_nr) {
		int cmp;

		if (i < active_nr && gone[i]) {
			free_cache_entry(active_cache[i++]);
			continue;
		}
		cmp = i == active_nr ? 1 : j == add_nr ? -1 :
		      entry_cmp(active_cache[i], add[j]);
		if (!cmp)	/* the split file's entry wins */
			free_cache_entry(active_cache[i++]);
		out[n++] = cmp < 0 ? active_cache[i++] : add[j++];
	}
	free(active_cache);
	active_cache = out;
	active_nr = n;
	active_alloc = active_nr + add_nr + 1;
}

/*
 * The split file's first entries replace the shared entries the
 * replace bitmap names, in order, keeping their paths; the shared
 * entries the delete bitmap names go; the split file's other entries
 * are added.
 */
static int apply_split(struct cache_entry **mine, unsigned int mine_nr,
		       const struct bit_list *del, const struct bit_list *rep,
		       const char *file)
{
	unsigned char *gone = xcalloc(active_nr + 1, 1);
	unsigned int i;
	int ret = 0;

	if (rep->nr > mine_nr)
		ret = error("index '%s' is corrupt: too many replacements",
			    file);
	for (i = 0; !ret && i < rep->nr; i++) {
		struct cache_entry *dst = active_cache[rep->bits[i]];

		if (mine[i]->ce_namelen) {
			ret = error("index '%s' is corrupt: a replacing entry "
				    "has a name", file);
			break;
		}
		active_cache[rep->bits[i]] = dup_entry(mine[i], dst->name,
						       dst->ce_namelen);
		free_cache_entry(dst);
	}
	for (i = 0; i < del->nr; i++)
		gone[del->bits[i]] = 1;
	for (i = rep->nr; !ret && i < mine_nr; i++)
		if (!mine[i]->ce_namelen)
			ret = error("index '%s' is corrupt: an entry has no "
				    "name", file);
	if (!ret) {
		merge_added(mine + rep->nr, mine_nr - rep->nr, gone);
		for (i = 0; i < rep->nr; i++)
			free(mine[i]);
	}
	free(gone);
	return ret;
}

static int merge_split_index(const char *file)
{
	struct bit_list del = { NULL, 0, 0 }, rep = { NULL, 0, 0 };
	const unsigned char *p = link_ext;
	size_t len = link_len, used = 0;
	unsigned int mine_nr, i;
	struct cache_entry **mine;
	int ret;

	if (len < 20)
		return error("index '%s' is corrupt: link extension too short",
			     file);
	mine = take_entries(&mine_nr);
	ret = read_shared_index(p);
	if (!ret && len > 20) {
		used = read_ewah(p + 20, len - 20, active_nr, &del);
		if (used)
			used += read_ewah(p + 20 + used, len - 20 - used,
					  active_nr, &rep);
		if (!used || 20 + used != len)
			ret = error("index '%s' is corrupt: bad bitmap in its "
				    "link extension", file);
	}
	if (!ret)
		ret = apply_split(mine, mine_nr, &del, &rep, file);
	if (ret)
		for (i = 0; i < mine_nr; i++)
			free(mine[i]);
	for (i = 0; !ret && i < active_nr; i++)
		ret = check_entry(active_cache[i],
				  i ? active_cache[i - 1] : NULL, file);
	free(mine);
	free(del.bits);
	free(rep.bits);
	return ret;
}

/* ---- reading ---- */

/*
 * What the index held when read, for the cache tree: the paths that
 * differ when it is written are the ones whose trees changed.  Kept
 * only when there is a cache tree to keep true.
 */
struct entry_snap {
	size_t name;		/* offset in snap_names */
	uint32_t namelen;
	uint32_t mode;
	uint16_t flags;		/* stage, intent-to-add */
	unsigned char sha1[20];
};

static struct entry_snap *snap;
static char *snap_names;
static unsigned int snap_nr;

static uint16_t snap_flags(const struct cache_entry *ce)
{
	return (ce->ce_flags & CE_STAGEMASK) |
	       (ce->ce_ext_flags & CE_INTENT_TO_ADD);
}

static void forget_snapshot(void)
{
	free(snap);
	free(snap_names);
	snap = NULL;
	snap_names = NULL;
	snap_nr = 0;
}

static void take_snapshot(void)
{
	size_t names = 0, off = 0;
	unsigned int i;

	forget_snapshot();
	for (i = 0; i < active_nr; i++)
		names += active_cache[i]->ce_namelen;
	snap = xcalloc(active_nr + 1, sizeof(*snap));
	snap_names = xmalloc(names + 1);
	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		snap[i].name = off;
		snap[i].namelen = ce->ce_namelen;
		snap[i].mode = ce->ce_mode;
		snap[i].flags = snap_flags(ce);
		memcpy(snap[i].sha1, ce->sha1, 20);
		memcpy(snap_names + off, ce->name, ce->ce_namelen);
		off += ce->ce_namelen;
	}
	snap_nr = active_nr;
}

static int snap_cmp(const struct entry_snap *s, const struct cache_entry *ce)
{
	size_t n = s->namelen < ce->ce_namelen ? s->namelen : ce->ce_namelen;
	int cmp = memcmp(snap_names + s->name, ce->name, n);

	if (cmp)
		return cmp;
	if (s->namelen != ce->ce_namelen)
		return s->namelen < ce->ce_namelen ? -1 : 1;
	return (int)(s->flags & CE_STAGEMASK) -
	       (int)(ce->ce_flags & CE_STAGEMASK);
}

/* Invalidate, in the cache tree, the paths that changed since read. */
static void invalidate_changed(void)
{
	unsigned int i = 0, j = 0;

	while (i < snap_nr || j < active_nr) {
		const struct entry_snap *s = i < snap_nr ? &snap[i] : NULL;
		const struct cache_entry *ce = j < active_nr ?
			active_cache[j] : NULL;
		int cmp = !s ? 1 : !ce ? -1 : snap_cmp(s, ce);

		if (cmp < 0)
			cache_tree_invalidate_path(active_cache_tree,
						   snap_names + s->name,
						   s->namelen);
		else if (cmp > 0 || s->mode != ce->ce_mode ||
			 s->flags != snap_flags(ce) ||
			 memcmp(s->sha1, ce->sha1, 20))
			cache_tree_invalidate_path(active_cache_tree, ce->name,
						   ce->ce_namelen);
		i += cmp <= 0;
		j += cmp >= 0;
	}
}

struct cache_tree *index_cache_tree(void)
{
	if (active_cache_tree)
		invalidate_changed();
	return active_cache_tree;
}

struct cache_tree *index_cache_tree_create(void)
{
	if (!active_cache_tree) {
		active_cache_tree = cache_tree_new();
		take_snapshot();
	}
	return index_cache_tree();
}

/* Directory entries need the "sdir" extension that announces them. */
static int check_sparse(const char *name)
{
	unsigned int i;

	for (i = 0; !sdir_seen && i < active_nr; i++)
		if (ce_sparse_dir(active_cache[i]))
			return error("index '%s' is corrupt: directory entry "
				     "'%s' without the sdir extension", name,
				     active_cache[i]->name);
	return 0;
}

int read_index_from_buffer(const void *buf, size_t size, const char *name)
{
	int ret;

	discard_cache();
	free(kept_reuc);	/* the index read brings its own */
	kept_reuc = NULL;
	kept_reuc_len = 0;
	link_ext = NULL;
	sdir_seen = 0;
	ret = parse_checked(buf, size, name, 0);
	if (!ret && link_ext)
		ret = merge_split_index(name);
	link_ext = NULL;
	if (!ret)
		ret = check_sparse(name);
	if (ret < 0) {
		discard_cache();
		return -1;
	}
	if (active_cache_tree)
		take_snapshot();
	return active_nr;
}

int read_cache(void)
{
	const char *file = get_index_file();
	struct stat st;
	void *map;
	size_t size;
	int ret;

	if (active_cache)
		return active_nr;
	ret = map_index_file(file, &map, &size, &st);
	if (ret)
		return ret > 0 ? 0 : -1;
	ret = read_index_from_buffer(map, size, file);
	munmap(map, size);
	if (ret < 0)
		return -1;
	index_mtime.sec = st.st_mtim.tv_sec;
	index_mtime.nsec = st.st_mtim.tv_nsec;
	return active_nr;
}

void discard_cache(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++)
		free_cache_entry(active_cache[i]);
	forget_entry_array();
	cache_tree_free(active_cache_tree);
	active_cache_tree = NULL;
	forget_snapshot();
}

/* ---- writing ---- */

static struct lock_file index_lock;

int hold_index_lock(void)
{
	return hold_lock_file(&index_lock, get_index_file());
}

void rollback_index_lock(void)
{
	rollback_lock_file(&index_lock);
}

/* index.version from the config files, or 0. */
static int config_index_version(void)
{
	char *value;
	long v = 0;

	if (!get_git_dir() || config_get("index.version", &value) <= 0)
		return 0;
	if (config_int(value, &v) < 0)
		v = 0;
	free(value);
	return v;
}

/* A new index's version: GIT_INDEX_VERSION, then index.version, then 2. */
static int default_index_version(void)
{
	const char *env = getenv("GIT_INDEX_VERSION");
	int v = env ? atoi(env) : 0;

	if (v < 2 || v > 4)
		v = config_index_version();
	return v >= 2 && v <= 4 ? v : 2;
}

/*
 * As git: v4 stays v4; v2 and v3 become whichever the entries need
 * (v3 only for extended flags: intent-to-add, skip-worktree).
 */
static unsigned int version_to_write(void)
{
	unsigned int i;

	if (!index_version)
		index_version = default_index_version();
	if (index_version == 4)
		return 4;
	for (i = 0; i < active_nr; i++)
		if (active_cache[i]->ce_ext_flags)
			return 3;
	return 2;
}

/* The stat data, id and flags; returns their size (62, or 64). */
static size_t fill_ondisk(unsigned char *e, const struct cache_entry *ce)
{
	const uint32_t f[10] = {
		ce->ce_ctime.sec, ce->ce_ctime.nsec, ce->ce_mtime.sec,
		ce->ce_mtime.nsec, ce->ce_dev, ce->ce_ino, ce->ce_mode,
		ce->ce_uid, ce->ce_gid, ce->ce_size,
	};
	uint16_t flags = ce->ce_flags & ~(CE_EXTENDED | CE_NAMEMASK);
	size_t i;

	flags |= ce->ce_namelen < CE_NAMEMASK ? ce->ce_namelen : CE_NAMEMASK;
	if (ce->ce_ext_flags)
		flags |= CE_EXTENDED;
	for (i = 0; i < 10; i++)
		put_be32(e + 4 * i, f[i]);
	memcpy(e + 40, ce->sha1, 20);
	e[60] = flags >> 8;
	e[61] = flags;
	e[62] = ce->ce_ext_flags >> 8;
	e[63] = ce->ce_ext_flags;
	return ce->ce_ext_flags ? ONDISK_FIXED + 2 : ONDISK_FIXED;
}

/* The fixed part, the name, and the NULs that pad it to 8 bytes. */
static int write_ondisk_entry(struct hashfile *w,
			      const struct cache_entry *ce)
{
	static const unsigned char zeros[8];
	unsigned char e[ONDISK_FIXED + 2];
	size_t fixed = fill_ondisk(e, ce);
	size_t total = (fixed + ce->ce_namelen + 8) & ~(size_t)7;

	if (hashwrite(w, e, fixed) < 0 ||
	    hashwrite(w, ce->name, ce->ce_namelen) < 0)
		return -1;
	return hashwrite(w, zeros, total - fixed - ce->ce_namelen);
}

/* git's offset varint, the inverse of get_varint; returns its bytes. */
static size_t put_varint(unsigned char *out, size_t value)
{
	unsigned char tmp[16];
	size_t pos = sizeof(tmp) - 1;

	tmp[pos] = value & 127;
	while (value >>= 7)
		tmp[--pos] = 128 | (--value & 127);
	memcpy(out, tmp + pos, sizeof(tmp) - pos);
	return sizeof(tmp) - pos;
}

/* v4: the bytes of prev's name to drop, then the rest of ce's, a NUL. */
static int write_ondisk_entry_v4(struct hashfile *w,
				 const struct cache_entry *ce,
				 const struct cache_entry *prev)
{
	unsigned char e[ONDISK_FIXED + 2 + 16];
	size_t fixed = fill_ondisk(e, ce), same = 0;

	if (prev)
		same = common_prefix(prev->name, ce->name,
				     prev->ce_namelen < ce->ce_namelen ?
				     prev->ce_namelen : ce->ce_namelen);
	fixed += put_varint(e + fixed, prev ? prev->ce_namelen - same : 0);
	if (hashwrite(w, e, fixed) < 0)
		return -1;
	return hashwrite(w, ce->name + same, ce->ce_namelen - same + 1);
}

static int write_extension(struct hashfile *w, const char *sig,
			   const void *buf, size_t len)
{
	unsigned char hdr[8];

	memcpy(hdr, sig, 4);
	put_be32(hdr + 4, len);
	if (hashwrite(w, hdr, 8) < 0)
		return -1;
	return hashwrite(w, buf, len);
}

static int write_cache_tree(struct hashfile *w)
{
	struct mbuf b = MBUF_INIT;
	int ret;

	if (!active_cache_tree)
		return 0;
	invalidate_changed();
	ret = cache_tree_write(&b, active_cache_tree);
	if (!ret)
		ret = write_extension(w, "TREE", b.buf, b.len);
	free(b.buf);
	return ret;
}

static int has_sparse_dirs(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++)
		if (ce_sparse_dir(active_cache[i]))
			return 1;
	return 0;
}

/* Extensions in git's order: TREE, REUC, sdir. */
static int write_index_extensions(struct hashfile *w)
{
	if (write_cache_tree(w) < 0)
		return -1;
	if (kept_reuc && hashwrite(w, kept_reuc, kept_reuc_len) < 0)
		return -1;
	if (has_sparse_dirs() && write_extension(w, "sdir", "", 0) < 0)
		return -1;
	return 0;
}

static int write_index_to(int fd)
{
	struct hashfile *w = hashfd(fd);
	unsigned char hdr[HEADER_SIZE];
	unsigned int i, version = version_to_write();
	int ret = 0;

	put_be32(hdr, CACHE_SIGNATURE);
	put_be32(hdr + 4, version);
	put_be32(hdr + 8, active_nr);
	ret = hashwrite(w, hdr, sizeof(hdr));
	for (i = 0; !ret && i < active_nr; i++)
		ret = version == 4 ?
			write_ondisk_entry_v4(w, active_cache[i],
					      i ? active_cache[i - 1] : NULL) :
			write_ondisk_entry(w, active_cache[i]);
	if (!ret)
		ret = write_index_extensions(w);
	if (hashfile_finish(w, NULL) < 0)
		ret = -1;
	return ret;
}

int commit_index(void)
{
	if (!index_lock.path)
		return error("internal error: index is not locked");
	smudge_racy_entries();
	if (write_index_to(index_lock.fd) < 0) {
		error_errno("write '%s'", index_lock.path);
		rollback_index_lock();
		return -1;
	}
	if (flush_to_disk(index_lock.fd) < 0) {
		rollback_index_lock();
		return -1;
	}
	return commit_lock_file(&index_lock);
}
