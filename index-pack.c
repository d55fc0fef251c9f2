/*
 * index-pack: check a pack and write its idx, as git index-pack does.
 *
 * The pack is read whole (pack-resolve.c): every entry inflated and
 * summed, every delta resolved against a base in the pack, every id
 * computed, the trailer checked; with --strict every commit, tree and
 * tag is checked as fsck-cache checks it.  Only then is the idx (v2,
 * the bytes git writes) written, under a temporary name and renamed:
 * a pack refused leaves nothing behind, and says why in one line.
 *
 * With --stdin the pack comes from standard input: it is written to a
 * temporary file in objects/pack first (or beside <pack-file>), read
 * from there, then renamed to pack-<hex>.pack and its idx written
 * after it, so that no reader ever finds an idx without its pack.
 * REF_DELTA bases must be in the pack: thin packs are refused.
 *
 * A pack does not say which hash names its objects: it is the store's
 * (that of the repository we are in, if any), or --object-format's
 * for a pack outside any store, as git.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cache.h"
#include "pack.h"

static const char index_pack_usage[] =
	"index-pack [-v] [--strict] [--object-format=<hash>] [-o <idx-file>] "
	"<pack-file>\n"
	"   or: index-pack --stdin [-v] [--strict] [--keep[=<why>]] "
	"[--object-format=<hash> <pack-file>]";

static int strict;
static int from_stdin;
static const struct hash_algo *object_format;
static int verbose;
static const char *keep_msg;

/* The files this run made and has not placed yet: removed on failure. */
struct out_files {
	char *tmp_pack, *tmp_idx, *keep;
	int pack_fd, idx_fd;
};

static void remove_out_files(struct out_files *o)
{
	if (o->pack_fd >= 0)
		close(o->pack_fd);
	if (o->idx_fd >= 0)
		close(o->idx_fd);
	if (o->tmp_pack)
		unlink(o->tmp_pack);
	if (o->tmp_idx)
		unlink(o->tmp_idx);
	if (o->keep)
		unlink(o->keep);
}

struct strict_report {
	char line[256];
};

static void first_problem(void *data, enum fsck_level level, const char *msg)
{
	struct strict_report *r = data;

	if (level == FSCK_ERROR && !r->line[0])
		snprintf(r->line, sizeof(r->line), "%s", msg);
}

/* --strict: a commit, tree or tag as fsck-cache checks it. */
static int check_strict(void *data, const struct pack_in_entry *e,
			const void *buf, size_t size, struct fault *f)
{
	struct strict_report r = { "" };
	struct fsck_options o = { 1, first_problem, &r, NULL, 1 };
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	int bad = 0;
	const char *why;

	(void)data;
	if (e->type == OBJ_TREE) {
		why = check_tree(buf, size);
		if (why)
			snprintf(r.line, sizeof(r.line), "%s", why);
		bad = why || fsck_tree(buf, size, &o);
	} else if (e->type == OBJ_COMMIT) {
		bad = fsck_commit(buf, size, &o);
	} else if (e->type == OBJ_TAG) {
		bad = fsck_tag(buf, size, &o, sha1, &type);
	}
	if (!bad)
		return 0;
	return set_fault(f, FAULT_CORRUPT, "object %s: %s",
			 sha1_to_hex(e->sha1), r.line[0] ? r.line : "bad");
}

/*
 * Buffers of a megabyte or more straight from mmap, given back when
 * freed.  glibc otherwise raises that threshold to the biggest buffer
 * freed so far, and a kernel pack's big blobs (up to 24 MB), inflated
 * and let go again and again, left some 10 MB more resident at the
 * peak than git index-pack's.
 */
static void big_buffers_mapped(void)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

/* Copy standard input into fd; -1 after error(). */
static int copy_stdin(int fd, const char *name)
{
	unsigned char *buf = xmalloc(OBJECT_CHUNK * 4);
	ssize_t n;
	int ret = 0;

	while ((n = read_in_full(0, buf, OBJECT_CHUNK * 4)) > 0)
		if (write_in_full(fd, buf, n) < 0) {
			ret = error_errno("write '%s'", name);
			break;
		}
	if (n < 0)
		ret = error_errno("read the pack from standard input");
	/* synced now, not at its rename, so that it is read back clean */
	if (!ret && sync_wanted() && fsync(fd) < 0)
		ret = error_errno("fsync '%s'", name);
	free(buf);
	return ret;
}

