/*
 * sha1_file.c: the object store.  Loose objects exactly as git keeps
 * them: zlib of "<type> <size>\0<data>", at objects/xx/<38 hex>, named
 * by the SHA-1 of the uncompressed bytes.  Writes go to a temporary
 * name that can never look like an object, then rename(2) into place,
 * so a reader or an rsync never sees half an object.  Reads trust
 * nothing: the stream, the header, the size and the name are checked.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "cache.h"

/* Header "<type> <size>\0": type <= 6 bytes, size <= 20 digits. */
#define MAX_HEADER_LEN 32
/* deflate never expands less than this ratio; more is a lie. */
#define MAX_INFLATE_RATIO 1032

static const char *type_names[] = {
	[OBJ_COMMIT] = "commit",
	[OBJ_TREE] = "tree",
	[OBJ_BLOB] = "blob",
	[OBJ_TAG] = "tag",
};

const char *type_name(enum object_type type)
{
	if (type < OBJ_COMMIT || type > OBJ_TAG)
		return "bad";
	return type_names[type];
}

enum object_type type_from_string(const char *name, size_t len)
{
	int i;

	for (i = OBJ_COMMIT; i <= OBJ_TAG; i++)
		if (strlen(type_names[i]) == len &&
		    !memcmp(type_names[i], name, len))
			return i;
	return OBJ_BAD;
}

char *path_join(const char *dir, const char *file)
{
	size_t len = strlen(dir) + strlen(file) + 2;
	char *p = xmalloc(len);

	snprintf(p, len, "%s/%s", dir, file);
	return p;
}

const char *get_git_dir(void)
{
	static const char *dir;

	if (!dir) {
		dir = getenv(GIT_DIR_ENVIRONMENT);
		if (!dir || !*dir)
			dir = DEFAULT_GIT_DIR;
	}
	return dir;
}

const char *get_object_directory(void)
{
	static char *dir;
	const char *env;

	if (dir)
		return dir;
	env = getenv(DB_ENVIRONMENT);
	if (!env || !*env)
		env = getenv(OBJECT_DIR_ENVIRONMENT);
	if (env && *env)
		dir = xstrdup(env);
	else
		dir = path_join(get_git_dir(), "objects");
	return dir;
}

const char *get_index_file(void)
{
	static char *file;
	const char *env;

	if (file)
		return file;
	env = getenv(INDEX_ENVIRONMENT);
	if (env && *env)
		file = xstrdup(env);
	else
		file = path_join(get_git_dir(), "index");
	return file;
}

int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int get_sha1_hex(const char *hex, unsigned char *sha1)
{
	int i;

	for (i = 0; i < 20; i++) {
		int hi = hexval(hex[2 * i]);
		int lo = hi < 0 ? -1 : hexval(hex[2 * i + 1]);

		if (lo < 0)
			return -1;
		sha1[i] = hi << 4 | lo;
	}
	return 0;
}

char *sha1_to_hex(const unsigned char *sha1)
{
	static __thread char bufs[4][41];
	static __thread int next;
	static const char hex[] = "0123456789abcdef";
	char *buf = bufs[next++ & 3];
	int i;

	for (i = 0; i < 20; i++) {
		buf[2 * i] = hex[sha1[i] >> 4];
		buf[2 * i + 1] = hex[sha1[i] & 15];
	}
	buf[40] = '\0';
	return buf;
}

static void fill_sha1_path(char *buf, const unsigned char *sha1)
{
	const char *hex = sha1_to_hex(sha1);

	memcpy(buf, hex, 2);
	buf[2] = '/';
	memcpy(buf + 3, hex + 2, 38);
	buf[41] = '\0';
}

const char *sha1_file_name(const unsigned char *sha1)
{
	static __thread char name[PATH_MAX];
	const char *dir = get_object_directory();
	size_t dirlen = strlen(dir);

	if (dirlen + 43 > sizeof(name))
		die("object directory name too long: '%s'", dir);
	memcpy(name, dir, dirlen);
	name[dirlen] = '/';
	fill_sha1_path(name + dirlen + 1, sha1);
	return name;
}

int has_sha1_file(const unsigned char *sha1)
{
	struct stat st;

	return !stat(sha1_file_name(sha1), &st);
}

int parse_loose_name(const char *dir, const char *file, unsigned char *sha1)
{
	char hex[41];
	int i;

	if (strlen(dir) != 2 || strlen(file) != 38)
		return -1;
	memcpy(hex, dir, 2);
	memcpy(hex + 2, file, 39);
	for (i = 0; i < 40; i++)
		if (!strchr("0123456789abcdef", hex[i]))
			return -1;
	return get_sha1_hex(hex, sha1);
}

/* The names in one fan-out directory, the 19 bytes after the first. */
struct fanout_listing {
	unsigned char (*names)[19];
	size_t nr;
	int loaded;
};

static struct fanout_listing fanout[256];

