/*
 * index-split.c: the split index.  An index with a "link" extension
 * holds only the changes to a shared index, $GIT_DIR/sharedindex.<id>:
 * entries that replace shared ones (by the replace bitmap, nameless),
 * the shared entries deleted (the delete bitmap), and entries added.
 * It is read whole: the shared entries with the changes applied, and
 * the shared entries kept aside, so that it can be written back split
 * against the same shared index (or a new one, when too much changed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "index-internal.h"

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
	char name[sizeof("sharedindex.") + HASH_MAX_HEXSZ];
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
		if (!ret && !hasheq((unsigned char *)map + size -
				    the_hash->rawsz, sha1))
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

/* ---- the shared index kept, for the write ---- */

static struct cache_entry **shared;
static unsigned int shared_nr;
static unsigned char shared_sha1[HASH_MAX_RAWSZ];
static int came_split;

void forget_split_index(void)
{
	unsigned int i;

	for (i = 0; i < shared_nr; i++)
		free(shared[i]);
	free(shared);
	shared = NULL;
	shared_nr = 0;
	came_split = 0;
}

/* Copies of the entries in active_cache, as the shared index's. */
static void keep_shared(const unsigned char *sha1)
{
	unsigned int i;

	forget_split_index();
	shared = xcalloc(active_nr + 1, sizeof(*shared));
	for (i = 0; i < active_nr; i++)
		shared[i] = dup_entry(active_cache[i], active_cache[i]->name,
				      active_cache[i]->ce_namelen);
	shared_nr = active_nr;
	hashcpy(shared_sha1, sha1);
	came_split = 1;
}

