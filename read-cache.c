/*
 * read-cache.c: the memory of the index: active_cache and its entries,
 * the block the entries of a file read share, and an entry's stat data
 * against a file's (racy entries too).  The file itself is read by
 * index-parse.c and index-read.c, written by index-write.c.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "index-internal.h"

struct cache_entry **active_cache;
unsigned int active_nr;
size_t active_alloc;

/* Entries read from disk share one block and are not freed one by one. */
static char *entry_block;
static size_t entry_block_size;
static struct cache_time index_mtime;

unsigned int ce_mode_from_stat(unsigned int st_mode)
{
	if (S_ISLNK(st_mode))
		return 0120000;
	if (S_ISDIR(st_mode))
		return 040000;
	return 0100000 | ((st_mode & 0100) ? 0755 : 0644);
}

size_t ce_size_for(size_t len)
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
 * kernel index).  Only the 2 MiB pages that lie whole in the mapping
 * can be huge, and mmap places a mapping on a 4 KiB boundary: the
 * block is aligned to 2 MiB and its length rounded up to them, else its
 * first and last 2 MiB were faulted 4 KiB at a time (about 1,000
 * faults, a tenth of loading a kernel's index).  The pages past the
 * entries are never touched, never faulted.
 */
#define HUGE_BLOCK ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)
static int entry_block_mapped;
static size_t entry_block_mapped_len;

static char *map_entry_block(size_t size)
{
	size_t len = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), head;
	char *p;

	entry_block_mapped = 0;
	if (size < HUGE_BLOCK)
		return xmalloc(size);
	p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return xmalloc(size);
	head = -(uintptr_t)p & (HUGE_PAGE - 1);
	if (head)
		munmap(p, head);
	munmap(p + head + len, HUGE_PAGE - head);
	p += head;
#ifdef MADV_HUGEPAGE
	madvise(p, len, MADV_HUGEPAGE);
#endif
	entry_block_mapped = 1;
	entry_block_mapped_len = len;
	return p;
}

char *alloc_entry_block(size_t size)
{
	entry_block = map_entry_block(size);
	entry_block_size = size;
	return entry_block;
}

static void free_entry_block(void)
{
	if (entry_block_mapped)
		munmap(entry_block, entry_block_mapped_len);
	else
		free(entry_block);
	entry_block_mapped = 0;
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
void set_index_mtime(const struct stat *st)
{
	index_mtime.sec = st->st_mtim.tv_sec;
	index_mtime.nsec = st->st_mtim.tv_nsec;
}

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
	unsigned char head[HASH_MAX_RAWSZ];

	if (!S_ISDIR(st->st_mode))
		return TYPE_CHANGED;
	if (!resolve_gitlink_head(ce->name, head) && !hasheq(head, ce->sha1))
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

struct cache_entry *dup_entry(const struct cache_entry *ce, const char *name,
			      size_t len)
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

void forget_entry_array(void)
{
	free(active_cache);
	free_entry_block();
	active_cache = NULL;
	entry_block = NULL;
	entry_block_size = 0;
	active_nr = active_alloc = 0;
}

