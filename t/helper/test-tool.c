/*
 * test-tool: the library's interfaces driven from the shell, for the
 * unit tests in t/t0100-library.sh.  Each subcommand calls one module
 * the way a tool would and prints what it returned, so a test can
 * compare it with git's answer for the same input.
 *
 *   pathspec <spec>... -- <path>...   paths ps selects (one a line)
 *   interest <spec>... -- <dir>...    all/some/none for directories
 *   resolve-ref <name>                "<id> <resolved name>"
 *   for-each-ref                      "<id> <name>" lines
 *   stream <id> <piece>               the content, read in pieces
 *   read-ids                          for each id on stdin, "<type>
 *                                     <size>" of the object read whole
 *                                     and again of object_info, or
 *                                     "missing": one
 *                                     line each, flushed, so that a
 *                                     test can change the store
 *                                     between two lookups of one process
 *   lock <file>                       replace file with stdin
 *   traverse <tree>...                one line per name of the walk
 *   delta-make <base> <target>        create_delta()'s delta
 *   delta-apply <base> <delta>        apply_delta()'s result (exit 1
 *                                     when it refuses the delta)
 *   delta-roundtrip (<a> <b>)...      each delta, a to b and b to a,
 *                                     must give back the other (exit 1)
 *   apply-sets <patch>...             each patch applied with --index
 *                                     as its own set, in one process,
 *                                     the index written once at the end;
 *                                     stops at the first failure (exit 1)
 *   pack-rss <bytes> [<max>]          read every packed object whole
 *                                     (or those whose entry takes at
 *                                     most <max> bytes), the pack's
 *                                     pages given back every <bytes>
 *                                     read (0: never); prints the most
 *                                     KB of the .pack mappings resident
 *                                     after any read (Linux)
 *   sha1 [--stats] <file>...          each file's SHA-1, raw, one a line
 *                                     (exit 1 on a collision attack;
 *                                     --stats: blocks hashed and blocks
 *                                     flagged for the DV test, on stderr)
 *   sha1 --simd                       the UBC check's vector code
 *   sha1 --check-ubc <file>...        each file's whole blocks: the UBC
 *                                     masks of the staged vector check
 *                                     against the table read in one
 *                                     piece; prints "<blocks> <flagged>
 *                                     <mismatches>", exit 1 on one
 *   cpu                               "avx2 N" and "bmi2 N": what ours uses
 *   sha1-batch                        git cat-file --batch output on
 *                                     stdin: each object hashed as an
 *                                     object and its id checked; prints
 *                                     "<objects> <blocks> <flagged>"
 *   inflate-diff <seed> <rounds>      inflate_whole against zlib on
 *                                     random, cut and damaged streams,
 *                                     and inflate_windows against it:
 *                                     exit 1 at the first difference
 *   write-pack (<type> <file>)...     the files as objects of those
 *                                     types in one new pack; their ids
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../cache.h"
#include "../../pack.h"
#include "../../patch.h"
#include "../../rfc1951.h"

static int split_at_dashes(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return i;
	die("expected -- between the pathspecs and the paths");
}

static int cmd_pathspec(int argc, char **argv, int dirs)
{
	static const char *words[] = { "none", "all", "some" };
	struct pathspec ps;
	int n = split_at_dashes(argc, argv), i;

	if (parse_pathspec(&ps, argv, n) < 0)
		return 128;
	for (i = n + 1; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (dirs)
			printf("%s %s\n", words[pathspec_interest(&ps, argv[i],
								  len, 1)],
			       argv[i]);
		else if (match_pathspec(&ps, argv[i], len))
			printf("%s\n", argv[i]);
	}
	clear_pathspec(&ps);
	return 0;
}

static int cmd_resolve_ref(char **argv)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *name;
	int ret = resolve_ref(argv[0], sha1, &name);

	if (ret < 0) {
		printf("none %s\n", name ? name : "-");
		free(name);
		return 1;
	}
	printf("%s %s\n", sha1_to_hex(sha1), name);
	free(name);
	return 0;
}

static int show_ref(const char *name, const unsigned char *sha1, void *data)
{
	(void)data;
	printf("%s %s\n", sha1_to_hex(sha1), name);
	return 0;
}

static int cmd_stream(char **argv)
{
	struct object_stream st;
	unsigned char sha1[HASH_MAX_RAWSZ], *buf;
	size_t piece = strtoul(argv[1], NULL, 10);
	struct fault f;
	ssize_t n;

	if (get_sha1_hex(argv[0], sha1) < 0 || !piece)
		die("usage: stream <id> <piece>");
	if (open_object_stream(&st, sha1, &f) < 0)
		return report_object_fault(sha1, &f), 1;
	buf = xmalloc(piece);
	while ((n = read_object_stream(&st, buf, piece, &f)) > 0)
		fwrite(buf, 1, n, stdout);
	close_object_stream(&st);
	free(buf);
	if (n < 0)
		return report_object_fault(sha1, &f), 1;
	return 0;
}

static int cmd_lock(char **argv)
{
	static struct lock_file lk;
	char buf[4096];
	ssize_t n;

	if (hold_lock_file(&lk, argv[0]) < 0)
		return 1;
	while ((n = read(0, buf, sizeof(buf))) > 0)
		if (write_in_full(lk.fd, buf, n) < 0)
			die_errno("write");
	return commit_lock_file(&lk) < 0;
}

static int show_step(int n, const struct name_entry **e, void *data)
{
	int i;

	(void)data;
	for (i = 0; i < n; i++)
		if (e[i])
			printf("%s%06o %.*s", i ? " | " : "", e[i]->mode,
			       (int)e[i]->pathlen, e[i]->path);
		else
			printf("%s-", i ? " | " : "");
	putchar('\n');
	return 0;
}

static int cmd_traverse(int argc, char **argv)
{
	struct tree_desc t[MAX_TRAVERSE_TREES];
	void *bufs[MAX_TRAVERSE_TREES];
	int i, ret;

	if (argc > MAX_TRAVERSE_TREES)
		die("at most %d trees", MAX_TRAVERSE_TREES);
	for (i = 0; i < argc; i++) {
		unsigned char sha1[HASH_MAX_RAWSZ], tree[HASH_MAX_RAWSZ];
		size_t size;

		if (get_sha1(argv[i], sha1) < 0 ||
		    !(bufs[i] = read_tree_ish(sha1, &size, tree)))
			return 128;
		init_tree_desc(&t[i], bufs[i], size);
	}
	ret = traverse_trees(argc, t, show_step, NULL);
	for (i = 0; i < argc; i++)
		free(bufs[i]);
	return ret ? 1 : 0;
}

/* A file's bytes, through the one work-tree reader. */
static char *read_whole(const char *path, size_t *size)
{
	struct stat st;
	char *buf;

	if (lstat(path, &st) < 0)
		die_errno("lstat '%s'", path);
	buf = read_work_file(path, &st, size);
	if (!buf)
		exit(128);
	return buf;
}

