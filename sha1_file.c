/*
 * sha1_file.c: the object store.  Every object is found through one
 * lookup that asks the sources in turn (loose objects, pack files, the
 * alternates' loose objects: pack.h), so packed and loose objects look
 * the same to every tool, and every object handed out is checked
 * (stream.c) against its id.  Loose objects are exactly as git keeps them: zlib of "<type>
 * <size>\0<data>" at objects/xx/<38 hex>, named by the SHA-1 of the
 * uncompressed bytes.  Writes go to a temporary name that can never
 * look like an object, then rename(2) into place, so a reader or an
 * rsync never sees half an object.
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

#include "cache.h"
#include "pack.h"

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

/* ---- loose object names ---- */

const char *sha1_file_name(const unsigned char *sha1)
{
	static __thread char name[PATH_MAX];
	const char *hex = sha1_to_hex(sha1);

	if (snprintf(name, sizeof(name), "%s/%.2s/%s",
		     get_object_directory(), hex, hex + 2) >= (int)sizeof(name))
		return NULL;
	return name;
}

static int has_loose_object(const unsigned char *sha1)
{
	const char *name = sha1_file_name(sha1);
	struct stat st;

	return name && !stat(name, &st);
}

static int walk_fanout(const char *objdir, unsigned int first, loose_fn fn,
		       loose_garbage_fn garbage, void *data)
{
	char hex[3], *dir;
	struct dirent *de;
	int ret = 0;
	DIR *d;

	snprintf(hex, sizeof(hex), "%02x", first);
	dir = path_join(objdir, hex);
	d = opendir(dir);
	while (!ret && d && (de = readdir(d)) != NULL) {
		unsigned char sha1[20];

		if (de->d_name[0] == '.')
			continue;
		if (!parse_loose_name(hex, de->d_name, sha1)) {
			ret = fn(sha1, data);
		} else if (garbage) {
			char *path = path_join(dir, de->d_name);

			garbage(path, de->d_name, data);
			free(path);
		}
	}
	if (d)
		closedir(d);
	free(dir);
	return ret;
}

int for_each_loose_in_fanout(unsigned int first, loose_fn fn,
			     loose_garbage_fn garbage, void *data)
{
	return walk_fanout(get_object_directory(), first, fn, garbage, data);
}

int for_each_loose_object(loose_fn fn, loose_garbage_fn garbage, void *data)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < 256; i++)
		ret = for_each_loose_in_fanout(i, fn, garbage, data);
	return ret;
}

int for_each_loose_in_dir(const char *objdir, loose_fn fn, void *data)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < 256; i++)
		ret = walk_fanout(objdir, i, fn, NULL, data);
	return ret;
}

/* The names in one fan-out directory, the 19 bytes after the first. */
struct fanout_listing {
	unsigned char (*names)[19];
	size_t nr, alloc;
	int loaded;
};

static struct fanout_listing fanout[256];

static int compare_suffix(const void *a, const void *b)
{
	return memcmp(a, b, 19);
}

static int list_one(const unsigned char *sha1, void *data)
{
	struct fanout_listing *l = data;

	ALLOC_GROW(l->names, l->nr + 1, l->alloc);
	memcpy(l->names[l->nr++], sha1 + 1, 19);
	return 0;
}

/* The sorted listing of fan-out directory `first`, made once. */
static struct fanout_listing *listed_fanout(unsigned int first)
{
	struct fanout_listing *l = &fanout[first];

	if (!l->loaded) {
		l->loaded = 1;
		for_each_loose_in_fanout(first, list_one, NULL, l);
		if (l->nr)
			qsort(l->names, l->nr, 19, compare_suffix);
	}
	return l;
}

static size_t list_fanout(void *data, size_t first)
{
	(void)data;
	listed_fanout(first);
	return 1;
}

void list_loose_objects(void)
{
	run_parallel(0, 256, list_fanout, NULL, NULL, 0);
}

