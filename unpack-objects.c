/*
 * unpack-objects: explode a pack read from standard input into loose
 * objects, as git unpack-objects does.  The whole pack is read and
 * checked first (its trailing SHA-1, each entry's header and zlib
 * data, every delta resolved and applied within bounds) and only then
 * are the objects written (the pack read a second time), so a
 * truncated or corrupt pack leaves nothing behind; the checks are
 * index-pack's (pack-resolve.c).  A REF_DELTA may name a base that
 * the store already holds (a thin pack).  Objects already present are
 * compared, not rewritten (the collision check of write_sha1_file).
 * -n checks without writing; -q is accepted for git's sake (no
 * progress is shown anyway when stderr is not a terminal).
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

static int write_one(void *data, const struct pack_in_entry *e,
		     const void *buf, size_t size, struct fault *f)
{
	unsigned char sha1[20];

	(void)data;
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
	p.want_content = ~0U;
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
	/* all checked first: a bad pack leaves nothing written */
	read_pack(fd, NULL);
	if (dry_run)
		return 0;
	read_pack(fd, write_one);
	if (flush_to_disk(-1) < 0)
		return 128;
	return 0;
}