/* The entries' ids, CRCs and offsets, sorted; NULL (f) on a duplicate. */
static struct pack_idx_entry *idx_entries(const struct pack_in *p,
					  struct fault *f)
{
	struct pack_idx_entry *ents = xmalloc((p->nr ? p->nr : 1) *
					      sizeof(*ents));
	unsigned char dup[HASH_MAX_RAWSZ];
	uint32_t i;

	for (i = 0; i < p->nr; i++) {
		hashcpy(ents[i].sha1, p->entries[i].sha1);
		ents[i].crc = p->entries[i].crc;
		ents[i].offset = p->entries[i].offset;
	}
	if (sort_pack_idx(ents, p->nr, dup) < 0) {
		set_fault(f, FAULT_CORRUPT, "object %s is in the pack twice",
			  sha1_to_hex(dup));
		free(ents);
		return NULL;
	}
	return ents;
}

/* "<dir>/x.pack" -> a copy ending in ext instead; NULL without .pack. */
static char *replace_ext(const char *pack, const char *ext)
{
	size_t len = strlen(pack);
	char *s;

	if (len < 5 || strcmp(pack + len - 5, ".pack"))
		return NULL;
	s = xmalloc(len - 5 + strlen(ext) + 1);
	memcpy(s, pack, len - 5);
	strcpy(s + len - 5, ext);
	return s;
}

/* The directory part of path ("." when none), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return xstrdup(".");
	d = xmalloc(slash - path + 2);
	memcpy(d, path, slash - path + 1);
	d[slash - path + 1] = '\0';
	return d;
}

/* Write the idx of p under a temporary name in dir, then to idx_path. */
static int write_idx_file(struct out_files *o, const struct pack_in *p,
			  const struct pack_idx_entry *ents, const char *dir,
			  const char *idx_path)
{
	o->idx_fd = open_pack_tmp_file(dir, "tmp_idx_", &o->tmp_idx);
	if (o->idx_fd < 0)
		return -1;
	if (write_pack_idx(o->idx_fd, ents, p->nr, p->sha1) < 0)
		return error_errno("write '%s'", o->tmp_idx);
	return place_pack_file(&o->tmp_idx, &o->idx_fd, idx_path);
}

/* --keep: <pack minus .pack>.keep, made before the pack is placed. */
static int write_keep(struct out_files *o, const char *keep)
{
	int fd = open(keep, O_WRONLY | O_CREAT | O_EXCL, 0444);

	if (fd < 0) {
		if (errno == EEXIST)
			return 0;
		return error_errno("create '%s'", keep);
	}
	o->keep = xstrdup(keep);
	if ((*keep_msg && (write_in_full(fd, keep_msg, strlen(keep_msg)) < 0 ||
			   write_in_full(fd, "\n", 1) < 0)) || close(fd) < 0)
		return error_errno("write '%s'", keep);
	return 0;
}

/* The pack's final name: <pack-file> or objects/pack/pack-<hex>.pack. */
static char *stdin_pack_name(const char *pack_arg, const char *dir,
			     const unsigned char *sha1)
{
	char name[HASH_MAX_HEXSZ + 16];

	if (pack_arg)
		return xstrdup(pack_arg);
	snprintf(name, sizeof(name), "pack-%s.pack", sha1_to_hex(sha1));
	return path_join(dir, name);
}

/* Place the pack read from stdin (and its .keep), then its idx. */
static int store_stdin_pack(struct out_files *o, const struct pack_in *p,
			    const struct pack_idx_entry *ents,
			    const char *pack_arg, const char *dir)
{
	char *pack = stdin_pack_name(pack_arg, dir, p->sha1);
	char *idx = replace_ext(pack, ".idx"), *keep = NULL;
	int ret = -1;

	if (!idx) {
		error("pack name '%s' does not end in .pack", pack);
		goto out;
	}
	if (keep_msg) {
		keep = replace_ext(pack, ".keep");
		if (write_keep(o, keep) < 0)
			goto out;
	}
	if (place_pack_file(&o->tmp_pack, &o->pack_fd, pack) < 0 ||
	    write_idx_file(o, p, ents, dir, idx) < 0 || sync_pack_dir(dir) < 0)
		goto out;
	free(o->keep);
	o->keep = NULL;
	ret = 0;
out:
	free(pack);
	free(idx);
	free(keep);
	return ret;
}