int has_sha1_file_listed(const unsigned char *sha1)
{
	struct fanout_listing *l = listed_fanout(sha1[0]);

	if (l->nr && bsearch(sha1 + 1, l->names, l->nr, 19, compare_suffix))
		return 1;
	if (promised_object(sha1, NULL))
		return 1;
	return has_sha1_file(sha1);	/* it may have come since, or be packed */
}

int sha1_file_unlisted(const unsigned char *sha1)
{
	struct fanout_listing *l = listed_fanout(sha1[0]);
	struct packed_git *p;
	uint32_t pos;

	return !(l->nr && bsearch(sha1 + 1, l->names, l->nr, 19,
				  compare_suffix)) &&
	       !promised_object(sha1, NULL) && !promising_writes() &&
	       find_packed(sha1, &p, &pos) < 0 && !*alternate_object_dirs();
}

/* Hex digits two names of one fan-out directory share (19 bytes each). */
static int shared_digits(const unsigned char *a, const unsigned char *b)
{
	int i = 0;

	while (i < 19 && a[i] == b[i])
		i++;
	if (i == 19)
		return 40;
	return 2 + 2 * i + ((a[i] >> 4) == (b[i] >> 4));
}

struct neighbour {
	const unsigned char *sha1;
	int len;
};

static int note_neighbour(const unsigned char *sha1, void *data)
{
	struct neighbour *nb = data;
	int n;

	if (memcmp(sha1, nb->sha1, 20) &&
	    (n = shared_digits(sha1 + 1, nb->sha1 + 1) + 1) > nb->len)
		nb->len = n;
	return 0;
}

/* unique_abbrev_len's look at the loose objects of the alternates. */
static int alternate_abbrev_len(const unsigned char *sha1, int len)
{
	struct neighbour nb = { sha1, len };

	if (*alternate_object_dirs())
		for_each_alternate_loose_prefix(sha1_to_hex(sha1), 2,
						note_neighbour, &nb);
	return nb.len;
}

int unique_abbrev_len(const unsigned char *sha1, int min)
{
	struct fanout_listing *l = listed_fanout(sha1[0]);
	size_t lo = 0, hi = l->nr, mid;
	int len = min, n;

	while (lo < hi) {		/* the first name not below sha1 */
		mid = lo + (hi - lo) / 2;
		if (memcmp(l->names[mid], sha1 + 1, 19) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && (n = shared_digits(l->names[lo - 1], sha1 + 1) + 1) > len)
		len = n;
	if (lo < l->nr && !memcmp(l->names[lo], sha1 + 1, 19))
		lo++;			/* itself */
	if (lo < l->nr && (n = shared_digits(l->names[lo], sha1 + 1) + 1) > len)
		len = n;
	len = packed_abbrev_len(sha1, len);
	len = alternate_abbrev_len(sha1, len);
	return len < 40 ? len : 40;
}

/* ---- the sources ---- */

static void unmap_loose(struct object_stream *st)
{
	munmap(st->source, st->zlen);
}

static void free_loose(struct object_stream *st)
{
	free(st->source);
}

/*
 * Loose objects up to this size are read into memory with one read(2);
 * bigger ones are mapped.  A small map costs more than the copy: a page
 * fault per page, and an munmap that, with threads running, interrupts
 * every core to flush its TLB.
 */
#define READ_MAX (4 * 1024 * 1024)

/*
 * The bytes of the file at path (*mapped says how to let them go).
 * Anything but a non-empty regular file is corrupt; O_NONBLOCK so that
 * a FIFO in its place cannot hang us.
 */
/*
 * O_NOATIME while it works: the first read of an object just written
 * would otherwise update its access time, a journalled inode write per
 * object (4% of a re-add's samples).  Only the files' owner (or root)
 * may ask; anyone else gets EPERM, and stops asking.
 */
static int no_atime = O_NOATIME;

static int open_object_fd(const char *path)
{
	int flags = __atomic_load_n(&no_atime, __ATOMIC_RELAXED);
	int fd = open(path, O_RDONLY | O_NONBLOCK | flags);

	if (fd < 0 && errno == EPERM && flags) {
		__atomic_store_n(&no_atime, 0, __ATOMIC_RELAXED);
		fd = open(path, O_RDONLY | O_NONBLOCK);
	}
	return fd;
}

static int open_object_file(const char *path, size_t *len, struct fault *f)
{
	struct stat st;
	int fd = open_object_fd(path);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			set_fault(f, FAULT_MISSING, "not found");
		else
			set_fault_errno(f, "open");
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size) {
		set_fault(f, FAULT_CORRUPT, S_ISREG(st.st_mode) ? "empty file" :
			  "not a regular file");
		close(fd);
		return -1;
	}
	*len = st.st_size;
	return fd;
}