static int compare_suffix(const void *a, const void *b)
{
	return memcmp(a, b, 19);
}

static void list_fanout(unsigned int first, struct fanout_listing *l)
{
	char hex[3];
	char *dir;
	size_t alloc = 0;
	struct dirent *de;
	DIR *d;

	l->loaded = 1;
	snprintf(hex, sizeof(hex), "%02x", first);
	dir = path_join(get_object_directory(), hex);
	d = opendir(dir);
	free(dir);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		unsigned char sha1[20];

		if (parse_loose_name(hex, de->d_name, sha1) < 0)
			continue;
		ALLOC_GROW(l->names, l->nr + 1, alloc);
		memcpy(l->names[l->nr++], sha1 + 1, 19);
	}
	closedir(d);
	if (l->nr)
		qsort(l->names, l->nr, 19, compare_suffix);
}

int has_sha1_file_listed(const unsigned char *sha1)
{
	struct fanout_listing *l = &fanout[sha1[0]];

	if (!l->loaded)
		list_fanout(sha1[0], l);
	if (l->nr && bsearch(sha1 + 1, l->names, l->nr, 19, compare_suffix))
		return 1;
	return has_sha1_file(sha1);	/* it may have come since */
}

static int format_header(char *hdr, enum object_type type, size_t len)
{
	return snprintf(hdr, MAX_HEADER_LEN, "%s %zu", type_name(type),
			len) + 1;
}

void hash_sha1_file(const void *buf, size_t len, enum object_type type,
		    unsigned char *sha1)
{
	char hdr[MAX_HEADER_LEN];
	int hdrlen = format_header(hdr, type, len);
	SHA_CTX c;

	SHA1_Init(&c);
	SHA1_Update(&c, hdr, hdrlen);
	SHA1_Update(&c, buf, len);
	SHA1_Final(sha1, &c);
}

/*
 * Deflate what is in s->next_in into out (size bytes; the caller points
 * s->next_out at it first), writing out to ofd each time it fills and
 * when the stream ends, so that a small object is a single write.
 */
static int deflate_pending(z_stream *s, int flush, int ofd,
			   unsigned char *out, size_t size)
{
	for (;;) {
		int ret = deflate(s, flush);

		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
			die("zlib: deflate failed (%d)", ret);
		if (!s->avail_out || ret == Z_STREAM_END) {
			if (write_in_full(ofd, out, size - s->avail_out) < 0)
				return -1;
			s->next_out = out;
			s->avail_out = size;
		}
		if (ret == Z_STREAM_END ||
		    (flush != Z_FINISH && s->avail_out && !s->avail_in))
			return 0;
	}
}

/*
 * Deflate header and body into fd, 64 KiB at a time, so memory stays
 * flat whatever the size.  zlib level 1 is git's default for loose
 * objects and several times faster than 6; the header goes in first
 * on its own, as git does, so the bytes match git's.
 */
static int deflate_to_fd(int fd, const char *hdr, int hdrlen,
			 const void *buf, size_t len)
{
	unsigned char out[65536];
	z_stream s;
	int ret;

	memset(&s, 0, sizeof(s));
	if (deflateInit(&s, 1) != Z_OK)
		die("zlib: deflateInit failed");
	s.next_out = out;
	s.avail_out = sizeof(out);
	s.next_in = (unsigned char *)hdr;
	s.avail_in = hdrlen;
	ret = deflate_pending(&s, Z_NO_FLUSH, fd, out, sizeof(out));
	s.next_in = (unsigned char *)buf;
	s.avail_in = len;
	if (!ret)
		ret = deflate_pending(&s, Z_FINISH, fd, out, sizeof(out));
	deflateEnd(&s);
	return ret;
}

int create_leading_dirs(char *path)
{
	char *slash = path;

	while ((slash = strchr(slash + 1, '/')) != NULL) {
		*slash = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			int err = errno;
			struct stat st;

			if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
				*slash = '/';
				errno = err;
				return -1;
			}
		}
		*slash = '/';
	}
	return 0;
}

/*
 * objects/xx/tmp_obj_XXXXXX: the "tmp_" prefix means the name can
 * never be 38 hex digits, so nothing mistakes it for an object.
 */
static int open_object_tmpfile(const char *filename, char *tmp, size_t size)
{
	const char *slash = strrchr(filename, '/');
	int dirlen = slash - filename;
	int fd;

	snprintf(tmp, size, "%.*s/tmp_obj_XXXXXX", dirlen, filename);
	fd = mkstemp(tmp);
	if (fd < 0 && errno == ENOENT) {
		tmp[dirlen] = '\0';
		if (mkdir(tmp, 0777) && errno != EEXIST)
			return -1;
		snprintf(tmp, size, "%.*s/tmp_obj_XXXXXX", dirlen, filename);
		fd = mkstemp(tmp);
	}
	return fd;
}

/* Objects this process wrote and has not yet synced. */
static unsigned int objects_written;

