/*
 * index-parse.c: an index file's bytes into active_cache, trusting
 * nothing: signature, version, entry count, every name and the order
 * of entries are checked against the file's size before the checksum
 * is (on a second thread for a big index).  The extensions are read
 * here; a split index's shared file is merged by index-split.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "index-internal.h"

/*
 * The first error of a parse, held while it is not known whether the
 * file is an index of the other hash (then that is all there is to
 * say, in one line); printed at once outside a parse.
 */
static char held_error[1024];
static int holding_errors;

__attribute__((format(printf, 1, 2)))
static int parse_error(const char *fmt, ...)
{
	char msg[sizeof(held_error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!holding_errors)
		return error("%s", msg);
	if (!held_error[0])
		memcpy(held_error, msg, sizeof(msg));
	return -1;
}

static int valid_index_mode(uint32_t mode)
{
	return mode == 0100644 || mode == 0100755 || mode == 0120000 ||
	       mode == S_IFGITLINK;
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

int check_entry(const struct cache_entry *ce,
		const struct cache_entry *prev, const char *file)
{
	size_t verified = 0, len = ce->ce_namelen;
	int ordered = !prev || in_order(prev, ce, &verified);

	if (ce_sparse_dir(ce)) {
		if (bad_sparse_dir(ce))
			return parse_error("index '%s' is corrupt: bad "
					   "directory entry '%s'", file,
					   ce->name);
		len--;
		if (verified > len)
			verified = len;
	} else if (!valid_index_mode(ce->ce_mode)) {
		return parse_error("index '%s' is corrupt: bad mode %o for "
				   "'%s'", file, ce->ce_mode, ce->name);
	}
	if (!verify_path_from(ce->name, len, verified))
		return parse_error("index '%s' is corrupt: invalid path '%s'",
				   file, ce->name);
	if (!ordered)
		return parse_error("index '%s' is corrupt: entries unsorted "
				   "or duplicated at '%s'", file, ce->name);
	if (prev && ce_sparse_dir(prev) && ce->ce_namelen > prev->ce_namelen &&
	    !memcmp(ce->name, prev->name, prev->ce_namelen))
		return parse_error("index '%s' is corrupt: '%s' is inside "
				   "sparse directory '%s'", file, ce->name,
				   prev->name);
	return 0;
}

/*
 * Extensions, as git's rules say for a tool that rewrites the index:
 * the cache tree (TREE) is kept, and the directories whose paths
 * changed are marked invalid in it when the index is written; the
 * resolve-undo record (REUC) is kept, so "git checkout -m" can still
 * recreate a conflict; a sparse index's "sdir" is written again while
 * directory entries remain.  The untracked cache (UNTR) is kept whole,
 * written back while the index's paths stay those it was read with (as
 * git, which invalidates it only where a path comes or goes).  FSMN and
 * the offset tables (EOIE, IEOT) are dropped, which git reads as "not
 * cached".  A split index's "link" is read (and written
 * again, index-split.c); any other required (lower-case) extension
 * describes entries we would misread, and is refused.
 */
struct cache_tree *active_cache_tree;
unsigned char *kept_reuc;
size_t kept_reuc_len;
unsigned char *kept_untr;
size_t kept_untr_len;
int index_version;	/* as read; 0 when there was no index */
const unsigned char *link_ext;	/* in the buffer being read */
size_t link_len;
int sdir_seen;
int sparse_dir_parsed;
int index_not_written;

static int read_extensions(const unsigned char *p, size_t avail,
			   const char *file)
{
	while (avail) {
		uint32_t len;

		if (avail < 8)
			return parse_error("index '%s' is corrupt: truncated "
					   "extension", file);
		len = get_be32(p + 4);
		if (len > avail - 8)
			return parse_error("index '%s' is corrupt: extension "
					   "larger than the file", file);
		if (index_not_written && (!memcmp(p, "TREE", 4) ||
					  !memcmp(p, "REUC", 4) ||
					  !memcmp(p, "UNTR", 4))) {
			;	/* kept only to be written again */
		} else if (!memcmp(p, "TREE", 4)) {
			/* a bad cache tree is no cache tree, as in git */
			cache_tree_free(active_cache_tree);
			active_cache_tree = cache_tree_parse(p + 8, len);
		} else if (!memcmp(p, "REUC", 4)) {
			free(kept_reuc);
			kept_reuc_len = 8 + len;
			kept_reuc = xmalloc(kept_reuc_len);
			memcpy(kept_reuc, p, kept_reuc_len);
		} else if (!memcmp(p, "UNTR", 4)) {
			free(kept_untr);
			kept_untr_len = 8 + len;
			kept_untr = xmalloc(kept_untr_len);
			memcpy(kept_untr, p, kept_untr_len);
		} else if (!memcmp(p, "link", 4)) {
			link_ext = p + 8;
			link_len = len;
		} else if (!memcmp(p, "sdir", 4)) {
			sdir_seen = 1;
		} else if (p[0] < 'A' || p[0] > 'Z') {
			return parse_error("index '%s' uses extension '%.4s', "
					   "which this version does not "
					   "understand", file,
					   (const char *)p);
		}
		p += 8 + len;
		avail -= 8 + len;
	}
	return 0;
}

/*
 * The block a v2/v3 file's entries are parsed into.  An entry on disk
 * takes at least its fixed part (ONDISK_FIXED) + its name + a NUL,
 * rounded up to 8; in memory sizeof(struct cache_entry) + its name + a
 * NUL, rounded up to 8: at most sizeof - fixed + 7 bytes more.  Sized
 * so, not at the size of the file plus a whole entry each, the block of
 * a kernel's index is 9.6 MB, not 14 MB, every page of it zeroed when
 * touched.
 * v4's entries are allocated one by one.
 */
static size_t entry_block_size(uint32_t version, uint32_t nr, size_t size)
{
	if (version == 4)
		return 8;
	return size + (size_t)nr * (sizeof(struct cache_entry) -
				    ONDISK_FIXED(the_hash->rawsz) + 7);
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
	size_t rawsz = the_hash->rawsz;
	const unsigned char *p = map + HEADER_SIZE, *end = map + size - rawsz;
	const struct cache_entry *last = NULL;
	unsigned int unnamed = 0;
	char *block, *block_end;
	size_t block_size;

	if (get_be32(map) != CACHE_SIGNATURE)
		return parse_error("index '%s' is corrupt: bad signature",
				   file);
	if (version < 2 || version > 4)
		return parse_error("index '%s' has version %u; only 2, 3 and "
				   "4 are supported", file, version);
	if (nr > (size - HEADER_SIZE - rawsz) / MIN_ONDISK_ENTRY(rawsz))
		return parse_error("index '%s' is corrupt: %u entries cannot "
				   "fit in %zu bytes", file, nr, size);
	if (!shared)
		index_version = version;
	block_size = entry_block_size(version, nr, size);
	block = alloc_entry_block(block_size);
	block_end = block + block_size;
	active_alloc = nr;
	active_cache = xcalloc(nr, sizeof(*active_cache));
	for (i = 0; i < nr; i++) {
		struct cache_entry *ce = (struct cache_entry *)block;
		size_t used = version == 4 ?
			parse_entry_v4(p, end - p, i ? active_cache[i - 1] :
				       NULL, &ce) :
			parse_entry(p, end - p, version, ce,
				    block_end - block - sizeof(*ce) - 1);

		if (!used)
			return parse_error("index '%s' is corrupt: entry %u "
					   "is truncated or malformed", file,
					   i);
		if (ce_sparse_dir(ce))
			sparse_dir_parsed = 1;
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
		return parse_error("index '%s' is corrupt: an entry has no "
				   "name", file);
	return 0;
}

/* The index checksum, computed beside the parse when the index is big. */
struct index_hash {
	const unsigned char *buf;
	size_t len;
	unsigned char sha1[HASH_MAX_RAWSZ];
	int collision;		/* it looks like a SHA-1 collision attack */
};

static void *hash_index(void *arg)
{
	struct index_hash *h = arg;

	h->collision = hash_buffer(h->buf, h->len, h->sha1) < 0;
	return NULL;
}

/*
 * Hashing a kernel's 8 MB index takes as long as parsing it twice, so
 * past this size a second thread hashes while this one parses.
 */
#define PARALLEL_HASH_MIN (256 * 1024)

/*
 * A checksum still being computed after the parse (parse_deferring):
 * its thread, and the mapping it reads, unmapped once it is done.
 */
static struct {
	pthread_t thread;
	struct index_hash h;
	void *map;
	size_t size;
	char *name;
	int running;
	int failed;		/* a bad checksum was found: sticky */
} pending;

/*
 * A file refused as the_hash's index may be whole as another hash's (a
 * SHA-1 index in a SHA-256 repository, or the reverse): the other hash,
 * when the file's checksum says so, else NULL.
 */
static const struct hash_algo *other_hash_of(const unsigned char *buf,
					     size_t size)
{
	const struct hash_algo *algo = the_hash == &hash_sha1 ?
				       &hash_sha256 : &hash_sha1;
	unsigned char md[HASH_MAX_RAWSZ];
	struct hash_ctx c;

	if (size < HEADER_SIZE + algo->rawsz ||
	    get_be32(buf) != CACHE_SIGNATURE)
		return NULL;
	hash_init(&c, algo);
	hash_update(&c, buf, size - algo->rawsz);
	if (hash_final(md, &c) < 0 ||
	    memcmp(md, buf + size - algo->rawsz, algo->rawsz))
		return NULL;
	return algo;
}

/*
 * The one line that refuses buf (size bytes): what it is when it is
 * the other hash's index, else the first error held.  -1.
 */
static int refuse(const unsigned char *buf, size_t size, const char *name)
{
	const struct hash_algo *algo = other_hash_of(buf, size);

	if (algo)
		error("index '%s' has %s ids, but the repository uses %s",
		      name, algo->name, the_hash->name);
	else if (held_error[0])
		error("%s", held_error);
	held_error[0] = '\0';
	return -1;
}

/* Parse errors are held until refuse() says what the file is. */
static void hold_errors(int on)
{
	holding_errors = on;
	held_error[0] = '\0';
}

static int checksum_result(const struct index_hash *h, const char *name)
{
	if (h->collision)
		return error("index '%s': SHA-1 collision attack detected",
			     name);
	if (hasheq(h->sha1, h->buf + h->len))
		return 0;
	hold_errors(1);
	parse_error("index '%s' is corrupt: bad checksum", name);
	refuse(h->buf, h->len + the_hash->rawsz, name);
	hold_errors(0);
	return -1;
}

static int start_hash(pthread_t *thread, struct index_hash *h, size_t size)
{
	if (size < PARALLEL_HASH_MIN || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	return !pthread_create(thread, NULL, hash_index, h);
}

/* Parse buf (an index file of size bytes) and check its checksum. */
int parse_checked(const void *buf, size_t size, const char *name,
		  int shared)
{
	struct index_hash h = { buf, 0, { 0 }, 0 };
	int threaded, ret;
	pthread_t thread;

	hold_errors(1);
	if (size < HEADER_SIZE + the_hash->rawsz) {
		parse_error("index '%s' is corrupt: too short", name);
		ret = refuse(buf, size, name);
		hold_errors(0);
		return ret;
	}
	h.len = size - the_hash->rawsz;
	threaded = start_hash(&thread, &h, size);
	ret = parse_index(buf, size, name, shared);
	if (threaded)
		pthread_join(thread, NULL);
	else if (!ret)
		hash_index(&h);
	if (ret < 0)
		refuse(buf, size, name);
	hold_errors(0);
	if (!ret)
		ret = checksum_result(&h, name);
	return ret;
}

int parse_deferring(void *map, size_t size, const char *name)
{
	int ret;

	finish_deferred_check();	/* none runs: discard_cache waited */
	if (size < HEADER_SIZE + the_hash->rawsz)
		return parse_checked(map, size, name, 0);
	pending.h.buf = map;
	pending.h.len = size - the_hash->rawsz;
	if (!start_hash(&pending.thread, &pending.h, size))
		return parse_checked(map, size, name, 0);
	hold_errors(1);
	ret = parse_index(map, size, name, 0);
	if (ret < 0) {
		pthread_join(pending.thread, NULL);
		refuse(map, size, name);
	}
	hold_errors(0);
	if (ret < 0)
		return -1;
	pending.map = map;
	pending.size = size;
	pending.name = xstrdup(name);
	pending.running = 1;
	return 1;
}

int finish_deferred_check(void)
{
	if (pending.running) {
		pthread_join(pending.thread, NULL);
		pending.running = 0;
		if (checksum_result(&pending.h, pending.name) < 0)
			pending.failed = 1;
		munmap(pending.map, pending.size);
		free(pending.name);
		pending.name = NULL;
	}
	return pending.failed ? -1 : 0;
}

/*
 * Map an index file: 0, 1 when there is none, or -1.  Without
 * MAP_POPULATE: populating a kernel's 8 MB index (2,000 pages) took
 * 0.75 ms in mmap, before the parse or the checksum could start, on the
 * one thread.  Unpopulated, each read fault maps the pages around it
 * that are cached (16 at a time), and the ~125 faults fall on whichever
 * of the parse and the checksum gets there first, while the other goes
 * on.
 */
int map_index_file(const char *file, void **map, size_t *size,
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
	if (!S_ISREG(st->st_mode) ||
	    st->st_size < (off_t)(HEADER_SIZE + hash_sha1.rawsz) ||
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
