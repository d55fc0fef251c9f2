/*
 * verify-pack: check pack files as git verify-pack does.  For each
 * <pack>.idx named, the checksums of idx and pack, each entry's CRC32
 * (idx v2), and every object, read and hashed against its id.  With
 * -v, each entry in pack order as git prints it (id, type, size, size
 * in the pack, offset, and for a delta its depth and base), a count of
 * the chain lengths, and "<pack>: ok" or "<pack>: bad".  Exit 1 when a
 * pack is bad.  A pack is read with the hash its idx is made for (sha1
 * or sha256, told by its sizes), as git does in a store of that kind.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pack.h"

static const char verify_pack_usage[] = "verify-pack [-v] <pack>[.idx | .pack]...";

static int verbose;

static void say(void *data, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(void *data, const char *fmt, ...)
{
	va_list ap;

	(void)data;
	fprintf(stderr, "%s: ", progname());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Every object read whole and hashed against its id. */
static int check_objects(struct packed_git *p)
{
	unsigned char *chunk = xmalloc(OBJECT_CHUNK);
	int errors = 0;
	uint32_t i;

	for (i = 0; i < p->nr; i++) {
		const unsigned char *sha1 = nth_packed_sha1(p, i);
		struct object_stream st;
		struct fault f;
		ssize_t n = -1;

		if (!open_pack_entry(&st, p, i, &f)) {
			verify_object_stream(&st, sha1);
			while ((n = read_object_stream(&st, chunk, OBJECT_CHUNK,
						       &f)) > 0)
				;
			close_object_stream(&st);
		}
		if (n < 0) {
			report_object_fault(sha1, &f);
			errors++;
		}
	}
	free(chunk);
	return errors;
}

/* The idx position of the entry at offset, or -1. */
static int64_t pos_at_offset(struct packed_git *p, uint64_t offset)
{
	struct fault f;
	const uint64_t *o = pack_order(p, &f);
	uint32_t lo = 0, hi = p->nr;

	while (o && lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (o[2 * mid] == offset)
			return o[2 * mid + 1];
		if (o[2 * mid] < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The depth and type of the entry at idx position n; -1 when it loops. */
static int chain_of(struct packed_git *p, uint32_t n, int *type,
		    unsigned char *base)
{
	struct pack_entry_info e;
	struct fault f;
	uint32_t depth = 0;
	int64_t pos = n;

	for (;;) {
		if (pack_entry_info(p, pos, &e, &f) < 0)
			return -1;
		if (e.type <= OBJ_TAG) {
			*type = e.type;
			return depth;
		}
		if (e.type == OBJ_REF_DELTA)
			pos = find_pack_pos(p, e.base_sha1);
		else
			pos = -1;
		if (e.type == OBJ_OFS_DELTA)
			pos = pos_at_offset(p, e.base_offset);
		if (pos < 0 || ++depth > p->nr)
			return -1;
		if (depth == 1)
			hashcpy(base, nth_packed_sha1(p, pos));
	}
}

static int show_entries(struct packed_git *p)
{
	const uint64_t *order;
	uint32_t i, base_objects = 0, *hist;
	uint32_t deepest = 0;
	struct fault f;

	order = pack_order(p, &f);
	if (!order)
		return -1;
	hist = xcalloc(p->nr + 1, sizeof(*hist));
	for (i = 0; i < p->nr; i++) {
		uint32_t n = order[2 * i + 1];
		struct pack_entry_info e;
		unsigned char base[HASH_MAX_RAWSZ];
		int type, depth;

		if (pack_entry_info(p, n, &e, &f) < 0 ||
		    (depth = chain_of(p, n, &type, base)) < 0) {
			free(hist);
			return -1;
		}
		printf("%s %-6s %zu %llu %llu", sha1_to_hex(nth_packed_sha1(p, n)),
		       type_name(type), e.size,
		       (unsigned long long)(order[2 * i + 2] - order[2 * i]),
		       (unsigned long long)order[2 * i]);
		if (depth) {
			printf(" %d %s", depth, sha1_to_hex(base));
			hist[depth]++;
			if ((uint32_t)depth > deepest)
				deepest = depth;
		} else {
			base_objects++;
		}
		putchar('\n');
	}
	if (base_objects)
		printf("non delta: %u object%s\n", base_objects,
		       base_objects == 1 ? "" : "s");
	for (i = 1; i <= deepest; i++)
		if (hist[i])
			printf("chain length = %u: %u object%s\n", i, hist[i],
			       hist[i] == 1 ? "" : "s");
	free(hist);
	return 0;
}

/* The .idx of a pack named as git takes it: x.idx, x.pack or x. */
static char *idx_name(const char *arg)
{
	size_t len = strlen(arg);
	char *name = xmalloc(len + 5);

	memcpy(name, arg, len + 1);
	if (len > 5 && !strcmp(arg + len - 5, ".pack"))
		strcpy(name + len - 5, ".idx");
	else if (len <= 4 || strcmp(arg + len - 4, ".idx"))
		strcpy(name + len, ".idx");
	return name;
}

static int verify_one(const char *arg)
{
	char *name = idx_name(arg);
	struct packed_git *p;
	int errors;

	the_hash = guess_idx_file_hash(name);
	p = open_pack_index(name);
	free(name);
	if (!p)
		return -1;
	errors = verify_pack_checksums(p, say, NULL);
	if (!errors)
		errors = check_objects(p);
	if (!errors && verbose && show_entries(p) < 0)
		errors++;
	if (verbose)
		printf("%s: %s\n", p->pack_name, errors ? "bad" : "ok");
	close_pack(p);
	return errors ? -1 : 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, verify_pack_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			verbose = 1;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else
			usage(verify_pack_usage);
	}
	if (i == argc)
		usage(verify_pack_usage);
	set_inflate_checksum(1);	/* zlib's checksums too, as git */
	for (; i < argc; i++)
		if (verify_one(argv[i]) < 0)
			bad = 1;
	finish_stdout();
	return bad;
}