static void *load_object_file(const char *path, size_t *len, int *mapped,
			      struct fault *f)
{
	void *buf;
	int fd = open_object_file(path, len, f);

	if (fd < 0)
		return NULL;
	*mapped = *len > READ_MAX;
	if (*mapped) {
		buf = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (buf == MAP_FAILED) {
			set_fault_errno(f, "mmap");
			buf = NULL;
		}
	} else {
		ssize_t n;

		buf = xmalloc(*len);
		n = read_in_full(fd, buf, *len);
		if (n < 0 || (size_t)n != *len) {
			if (n < 0)
				set_fault_errno(f, "read");
			else
				set_fault(f, FAULT_CORRUPT, "changed size "
					  "while it was read");
			free(buf);
			buf = NULL;
		}
	}
	close(fd);
	return buf;
}

int open_object_file_stream(struct object_stream *st, const char *path,
			    struct fault *f)
{
	size_t len;
	int mapped;
	void *buf = load_object_file(path, &len, &mapped, f);

	memset(st, 0, sizeof(*st));
	if (!buf)
		return -1;
	if (open_loose_stream(st, buf, len, f) < 0) {
		close_object_stream(st);
		if (mapped)
			munmap(buf, len);
		else
			free(buf);
		memset(st, 0, sizeof(*st));
		return -1;
	}
	st->source = buf;
	st->release = mapped ? unmap_loose : free_loose;
	return 0;
}

static int open_loose(struct object_stream *st, const unsigned char *sha1,
		      struct fault *f)
{
	const char *name = sha1_file_name(sha1);

	if (!name) {
		errno = ENAMETOOLONG;
		return set_fault_errno(f, "object directory");
	}
	return open_object_file_stream(st, name, f);
}

/*
 * The sources in the order they are asked.  Each fills st with the
 * object's type and size, its content still to come, or says
 * FAULT_MISSING so that the next is asked; on failure st is left with
 * nothing to close.  The packs come first, as in git: a lookup there
 * is a search in a mapped idx, where a loose object missing costs an
 * open(2) that fails, for every object of a packed repository.
 */
typedef int (*open_source_fn)(struct object_stream *st,
			      const unsigned char *sha1, struct fault *f);

static const open_source_fn sources[] = {
	open_packed_stream,
	open_loose,
	open_alternate_loose,
};

#define NR_SOURCES (sizeof(sources) / sizeof(*sources))

static int open_sources(struct object_stream *st, const unsigned char *sha1,
			size_t first, struct fault *f)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = first; i < NR_SOURCES; i++) {
		if (!sources[i](st, sha1, f))
			return 0;
		if (f->code != FAULT_MISSING)
			return -1;
	}
	/* A pack may have come since we looked (a gc beside us). */
	if (rescan_packs())
		return open_packed_stream(st, sha1, f);
	return -1;
}

static int open_unverified(struct object_stream *st, const unsigned char *sha1,
			   struct fault *f)
{
	return open_sources(st, sha1, 0, f);
}

int open_object_stream(struct object_stream *st, const unsigned char *sha1,
		       struct fault *f)
{
	if (open_unverified(st, sha1, f) < 0)
		return -1;
	if (VERIFY_READ_HASH) {
		verify_object_stream(st, sha1);
		set_zlib_check(st, 0);
	}
	return 0;
}