static int cmd_delta(const char *what, char **argv)
{
	size_t base_size, other_size, out_size;
	char *base = read_whole(argv[0], &base_size);
	char *other = read_whole(argv[1], &other_size);
	const char *why = "no delta";
	void *out;

	if (!strcmp(what, "make"))
		out = create_delta(base, base_size, other, other_size, 0,
				   &out_size);
	else
		out = apply_delta(base, base_size, other, other_size,
				  &out_size, &why);
	if (!out)
		return error("%s", why), 1;
	fwrite(out, 1, out_size, stdout);
	free(out);
	free(base);
	free(other);
	return 0;
}

/* The delta from a to b turns a into b; 0 if so. */
static int round_trip(const char *a, size_t a_size, const char *b,
		      size_t b_size, const char *name)
{
	size_t delta_size, out_size;
	void *delta = create_delta(a, a_size, b, b_size, 0, &delta_size);
	char *out;
	const char *why;
	int ret = 0;

	if (!delta)
		return error("%s: no delta", name);
	out = apply_delta(a, a_size, delta, delta_size, &out_size, &why);
	if (!out)
		ret = error("%s: %s", name, why);
	else if (out_size != b_size || memcmp(out, b, b_size))
		ret = error("%s: the delta gives something else", name);
	free(out);
	free(delta);
	return ret;
}

static int cmd_delta_roundtrip(int argc, char **argv)
{
	int i, bad = 0;

	if (argc % 2)
		die("usage: delta-roundtrip (<a> <b>)...");
	for (i = 0; i < argc; i += 2) {
		size_t a_size, b_size;
		char *a = read_whole(argv[i], &a_size);
		char *b = read_whole(argv[i + 1], &b_size);

		if (round_trip(a, a_size, b, b_size, argv[i + 1]) ||
		    round_trip(b, b_size, a, a_size, argv[i]))
			bad = 1;
		free(a);
		free(b);
	}
	return bad;
}

static char *read_whole_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t alloc = 4096, n = 0, got;
	char *buf = xmalloc(alloc);

	if (!f)
		die_errno("open '%s'", path);
	while ((got = fread(buf + n, 1, alloc - n, f)) > 0) {
		n += got;
		if (n == alloc)
			buf = xrealloc(buf, alloc *= 2);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* What applymbox does with the patch library, without the mail. */
static int cmd_apply_sets(int argc, char **argv)
{
	int i, ret = 0;

	if (setup_repository() < 0 || hold_index_lock() < 0 ||
	    read_cache() < 0)
		return 128;
	for (i = 0; i < argc && !ret; i++) {
		struct fault f;
		struct patch_set set;
		size_t len;
		char *buf = read_whole_file(argv[i], &len);

		init_patch_set(&set);
		if (parse_patch(&set, buf, len, 1, &f) < 0 ||
		    apply_patch_set(&set, APPLY_INDEX, &f)) {
			printf("%s: %s\n", argv[i], f.msg);
			ret = 1;
		}
		free_patch_set(&set);
		free(buf);
	}
	if (commit_index() < 0)
		return 128;
	return ret;
}

/* One promise per item, and one shared by all, from every thread. */
static size_t promise_nth(void *data, size_t i)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	char buf[64];
	int len = snprintf(buf, sizeof(buf), "object %zu\n", i);

	if (write_sha1_file(buf, len, OBJ_BLOB, sha1) < 0 ||
	    write_sha1_file("shared\n", 7, OBJ_BLOB, sha1) < 0)
		__atomic_store_n((int *)data, 1, __ATOMIC_RELAXED);
	return 1;
}

/* promise-parallel N: N + 1 blobs promised on every core, then stored. */
static int cmd_promise_parallel(char **argv)
{
	int failed = 0;

	if (!argv[0] || setup_repository() < 0)
		return 128;
	promise_writes(1);
	run_parallel(0, strtoul(argv[0], NULL, 10), promise_nth, &failed,
		     NULL, 0);
	if (failed || flush_to_disk(-1) < 0)
		return 1;
	return 0;
}

