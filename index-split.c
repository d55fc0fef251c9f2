/*
 * index-split.c: the split index.  An index with a "link" extension
 * holds only the changes to a shared index, $GIT_DIR/sharedindex.<id>:
 * entries that replace shared ones (by the replace bitmap, nameless),
 * the shared entries deleted (the delete bitmap), and entries added.
 * It is read whole: the shared entries with the changes applied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

int merge_split_index(const char *file)
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