/*
 * A complete temporary object becomes read-only and takes its name (the
 * fan-out directory is made if need be); it is counted for the sync.
 * On failure the temporary file is removed.
 */
static int finish_object(const char *tmp, int fd, const unsigned char *sha1)
{
	const char *filename = sha1_file_name(sha1);
	int ret = 0;

	if (fchmod(fd, 0444) < 0 && errno != EPERM)
		ret = error_errno("chmod object %s", sha1_to_hex(sha1));
	if (close(fd) < 0 && !ret)
		ret = error_errno("close object %s", sha1_to_hex(sha1));
	if (!ret && rename(tmp, filename) < 0) {
		char *dir = xstrdup(filename);

		*strrchr(dir, '/') = '\0';
		if (errno != ENOENT || (mkdir(dir, 0777) && errno != EEXIST) ||
		    rename(tmp, filename) < 0)
			ret = error_errno("rename object into '%s'", filename);
		free(dir);
	}
	if (ret)
		unlink(tmp);
	else
		__atomic_fetch_add(&objects_written, 1, __ATOMIC_RELAXED);
	return ret;
}

static int write_loose_object(const unsigned char *sha1, const char *hdr,
			      int hdrlen, const void *buf, size_t len)
{
	char tmp[PATH_MAX];
	int fd = open_object_tmpfile(sha1_file_name(sha1), tmp, sizeof(tmp));

	if (fd < 0)
		return error_errno("unable to create temporary object in '%s'",
				   get_object_directory());
	if (deflate_to_fd(fd, hdr, hdrlen, buf, len) < 0) {
		error_errno("write object %s", sha1_to_hex(sha1));
		close(fd);
		unlink(tmp);
		return -1;
	}
	return finish_object(tmp, fd, sha1);
}

static int compare_loose(const unsigned char *sha1, const void *buf,
			 size_t len, enum object_type type, const char **why);
static int compare_object_files(const char *a, const char *b,
				const char **why);

/*
 * What a comparison with an existing object found (0 same, 1 not, -1
 * unreadable, why says how): an error unless the bytes were the same.
 */
static int refuse_different(const unsigned char *sha1, int cmp,
			    const char *why)
{
	if (cmp < 0)
		return error("object %s exists but cannot be verified (%s); "
			     "not overwriting it", sha1_to_hex(sha1), why);
	if (cmp)
		return error("object %s exists with different content: a "
			     "SHA-1 collision or a corrupt store; not "
			     "overwriting it", sha1_to_hex(sha1));
	return 0;
}

/*
 * The collision defence: an object that already exists under this name
 * must hold exactly these bytes.  If it does not, either SHA-1 collided
 * or the store is corrupt; both are refused, and nothing is overwritten.
 * Equal bytes hash to the name, so the stored copy is not rehashed.
 */
static int check_existing_object(const unsigned char *sha1, const void *buf,
				 size_t len, enum object_type type)
{
	const char *why = "unreadable";
	int cmp = compare_loose(sha1, buf, len, type, &why);

	return refuse_different(sha1, cmp, why);
}

/*
 * bench/run builds a second copy of the tools with -DBENCH_UNVERIFIED to
 * measure what the collision check and the hash on read cost.  Nothing
 * else may define it: those copies trust the store blindly.
 */
#ifdef BENCH_UNVERIFIED
#define VERIFY_EXISTING 0
#define VERIFY_READ_HASH 0
#else
#define VERIFY_EXISTING 1
#define VERIFY_READ_HASH 1
#endif


int flush_to_disk(int fd)
{
	const char *env = getenv(NO_SYNC_ENVIRONMENT);

	if (env && *env && strcmp(env, "0"))
		return 0;
	if (objects_written) {
		int dfd = open(get_object_directory(), O_RDONLY | O_DIRECTORY);

		if (dfd < 0 || syncfs(dfd) < 0) {
			error_errno("sync object directory '%s'",
				    get_object_directory());
			if (dfd >= 0)
				close(dfd);
			return -1;
		}
		close(dfd);
		objects_written = 0;
	}
	if (fd >= 0 && fsync(fd) < 0)
		return error_errno("fsync");
	return 0;
}

int write_sha1_file(const void *buf, size_t len, enum object_type type,
		    unsigned char *sha1)
{
	char hdr[MAX_HEADER_LEN];
	int hdrlen = format_header(hdr, type, len);

	if (len > UINT_MAX - MAX_HEADER_LEN)
		return error("object of %zu bytes is too large (4 GiB at most)",
			     len);
	hash_sha1_file(buf, len, type, sha1);
	if (has_sha1_file(sha1))
		return VERIFY_EXISTING ?
			check_existing_object(sha1, buf, len, type) : 0;
	return write_loose_object(sha1, hdr, hdrlen, buf, len);
}

/*
 * Parse "<type> <size>\0" from the first inflated bytes.  The size is
 * decimal without leading zeros and must fit in size_t.  Returns the
 * header length including the NUL, or -1.
 */