/*
 * The mbuf (mbuf.c): each word as "[word]" by mbuf_addf, the whole
 * between "  " inserted at the front and " \n" at the end, trimmed,
 * detached: "<length> <text>".
 */
static int cmd_mbuf(int argc, char **argv)
{
	struct mbuf b = MBUF_INIT;
	size_t len;
	char *text;
	int i;

	for (i = 0; i < argc; i++)
		if (mbuf_addf(&b, "[%s]", argv[i]) < 0)
			return 1;
	if (mbuf_insert(&b, 0, "  ", 2) < 0 || mbuf_addstr(&b, " \n") < 0 ||
	    mbuf_trim(&b) < 0)
		return 1;
	text = mbuf_detach(&b, &len);
	if (!text || b.buf || b.len)
		return 1;
	printf("%zu %s\n", len, text);
	free(text);
	return 0;
}

static int cmd_read_ids(void)
{
	char line[128];

	if (setup_repository() < 0)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		unsigned char sha1[HASH_MAX_RAWSZ];
		enum object_type type, itype;
		size_t size, isize;
		struct fault f;
		void *buf;

		if (get_sha1_hex(line, sha1) < 0)
			die("read-ids: not an id: %s", line);
		buf = read_object(sha1, &type, &size, &f);
		if (!buf) {
			if (f.code != FAULT_MISSING)
				return report_object_fault(sha1, &f), 1;
			printf("missing\n");
		} else if (object_info(sha1, &itype, &isize, &f) < 0) {
			return report_object_fault(sha1, &f), 1;
		} else {
			printf("%s %zu %s %zu\n", type_name(type), size,
			       type_name(itype), isize);
		}
		free(buf);
		fflush(stdout);
	}
	return 0;
}

/* KB of the process's .pack mappings resident now (/proc/self/smaps). */
static unsigned long pack_rss_kb(void)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	char line[4096];
	unsigned long kb, start, end, total = 0;
	int in_pack = 0;

	if (!fp)
		die_errno("open /proc/self/smaps");
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strlen(line);

		if (sscanf(line, "Rss: %lu kB", &kb) == 1) {
			if (in_pack)
				total += kb;
		} else if (sscanf(line, "%lx-%lx", &start, &end) == 2) {
			/* a mapping's first line: its file, if any, last */
			in_pack = len > 6 && !strcmp(line + len - 6, ".pack\n");
		}
	}
	fclose(fp);
	return total;
}

struct pack_rss {
	unsigned long most;
	uint64_t max;		/* bytes of an entry read; 0: any */
};

/* The bytes the nth object's entry takes in p (0 when unknown). */
static uint64_t entry_length(struct packed_git *p, uint32_t n)
{
	struct fault f;
	const uint64_t *o = pack_order(p, &f);
	uint64_t offset = nth_packed_offset(p, n);
	uint32_t i;

	for (i = 0; o && i < p->nr; i++)
		if (o[2 * i] == offset)
			return o[2 * i + 2] - offset;
	return 0;
}

static int read_packed_one(const unsigned char *sha1, struct packed_git *p,
			   uint32_t n, void *data)
{
	struct pack_rss *rss = data;
	unsigned long now;
	enum object_type type;
	struct fault f;
	size_t size;
	void *buf;

	if (rss->max && entry_length(p, n) > rss->max)
		return 0;
	buf = read_object(sha1, &type, &size, &f);
	if (!buf)
		return report_object_fault(sha1, &f), -1;
	free(buf);
	now = pack_rss_kb();
	if (now > rss->most)
		rss->most = now;
	return 0;
}

static int cmd_pack_rss(int argc, char **argv)
{
	struct pack_rss rss = { 0, 0 };

	if (setup_repository() < 0)
		return 1;
	set_pack_trim_bytes(strtoul(argv[0], NULL, 10));
	if (argc > 1)
		rss.max = strtoull(argv[1], NULL, 10);
	if (for_each_packed_object(read_packed_one, &rss))
		return 1;
	printf("%lu\n", rss.most);
	return 0;
}

/*
 * read_pack_in with at most argv[0] bytes of bases held: the ids, of
 * the hash GIT_DEFAULT_HASH names (a pack outside any store).
 */
static int cmd_pack_resolve(char **argv)
{
	const char *hash = getenv("GIT_DEFAULT_HASH");
	struct pack_in p;
	struct fault f;
	uint32_t i;
	int fd = open(argv[1], O_RDONLY);

	if (hash && *hash && !(the_hash = hash_algo_by_name(hash)))
		die("unknown hash algorithm '%s'", hash);
	if (fd < 0)
		die_errno("open '%s'", argv[1]);
	set_pack_bases_held(strtoul(argv[0], NULL, 10));
	memset(&p, 0, sizeof(p));
	if (read_pack_in(&p, fd, &f) < 0)
		die("%s", f.msg);
	for (i = 0; i < p.nr; i++)
		printf("%s\n", sha1_to_hex(p.entries[i].sha1));
	free(p.entries);
	close(fd);
	return 0;
}

