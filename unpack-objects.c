/*
 * unpack-objects: explode a pack read from standard input into loose
 * objects, as git unpack-objects does.  The whole pack is read and
 * checked first (its trailing SHA-1, each entry's header and zlib
 * data, every delta resolved and applied within bounds) and only then
 * are the objects written, so a truncated or corrupt pack leaves
 * nothing behind.  A REF_DELTA may name a base that the store already
 * holds (a thin pack).  Objects already present are compared, not
 * rewritten (the collision check of write_sha1_file).  -n checks
 * without writing; -q is accepted for git's sake (no progress is
 * shown anyway when stderr is not a terminal).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

static const char unpack_usage[] = "unpack-objects [-n] [-q] < <pack>";

static int dry_run;

struct entry {
	uint64_t offset;
	struct pack_entry_info info;
	unsigned char *data;	/* inflated: the object, or its delta */
	size_t size;
	enum object_type type;	/* once resolved */
	unsigned char sha1[20];
};

static struct entry *entries;
static uint32_t nr_entries;

static unsigned char *read_stdin(size_t *len)
{
	size_t alloc = 0, n = 0;
	unsigned char *buf = NULL;
	ssize_t got;

	for (;;) {
		ALLOC_GROW(buf, n + OBJECT_CHUNK, alloc);
		got = read_in_full(0, buf + n, OBJECT_CHUNK);
		if (got < 0)
			die_errno("read pack from standard input");
		n += got;
		if (!got)
			break;
	}
	*len = n;
	return buf;
}

static void parse_entries(const unsigned char *pack, size_t end)
{
	uint64_t off = 12;
	uint32_t i;
	struct fault f;
	size_t used;
	int ret;

	for (i = 0; i < nr_entries; i++) {
		struct entry *e = &entries[i];
		int hdr = parse_pack_entry(pack + off, end - off, off,
					   &e->info, &f);

		if (hdr < 0)
			die("pack has bad object at offset %llu: %s",
			    (unsigned long long)off, f.msg);
		/* deflate cannot shrink more than 1032 to 1 */
		if (e->info.size / 1032 > end - off || e->info.size >= UINT32_MAX)
			die("pack has bad object at offset %llu: size too "
			    "large for its data", (unsigned long long)off);
		e->offset = off;
		e->size = e->info.size;
		e->data = xmalloc(e->size + INFLATE_SLACK);
		off += hdr;
		ret = inflate_whole(pack + off, end - off, e->data, e->size,
				    &used, 1);
		if (ret)
			die("pack has bad object at offset %llu: %s",
			    (unsigned long long)e->offset, inflate_error(ret));
		off += used;
		e->data[e->size] = '\0';
	}
	if (off != end)
		die("pack has junk at the end (offset %llu)",
		    (unsigned long long)off);
}

static struct entry *entry_at(uint64_t offset)
{
	uint32_t lo = 0, hi = nr_entries;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (entries[mid].offset == offset)
			return &entries[mid];
		if (entries[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct entry *resolved_by_sha1(const unsigned char *sha1)
{
	uint32_t i;

	for (i = 0; i < nr_entries; i++)
		if (entries[i].type > 0 && !memcmp(entries[i].sha1, sha1, 20))
			return &entries[i];
	return NULL;
}

static void apply_to(struct entry *e, const void *base, size_t base_size,
		     enum object_type type)
{
	const char *why;
	size_t size;
	unsigned char *result = apply_delta(base, base_size, e->data, e->size,
					    &size, &why);

	if (!result)
		die("pack has bad delta at offset %llu: %s",
		    (unsigned long long)e->offset, why);
	free(e->data);
	e->data = result;
	e->size = size;
	e->type = type;
	hash_sha1_file(e->data, e->size, e->type, e->sha1);
}

/* Resolve one delta whose base is known; 1 when it was. */
static int try_resolve(struct entry *e)
{
	struct entry *b;
	enum object_type type;
	size_t size;
	void *buf;

	if (e->info.type == OBJ_OFS_DELTA) {
		b = entry_at(e->info.base_offset);
		if (!b)
			die("pack has bad delta at offset %llu: no object at "
			    "its base offset", (unsigned long long)e->offset);
	} else {
		b = resolved_by_sha1(e->info.base_sha1);
		if (!b) {
			/* a thin pack: the base may be in the store */
			if (!has_sha1_file(e->info.base_sha1))
				return 0;
			buf = read_sha1_file(e->info.base_sha1, &type, &size);
			if (!buf)
				die("cannot read delta base %s",
				    sha1_to_hex(e->info.base_sha1));
			apply_to(e, buf, size, type);
			free(buf);
			return 1;
		}
	}
	if (b->type <= 0)
		return 0;
	apply_to(e, b->data, b->size, b->type);
	return 1;
}

static void resolve_all(void)
{
	uint32_t i, left = 0;
	int progress = 1;

	for (i = 0; i < nr_entries; i++) {
		struct entry *e = &entries[i];

		if (e->info.type <= OBJ_TAG) {
			e->type = e->info.type;
			hash_sha1_file(e->data, e->size, e->type, e->sha1);
		}
	}
	/* Each pass resolves the deltas whose bases are: a loop never is. */
	while (progress) {
		progress = 0;
		left = 0;
		for (i = 0; i < nr_entries; i++) {
			if (entries[i].type > 0)
				continue;
			if (try_resolve(&entries[i]))
				progress = 1;
			else
				left++;
		}
	}
	if (left)
		die("pack has %u unresolved delta%s", left, left == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
	unsigned char *pack, sha1[20];
	size_t len;
	uint32_t i;
	int ret = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, unpack_usage);
	for (i = 1; i < (uint32_t)argc; i++) {
		if (!strcmp(argv[i], "-n"))
			dry_run = 1;
		else if (strcmp(argv[i], "-q"))
			usage(unpack_usage);
	}
	if (setup_repository() < 0)
		exit(128);
	pack = read_stdin(&len);
	if (len < 32 || memcmp(pack, "PACK", 4) ||
	    (pack[7] != 2 && pack[7] != 3) || pack[4] || pack[5] || pack[6])
		die(len < 32 ? "early EOF" : "bad pack header");
	hash_buffer(pack, len - 20, sha1);
	if (memcmp(sha1, pack + len - 20, 20))
		die("pack is corrupted (SHA1 mismatch)");
	nr_entries = (uint32_t)pack[8] << 24 | pack[9] << 16 | pack[10] << 8 |
		     pack[11];
	if (nr_entries > (len - 32) / 2)
		die("pack claims %u objects, more than it can hold", nr_entries);
	entries = xcalloc(nr_entries ? nr_entries : 1, sizeof(*entries));
	parse_entries(pack, len - 20);
	resolve_all();
	for (i = 0; i < nr_entries && !dry_run; i++) {
		unsigned char check[20];

		if (write_sha1_file(entries[i].data, entries[i].size,
				    entries[i].type, check) < 0)
			ret = 1;
	}
	if (!dry_run && flush_to_disk(-1) < 0)
		ret = 1;
	return ret ? 128 : 0;
}