static int parse_object_header(const unsigned char *hdr, size_t avail,
			       enum object_type *type, size_t *size)
{
	const unsigned char *sp, *p, *end;
	size_t n = 0;

	end = memchr(hdr, '\0', avail);
	if (!end)
		return -1;
	sp = memchr(hdr, ' ', end - hdr);
	if (!sp)
		return -1;
	*type = type_from_string((const char *)hdr, sp - hdr);
	if (*type == OBJ_BAD)
		return -1;
	p = sp + 1;
	if (p == end || (*p == '0' && p + 1 != end))
		return -1;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (n > (SIZE_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	*size = n;
	return end - hdr + 1;
}

struct mapped_object {
	void *map;
	size_t len;
};

/* Why the last quiet read failed, for read_sha1_file's message. */
static __thread char fault_text[128];

static int fault(const char **why, const char *text, int code)
{
	*why = text;
	return code;
}

static int fault_errno(const char **why, const char *what)
{
	snprintf(fault_text, sizeof(fault_text), "%s: %s", what,
		 strerror(errno));
	*why = fault_text;
	return OBJECT_UNREADABLE;
}

static int map_path(const char *path, struct mapped_object *m,
		    const char **why)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	m->map = NULL;
	m->len = 0;
	if (fd < 0)
		return errno == ENOENT ? fault(why, "not found", OBJECT_MISSING)
				       : fault_errno(why, "open");
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return fault(why, "not a regular file", OBJECT_CORRUPT);
	}
	if (!st.st_size) {
		close(fd);
		return fault(why, "empty file", OBJECT_CORRUPT);
	}
	m->len = st.st_size;
	m->map = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m->map == MAP_FAILED) {
		m->map = NULL;
		return fault_errno(why, "mmap");
	}
	return 0;
}

static int map_object(const unsigned char *sha1, struct mapped_object *m,
		      const char **why)
{
	return map_path(sha1_file_name(sha1), m, why);
}

static void unmap_object(struct mapped_object *m)
{
	if (m->map)
		munmap(m->map, m->len);
}

static int packs_exist(void)
{
	char *dir = path_join(get_object_directory(), "pack");
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	free(dir);
	if (!d)
		return 0;
	while (!found && (de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		found = len > 5 && !strcmp(de->d_name + len - 5, ".pack");
	}
	closedir(d);
	return found;
}

static int report_fault(const unsigned char *sha1, int code, const char *why)
{
	switch (code) {
	case OBJECT_MISSING:
		if (packs_exist())
			return error("object %s not found as a loose object; "
				     "it may be in a pack file, which this "
				     "version cannot read", sha1_to_hex(sha1));
		return error("object %s not found", sha1_to_hex(sha1));
	case OBJECT_HASH_MISMATCH:
		return error("hash mismatch %s: %s", sha1_to_hex(sha1), why);
	case OBJECT_CORRUPT:
		return error("object %s is corrupt: %s", sha1_to_hex(sha1), why);
	default:
		return error("object %s: %s", sha1_to_hex(sha1), why);
	}
}

/*
 * Inflate the header of a mapped object.  On success the stream is
 * left positioned after the header, with the bytes of the body that
 * came out with it in hdrbuf[hdrlen .. *got).
 */
static int unpack_header(z_stream *s, const struct mapped_object *m,
			 unsigned char *hdrbuf, size_t *got,
			 enum object_type *type, size_t *size)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->next_in = m->map;
	s->avail_in = m->len > UINT_MAX ? UINT_MAX : m->len;
	s->next_out = hdrbuf;
	s->avail_out = MAX_HEADER_LEN;
	if (inflateInit(s) != Z_OK)
		return -1;
	ret = inflate(s, Z_SYNC_FLUSH);
	if (ret != Z_OK && ret != Z_STREAM_END)
		return -1;
	*got = MAX_HEADER_LEN - s->avail_out;
	return parse_object_header(hdrbuf, *got, type, size);
}

int sha1_object_info(const unsigned char *sha1, enum object_type *type,
		     size_t *size)
{
	struct mapped_object m;
	unsigned char hdr[MAX_HEADER_LEN];
	const char *why;
	size_t got;
	z_stream s;
	int ret = map_object(sha1, &m, &why);

	if (ret)
		return report_fault(sha1, ret, why);
	ret = unpack_header(&s, &m, hdr, &got, type, size);
	inflateEnd(&s);
	unmap_object(&m);
	if (ret < 0)
		return report_fault(sha1, OBJECT_CORRUPT, "bad header");
	return 0;
}

/*
 * Inflate with Z_FINISH until the stream ends.  When the buffer fills
 * before the end, one spare byte tells a stream that is longer than
 * its header from one that only has its end marker left.
 */