static int cmd_write_pack(int argc, char **argv)
{
	struct pack_object *objs = xcalloc(argc / 2 + 1, sizeof(*objs));
	int i, nr = 0, ret;

	if (argc % 2)
		die("usage: write-pack (<type> <file>)...");
	if (setup_repository() < 0)
		return 1;
	for (i = 0; i < argc; i += 2, nr++) {
		objs[nr].type = type_from_string(argv[i], strlen(argv[i]));
		if (objs[nr].type <= OBJ_NONE)
			die("write-pack: no type %s", argv[i]);
		objs[nr].buf = read_whole(argv[i + 1], &objs[nr].len);
		hash_sha1_file(objs[nr].buf, objs[nr].len, objs[nr].type,
			       objs[nr].sha1);
		printf("%s\n", sha1_to_hex(objs[nr].sha1));
	}
	ret = write_pack_objects(objs, nr) < 0;
	for (i = 0; i < nr; i++)
		free(objs[i].buf);
	free(objs);
	return ret;
}

/* Hash fd raw into sha1: 0, 1 on a detection, -1 on a read error. */
static int sha1_fd(int fd, unsigned char *sha1, unsigned long *blocks,
		   unsigned long *flagged)
{
	static unsigned char buf[256 * 1024];
	struct sha1_ctx c;
	ssize_t n;

	sha1_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha1_update(&c, buf, n);
	if (n < 0)
		return -1;
	n = sha1_final(sha1, &c);
	*blocks += (c.len + 72) / 64;
	*flagged += c.flagged;
	return n < 0;
}

static int check_ubc(int argc, char **argv)
{
	size_t blocks = 0, flagged = 0, bad = 0;
	int i;

	for (i = 0; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		struct stat st;
		unsigned char *buf;

		if (fd < 0 || fstat(fd, &st) < 0)
			die_errno("open '%s'", argv[i]);
		buf = xmalloc(st.st_size + 1);
		if (read_in_full(fd, buf, st.st_size) != st.st_size)
			die_errno("read '%s'", argv[i]);
		close(fd);
		bad += sha1_ubc_selfcheck(buf, st.st_size / 64, &flagged);
		blocks += st.st_size / 64;
		free(buf);
	}
	printf("%zu %zu %zu\n", blocks, flagged, bad);
	return !!bad;
}

static int cmd_cpu(void)
{
	printf("avx2 %d\nbmi2 %d\n", cpu_has_avx2(), cpu_has_bmi2());
	return 0;
}

static int cmd_sha1(int argc, char **argv)
{
	unsigned long blocks = 0, flagged = 0;
	unsigned char sha1[HASH_MAX_RAWSZ];
	int i, stats = 0, ret = 0;

	if (argc == 1 && !strcmp(argv[0], "--simd")) {
		printf("%s\n", sha1_ubc_simd());
		return 0;
	}
	if (argc && !strcmp(argv[0], "--check-ubc"))
		return check_ubc(argc - 1, argv + 1);
	if (argc && !strcmp(argv[0], "--stats")) {
		stats = 1;
		argc--;
		argv++;
	}
	for (i = 0; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY), r;

		if (fd < 0)
			die_errno("open '%s'", argv[i]);
		r = sha1_fd(fd, sha1, &blocks, &flagged);
		close(fd);
		if (r < 0)
			die_errno("read '%s'", argv[i]);
		if (r > 0) {
			error("'%s': SHA-1 collision attack detected", argv[i]);
			ret = 1;
			continue;
		}
		printf("%s\n", sha1_to_hex(sha1));
	}
	if (stats)
		fprintf(stderr, "%lu blocks, %lu flagged\n", blocks, flagged);
	return ret;
}

/* Read exactly len bytes of stdin into buf, or die. */
static void read_stdin(void *buf, size_t len)
{
	if (len && fread(buf, 1, len, stdin) != len)
		die("short read on stdin");
}

static int cmd_sha1_batch(void)
{
	unsigned long objs = 0, blocks = 0, flagged = 0;
	char line[256], hdr[MAX_HEADER_LEN], type[16], hex[41];
	unsigned char want[HASH_MAX_RAWSZ], got[HASH_MAX_RAWSZ], *buf = NULL;
	size_t alloc = 0, size;
	int ret = 0;

	while (fgets(line, sizeof(line), stdin)) {
		struct sha1_ctx c;
		int n;

		if (sscanf(line, "%40s %15s %zu", hex, type, &size) != 3 ||
		    get_sha1_hex(hex, want) < 0)
			die("bad batch line: %s", line);
		if (size + 1 > alloc) {
			alloc = size + 1;
			buf = xrealloc(buf, alloc);
		}
		read_stdin(buf, size + 1);
		n = snprintf(hdr, sizeof(hdr), "%s %zu", type, size);
		sha1_init(&c);
		sha1_update(&c, hdr, n + 1);
		sha1_update(&c, buf, size);
		if (sha1_final(got, &c) < 0)
			ret = error("%s: SHA-1 collision attack detected", hex);
		else if (memcmp(got, want, 20))
			ret = error("%s: hashes to %s", hex, sha1_to_hex(got));
		objs++;
		blocks += (c.len + 72) / 64;
		flagged += c.flagged;
	}
	free(buf);
	printf("%lu %lu %lu\n", objs, blocks, flagged);
	return ret ? 1 : 0;
}

