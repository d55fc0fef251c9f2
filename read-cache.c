/*
 * read-cache.c: the index file ("directory cache"), in git's index
 * format v2 (v3 is read too), and the memory of its entries.  Reading trusts nothing: signature, version,
 * entry count, every name and the order of entries are checked
 * against the file's size before the checksum is.  Writing goes to
 * index.lock (O_EXCL) and is renamed over the index, so a reader sees
 * the old index or the new one, never half of one.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

unsigned int ce_match_stat(const struct cache_entry *ce,
			   const struct stat *st)
{
	unsigned int changed = ce_match_stat_basic(ce, st);

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

static int check_entry(const struct cache_entry *ce,
		       const struct cache_entry *prev, const char *file)
{
	size_t verified = 0;
	int ordered = !prev || in_order(prev, ce, &verified);

	if (!ce->ce_namelen)	/* a split index replaces entries so */
		return error("index '%s' is a split index, which this version "
			     "does not read ('git update-index "
			     "--no-split-index' makes it whole)", file);
	if (!verify_path_from(ce->name, ce->ce_namelen, verified))
		return error("index '%s' is corrupt: invalid path '%s'", file,
			     ce->name);
	if (!valid_index_mode(ce->ce_mode))
		return error("index '%s' is corrupt: bad mode %o for '%s'",
			     file, ce->ce_mode, ce->name);
	if (!ordered)
		return error("index '%s' is corrupt: entries unsorted or "
			     "duplicated at '%s'", file, ce->name);
	return 0;
}

/*
 * Extensions, as git's rules say for a tool that rewrites the index:
 * the resolve-undo record (REUC) is kept, so "git checkout -m" can
 * still recreate a conflict; the caches (TREE, UNTR, FSMN) and the
 * offset tables (EOIE, IEOT) are dropped, which git reads as "not
 * cached" (a dropped cache tree is never a stale one); a required
 * extension (lower-case: "link" of a split index, "sdir" of a sparse
 * one) describes entries we would misread, and is refused.
 */
static unsigned char *kept_reuc;
static size_t kept_reuc_len;
static unsigned char *read_tree_ext;	/* TREE: read, never written */
static size_t read_tree_ext_len;

const unsigned char *index_cache_tree(size_t *len)
{
	*len = read_tree_ext_len;
	return read_tree_ext;
}

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
		if (p[0] < 'A' || p[0] > 'Z')
			return error("index '%s' uses extension '%.4s', which "
				     "this version does not understand", file,
				     (const char *)p);
		if (!memcmp(p, "REUC", 4)) {
			free(kept_reuc);
			kept_reuc_len = 8 + len;
			kept_reuc = xmalloc(kept_reuc_len);
			memcpy(kept_reuc, p, kept_reuc_len);
		} else if (!memcmp(p, "TREE", 4)) {
			free(read_tree_ext);
			read_tree_ext_len = len;
			read_tree_ext = xmalloc(len ? len : 1);
			memcpy(read_tree_ext, p + 8, len);
		}
		p += 8 + len;
		avail -= 8 + len;
	}
	return 0;
}

static int parse_index(const unsigned char *map, size_t size, const char *file)
{
	uint32_t version = get_be32(map + 4), nr = get_be32(map + 8), i;
	const unsigned char *p = map + HEADER_SIZE, *end = map + size - 20;
	char *block;

	if (get_be32(map) != CACHE_SIGNATURE)
		return error("index '%s' is corrupt: bad signature", file);
	if (version < 2 || version > 4)
		return error("index '%s' has version %u; only 2, 3 and 4 are "
			     "supported", file, version);
	if (nr > (size - HEADER_SIZE - 20) / MIN_ONDISK_ENTRY)
		return error("index '%s' is corrupt: %u entries cannot fit in "
			     "%zu bytes", file, nr, size);
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
		if (check_entry(ce, i ? active_cache[i - 1] : NULL, file) < 0) {
			free_cache_entry(ce);
			return -1;
		}
		active_cache[active_nr++] = ce;
		p += used;
		if (version < 4)
			block += (ce_size_for(ce->ce_namelen) + 7) & ~(size_t)7;
	}
	return read_extensions(p, end - p, file);
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