static int inflate_to_end(z_stream *s)
{
	unsigned char spare;
	int ret;

	do {
		ret = inflate(s, Z_FINISH);
	} while (ret == Z_OK);
	if (ret == Z_STREAM_END || s->avail_out)
		return ret;
	s->next_out = &spare;
	s->avail_out = 1;
	ret = inflate(s, Z_FINISH);
	if (ret == Z_STREAM_END && s->avail_out)
		s->avail_out = 0;
	else if (!s->avail_out)
		ret = Z_NEED_DICT;	/* produced more than the header said */
	return ret;
}

static const char *inflate_fault(const z_stream *s, int ret)
{
	if (ret == Z_NEED_DICT)
		return "longer than its header says";
	if (ret != Z_STREAM_END)
		return "truncated or damaged zlib stream";
	if (s->avail_out)
		return "shorter than its header says";
	if (s->avail_in)
		return "garbage after the zlib stream";
	return NULL;
}

static void *inflate_body(z_stream *s, const struct mapped_object *m,
			  const unsigned char *hdr, size_t got, int hdrlen,
			  size_t size, const char **why)
{
	size_t early = got - hdrlen;
	unsigned char *buf;

	/* Refuse a lying size before allocating it: deflate has a ratio. */
	if (early > size) {
		*why = "longer than its header says";
		return NULL;
	}
	if (size / MAX_INFLATE_RATIO > m->len || size > UINT_MAX - 1) {
		*why = "header claims more bytes than its data can hold";
		return NULL;
	}
	buf = malloc(size + 1);
	if (!buf) {
		*why = "out of memory";
		return NULL;
	}
	memcpy(buf, hdr + hdrlen, early);
	s->next_out = buf + early;
	s->avail_out = size - early;
	*why = inflate_fault(s, inflate_to_end(s));
	if (*why) {
		free(buf);
		return NULL;
	}
	buf[size] = '\0';
	return buf;
}

void *unpack_object_buffer(const void *zbuf, size_t len,
			   enum object_type *type, size_t *size,
			   const char **why)
{
	struct mapped_object m = { (void *)zbuf, len };
	unsigned char hdr[MAX_HEADER_LEN];
	void *buf = NULL;
	size_t got;
	z_stream s;
	int hdrlen = unpack_header(&s, &m, hdr, &got, type, size);

	if (hdrlen < 0)
		*why = "bad header";
	else
		buf = inflate_body(&s, &m, hdr, got, hdrlen, *size, why);
	inflateEnd(&s);
	return buf;
}

/* An object file inflated a piece at a time. */
struct object_stream {
	struct mapped_object m;
	z_stream s;
	int ended;
};

static int open_object_stream(struct object_stream *o, const char *path,
			      const char **why)
{
	memset(o, 0, sizeof(*o));
	if (map_path(path, &o->m, why))
		return -1;
	o->s.next_in = o->m.map;
	o->s.avail_in = o->m.len > UINT_MAX ? UINT_MAX : o->m.len;
	if (inflateInit(&o->s) != Z_OK) {
		unmap_object(&o->m);
		*why = "zlib: inflateInit failed";
		return -1;
	}
	return 0;
}

/* Fill buf (n bytes) unless the stream ends first; the count, or -1. */
static ssize_t fill_from_stream(struct object_stream *o, unsigned char *buf,
				size_t n, const char **why)
{
	o->s.next_out = buf;
	o->s.avail_out = n;
	while (o->s.avail_out && !o->ended) {
		int z = inflate(&o->s, Z_NO_FLUSH);

		if (z == Z_STREAM_END) {
			o->ended = 1;
			if (o->s.avail_in) {
				*why = "garbage after the zlib stream";
				return -1;
			}
		} else if (z != Z_OK) {
			*why = "truncated or damaged zlib stream";
			return -1;
		}
	}
	return n - o->s.avail_out;
}

static void close_object_stream(struct object_stream *o)
{
	inflateEnd(&o->s);
	unmap_object(&o->m);
}

/*
 * The collision check for a streamed object: do the stored object a
 * and the new one b (both object files) inflate to the same bytes,
 * header included?  0 yes, 1 no, -1 (why) when one cannot be read.
 */
static int compare_object_files(const char *a, const char *b,
				const char **why)
{
	struct object_stream sa, sb;
	unsigned char *ca, *cb;
	int ret = -1;

	if (open_object_stream(&sa, a, why))
		return -1;
	if (open_object_stream(&sb, b, why)) {
		close_object_stream(&sa);
		return -1;
	}
	ca = xmalloc(65536);
	cb = xmalloc(65536);
	for (;;) {
		ssize_t na = fill_from_stream(&sa, ca, 65536, why);
		ssize_t nb = fill_from_stream(&sb, cb, 65536, why);

		if (na < 0 || nb < 0)
			break;
		if (na != nb || memcmp(ca, cb, na)) {
			ret = 1;
			break;
		}
		if (sa.ended && sb.ended) {
			ret = 0;
			break;
		}
	}
	free(ca);
	free(cb);
	close_object_stream(&sa);
	close_object_stream(&sb);
	return ret;
}