/* hash ALGO FILE...: each file's id under ALGO, through hash.c. */
static int cmd_hash(int argc, char **argv)
{
	const struct hash_algo *algo;
	unsigned char md[HASH_MAX_RAWSZ], buf[65536];
	struct hash_ctx c;
	int i, ret = 0;

	if (argc < 1 || !(algo = hash_algo_by_name(argv[0])))
		die("usage: test-tool hash (sha1 | sha256) (--info | <file>...)");
	if (argc == 2 && !strcmp(argv[1], "--info")) {
		printf("%s %08x %u %u ", algo->name, (unsigned)algo->format_id,
		       algo->rawsz, algo->hexsz);
		for (i = 0; i < (int)algo->rawsz; i++)
			printf("%02x", algo->empty_tree[i]);
		putchar('\n');
		return 0;
	}
	for (i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		ssize_t n;

		if (fd < 0)
			die_errno("open '%s'", argv[i]);
		hash_init(&c, algo);
		while ((n = read_in_full(fd, buf, sizeof(buf))) > 0)
			hash_update(&c, buf, n);
		if (n < 0)
			die_errno("read '%s'", argv[i]);
		close(fd);
		if (hash_final(md, &c) < 0) {
			error("'%s': SHA-1 collision attack detected", argv[i]);
			ret = 1;
			continue;
		}
		for (n = 0; n < (ssize_t)algo->rawsz; n++)
			printf("%02x", md[n]);
		putchar('\n');
	}
	return ret;
}

/* ---- inflate-diff: inflate_whole against zlib ---- */

static uint64_t diff_rand_state;

static uint32_t diff_rand(void)
{
	diff_rand_state ^= diff_rand_state << 13;
	diff_rand_state ^= diff_rand_state >> 7;
	diff_rand_state ^= diff_rand_state << 17;
	return (uint32_t)(diff_rand_state >> 16);
}

/* n bytes that compress: letters, runs, and copies from up to 32 KiB. */
static void diff_content(unsigned char *buf, size_t n)
{
	size_t i = 0;
	unsigned int letters = 1 + diff_rand() % 64;

	while (i < n) {
		size_t len = 1 + diff_rand() % (diff_rand() % 4 ? 20 : 300);
		unsigned int kind = diff_rand() % 4;

		if (len > n - i)
			len = n - i;
		if (kind == 0 && i) {
			size_t back = 1 + diff_rand() % (i < 32768 ? i : 32768);

			for (; len; len--, i++)
				buf[i] = buf[i - back];
		} else if (kind == 1) {
			memset(buf + i, diff_rand(), len);
			i += len;
		} else {
			for (; len; len--)
				buf[i++] = 'a' + diff_rand() % letters;
		}
	}
}

/* A zlib stream of buf: zlib's at a random level and strategy or ours. */
static unsigned char *diff_deflate(const unsigned char *buf, size_t n,
				   size_t *len)
{
	static const int strategies[] = {
		Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED
	};
	size_t bound = compressBound(n) + 64, cut = n ? diff_rand() % n : 0;
	unsigned char *out;
	z_stream z;

	if (diff_rand() % 3 == 0) {
		struct deflate_writer *w = deflate_writer_start(-1);

		deflate_writer_add(w, buf, n, 1);
		out = deflate_writer_result(w, len);
		deflate_writer_end(w);
		return out;
	}
	out = xmalloc(bound);
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, diff_rand() % 10, Z_DEFLATED, 15, 8,
			 strategies[diff_rand() % 5]) != Z_OK)
		die("deflateInit2 failed");
	z.next_out = out;
	z.avail_out = bound;
	/* a flush on the way: an empty stored block */
	z.next_in = (unsigned char *)buf;
	z.avail_in = cut;
	if (deflate(&z, diff_rand() % 2 ? Z_SYNC_FLUSH : Z_NO_FLUSH) == Z_STREAM_ERROR)
		die("deflate failed");
	z.avail_in = n - cut;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		die("deflate failed");
	*len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* zlib's inflate() of in to at most size + 1 bytes: 0 if it gives size. */
static int diff_zlib(const unsigned char *in, size_t len, unsigned char *out,
		     size_t size, size_t *used, int check, size_t *total)
{
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		die("inflateInit failed");
	inflateValidate(&z, check);
	z.next_in = (unsigned char *)in;
	z.avail_in = len;
	z.next_out = out;
	z.avail_out = size + 1;
	do
		ret = inflate(&z, Z_FINISH);
	while (ret == Z_OK);
	inflateEnd(&z);
	*used = z.total_in;
	*total = z.total_out;
	return ret == Z_STREAM_END && z.total_out == size ? 0 : -1;
}

/*
 * inflate_prefix first, as a loose object's reader does before its
 * inflate_whole: on the same stream, or on one with a byte changed
 * anywhere, so that inflate_whole may find kept the first block of a
 * stream that starts as its own does, or one that does not.
 */
static void diff_prefix_first(const unsigned char *in, size_t len)
{
	unsigned char head[64 + INFLATE_SLACK];
	unsigned char *other = xmalloc(len);
	size_t got;

	memcpy(other, in, len);
	/* a byte's bits, most often near where the code lengths end */
	if (diff_rand() % 2)
		other[diff_rand() % (len < 400 || diff_rand() % 4 == 0 ?
				     len : 400)] ^= 0xff;
	inflate_prefix(other, len, head, diff_rand() % 64, &got);
	free(other);
}

/* inflate_windows' output, gathered; never more than size bytes. */
struct gathered {
	unsigned char *buf;
	size_t size, got;
};

static int gather(void *data, const unsigned char *p, size_t n)
{
	struct gathered *g = data;

	if (n > g->size - g->got)
		die("inflate_windows gave more than the size asked");
	memcpy(g->buf + g->got, p, n);
	g->got += n;
	return 0;
}

