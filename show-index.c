/*
 * show-index: the objects a pack's idx file (read from standard input)
 * lists, as git show-index prints them: one line an object, in the
 * idx's order (by id), "<offset> <id> (<crc32>)" for an idx v2 and
 * "<offset> <id>" for v1.  Only the idx is read, never the pack: this
 * is how repack learns what a pack holds without reading the objects
 * (verify-pack reads every one of them, and maps the whole pack).
 * Unlike git's, it checks the idx first, its trailing hash, fan-out,
 * sizes and order of the ids, and prints nothing when it is corrupt:
 * a list that is not the pack's could make repack drop an object.
 * The ids are sha1 or sha256 as --object-format says (git's option),
 * else as the idx's sizes tell: they never fit both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "cache.h"
#include "pack.h"

static const char show_index_usage[] =
	"show-index [--object-format=<hash>] < <pack>.idx";

/* All of standard input: its bytes (malloc'd), their number in *len. */
static unsigned char *read_stdin(size_t *len)
{
	size_t alloc = 1 << 20, n = 0;
	unsigned char *buf = xmalloc(alloc);
	ssize_t got;

	for (;;) {
		if (n == alloc) {
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		got = read_in_full(0, buf + n, alloc - n);
		if (got < 0)
			die_errno("read the idx from standard input");
		if (!got)
			break;
		n += got;
	}
	*len = n;
	return buf;
}

/* Die unless the idx in p is whole and sound. */
static void check_idx(struct packed_git *p)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	size_t sum = p->idx_size - the_hash->rawsz;
	const char *bad;

	bad = check_pack_idx(p);
	if (bad)
		die("index file is corrupt: %s", bad);
	if (hash_buffer(p->idx, sum, sha1) < 0)
		die("index file: SHA-1 collision attack detected");
	if (!hasheq(sha1, p->idx + sum))
		die("index file is corrupt: its %s does not match",
		    the_hash == &hash_sha1 ? "SHA-1" : "SHA-256");
	bad = check_pack_idx_order(p);
	if (bad)
		die("index file is corrupt: %s", bad);
}

static void show_entries(const struct packed_git *p)
{
	uint32_t i;

	for (i = 0; i < p->nr; i++) {
		uint64_t offset = nth_packed_offset(p, i);

		if (offset == UINT64_MAX)
			die("index file is corrupt: bad 64-bit offset");
		printf("%" PRIu64 " %s", offset,
		       sha1_to_hex(nth_packed_sha1(p, i)));
		if (p->idx_version == 2)
			printf(" (%08" PRIx32 ")", nth_packed_crc(p, i));
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	const struct hash_algo *algo = NULL;
	struct packed_git idx;
	unsigned char *buf;

	setup_tool(argv[0]);
	handle_help(argc, argv, show_index_usage);
	if (argc == 2 && !strncmp(argv[1], "--object-format=", 16)) {
		algo = hash_algo_by_name(argv[1] + 16);
		if (!algo)
			die("unknown hash algorithm '%s'", argv[1] + 16);
		argc--;
	}
	if (argc != 1)
		usage(show_index_usage);
	memset(&idx, 0, sizeof(idx));
	buf = read_stdin(&idx.idx_size);
	idx.idx = buf;
	if (!algo && idx.idx_size >= 8 + 1024)
		algo = guess_idx_hash(buf, idx.idx_size);
	if (algo)
		the_hash = algo;
	check_idx(&idx);
	show_entries(&idx);
	finish_stdout();
	free(buf);
	return 0;
}
