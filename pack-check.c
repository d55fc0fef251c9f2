/*
 * pack-check.c: a pack verified whole, for fsck-cache and verify-pack.
 * The hash at the end of the idx covers the idx; the one at the end
 * of the pack covers the pack and is copied into the idx; each entry's
 * raw bytes have their CRC32 in a version 2 idx.  The pack holds the
 * idx's objects and nothing else when its header counts them, the
 * first entry starts after the header, and each entry ends where the
 * next begins (the idx's offsets, sorted, cut the pack into entries;
 * reading each object checks that its zlib data fills its entry).
 * Messages are git fsck's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pack.h"

/*
 * The hash (the_hash) of the first len bytes of fd, read in chunks: -1 with errno,
 * 1 when it looks like a collision attack.
 */
static int hash_file_prefix(int fd, uint64_t len, unsigned char *sha1)
{
	unsigned char *buf = xmalloc(OBJECT_CHUNK);
	uint64_t at = 0;
	struct hash_ctx c;
	int ret = 0;

	hash_init(&c, the_hash);
	while (at < len) {
		size_t want = len - at < OBJECT_CHUNK ? len - at : OBJECT_CHUNK;
		ssize_t n = pread(fd, buf, want, at);

		if (n <= 0) {
			ret = -1;
			break;
		}
		hash_update(&c, buf, n);
		at += n;
	}
	if (hash_final(sha1, &c) < 0 && !ret)
		ret = 1;
	free(buf);
	return ret;
}

typedef void (*report_fn)(void *data, const char *fmt, ...);

static int check_idx_sum(struct packed_git *p, report_fn say, void *data)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	size_t sum = p->idx_size - the_hash->rawsz;

	if (hash_buffer(p->idx, sum, sha1) < 0)
		return say(data, "index of %s: SHA-1 collision attack "
			   "detected", p->pack_name), -1;
	if (!hasheq(sha1, p->idx + sum))
		return say(data, "Packfile index for %s hash mismatch",
			   p->pack_name), -1;
	return 0;
}

static int check_pack_sum(struct packed_git *p, report_fn say, void *data)
{
	unsigned char sha1[HASH_MAX_RAWSZ], trailer[HASH_MAX_RAWSZ];
	size_t rawsz = the_hash->rawsz;
	int ret = hash_file_prefix(p->fd, p->pack_size - rawsz, sha1);

	if (ret > 0)
		return say(data, "%s: SHA-1 collision attack detected",
			   p->pack_name), -1;
	if (ret < 0 ||
	    pread(p->fd, trailer, rawsz, p->pack_size - rawsz) !=
	    (ssize_t)rawsz)
		return say(data, "read '%s': %s", p->pack_name,
			   strerror(errno)), -1;
	if (!hasheq(sha1, trailer))
		return say(data, "%s pack checksum mismatch", p->pack_name), -1;
	if (!hasheq(trailer, p->idx + p->idx_size - 2 * rawsz))
		return say(data, "%s pack checksum does not match its index",
			   p->pack_name), -1;
	return 0;
}

int verify_pack_checksums(struct packed_git *p, report_fn say, void *data)
{
	const uint64_t *order;
	struct fault f;
	int errors = 0;
	uint32_t i;

	if (check_idx_sum(p, say, data) < 0)
		errors++;
	order = pack_order(p, &f);
	if (!order) {
		say(data, "%s", f.msg);
		return errors + 1;
	}
	if (check_pack_sum(p, say, data) < 0)
		errors++;
	if (p->nr && order[0] != 12) {
		say(data, "packfile %s has data the index does not list at "
		    "offset 12", p->pack_name);
		errors++;
	}
	for (i = 0; i < p->nr; i++) {
		if (check_pack_crc(p, order[2 * i + 1], &f) < 0) {
			say(data, "%s", f.msg);
			errors++;
		}
	}
	return errors;
}