/*
 * inflate_windows in a window of room bytes against inflate_whole's
 * answer (whole, used, ours): the same, or, in a tight window (where a
 * block may not fit), INFLATE_WINDOW after a true prefix.  0 if agreed.
 */
static int diff_windows(const unsigned char *in, size_t len, size_t size,
			size_t room, int tight, int whole, size_t used,
			const unsigned char *ours)
{
	unsigned char *window = xmalloc(room + INFLATE_SLACK);
	struct gathered g = { xmalloc(size ? size : 1), size, 0 };
	size_t used_w;
	int w, fail;

	w = inflate_windows(in, len, size, &used_w, window, room, gather, &g);
	if (w == INFLATE_WINDOW)
		fail = !tight || (!whole && memcmp(g.buf, ours, g.got));
	else
		fail = !w != !whole ||
		       (!w && (used_w != used || g.got != size ||
			       memcmp(g.buf, ours, size)));
	if (fail)
		fprintf(stderr, "windows of %zu differ: len %zu size %zu: "
			"whole %d windows %d\n", room, len, size, whole, w);
	free(window);
	free(g.buf);
	return fail;
}

/* One stream, each decoder with and without the Adler-32: 0 if agreed. */
static int diff_one(const unsigned char *stream, size_t len, size_t size)
{
	unsigned char *in = xmalloc(len ? len : 1);
	unsigned char *ours = xmalloc(size + INFLATE_SLACK);
	unsigned char *theirs = xmalloc(size + 1);
	size_t used_ours, used_theirs, total;
	int check, a, b, fail = 0, plain = 0;

	memcpy(in, stream, len);	/* exactly len: ASan sees over-reads */
	if (len && diff_rand() % 2)
		diff_prefix_first(in, len);
	for (check = 0; check < 2 && !fail; check++) {
		a = inflate_whole(in, len, ours, size, &used_ours, check);
		b = diff_zlib(in, len, theirs, size, &used_theirs, check,
			      &total);
		if (!check) {
			plain = a;
			/* a window that may be too small, one that is not */
			fail = diff_windows(in, len, size, 65536 +
					    diff_rand() % 100000, 1, a,
					    used_ours, ours) ||
			       diff_windows(in, len, size, size + 65536, 0,
					    a, used_ours, ours);
		}
		if (!a != !b)
			fail = 1;
		else if (!a && (used_ours != used_theirs ||
				memcmp(ours, theirs, size)))
			fail = 1;
		/* a wrong Adler-32 alone is called so */
		else if (check && a && !plain && a != INFLATE_CHECKSUM)
			fail = 1;
		if (fail)
			fprintf(stderr, "differs: len %zu size %zu check %d: "
				"ours %d zlib %d\n", len, size, check, a, b);
	}
	free(in);
	free(ours);
	free(theirs);
	return fail;
}

/* A stream written bit by bit, for the crafted rounds. */
struct diff_bits {
	unsigned char *buf;
	size_t len, alloc;
	unsigned int fill;	/* bits used in the last byte */
};

static void put_bits(struct diff_bits *w, uint32_t v, unsigned int n)
{
	while (n--) {
		if (!w->fill) {
			if (w->len == w->alloc) {
				w->alloc = w->alloc ? 2 * w->alloc : 256;
				w->buf = xrealloc(w->buf, w->alloc);
			}
			w->buf[w->len++] = 0;
		}
		w->buf[w->len - 1] |= (v & 1) << w->fill;
		v >>= 1;
		w->fill = (w->fill + 1) & 7;
	}
}

/* A Huffman code's bits go out first bit first. */
static void put_code(struct diff_bits *w, uint32_t code, unsigned int len)
{
	while (len--)
		put_bits(w, code >> len, 1);
}

/* Canonical codes of n lengths (those of length 0 unused). */
static void diff_codes(const uint8_t *lens, unsigned int n, uint32_t *codes)
{
	unsigned int count[16] = { 0 }, next[16], len, sym, code = 0;

	for (sym = 0; sym < n; sym++)
		count[lens[sym]]++;
	count[0] = 0;
	for (len = 1; len < 16; len++) {
		code = (code + count[len - 1]) << 1;
		next[len] = code;
	}
	for (sym = 0; sym < n; sym++)
		if (lens[sym])
			codes[sym] = next[lens[sym]]++;
}

/*
 * Random lengths for n symbols, leaves symbols: a complete code (leaves
 * split at random, none past 15 bits), one length then moved by one
 * (over-subscribed or incomplete) now and then.  must is given a code.
 */
static void diff_lengths(uint8_t *lens, unsigned int n, unsigned int leaves,
			 unsigned int must)
{
	uint8_t depth[288];
	unsigned int nr = 1, i, sym;

	depth[0] = 0;
	memset(lens, 0, n);
	if (leaves == 1) {
		lens[must] = 1;
		return;
	}
	while (nr < leaves) {
		i = diff_rand() % nr;
		if (depth[i] == 15)
			continue;
		depth[i]++;
		depth[nr++] = depth[i];
	}
	lens[must] = depth[0];
	for (i = 1; i < nr; i++) {
		do
			sym = diff_rand() % n;
		while (lens[sym]);
		lens[sym] = depth[i];
	}
	if (diff_rand() % 8 == 0) {
		sym = diff_rand() % n;
		if (!lens[sym])
			lens[sym] = 1 + diff_rand() % 15;
		else if (lens[sym] < 15 && diff_rand() % 2)
			lens[sym]++;
		else
			lens[sym]--;
	}
}

