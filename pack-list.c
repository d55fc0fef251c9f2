/*
 * pack-list.c: the packs of the store and of its alternates, found by
 * their idx files in each objects/pack directory, listed once and
 * looked at again when a lookup misses (a pack may have come since);
 * the lookup of an id in them, and the abbreviations they take part
 * in.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pack.h"

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
		p = new_packed_git(idx);
		free(idx);
		/* An idx without its pack is a pack being written. */
		if (stat(p->pack_name, &st) < 0) {
			close_pack(p);
			continue;
		}
		load_pack_idx(p);	/* a bad one stays listed, empty */
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

		if (hashcmp(nth_packed_sha1(p, mid), sha1) < 0)
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
	unsigned char low[HASH_MAX_RAWSZ] = { 0 };
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


int packed_abbrev_len(const unsigned char *sha1, int len)
{
	size_t rawsz = the_hash->rawsz;
	struct packed_git *p;
	int n;

	for (p = get_packs(); p; p = p->next) {
		uint32_t lo = lower_bound(p, sha1);

		if (lo && (n = common_hex_digits(nth_packed_sha1(p, lo - 1),
						 sha1, rawsz) + 1) > len)
			len = n;
		if (lo < p->nr && hasheq(nth_packed_sha1(p, lo), sha1))
			lo++;
		if (lo < p->nr && (n = common_hex_digits(nth_packed_sha1(p, lo),
							 sha1, rawsz) + 1) > len)
			len = n;
	}
	return len;
}