int has_sha1_file(const unsigned char *sha1)
{
	struct packed_git *p;
	uint32_t pos;

	return !find_packed(sha1, &p, &pos) || has_loose_object(sha1) ||
	       has_alternate_loose(sha1);
}

/* ---- reading ---- */

int report_object_fault(const unsigned char *sha1, const struct fault *f)
{
	switch (f->code) {
	case FAULT_MISSING:
		return error("object %s not found", sha1_to_hex(sha1));
	case FAULT_HASH_MISMATCH:
		return error("hash mismatch %s: %s", sha1_to_hex(sha1), f->msg);
	case FAULT_CORRUPT:
		return error("object %s is corrupt: %s", sha1_to_hex(sha1),
			     f->msg);
	default:
		return error("object %s: %s", sha1_to_hex(sha1), f->msg);
	}
}

/*
 * A loose object's header needs a few dozen bytes of zlib: read the
 * first INFO_PREFIX bytes of its file, not all of it (a tree's entries
 * asked for their types are mostly blobs of many kilobytes).
 */
#define INFO_PREFIX 512

/* 0 with type and size, -1 (f), or 1 when the prefix was too short. */
static int loose_prefix_info(const unsigned char *sha1,
			     enum object_type *type, size_t *size,
			     struct fault *f)
{
	const char *name = sha1_file_name(sha1);
	unsigned char buf[INFO_PREFIX];
	struct object_stream st;
	size_t len;
	ssize_t n;
	int fd, ret;

	if (!name)
		return 1;
	fd = open_object_file(name, &len, f);
	if (fd < 0)
		return -1;
	n = read_in_full(fd, buf, len < sizeof(buf) ? len : sizeof(buf));
	close(fd);
	if (n < 0)
		return set_fault_errno(f, "read");
	ret = open_loose_prefix(&st, buf, n, len, f);
	*type = st.type;
	*size = st.size;
	close_object_stream(&st);
	return ret < 0 && (size_t)n < len ? 1 : ret;
}

/* The type and size at the head of a source's stream; FAULT_MISSING too. */
static int stream_info(open_source_fn source, const unsigned char *sha1,
		       enum object_type *type, size_t *size, struct fault *f)
{
	struct object_stream st;

	if (source(&st, sha1, f) < 0)
		return -1;
	*type = st.type;
	*size = st.size;
	close_object_stream(&st);
	return 0;
}

/*
 * The sources in the order open_unverified asks them, headers alone:
 * a packed delta's type from its chain's base and its size from its
 * own head, nothing resolved; a loose object's from the first bytes of
 * its file (all of it when those are not enough).
 */
int object_info(const unsigned char *sha1, enum object_type *type,
		size_t *size, struct fault *f)
{
	int ret;

	if (!packed_object_info(sha1, type, size, f))
		return 0;
	if (f->code != FAULT_MISSING)
		return -1;
	ret = loose_prefix_info(sha1, type, size, f);
	if (ret > 0)
		ret = stream_info(open_loose, sha1, type, size, f);
	if (!ret || f->code != FAULT_MISSING)
		return ret;
	if (!stream_info(open_alternate_loose, sha1, type, size, f))
		return 0;
	if (f->code != FAULT_MISSING)
		return -1;
	if (rescan_packs())
		return packed_object_info(sha1, type, size, f);
	return -1;
}

int sha1_object_info(const unsigned char *sha1, enum object_type *type,
		     size_t *size)
{
	struct fault f;

	if (object_info(sha1, type, size, &f) < 0)
		return report_object_fault(sha1, &f);
	return 0;
}

void *read_object(const unsigned char *sha1, enum object_type *type,
		  size_t *size, struct fault *f)
{
	struct object_stream st;
	void *buf;

	if (open_object_stream(&st, sha1, f) < 0)
		return NULL;
	buf = read_object_stream_whole(&st, f);
	*type = st.type;
	*size = st.size;
	close_object_stream(&st);
	return buf;
}