/*
 * The distance code and distance of a match at pos: at the window's
 * edge, now and then past it, or any the code has; 0 if none of those
 * has a code.
 */
static unsigned int diff_distance(size_t pos, const uint8_t *dlens,
				  unsigned int *dsym)
{
	size_t far = pos < 32768 ? pos : 32768;
	unsigned int d, i, extra;

	if (diff_rand() % 8192 == 0)
		d = far + 1;
	else if (diff_rand() % 4 == 0)
		d = far;
	else
		d = 1 + diff_rand() % far;
	for (*dsym = 29; deflate_dist_base[*dsym] > d; (*dsym)--)
		;
	if (diff_rand() % 8192 == 0)
		*dsym = 30 + diff_rand() % 2;
	for (i = 0; i < 8 && !dlens[*dsym]; i++) {
		unsigned int c = diff_rand() % 30;

		if (!dlens[c] || deflate_dist_base[c] > far)
			continue;
		*dsym = c;
		extra = diff_rand() & ((1u << deflate_dist_extra[c]) - 1);
		d = deflate_dist_base[c] + extra;
		if (d > far)
			d = far;
	}
	return dlens[*dsym] ? d : 0;
}

/* The symbols of one block: literals, matches, the end code. */
static void diff_symbols(struct diff_bits *w, const uint8_t *lens,
			 const uint32_t *codes, const uint8_t *dlens,
			 const uint32_t *dcodes, size_t *pos)
{
	unsigned int k, n = diff_rand() % 600;

	for (k = 0; k < n; k++) {
		unsigned int sym = diff_rand() % 256, d = 0, dsym = 0, extra;

		if (diff_rand() % 2 && *pos) {
			sym = diff_rand() % 4 ? 257 + diff_rand() % 29 : 285;
			d = diff_distance(*pos, dlens, &dsym);
		}
		if (diff_rand() % 8192 == 0)
			sym = 286 + diff_rand() % 2;
		if (!lens[sym] || (sym > 256 && sym < 286 && !d))
			continue;
		put_code(w, codes[sym], lens[sym]);
		if (sym < 256) {
			(*pos)++;
			continue;
		}
		if (sym >= 286)
			return;
		extra = diff_rand() & ((1u << deflate_length_extra[sym - 257]) - 1);
		put_bits(w, extra, deflate_length_extra[sym - 257]);
		*pos += deflate_length_base[sym - 257] + extra;
		put_code(w, dcodes[dsym], dlens[dsym]);
		if (dsym < 30)
			put_bits(w, d - deflate_dist_base[dsym],
				 deflate_dist_extra[dsym]);
	}
	if (lens[256])
		put_code(w, codes[256], lens[256]);
}

/* A dynamic block's header: its lengths sent with 4-bit codes for 0-15. */
static void diff_dynamic(struct diff_bits *w, uint8_t *lens, uint8_t *dlens)
{
	unsigned int nlen = 257 + diff_rand() % 30, ndist = 1 + diff_rand() % 30;
	unsigned int i;

	diff_lengths(lens, nlen, 2 + diff_rand() % (nlen - 1), 256);
	diff_lengths(dlens, ndist, 1 + diff_rand() % ndist, 0);
	if (diff_rand() % 16 == 0)
		memset(dlens, 0, ndist);
	memset(lens + nlen, 0, 288 - nlen);
	memset(dlens + ndist, 0, 32 - ndist);
	put_bits(w, nlen - 257, 5);
	put_bits(w, ndist - 1, 5);
	put_bits(w, 19 - 4, 4);
	for (i = 0; i < 19; i++)
		put_bits(w, deflate_codelen_order[i] < 16 ? 4 : 0, 3);
	for (i = 0; i < nlen; i++)
		put_code(w, lens[i], 4);
	for (i = 0; i < ndist; i++)
		put_code(w, dlens[i], 4);
}

/*
 * A stream of fixed and dynamic blocks put together symbol by symbol:
 * lengths up to 258, distances at the window's edge and past it, codes
 * 286-287 and 30-31, code sets over-subscribed and incomplete.
 */
static unsigned char *diff_craft(size_t *len, size_t *size)
{
	struct diff_bits w = { NULL, 0, 0, 0 };
	unsigned int blocks = 1 + diff_rand() % 3, b;
	size_t pos = 0;

	put_bits(&w, 0x9c78, 16);
	for (b = 0; b < blocks; b++) {
		uint8_t lens[288], dlens[32];
		uint32_t codes[288], dcodes[32];
		int dynamic = diff_rand() % 2;

		put_bits(&w, b == blocks - 1, 1);
		put_bits(&w, dynamic ? 2 : 1, 2);
		if (dynamic) {
			diff_dynamic(&w, lens, dlens);
		} else {
			memset(lens, 8, 144);
			memset(lens + 144, 9, 112);
			memset(lens + 256, 7, 24);
			memset(lens + 280, 8, 8);
			memset(dlens, 5, 32);
		}
		diff_codes(lens, 288, codes);
		diff_codes(dlens, 32, dcodes);
		diff_symbols(&w, lens, codes, dlens, dcodes, &pos);
	}
	for (b = 0; b < 4; b++)
		put_bits(&w, diff_rand(), 8);
	*len = w.len;
	*size = pos;
	return w.buf;
}