int merge_split_index(const char *file)
{
	struct bit_list del = { NULL, 0, 0 }, rep = { NULL, 0, 0 };
	const unsigned char *p = link_ext;
	size_t len = link_len, used = 0, rawsz = the_hash->rawsz;
	unsigned int mine_nr, i;
	struct cache_entry **mine;
	int ret;

	if (len < rawsz)
		return error("index '%s' is corrupt: link extension too short",
			     file);
	mine = take_entries(&mine_nr);
	/* an id of zeros: no shared index (it is empty) */
	ret = is_null_hash(p) ? 0 : read_shared_index(p);
	if (!ret)
		keep_shared(p);
	if (!ret && len > rawsz) {
		used = read_ewah(p + rawsz, len - rawsz, active_nr, &del);
		if (used)
			used += read_ewah(p + rawsz + used, len - rawsz - used,
					  active_nr, &rep);
		if (!used || rawsz + used != len)
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

/* ---- writing it back split ---- */

/* core.splitIndex: 1, 0, or -1 when unset (or not a boolean). */
static int split_index_config(void)
{
	char *value;
	int v;

	if (!get_git_dir() || config_get("core.splitindex", &value) <= 0)
		return -1;
	v = config_bool(value);
	free(value);
	return v;
}

/* splitIndex.maxPercentChange, 0 to 100; 20 when unset or bad. */
static long max_percent_change(void)
{
	char *value;
	long v = 20;

	if (config_get("splitindex.maxpercentchange", &value) <= 0)
		return 20;
	if (!value || config_int(value, &v) < 0 || v < 0 || v > 100)
		v = 20;
	free(value);
	return v;
}

/* Do two entries of one name and stage differ in what is written? */
static int same_entry(const struct cache_entry *a,
		      const struct cache_entry *b)
{
	return !memcmp(a, b, offsetof(struct cache_entry, sha1)) &&
	       hasheq(a->sha1, b->sha1) &&
	       (a->ce_flags & ~CE_NAMEMASK) == (b->ce_flags & ~CE_NAMEMASK) &&
	       a->ce_ext_flags == b->ce_ext_flags;
}

/*
 * An EWAH bitmap of the sorted positions bits, as git reads it: the
 * bit count, the words (one marker saying all that follow are
 * literal, then the literal words), the marker's position.
 */
static void put_ewah(struct mbuf *b, const uint32_t *bits, size_t nr)
{
	size_t words = nr ? bits[nr - 1] / 64 + 1 : 0, i;
	uint64_t *lit = xcalloc(words + 1, sizeof(*lit));
	unsigned char be[8];

	for (i = 0; i < nr; i++)
		lit[bits[i] / 64] |= (uint64_t)1 << (bits[i] % 64);
	put_be32(be, nr ? bits[nr - 1] + 1 : 0);
	put_be32(be + 4, words + 1);
	mbuf_add(b, be, 8);
	put_be64(be, (uint64_t)words << 33);
	mbuf_add(b, be, 8);
	for (i = 0; i < words; i++) {
		put_be64(be, lit[i]);
		mbuf_add(b, be, 8);
	}
	put_be32(be, 0);
	mbuf_add(b, be, 4);
	free(lit);
}

struct split_diff {
	struct bit_list del, rep;
	struct cache_entry **added;
	unsigned int added_nr;
	size_t added_alloc;
};

/* The index against the shared entries: deleted, replaced, added. */
static void diff_shared(struct split_diff *d, struct split_plan *plan)
{
	unsigned int i = 0, j = 0;

	while (i < shared_nr || j < active_nr) {
		int cmp = i == shared_nr ? 1 : j == active_nr ? -1 :
			  entry_cmp(shared[i], active_cache[j]);

		if (cmp < 0) {
			add_bit(&d->del, i, shared_nr);
		} else if (cmp > 0) {
			ALLOC_GROW(d->added, d->added_nr + 1, d->added_alloc);
			d->added[d->added_nr++] = active_cache[j];
		} else if (!same_entry(shared[i], active_cache[j])) {
			add_bit(&d->rep, i, shared_nr);
			plan->ces[plan->owned++] =
				dup_entry(active_cache[j], "", 0);
		}
		i += cmp <= 0;
		j += cmp >= 0;
	}
}

/* Write active_cache as a new shared index; its id in sha1. */
static int write_shared_index(unsigned int version, unsigned char *sha1)
{
	char *tmp = path_join(get_git_dir(), "sharedindex_XXXXXX");
	char name[sizeof("sharedindex.") + HASH_MAX_HEXSZ], *path = NULL;
	struct hashfile *w;
	int fd = mkstemp(tmp), ret;

	if (fd < 0) {
		ret = error_errno("create '%s'", tmp);
		free(tmp);
		return ret;
	}
	w = hashfd(fd);
	w->name = "the shared index";
	ret = write_entries(w, version, active_cache, active_nr);
	if (hashfile_finish(w, sha1) < 0 || ret < 0)
		ret = error_errno("write '%s'", tmp);
	if (!ret && (fchmod(fd, 0644) < 0 || flush_to_disk(fd) < 0))
		ret = error_errno("write '%s'", tmp);
	if (close(fd) < 0 && !ret)
		ret = error_errno("close '%s'", tmp);
	if (!ret) {
		snprintf(name, sizeof(name), "sharedindex.%s",
			 sha1_to_hex(sha1));
		path = path_join(get_git_dir(), name);
		if (rename(tmp, path) < 0)
			ret = error_errno("rename '%s' to '%s'", tmp, path);
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	free(path);
	return ret;
}

/*
 * The shared index named again (git expires the ones not used lately):
 * 0, or -1 when it is gone since it was read.
 */
static int freshen_shared_index(void)
{
	char name[sizeof("sharedindex.") + HASH_MAX_HEXSZ], *path;
	int ret;

	snprintf(name, sizeof(name), "sharedindex.%s",
		 sha1_to_hex(shared_sha1));
	path = path_join(get_git_dir(), name);
	ret = utimes(path, NULL) < 0 && errno == ENOENT ? -1 : 0;
	free(path);
	return ret;
}

/* A new shared index of the whole index, the split file empty. */
static int new_shared_index(struct split_plan *plan, unsigned int version)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (write_shared_index(version, sha1) < 0)
		return -1;
	keep_shared(sha1);
	plan->link.len = 0;
	mbuf_add(&plan->link, sha1, the_hash->rawsz);
	put_ewah(&plan->link, NULL, 0);
	put_ewah(&plan->link, NULL, 0);
	plan->nr = 0;
	return 0;
}

static int index_wants_split(void)
{
	int v = split_index_config();

	return v && (came_split || v == 1) && get_git_dir();
}

int plan_split_index(struct split_plan *plan, unsigned int version)
{
	struct split_diff d = { { NULL, 0, 0 }, { NULL, 0, 0 }, NULL, 0, 0 };
	long max;
	int ret = 0;

	memset(plan, 0, sizeof(*plan));
	mbuf_init(&plan->link);
	if (!index_wants_split())
		return 0;
	plan->split = 1;
	plan->ces = xcalloc(active_nr + 1, sizeof(*plan->ces));
	if (!came_split)
		return new_shared_index(plan, version);
	diff_shared(&d, plan);
	max = max_percent_change();
	if ((max < 100 && (uint64_t)(plan->owned + d.added_nr) * 100 >
	     (uint64_t)max * active_nr) || freshen_shared_index() < 0) {
		ret = new_shared_index(plan, version);
	} else {
		if (d.added_nr)
			memcpy(plan->ces + plan->owned, d.added,
			       d.added_nr * sizeof(*d.added));
		plan->nr = plan->owned + d.added_nr;
		mbuf_add(&plan->link, shared_sha1, the_hash->rawsz);
		put_ewah(&plan->link, d.del.bits, d.del.nr);
		put_ewah(&plan->link, d.rep.bits, d.rep.nr);
	}
	free(d.del.bits);
	free(d.rep.bits);
	free(d.added);
	if (!ret && plan->link.failed)
		ret = error("out of memory");
	return ret;
}

void release_split_plan(struct split_plan *plan)
{
	unsigned int i;

	for (i = 0; i < plan->owned; i++)
		free(plan->ces[i]);
	free(plan->ces);
	free(plan->link.buf);
	memset(plan, 0, sizeof(*plan));
}