static void parse_args(int argc, char **argv, const char **pack,
		       const char **idx)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--stdin"))
			from_stdin = 1;
		else if (!strcmp(a, "-v"))
			verbose = 1;
		else if (!strcmp(a, "--strict"))
			strict = 1;
		else if (!strcmp(a, "--keep"))
			keep_msg = "";
		else if (!strncmp(a, "--keep=", 7))
			keep_msg = a + 7;
		else if (!strncmp(a, "--object-format=", 16)) {
			object_format = hash_algo_by_name(a + 16);
			if (!object_format)
				die("unknown hash algorithm '%s'", a + 16);
		} else if (!strcmp(a, "-o") && i + 1 < argc)
			*idx = argv[++i];
		else if (a[0] == '-' || *pack)
			usage(index_pack_usage);
		else
			*pack = a;
	}
	if ((!from_stdin && !*pack) || (from_stdin && *idx) ||
	    (!from_stdin && keep_msg))
		usage(index_pack_usage);
	if (from_stdin && !*pack && object_format)
		die("options '--object-format' and '--stdin' cannot be used "
		    "together");
}

/*
 * The hash of the pack's ids: --object-format's (not for the store's
 * own pack: --stdin without <pack-file>), else the format of the
 * repository we are in (if its store is there), else SHA-1.
 */
static void set_pack_hash(void)
{
	struct stat st;

	if (object_format) {
		the_hash = object_format;
		return;
	}
	if (!stat(get_object_directory(), &st) && S_ISDIR(st.st_mode) &&
	    (check_git_dir() < 0 || check_repository_format() < 0))
		exit(128);
}

/* The directory new files go to: beside <pack-file>, or objects/pack. */
static char *out_dir(const char *pack)
{
	if (pack)
		return dir_of(pack);
	if (setup_repository() < 0)
		exit(128);
	return path_join(get_object_directory(), "pack");
}

int main(int argc, char **argv)
{
	const char *pack = NULL, *idx_arg = NULL, *name;
	struct out_files o = { NULL, NULL, NULL, -1, -1 };
	struct pack_in p;
	struct pack_idx_entry *ents = NULL;
	struct fault f;
	char *dir, *idx = NULL;
	int ret = 128;

	setup_tool(argv[0]);
	handle_help(argc, argv, index_pack_usage);
	parse_args(argc, argv, &pack, &idx_arg);
	big_buffers_mapped();
	name = pack ? pack : "<stdin>";
	set_pack_hash();
	dir = out_dir(from_stdin ? pack : idx_arg ? idx_arg : pack);
	memset(&p, 0, sizeof(p));
	p.progress = verbose;
	if (strict) {
		p.fn = check_strict;
		p.want_content = 1 << OBJ_COMMIT | 1 << OBJ_TREE | 1 << OBJ_TAG;
	}
	if (from_stdin) {
		o.pack_fd = open_pack_tmp_file(dir, "tmp_pack_", &o.tmp_pack);
		if (o.pack_fd < 0 || copy_stdin(o.pack_fd, o.tmp_pack) < 0)
			goto out;
	} else {
		idx = idx_arg ? xstrdup(idx_arg) : replace_ext(pack, ".idx");
		if (!idx) {
			error("%s: pack name does not end in .pack", pack);
			goto out;
		}
		o.pack_fd = open(pack, O_RDONLY);
		if (o.pack_fd < 0) {
			error_errno("%s: open", pack);
			goto out;
		}
	}
	if (read_pack_in(&p, o.pack_fd, &f) < 0 ||
	    !(ents = idx_entries(&p, &f))) {
		error("%s: %s", name, f.msg);
		goto out;
	}
	if (from_stdin ? store_stdin_pack(&o, &p, ents, pack, dir) < 0 :
	    write_idx_file(&o, &p, ents, dir, idx) < 0)
		goto out;
	if (from_stdin)
		printf("%s\t%s\n", keep_msg ? "keep" : "pack",
		       sha1_to_hex(p.sha1));
	else
		printf("%s\n", sha1_to_hex(p.sha1));
	ret = 0;
out:
	if (ret)
		remove_out_files(&o);
	else if (o.pack_fd >= 0)
		close(o.pack_fd);
	free(p.entries);
	free(ents);
	free(dir);
	free(idx);
	free(o.tmp_pack);
	free(o.tmp_idx);
	free(o.keep);
	if (!ret && (fflush(stdout) || ferror(stdout)))
		die_errno("write to standard output");
	return ret;
}