/* What zlib inflates the stream to, or 0 (and *size 0) if it refuses. */
static size_t diff_true_size(const unsigned char *in, size_t len, size_t max)
{
	unsigned char *out = xmalloc(max + 1);
	size_t used, total;

	diff_zlib(in, len, out, max, &used, 0, &total);
	free(out);
	return total;
}

/*
 * The stream of one round: random bytes behind a zlib header, or a
 * deflated buffer as it is, cut short, with bits flipped or bytes
 * overwritten.  The size asked: the true one, near it, or random.
 */
static int diff_round(unsigned char *buf, size_t max)
{
	unsigned int mode = diff_rand() % 8;
	unsigned char *z;
	size_t n = diff_rand() % 4 ? diff_rand() % 4096 : diff_rand() % max;
	size_t len, size, meant = 0, i;
	int ret;

	if (mode >= 6) {
		z = diff_craft(&len, &meant);
	} else if (mode == 0) {
		len = 2 + diff_rand() % 400;
		z = xmalloc(len);
		z[0] = 0x78;
		z[1] = 0x9c;
		for (i = 2; i < len; i++)
			z[i] = diff_rand();
	} else {
		diff_content(buf, n);
		z = diff_deflate(buf, n, &len);
		if (mode == 2 && len)
			len = diff_rand() % len;
		if (mode == 3)
			for (i = diff_rand() % 4; i < 4; i++)
				z[diff_rand() % len] ^= 1 << diff_rand() % 8;
		if (mode == 4)
			for (i = diff_rand() % 4; i < 4; i++)
				z[diff_rand() % len] = diff_rand();
	}
	size = diff_true_size(z, len, max);
	if (diff_rand() % 2)
		size += diff_rand() % 1024;	/* past where zlib stopped */
	else if (diff_rand() % 4 == 0)
		size += diff_rand() % 5 - (size >= 2 ? 2 : 0);
	if (diff_rand() % 16 == 0)
		size = diff_rand() % max;
	if (meant && diff_rand() % 2)
		size = meant;	/* what it was written to give */
	ret = diff_one(z, len, size);
	free(z);
	return ret;
}

/* inflate-diff <seed> <rounds>: exit 1 at the first disagreement. */
static int cmd_inflate_diff(char **argv)
{
	size_t max = 100000;
	unsigned char *buf = xmalloc(max);
	long rounds = atol(argv[1]), i;
	int ret = 0;

	diff_rand_state = strtoull(argv[0], NULL, 10) * 2654435761u + 1;
	for (i = 0; i < rounds && !ret; i++)
		ret = diff_round(buf, max);
	free(buf);
	if (ret)
		fprintf(stderr, "inflate-diff: round %ld differs\n", i - 1);
	return ret;
}

int main(int argc, char **argv)
{
	int ret;

	setup_tool(argv[0]);
	if (argc < 2)
		die("usage: test-tool <command> <args>");
	/* the store's hash, for the commands that read ids or objects */
	if (!check_git_dir() && check_repository_format() < 0)
		exit(128);
	if (!strcmp(argv[1], "cpu") && argc == 2)
		return cmd_cpu();
	if (!strcmp(argv[1], "mbuf"))
		ret = cmd_mbuf(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "pathspec"))
		ret = cmd_pathspec(argc - 2, argv + 2, 0);
	else if (!strcmp(argv[1], "interest"))
		ret = cmd_pathspec(argc - 2, argv + 2, 1);
	else if (!strcmp(argv[1], "resolve-ref") && argc == 3)
		ret = cmd_resolve_ref(argv + 2);
	else if (!strcmp(argv[1], "for-each-ref"))
		ret = for_each_ref(show_ref, NULL);
	else if (!strcmp(argv[1], "stream") && argc == 4)
		ret = cmd_stream(argv + 2);
	else if (!strcmp(argv[1], "read-ids") && argc == 2)
		ret = cmd_read_ids();
	else if (!strcmp(argv[1], "lock") && argc == 3)
		ret = cmd_lock(argv + 2);
	else if (!strcmp(argv[1], "traverse"))
		ret = cmd_traverse(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "delta-make") && argc == 4)
		ret = cmd_delta("make", argv + 2);
	else if (!strcmp(argv[1], "delta-apply") && argc == 4)
		ret = cmd_delta("apply", argv + 2);
	else if (!strcmp(argv[1], "delta-roundtrip"))
		ret = cmd_delta_roundtrip(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "apply-sets"))
		ret = cmd_apply_sets(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "promise-parallel"))
		ret = cmd_promise_parallel(argv + 2);
	else if (!strcmp(argv[1], "pack-rss") && (argc == 3 || argc == 4))
		ret = cmd_pack_rss(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "pack-resolve") && argc == 4)
		ret = cmd_pack_resolve(argv + 2);
	else if (!strcmp(argv[1], "sha1"))
		ret = cmd_sha1(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "hash"))
		ret = cmd_hash(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "sha1-batch") && argc == 2)
		ret = cmd_sha1_batch();
	else if (!strcmp(argv[1], "inflate-diff") && argc == 4)
		ret = cmd_inflate_diff(argv + 2);
	else if (!strcmp(argv[1], "write-pack"))
		ret = cmd_write_pack(argc - 2, argv + 2);
	else
		die("unknown command '%s'", argv[1]);
	finish_stdout();
	return ret;
}
