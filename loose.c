/*
 * loose.c: the loose objects of the store, the lowest layer of it.
 * Each is a file of its own, exactly as git keeps them: zlib of
 * "<type> <size>\0<data>" at objects/xx/<38 or 62 hex>, named by the SHA-1
 * of the uncompressed bytes.  Here are their names, the walks over the
 * fan-out directories and the listings made of them (for lookups and
 * abbreviations in bulk), and the opening of one file as a stream
 * (stream.c), which the alternates' loose objects use too.  The one
 * reader over all the sources is object-read.c.
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

int has_loose_object(const unsigned char *sha1)
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
		unsigned char sha1[HASH_MAX_RAWSZ];

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

/*
 * The names in one fan-out directory, the rawsz - 1 bytes after the
 * first (SUFFIX_MAX slots, so that one layout serves either hash).
 */
#define SUFFIX_MAX (HASH_MAX_RAWSZ - 1)
struct fanout_listing {
	unsigned char (*names)[SUFFIX_MAX];
	size_t nr, alloc;
	int loaded;
};

static struct fanout_listing fanout[256];

static int compare_suffix(const void *a, const void *b)
{
	return memcmp(a, b, the_hash->rawsz - 1);
}

static int list_one(const unsigned char *sha1, void *data)
{
	struct fanout_listing *l = data;

	ALLOC_GROW(l->names, l->nr + 1, l->alloc);
	memcpy(l->names[l->nr++], sha1 + 1, the_hash->rawsz - 1);
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
			qsort(l->names, l->nr, SUFFIX_MAX, compare_suffix);
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

int loose_listed(const unsigned char *sha1)
{
	struct fanout_listing *l = listed_fanout(sha1[0]);

	return l->nr &&
	       bsearch(sha1 + 1, l->names, l->nr, SUFFIX_MAX, compare_suffix);
}

/* Hex digits two names of one fan-out directory share. */
static int shared_digits(const unsigned char *a, const unsigned char *b)
{
	return 2 + common_hex_digits(a, b, the_hash->rawsz - 1);
}

int loose_abbrev_len(const unsigned char *sha1, int len)
{
	struct fanout_listing *l = listed_fanout(sha1[0]);
	size_t lo = 0, hi = l->nr, mid;
	int n;

	while (lo < hi) {		/* the first name not below sha1 */
		mid = lo + (hi - lo) / 2;
		if (compare_suffix(l->names[mid], sha1 + 1) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && (n = shared_digits(l->names[lo - 1], sha1 + 1) + 1) > len)
		len = n;
	if (lo < l->nr && !compare_suffix(l->names[lo], sha1 + 1))
		lo++;			/* itself */
	if (lo < l->nr && (n = shared_digits(l->names[lo], sha1 + 1) + 1) > len)
		len = n;
	return len;
}

/* ---- loose object files ---- */

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

/* path relative to dirfd (AT_FDCWD: as a path is). */
static int open_object_fd_at(int dirfd, const char *path)
{
	int flags = __atomic_load_n(&no_atime, __ATOMIC_RELAXED);
	int fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | flags);

	if (fd < 0 && errno == EPERM && flags) {
		__atomic_store_n(&no_atime, 0, __ATOMIC_RELAXED);
		fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK);
	}
	return fd;
}

int open_object_fd(const char *path)
{
	return open_object_fd_at(AT_FDCWD, path);
}

static int open_object_file(int dirfd, const char *path, size_t *len,
			    struct fault *f)
{
	struct stat st;
	int fd = open_object_fd_at(dirfd, path);

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

/* The bytes of fd, len of them (*mapped says how to let them go). */
static void *load_fd(int fd, size_t len, int *mapped, struct fault *f)
{
	void *buf;

	*mapped = len > READ_MAX;
	if (*mapped) {
		buf = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (buf == MAP_FAILED) {
			set_fault_errno(f, "mmap");
			buf = NULL;
		}
	} else {
		ssize_t n;

		buf = xmalloc(len);
		n = read_in_full(fd, buf, len);
		if (n < 0 || (size_t)n != len) {
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

void *load_object_file(const char *path, size_t *len, int *mapped,
		       struct fault *f)
{
	int fd = open_object_file(AT_FDCWD, path, len, f);

	return fd < 0 ? NULL : load_fd(fd, *len, mapped, f);
}

/* A stream on the loose object open as fd (len bytes), closed here. */
static int open_stream_fd(struct object_stream *st, int fd, size_t len,
			  struct fault *f)
{
	int mapped;
	void *buf = fd < 0 ? NULL : load_fd(fd, len, &mapped, f);

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

int open_object_file_stream(struct object_stream *st, const char *path,
			    struct fault *f)
{
	size_t len = 0;
	int fd = open_object_file(AT_FDCWD, path, &len, f);

	return open_stream_fd(st, fd, len, f);
}

/*
 * The fan-out directories of the object directory, each opened (O_PATH)
 * the first time an object in it is read, so that a loose object is
 * opened by the digits after the first two alone, not by a walk of
 * the store's whole path (2% of a checkout's CPU).  A fan-out
 * directory removed and made again since is not the one open: a miss
 * through the fd is asked again by the path.
 */
static int fanout_fd[256];	/* the fd + 1; 0 when not open */

static int fanout_dir_fd(unsigned int first)
{
	int fd = __atomic_load_n(&fanout_fd[first], __ATOMIC_ACQUIRE);
	int none = 0;
	char hex[3], *dir;

	if (fd)
		return fd - 1;
	snprintf(hex, sizeof(hex), "%02x", first);
	dir = path_join(get_object_directory(), hex);
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return -1;
	if (!__atomic_compare_exchange_n(&fanout_fd[first], &none, fd + 1, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		close(fd);		/* another thread's is there */
		return none - 1;
	}
	return fd;
}

/*
 * The loose object's file (name: sha1_file_name's), through its
 * fan-out directory's fd, else by its path: the fd, *len its size.
 */
static int open_loose_file(const unsigned char *sha1, const char *name,
			   size_t *len, struct fault *f)
{
	int dirfd = fanout_dir_fd(sha1[0]), fd;

	if (dirfd >= 0) {
		fd = open_object_file(dirfd, name + strlen(name) -
				      (the_hash->hexsz - 2), len, f);
		if (fd >= 0 || f->code != FAULT_MISSING)
			return fd;
	}
	return open_object_file(AT_FDCWD, name, len, f);
}

int open_loose_object(struct object_stream *st, const unsigned char *sha1,
		      struct fault *f)
{
	const char *name = sha1_file_name(sha1);
	size_t len = 0;
	int fd;

	if (!name) {
		errno = ENAMETOOLONG;
		return set_fault_errno(f, "object directory");
	}
	fd = open_loose_file(sha1, name, &len, f);
	return open_stream_fd(st, fd, len, f);
}

/*
 * A loose object's header needs a few dozen bytes of zlib: read the
 * first INFO_PREFIX bytes of its file, not all of it (a tree's entries
 * asked for their types are mostly blobs of many kilobytes).
 */
#define INFO_PREFIX 512

int loose_prefix_info(const unsigned char *sha1, enum object_type *type,
		      size_t *size, struct fault *f)
{
	const char *name = sha1_file_name(sha1);
	unsigned char buf[INFO_PREFIX];
	struct object_stream st;
	size_t len;
	ssize_t n;
	int fd, ret;

	if (!name)
		return 1;
	fd = open_loose_file(sha1, name, &len, f);
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