/*
 * Inflate the stored object in pieces and compare them with the object
 * that (type, buf, len) would make, header included, so a re-add of an
 * unchanged tree allocates nothing per object.  Returns 0 when they are
 * the same, 1 when not, -1 (with why) when the stored one cannot be
 * read to its end.
 */
static int compare_loose(const unsigned char *sha1, const void *buf,
			 size_t len, enum object_type type, const char **why)
{
	char hdr[MAX_HEADER_LEN];
	size_t hdrlen = format_header(hdr, type, len), pos = 0;
	unsigned char *chunk = xmalloc(65536);
	struct object_stream o;
	int ret = 1;

	if (open_object_stream(&o, sha1_file_name(sha1), why)) {
		free(chunk);
		return -1;
	}
	while (!o.ended) {
		ssize_t n = fill_from_stream(&o, chunk, 65536, why);
		size_t head;

		if (n < 0) {
			ret = -1;
			break;
		}
		if ((size_t)n > hdrlen + len - pos)
			break;
		head = pos < hdrlen ? hdrlen - pos : 0;
		if (head > (size_t)n)
			head = n;
		if (memcmp(chunk, hdr + pos, head))
			break;
		/* Past the header: pos + head == hdrlen or head == 0. */
		if ((size_t)n > head &&
		    memcmp(chunk + head, (const char *)buf + pos + head - hdrlen,
			   n - head))
			break;
		pos += n;
	}
	if (ret > 0 && o.ended && pos == hdrlen + len)
		ret = 0;
	close_object_stream(&o);
	free(chunk);
	return ret;
}

static void *read_loose(const unsigned char *sha1, enum object_type *type,
			size_t *size, int *code, const char **why,
			int verify_hash)
{
	struct mapped_object m;
	unsigned char check[20];
	void *buf;

	*code = map_object(sha1, &m, why);
	if (*code)
		return NULL;
	buf = unpack_object_buffer(m.map, m.len, type, size, why);
	unmap_object(&m);
	if (!buf) {
		*code = OBJECT_CORRUPT;
		return NULL;
	}
	*code = 0;
	if (!verify_hash)
		return buf;
	hash_sha1_file(buf, *size, *type, check);
	if (memcmp(check, sha1, 20)) {
		snprintf(fault_text, sizeof(fault_text),
			 "its content hashes to %s", sha1_to_hex(check));
		*why = fault_text;
		*code = OBJECT_HASH_MISMATCH;
		free(buf);
		return NULL;
	}
	*code = 0;
	return buf;
}

void *read_sha1_file_quiet(const unsigned char *sha1, enum object_type *type,
			   size_t *size, int *code, const char **why)
{
	return read_loose(sha1, type, size, code, why, VERIFY_READ_HASH);
}

void *read_sha1_file(const unsigned char *sha1, enum object_type *type,
		     size_t *size)
{
	const char *why;
	int code;
	void *buf = read_sha1_file_quiet(sha1, type, size, &code, &why);

	if (!buf)
		report_fault(sha1, code, why);
	return buf;
}

void *read_object_of_type(const unsigned char *sha1,
			  enum object_type want, size_t *size)
{
	enum object_type type;
	void *buf = read_sha1_file(sha1, &type, size);

	if (buf && type != want) {
		error("object %s is a %s, not a %s", sha1_to_hex(sha1),
		      type_name(type), type_name(want));
		free(buf);
		return NULL;
	}
	return buf;
}

/* One piece of a streamed blob: inflate it, hash it, write it. */
/* The stream has ended with left bytes still owed: is the blob whole? */
static int stream_end_fault(size_t left, SHA_CTX *c,
			    const unsigned char *sha1, const char **why)
{
	unsigned char check[20];

	if (left)
		return fault(why, "shorter than its header says", OBJECT_CORRUPT);
	if (!VERIFY_READ_HASH)
		return 0;
	SHA1_Final(check, c);
	if (!memcmp(check, sha1, 20))
		return 0;
	snprintf(fault_text, sizeof(fault_text), "its content hashes to %s",
		 sha1_to_hex(check));
	return fault(why, fault_text, OBJECT_HASH_MISMATCH);
}

/* The checks of the header before a blob's body is streamed. */
static int stream_header_fault(int hdrlen, enum object_type type,
			       size_t early, size_t size,
			       const struct mapped_object *m, const char **why)
{
	if (hdrlen < 0)
		return fault(why, "bad header", OBJECT_CORRUPT);
	if (type != OBJ_BLOB)
		return OBJECT_NOT_BLOB;
	if (early > size)
		return fault(why, "longer than its header says", OBJECT_CORRUPT);
	if (size / MAX_INFLATE_RATIO > m->len)
		return fault(why, "header claims more bytes than its data "
			     "can hold", OBJECT_CORRUPT);
	return 0;
}