int read_index_from_buffer(const void *buf, size_t size, const char *name)
{
	struct index_hash h = { buf, 0, { 0 } };
	int threaded = 0, ret;
	pthread_t thread;

	discard_cache();
	free(kept_reuc);	/* the index read brings its own */
	kept_reuc = NULL;
	kept_reuc_len = 0;
	free(read_tree_ext);
	read_tree_ext = NULL;
	read_tree_ext_len = 0;
	if (size < HEADER_SIZE + 20)
		return error("index '%s' is corrupt: too short", name);
	h.len = size - 20;
	if (size >= PARALLEL_HASH_MIN && sysconf(_SC_NPROCESSORS_ONLN) > 1)
		threaded = !pthread_create(&thread, NULL, hash_index, &h);
	ret = parse_index(buf, size, name);
	if (threaded)
		pthread_join(thread, NULL);
	else if (!ret)
		hash_index(&h);
	if (!ret && memcmp(h.sha1, h.buf + h.len, 20))
		ret = error("index '%s' is corrupt: bad checksum", name);
	if (ret < 0) {
		discard_cache();
		return -1;
	}
	return active_nr;
}

int read_cache(void)
{
	const char *file = get_index_file();
	struct stat st;
	void *map;
	int fd, ret;

	if (active_cache)
		return active_nr;
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return error_errno("open index '%s'", file);
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return error_errno("stat index '%s'", file);
	}
	if (!S_ISREG(st.st_mode) || st.st_size < HEADER_SIZE + 20 ||
	    st.st_size > MAX_INDEX_SIZE) {
		close(fd);
		return error("index '%s' is corrupt: bad size %lld", file,
			     (long long)st.st_size);
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return error_errno("mmap index '%s'", file);
	ret = read_index_from_buffer(map, st.st_size, file);
	munmap(map, st.st_size);
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
	free(active_cache);
	free_entry_block();
	active_cache = NULL;
	entry_block = NULL;
	entry_block_size = 0;
	active_nr = 0;
	active_alloc = 0;
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

/* The fixed part, the name, and the NULs that pad it to 8 bytes. */
static int write_ondisk_entry(struct hashfile *w,
			      const struct cache_entry *ce)
{
	static const unsigned char zeros[8];
	unsigned char e[ONDISK_FIXED + 2];
	const uint32_t f[10] = {
		ce->ce_ctime.sec, ce->ce_ctime.nsec, ce->ce_mtime.sec,
		ce->ce_mtime.nsec, ce->ce_dev, ce->ce_ino, ce->ce_mode,
		ce->ce_uid, ce->ce_gid, ce->ce_size,
	};
	size_t fixed = ONDISK_FIXED, total, i;
	uint16_t flags = ce->ce_flags & ~(CE_EXTENDED | CE_NAMEMASK);

	flags |= ce->ce_namelen < CE_NAMEMASK ? ce->ce_namelen : CE_NAMEMASK;
	if (ce->ce_ext_flags) {
		flags |= CE_EXTENDED;
		fixed += 2;
	}
	total = (fixed + ce->ce_namelen + 8) & ~(size_t)7;
	for (i = 0; i < 10; i++)
		put_be32(e + 4 * i, f[i]);
	memcpy(e + 40, ce->sha1, 20);
	e[60] = flags >> 8;
	e[61] = flags;
	e[62] = ce->ce_ext_flags >> 8;
	e[63] = ce->ce_ext_flags;
	if (hashwrite(w, e, fixed) < 0 ||
	    hashwrite(w, ce->name, ce->ce_namelen) < 0)
		return -1;
	return hashwrite(w, zeros, total - fixed - ce->ce_namelen);
}

static int write_index_to(int fd)
{
	struct hashfile *w = hashfd(fd);
	unsigned char hdr[HEADER_SIZE];
	unsigned int i, version = 2;
	int ret = 0;

	for (i = 0; i < active_nr; i++)
		if (active_cache[i]->ce_ext_flags)
			version = 3;
	put_be32(hdr, CACHE_SIGNATURE);
	put_be32(hdr + 4, version);
	put_be32(hdr + 8, active_nr);
	ret = hashwrite(w, hdr, sizeof(hdr));
	for (i = 0; !ret && i < active_nr; i++)
		ret = write_ondisk_entry(w, active_cache[i]);
	if (!ret && kept_reuc)
		ret = hashwrite(w, kept_reuc, kept_reuc_len);
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
