/*
 * unpack-objects: explode a pack read from standard input into loose
 * objects, as git unpack-objects does.  The whole pack is read and
 * checked first (its trailing hash, each entry's header and zlib
 * data, every delta resolved and applied within bounds) and only then
 * are the objects written (the pack read a second time), so a
 * truncated or corrupt pack leaves nothing behind; the checks are
 * index-pack's (pack-resolve.c).  A REF_DELTA may name a base that
 * the store already holds (a thin pack).  Objects already present are
 * compared, not rewritten (the collision check of write_sha1_file).
 * -n checks without writing; -q is accepted for git's sake (no
 * progress is shown anyway when stderr is not a terminal).
 *
 * An object stored whole in the pack and too big to inflate at once
 * (over a MiB) is never held: it is deflated into a temporary loose
 * file a piece at a time as it is inflated, and named once its id is
 * known, so that an object of any size goes through in little memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

static const char unpack_usage[] = "unpack-objects [-n] [-q] < <pack>";

static int dry_run;

/* Copy standard input into a scratch file of the store: its fd. */
static int spool_stdin(void)
{
	unsigned char *buf = xmalloc(OBJECT_CHUNK);
	int fd = open_scratch_file(get_object_directory());
	ssize_t n;

	if (fd < 0)
		die_errno("create a scratch file in '%s'",
			  get_object_directory());
	while ((n = read_in_full(0, buf, OBJECT_CHUNK)) > 0)
		if (write_in_full(fd, buf, n) < 0)
			die_errno("write the pack to a scratch file");
	if (n < 0)
		die_errno("read pack from standard input");
	free(buf);
	return fd;
}

/* The big object being streamed into a temporary loose file. */
struct big_object {
	char *tmp;
	int fd;
	struct deflate_writer *w;
};

static struct big_object big = { NULL, -1, NULL };

/* Drop what is left of a big object not finished (an exit on error). */
static void remove_big_tmp(void)
{
	deflate_writer_end(big.w);
	big.w = NULL;
	if (big.fd >= 0)
		close(big.fd);
	big.fd = -1;
	if (big.tmp)
		unlink(big.tmp);
	free(big.tmp);
	big.tmp = NULL;
}

/* A piece of a big object: the first opens its file, header first. */
static int write_piece(void *data, const struct pack_in_entry *e,
		       const void *buf, size_t size, struct fault *f)
{
	char hdr[MAX_HEADER_LEN];

	(void)data;
	if (!big.w) {
		big.fd = open_tmp_object(get_object_directory(), &big.tmp);
		if (big.fd < 0)
			return set_fault(f, FAULT_IO, "cannot write the object "
					 "at offset %llu",
					 (unsigned long long)e->offset);
		big.w = deflate_writer_start(big.fd);
		if (deflate_writer_add(big.w, hdr,
				       format_object_header(hdr, e->type,
							    e->size), 0) < 0)
			return set_fault_errno(f, "write '%s'", big.tmp);
	}
	if (deflate_writer_add(big.w, buf, size, 0) < 0)
		return set_fault_errno(f, "write '%s'", big.tmp);
	return 0;
}

/* The big object's pieces are all written: name it e->sha1. */
static int finish_big(const struct pack_in_entry *e, struct fault *f)
{
	int ret = 0, fd = big.fd;

	if (!big.w)
		return set_fault(f, FAULT_IO, "object %s: no content came",
				 sha1_to_hex(e->sha1));
	if (deflate_writer_add(big.w, NULL, 0, 1) < 0)
		ret = set_fault_errno(f, "write '%s'", big.tmp);
	deflate_writer_end(big.w);
	big.w = NULL;
	if (ret) {
		remove_big_tmp();
		return ret;
	}
	big.fd = -1;
	if (place_tmp_object(big.tmp, fd, e->sha1) < 0)
		ret = set_fault(f, FAULT_IO, "cannot write object %s",
				sha1_to_hex(e->sha1));
	free(big.tmp);
	big.tmp = NULL;
	return ret;
}

static int write_one(void *data, const struct pack_in_entry *e,
		     const void *buf, size_t size, struct fault *f)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	(void)data;
	if (!buf)
		return finish_big(e, f);
	if (write_sha1_file(buf, size, e->type, sha1) < 0)
		return set_fault(f, FAULT_IO, "cannot write object %s",
				 sha1_to_hex(e->sha1));
	return 0;
}

/* Read the pack whole; with fn, hand each object to it. */
static void read_pack(int fd, int (*fn)(void *, const struct pack_in_entry *,
					const void *, size_t, struct fault *))
{
	struct pack_in p;
	struct fault f;

	memset(&p, 0, sizeof(p));
	p.thin = 1;
	p.fn = fn;
	p.piece = fn ? write_piece : NULL;
	if (read_pack_in(&p, fd, &f) < 0)
		die("%s", f.msg);
	free(p.entries);
}

int main(int argc, char **argv)
{
	int i, fd;

	setup_tool(argv[0]);
	handle_help(argc, argv, unpack_usage);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n"))
			dry_run = 1;
		else if (strcmp(argv[i], "-q"))
			usage(unpack_usage);
	}
	if (setup_repository() < 0)
		exit(128);
	fd = spool_stdin();
	atexit(remove_big_tmp);
	/* all checked first: a bad pack leaves nothing written */
	read_pack(fd, NULL);
	if (dry_run)
		return 0;
	read_pack(fd, write_one);
	if (flush_to_disk(-1) < 0)
		return 128;
	return 0;
}