/* Hash the next piece of a streamed blob and write it to fd (if >= 0). */
static int stream_body(struct object_stream *o, SHA_CTX *c, int fd,
		       size_t *left, const char **why)
{
	unsigned char chunk[65536];
	ssize_t n = fill_from_stream(o, chunk, sizeof(chunk), why);

	if (n < 0)
		return OBJECT_CORRUPT;
	if ((size_t)n > *left)
		return fault(why, "longer than its header says", OBJECT_CORRUPT);
	*left -= n;
	if (VERIFY_READ_HASH)
		SHA1_Update(c, chunk, n);
	if (fd >= 0 && write_in_full(fd, chunk, n) < 0)
		return -2;
	return 0;
}

int stream_blob_buffer(const void *zbuf, size_t len,
		       const unsigned char *sha1, int fd,
		       enum object_type *type, const char **why)
{
	struct object_stream o = { { (void *)zbuf, len }, { 0 }, 0 };
	unsigned char hdr[MAX_HEADER_LEN];
	size_t got = 0, size = 0, early = 0;
	int hdrlen, ret;
	SHA_CTX c;

	/* The body continues the header's stream (ended or not). */
	hdrlen = unpack_header(&o.s, &o.m, hdr, &got, type, &size);
	if (hdrlen >= 0)
		early = got - hdrlen;
	ret = stream_header_fault(hdrlen, *type, early, size, &o.m, why);
	if (ret)
		goto out;
	SHA1_Init(&c);
	SHA1_Update(&c, hdr, got);
	size -= early;
	if (fd >= 0 && write_in_full(fd, hdr + hdrlen, early) < 0)
		ret = -2;
	while (!ret && !o.ended)
		ret = stream_body(&o, &c, fd, &size, why);
	if (!ret)
		ret = stream_end_fault(size, &c, sha1, why);
out:
	hdrlen = errno;		/* a failed write's, for the caller */
	inflateEnd(&o.s);
	errno = hdrlen;
	return ret;
}

int stream_blob_quiet(const unsigned char *sha1, int fd,
		      enum object_type *type, const char **why)
{
	struct mapped_object m;
	int ret, err;

	*type = OBJ_BAD;
	ret = map_object(sha1, &m, why);
	if (ret)
		return ret;
	ret = stream_blob_buffer(m.map, m.len, sha1, fd, type, why);
	err = errno;
	unmap_object(&m);
	errno = err;
	return ret;
}

int stream_blob_to_fd(int fd, const char *path, const unsigned char *sha1)
{
	enum object_type type;
	const char *why;
	int code = stream_blob_quiet(sha1, fd, &type, &why);

	if (!code)
		return 0;
	if (code == -2)
		return error_errno("write '%s'", path);
	if (code == OBJECT_NOT_BLOB)
		return error("object %s is a %s, not a blob", sha1_to_hex(sha1),
			     type_name(type));
	return report_fault(sha1, code, why);
}

void *read_tree_ish(const unsigned char *sha1, size_t *size,
		    unsigned char *tree_sha1)
{
	enum object_type type;
	struct commit_info ci;
	void *buf = read_sha1_file(sha1, &type, size);

	if (!buf)
		return NULL;
	if (type == OBJ_TREE) {
		memcpy(tree_sha1, sha1, 20);
		return buf;
	}
	if (type != OBJ_COMMIT) {
		error("object %s is a %s, not a tree or a commit",
		      sha1_to_hex(sha1), type_name(type));
		free(buf);
		return NULL;
	}
	if (parse_commit_buffer(buf, *size, &ci) < 0) {
		error("commit %s is corrupt", sha1_to_hex(sha1));
		free(buf);
		return NULL;
	}
	free(buf);
	memcpy(tree_sha1, ci.tree, 20);
	free_commit_info(&ci);
	return read_object_of_type(tree_sha1, OBJ_TREE, size);
}

/* ---- hashing files from the working tree ---- */

/*
 * Files up to this size are read whole; bigger ones are hashed and
 * deflated as they are read, so memory stays flat (the kernel's
 * biggest file is 24 MB, and two threads may hold one each).
 */
#define STREAM_MIN (1024 * 1024)

/* Read exactly len bytes of a file that should hold them. */
static int read_piece(int fd, const char *path, void *buf, size_t len)
{
	ssize_t n = read_in_full(fd, buf, len);

	if (n < 0)
		return error_errno("read '%s'", path);
	if ((size_t)n != len)
		return error("'%s' changed size while it was read", path);
	return 0;
}

/* Nothing must follow what lstat said the file held. */
static int check_at_end(int fd, const char *path)
{
	unsigned char extra;

	if (read_in_full(fd, &extra, 1) != 0)
		return error("'%s' changed size while it was read", path);
	return 0;
}