void *read_sha1_file(const unsigned char *sha1, enum object_type *type,
		     size_t *size)
{
	struct fault f;
	void *buf = read_object(sha1, type, size, &f);

	if (!buf)
		report_object_fault(sha1, &f);
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

/* ---- the collision check ---- */

/*
 * Do two streams hold the same object, header included?  0 yes, 1 no,
 * -1 (f) when one cannot be read to its end.  A different type or size
 * answers before any byte is inflated.
 */
static int compare_streams(struct object_stream *a, struct object_stream *b,
			   struct fault *f)
{
	unsigned char *ca, *cb;
	int ret = -1;

	if (a->type != b->type || a->size != b->size)
		return 1;
	ca = xmalloc(OBJECT_CHUNK);
	cb = xmalloc(OBJECT_CHUNK);
	for (;;) {
		ssize_t na = read_object_stream(a, ca, OBJECT_CHUNK, f);
		ssize_t nb = na < 0 ? -1 : read_object_stream(b, cb, na ? na :
							      OBJECT_CHUNK, f);

		if (na < 0 || nb < 0)
			break;
		if (na != nb || memcmp(ca, cb, na)) {
			ret = 1;
			break;
		}
		if (!na) {
			ret = 0;
			break;
		}
	}
	free(ca);
	free(cb);
	return ret;
}

/*
 * What a comparison with an existing object found: an error unless the
 * bytes were the same.
 */
static int refuse_different(const unsigned char *sha1, int cmp,
			    const struct fault *f)
{
	if (cmp < 0)
		return error("object %s exists but cannot be verified (%s); "
			     "not overwriting it", sha1_to_hex(sha1), f->msg);
	if (cmp)
		return error("object %s exists with different content: a "
			     "SHA-1 collision or a corrupt store; not "
			     "overwriting it", sha1_to_hex(sha1));
	return 0;
}

/*
 * The collision defence: an object that already exists under this name
 * must hold exactly the bytes of other.  If it does not, either SHA-1
 * collided or the store is corrupt; both are refused, and nothing is
 * overwritten.  Equal bytes hash to the name, so the stored copy is
 * not rehashed, and its zlib checksum is not computed either: every
 * byte it guards is compared instead.
 */
static int check_existing(const unsigned char *sha1, struct object_stream *other)
{
	struct object_stream stored;
	struct fault f;
	int cmp = -1;

	if (!open_unverified(&stored, sha1, &f)) {
		set_zlib_check(&stored, 0);
		cmp = compare_streams(&stored, other, &f);
		close_object_stream(&stored);
	}
	return refuse_different(sha1, cmp, &f);
}

/*
 * compare_streams for content in memory: each piece inflated is
 * compared where it lies, with no copy of ours.
 */
static int compare_with_buffer(struct object_stream *st, const void *buf,
			       enum object_type type, size_t len,
			       struct fault *f)
{
	size_t piece = len < OBJECT_CHUNK ? len + 1 : OBJECT_CHUNK;
	unsigned char *chunk;
	size_t off = 0;
	int ret = 0;

	if (st->type != type || st->size != len)
		return 1;
	chunk = xmalloc(piece);
	for (;;) {
		ssize_t n = read_object_stream(st, chunk, piece, f);

		if (n <= 0) {
			ret = n;
			break;
		}
		if (memcmp(chunk, (const unsigned char *)buf + off, n)) {
			ret = 1;
			break;
		}
		off += n;
	}
	free(chunk);
	return ret;
}

/*
 * check_existing for an object in memory, or 1 when there is no object
 * of that name: the lookup and the read are one open(2).
 */
static int check_existing_buffer(const unsigned char *sha1, const void *buf,
				 size_t len, enum object_type type)
{
	struct object_stream stored;
	struct fault f;
	int cmp;

	if (open_unverified(&stored, sha1, &f) < 0)
		return f.code == FAULT_MISSING ? 1 :
		       refuse_different(sha1, -1, &f);
	set_zlib_check(&stored, 0);
	cmp = compare_with_buffer(&stored, buf, type, len, &f);
	close_object_stream(&stored);
	return refuse_different(sha1, cmp, &f);
}

int compare_stored_pieces(const unsigned char *sha1, enum object_type type,
			  size_t size, piece_fn next, void *data)
{
	unsigned char *ours = xmalloc(OBJECT_CHUNK), *stored = NULL;
	struct object_stream st;
	struct fault f;
	int differ = 0, open = 0, ret = -1;
	size_t left = size;

	if (VERIFY_EXISTING) {
		if (open_unverified(&st, sha1, &f) < 0)
			goto fail;
		set_zlib_check(&st, 0);
		open = 1;
		differ = st.type != type || st.size != size;
		stored = xmalloc(OBJECT_CHUNK);
	}
	while (left) {
		size_t n = left < OBJECT_CHUNK ? left : OBJECT_CHUNK;
		ssize_t got;

		if (next(data, ours, n) < 0) {
			ret = -1;
			goto out;
		}
		left -= n;
		if (differ || !open)
			continue;
		got = read_object_stream(&st, stored, n, &f);
		if (got < 0)
			goto fail;
		differ = (size_t)got != n || memcmp(ours, stored, n);
	}
	/* The stream's own checks at its end (nothing after it). */
	if (open && !differ && read_object_stream(&st, stored, 1, &f) < 0)
		goto fail;
	ret = differ;
	goto out;
fail:
	ret = refuse_different(sha1, -1, &f);
out:
	if (open)
		close_object_stream(&st);
	free(ours);
	free(stored);
	return ret;
}

int report_collision(const unsigned char *sha1)
{
	return refuse_different(sha1, 1, NULL);
}

/* ---- writing ---- */

/* Objects this process wrote and has not yet synced. */
static unsigned int objects_written;

int open_tmp_object(const char *dir, char **tmp)
{
	int fd;

	*tmp = path_join(dir, "tmp_obj_XXXXXX");
	fd = mkstemp(*tmp);
	if (fd < 0 && errno == ENOENT && (!mkdir(dir, 0777) || errno == EEXIST)) {
		/* mkstemp wrote over the X's: start from the template */
		free(*tmp);
		*tmp = path_join(dir, "tmp_obj_XXXXXX");
		fd = mkstemp(*tmp);
	}
	if (fd < 0) {
		error_errno("unable to create temporary object in '%s'", dir);
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

/*
 * A complete temporary object becomes read-only and takes its name (the
 * fan-out directory is made if need be); it is counted for the sync.
 * On failure the temporary file is removed.
 */
static int finish_tmp_object(const char *tmp, int fd, const unsigned char *sha1)
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

int place_tmp_object(const char *tmp, int fd, const unsigned char *sha1)
{
	struct object_stream st;
	struct fault f;
	int ret = 0;

	if (!has_sha1_file(sha1))
		return finish_tmp_object(tmp, fd, sha1);
	close(fd);
	if (VERIFY_EXISTING) {
		if (open_object_file_stream(&st, tmp, &f) < 0) {
			ret = error("temporary object '%s': %s", tmp, f.msg);
		} else {
			ret = check_existing(sha1, &st);
			close_object_stream(&st);
		}
	}
	unlink(tmp);
	return ret;
}

/* A nameless file in sha1's fan-out directory (made if need be), or -1. */
static int open_nameless_object(const char *name)
{
	size_t dirlen = strrchr(name, '/') - name + 1;
	int fd = open_nameless(name, dirlen, 0444);
	char *dir;

	if (fd >= 0 || errno != ENOENT)
		return fd;
	dir = xstrdup(name);
	dir[dirlen - 1] = '\0';
	if (!mkdir(dir, 0777) || errno == EEXIST)
		fd = open_nameless(name, dirlen, 0444);
	free(dir);
	return fd;
}

/*
 * The loose object written nameless and linked under its name, so
 * that it takes one directory entry and a crash leaves nothing: 0 when
 * done, 1 when the name is taken (another writer was first), 2 when
 * this way does not work here, -1 after error().
 */
static int write_nameless_object(const char *name, const unsigned char *sha1,
				 enum object_type type, const void *buf,
				 size_t len)
{
	int fd = open_nameless_object(name), ret = 0;

	if (fd < 0 && nameless_files_work())
		return error_errno("unable to create temporary object in "
				   "'%.*s'", (int)(strrchr(name, '/') - name),
				   name);
	if (fd < 0)
		return 2;
	if (deflate_object(fd, type, buf, len) < 0) {
		error_errno("write object %s", sha1_to_hex(sha1));
		close(fd);
		return -1;
	}
	if (link_nameless(fd, name) < 0)
		ret = errno == EEXIST ? 1 : 2;
	if (close(fd) < 0 && !ret) {
		error_errno("close object %s", sha1_to_hex(sha1));
		unlink(name);
		return -1;
	}
	if (!ret)
		__atomic_fetch_add(&objects_written, 1, __ATOMIC_RELAXED);
	return ret;
}

/*
 * checked: the caller looked for the object just before.  When it did
 * not, the temporary way, whose rename would replace an object, looks
 * first.
 */
static int write_loose_object(const unsigned char *sha1, enum object_type type,
			      const void *buf, size_t len, int checked)
{
	char *dir = xstrdup(sha1_file_name(sha1)), *tmp;
	int fd, ret;

	/*
	 * The collision check on an object that came meanwhile; one that
	 * went again (1: missing) is written the temporary way.
	 */
	ret = write_nameless_object(dir, sha1, type, buf, len);
	if (ret == 1 || (ret == 2 && !checked && VERIFY_EXISTING))
		ret = check_existing_buffer(sha1, buf, len, type);
	if (ret <= 0) {
		free(dir);
		return ret;
	}

	*strrchr(dir, '/') = '\0';
	fd = open_tmp_object(dir, &tmp);
	free(dir);
	if (fd < 0)
		return -1;
	if (deflate_object(fd, type, buf, len) < 0) {
		error_errno("write object %s", sha1_to_hex(sha1));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	ret = finish_tmp_object(tmp, fd, sha1);
	free(tmp);
	return ret;
}

int write_sha1_file(const void *buf, size_t len, enum object_type type,
		    unsigned char *sha1)
{
	if (len > UINT_MAX - MAX_HEADER_LEN)
		return error("object of %zu bytes is too large (4 GiB at most)",
			     len);
	if (promising_writes())
		return promise_object(buf, len, type, sha1);
	hash_sha1_file(buf, len, type, sha1);
	return write_hashed_object(buf, len, type, sha1);
}

int write_hashed_object(const void *buf, size_t len, enum object_type type,
			const unsigned char *sha1)
{
	if (!sha1_file_name(sha1))
		return error("object directory name too long: '%s'",
			     get_object_directory());
	if (VERIFY_EXISTING) {
		int ret = check_existing_buffer(sha1, buf, len, type);

		return ret > 0 ? write_loose_object(sha1, type, buf, len, 1) :
		       ret;
	}
	if (!has_sha1_file(sha1))
		return write_loose_object(sha1, type, buf, len, 1);
	return 0;
}

int write_new_object(const void *buf, size_t len, enum object_type type,
		     const unsigned char *sha1)
{
	if (!sha1_file_name(sha1))
		return error("object directory name too long: '%s'",
			     get_object_directory());
	return write_loose_object(sha1, type, buf, len, 0);
}

int sync_wanted(void)
{
	const char *env = getenv(NO_SYNC_ENVIRONMENT);

	return !env || !*env || !strcmp(env, "0");
}

int flush_to_disk(int fd)
{
	if (write_promised_objects() < 0)
		return -1;
	if (!sync_wanted())
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