static void *read_link(const char *path, const struct stat *st,
		       size_t *len)
{
	char *buf = xmalloc(st->st_size + 1);
	ssize_t n = readlink(path, buf, st->st_size + 1);

	if (n < 0 || n > st->st_size) {
		error_errno("readlink '%s'", path);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/*
 * Hash a big file a piece at a time; with ofd >= 0 deflate it into ofd
 * too (header first, as git and deflate_to_fd do, so the bytes match).
 */
static int stream_file(int fd, const char *path, size_t size, int ofd,
		       unsigned char *sha1)
{
	char hdr[MAX_HEADER_LEN];
	int hdrlen = format_header(hdr, OBJ_BLOB, size), ret = 0;
	unsigned char *in = xmalloc(65536), *out = xmalloc(65536);
	size_t left = size;
	z_stream s;
	SHA_CTX c;

	memset(&s, 0, sizeof(s));
	if (ofd >= 0 && deflateInit(&s, 1) != Z_OK)
		die("zlib: deflateInit failed");
	SHA1_Init(&c);
	SHA1_Update(&c, hdr, hdrlen);
	s.next_out = out;
	s.avail_out = 65536;
	s.next_in = (unsigned char *)hdr;
	s.avail_in = hdrlen;
	if (ofd >= 0 && deflate_pending(&s, Z_NO_FLUSH, ofd, out, 65536) < 0)
		ret = error_errno("write object for '%s'", path);
	while (!ret && left) {
		size_t n = left < 65536 ? left : 65536;

		ret = read_piece(fd, path, in, n);
		if (!ret)
			SHA1_Update(&c, in, n);
		left -= n;
		s.next_in = in;
		s.avail_in = n;
		if (!ret && ofd >= 0 &&
		    deflate_pending(&s, left ? Z_NO_FLUSH : Z_FINISH, ofd, out,
				    65536) < 0)
			ret = error_errno("write object for '%s'", path);
	}
	if (!ret)
		ret = check_at_end(fd, path);
	if (ofd >= 0)
		deflateEnd(&s);
	free(in);
	free(out);
	SHA1_Final(sha1, &c);
	return ret;
}

/* Move a finished temporary object to its name, or drop it if there. */
static int place_object(const char *tmp, int fd, const unsigned char *sha1)
{
	const char *why = "unreadable";
	int cmp = 0;

	if (!has_sha1_file(sha1))
		return finish_object(tmp, fd, sha1);
	close(fd);
	if (VERIFY_EXISTING)
		cmp = compare_object_files(sha1_file_name(sha1), tmp, &why);
	unlink(tmp);
	return refuse_different(sha1, cmp, why);
}

/* Store a big file: deflate it into objects/tmp_obj_*, name it after. */
static int write_big_file(int fd, const char *path, size_t size,
			  unsigned char *sha1)
{
	char *tmp = path_join(get_object_directory(), "tmp_obj_XXXXXX");
	int ofd = mkstemp(tmp), ret;

	if (ofd < 0) {
		ret = error_errno("unable to create temporary object in '%s'",
				  get_object_directory());
	} else if (stream_file(fd, path, size, ofd, sha1) < 0) {
		close(ofd);
		unlink(tmp);
		ret = -1;
	} else {
		ret = place_object(tmp, ofd, sha1);
	}
	free(tmp);
	return ret;
}

static int index_regular_file(const char *path, size_t size,
			      int write_object, unsigned char *sha1)
{
	int fd = open(path, O_RDONLY), ret;
	void *buf;

	if (fd < 0)
		return error_errno("open '%s'", path);
	if (size > STREAM_MIN) {
		if (size > UINT_MAX - MAX_HEADER_LEN)
			ret = error("object of %zu bytes is too large "
				    "(4 GiB at most)", size);
		else if (write_object)
			ret = write_big_file(fd, path, size, sha1);
		else
			ret = stream_file(fd, path, size, -1, sha1);
		close(fd);
		return ret;
	}
	buf = xmalloc(size + 1);
	ret = read_piece(fd, path, buf, size);
	if (!ret)
		ret = check_at_end(fd, path);
	close(fd);
	if (!ret && write_object)
		ret = write_sha1_file(buf, size, OBJ_BLOB, sha1);
	else if (!ret)
		hash_sha1_file(buf, size, OBJ_BLOB, sha1);
	free(buf);
	return ret;
}

int index_path(const char *path, const struct stat *st, int write_object,
	       unsigned char *sha1)
{
	size_t len;
	int ret = 0;
	void *buf;

	if (!S_ISLNK(st->st_mode))
		return index_regular_file(path, st->st_size, write_object,
					  sha1);
	buf = read_link(path, st, &len);
	if (!buf)
		return -1;
	if (write_object)
		ret = write_sha1_file(buf, len, OBJ_BLOB, sha1);
	else
		hash_sha1_file(buf, len, OBJ_BLOB, sha1);
	free(buf);
	return ret;
}

int path_matches_sha1(const char *path, const struct stat *st,
		      const unsigned char *sha1)
{
	unsigned char now[20];

	if (index_path(path, st, 0, now) < 0)
		return -1;
	return !memcmp(now, sha1, 20);
}

