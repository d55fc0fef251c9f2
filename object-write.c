/*
 * object-write.c: loose objects written, and the collision check.
 * Writes go to a file with no name, linked in when whole, or to a
 * temporary name that can never look like an object, then rename(2)
 * into place, so a reader or an rsync never sees half an object.  An
 * object that exists already must hold exactly the bytes being
 * written (the collision check), read through the one reader
 * (object-read.c); nothing is ever overwritten.  A writer may hold the
 * names back until the bytes are synced (hold_object_names).
 * write_sha1_file and flush_to_disk, which may keep objects for later,
 * are promise.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

/* See object-read.c: the tools bench/run builds to measure the checks. */
#ifdef BENCH_UNVERIFIED
#define VERIFY_EXISTING 0
#else
#define VERIFY_EXISTING 1
#endif

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

	if (!open_object_unverified(&stored, sha1, &f)) {
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
 * The most a loose object of size bytes (header included) takes, as
 * zlib or our deflate writes it: stored blocks at worst, 5 bytes a
 * block of 16 KiB or more, and the wrapper.  A file that holds more
 * was written otherwise; same_loose_object leaves it to the stream.
 */
static size_t loose_bound(size_t size)
{
	return size + (size >> 8) + 64;
}

/*
 * Each thread's buffers for the fast ways below: a loose object's file
 * and what it inflates to, kept from one object to the next (the
 * biggest so far, until the thread ends).  A fresh malloc of a few MB
 * for each object is a fresh mmap, whose every page the kernel faults
 * in and zeroes: on a re-add of a kernel tree, more than the pages
 * of every other allocation together.
 */
struct check_bufs {
	unsigned char *z, *out;
	size_t z_alloc, out_alloc;
};

static pthread_key_t bufs_key;
static pthread_once_t bufs_once = PTHREAD_ONCE_INIT;
static int have_bufs_key;
static __thread struct check_bufs *thread_bufs;

static void free_check_bufs(void *p)
{
	struct check_bufs *b = p;

	free(b->z);
	free(b->out);
	free(b);
}

static void make_bufs_key(void)
{
	have_bufs_key = !pthread_key_create(&bufs_key, free_check_bufs);
}

/* The calling thread's buffers, or NULL when it cannot have them. */
static struct check_bufs *check_bufs(void)
{
	pthread_once(&bufs_once, make_bufs_key);
	if (thread_bufs || !have_bufs_key)
		return thread_bufs;
	thread_bufs = calloc(1, sizeof(*thread_bufs));
	if (thread_bufs && pthread_setspecific(bufs_key, thread_bufs)) {
		free(thread_bufs);
		thread_bufs = NULL;
	}
	return thread_bufs;
}

/* *buf with room for n bytes (grown, its content lost), or NULL. */
static unsigned char *room_for(unsigned char **buf, size_t *alloc, size_t n)
{
	if (n <= *alloc)
		return *buf;
	if (n < *alloc * 2)
		n = *alloc * 2;
	free(*buf);
	*buf = malloc(n);
	*alloc = *buf ? n : 0;
	return *buf;
}

/*
 * A loose object's file, read whole in one read(2) into the thread's
 * buffer (b->z), of its bound and a byte (no fstat to learn its size:
 * coming back short, a read of a regular file has reached its end),
 * opened as loose.c opens them (O_NOATIME): NULL when there is no such
 * file (*missing set) or it cannot be read so.
 */
static unsigned char *read_loose_file(struct check_bufs *b, const char *name,
				      size_t bound, size_t *zlen, int *missing)
{
	int fd = open_object_fd(name);
	unsigned char *z;
	ssize_t n;

	if (fd < 0) {
		*missing = errno == ENOENT || errno == ENOTDIR;
		return NULL;
	}
	z = room_for(&b->z, &b->z_alloc, bound + 1);
	do {
		n = z ? read(fd, z, bound + 1) : -1;
	} while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0 || (size_t)n > bound)
		return NULL;
	*zlen = n;
	return z;
}

/*
 * A loose object of type and len bytes inflated whole into the thread's
 * buffer (b->out; the header first), by our inflater in one call (the
 * header and size known, so no zlib stream opened to learn them): NULL
 * when it cannot tell (no loose file, *missing then set; another
 * header; an error), for the stream to read it again and say why.
 */
static unsigned char *inflate_loose(struct check_bufs *b,
				    const unsigned char *sha1,
				    enum object_type type, size_t len,
				    size_t *hdrlen, int *missing)
{
	char hdr[MAX_HEADER_LEN];
	const char *name = sha1_file_name(sha1);
	size_t zlen, used, n;
	unsigned char *out, *z;

	if (!name)
		return NULL;
	*hdrlen = format_object_header(hdr, type, len);
	n = *hdrlen + len;
	z = read_loose_file(b, name, loose_bound(n), &zlen, missing);
	if (!z)
		return NULL;
	out = room_for(&b->out, &b->out_alloc, n + INFLATE_SLACK);
	if (!out || inflate_whole(z, zlen, out, n, &used, 0) ||
	    used != zlen || memcmp(out, hdr, *hdrlen))
		return NULL;
	return out;
}

/*
 * The collision check's fast way, for a loose object that holds what
 * we would write: inflated whole (inflate_loose) and compared.  1 when
 * that says the bytes are the same; 0 when it cannot tell (another
 * answer, an error, a packed object, a big one), for the stream to
 * read again and say why, *missing set when there is no loose file.
 */
static int same_loose_object(const unsigned char *sha1, const void *buf,
			     size_t len, enum object_type type, int *missing)
{
	struct check_bufs *b = check_bufs();
	unsigned char *out;
	size_t hdrlen;

	if (!b || len > WHOLE_INFLATE_MAX)
		return 0;
	out = inflate_loose(b, sha1, type, len, &hdrlen, missing);
	return out && !memcmp(out + hdrlen, buf, len);
}

/*
 * With no loose copy: may the object be in a pack (one that came since
 * the packs were listed too) or an alternate store?
 */
static int stored_elsewhere(const unsigned char *sha1)
{
	struct packed_git *p;
	uint32_t pos;

	if (*alternate_object_dirs() || !find_packed(sha1, &p, &pos))
		return 1;
	return rescan_packs() && !find_packed(sha1, &p, &pos);
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
	int cmp, missing = 0;

	if (same_loose_object(sha1, buf, len, type, &missing))
		return 0;
	if (missing && !stored_elsewhere(sha1))
		return 1;
	if (open_object_unverified(&stored, sha1, &f) < 0)
		return f.code == FAULT_MISSING ? 1 :
		       refuse_different(sha1, -1, &f);
	set_zlib_check(&stored, 0);
	cmp = compare_with_buffer(&stored, buf, type, len, &f);
	close_object_stream(&stored);
	return refuse_different(sha1, cmp, &f);
}

/*
 * compare_stored_pieces, the stored bytes against the pieces next()
 * gives, left of them still to come; header: what the stored object's
 * first bytes must be, hdr_left of them still to see.
 */
struct piece_compare {
	piece_fn next;
	void *data;
	unsigned char *ours;	/* OBJECT_CHUNK bytes */
	size_t left;
	const char *header;
	size_t hdr_left;
};

/* What the comparing sink stops the inflate with (positive). */
enum { PIECES_DIFFER = 1, PIECES_FAILED, PIECES_UNSURE };

/* The next n bytes of the pieces against p: 0, PIECES_DIFFER or _FAILED. */
static int compare_next(struct piece_compare *c, const unsigned char *p,
			size_t n)
{
	while (n) {
		size_t k = n < OBJECT_CHUNK ? n : OBJECT_CHUNK;

		if (k > c->left)
			return PIECES_DIFFER;
		if (c->next(c->data, c->ours, k) < 0)
			return PIECES_FAILED;
		c->left -= k;
		if (memcmp(c->ours, p, k))
			return PIECES_DIFFER;
		p += k;
		n -= k;
	}
	return 0;
}

/* inflate_windows' sink: the header, then the pieces. */
static int compare_window(void *data, const unsigned char *p, size_t n)
{
	struct piece_compare *c = data;
	size_t h = n < c->hdr_left ? n : c->hdr_left;

	if (memcmp(p, c->header, h))
		return PIECES_DIFFER;
	c->header += h;
	c->hdr_left -= h;
	return compare_next(c, p + h, n - h);
}

/*
 * compare_stored_pieces' fast way, for a loose object: inflated by our
 * inflater, two to three times zlib's speed, a window at a time into
 * the thread's buffer, and each window compared with the pieces as
 * they come, so that a file of any size takes CHECK_WINDOW bytes.
 * PIECES_UNSURE when it cannot tell (a packed object, an error, a
 * block too big for the window): the stream then goes on from where
 * this stopped, and says why.
 */
#define CHECK_WINDOW ((size_t)1 << 20)

static int compare_loose_windows(const unsigned char *sha1,
				 enum object_type type, size_t size,
				 struct piece_compare *c)
{
	char hdr[MAX_HEADER_LEN];
	const char *name = sha1_file_name(sha1);
	struct check_bufs *b = check_bufs();
	unsigned char *z, *out;
	size_t zlen, used, hdrlen;
	struct fault f;
	int mapped, ret;

	if (!name || !b)
		return PIECES_UNSURE;
	out = room_for(&b->out, &b->out_alloc, CHECK_WINDOW + INFLATE_SLACK);
	z = out ? load_object_file(name, &zlen, &mapped, &f) : NULL;
	if (!z)
		return PIECES_UNSURE;
	hdrlen = format_object_header(hdr, type, size);
	c->header = hdr;
	c->hdr_left = hdrlen;
	ret = inflate_windows(z, zlen, hdrlen + size, &used, out, CHECK_WINDOW,
			      compare_window, c);
	if (mapped)
		munmap(z, zlen);
	else
		free(z);
	if (ret < 0 || (!ret && used != zlen))
		return PIECES_UNSURE;
	return ret;
}

/*
 * The stored object as a stream against the pieces still to come, the
 * stream's first size - c->left bytes (already compared) skipped.
 */
static int compare_stream(const unsigned char *sha1, enum object_type type,
			  size_t size, struct piece_compare *c)
{
	unsigned char *stored = xmalloc(OBJECT_CHUNK);
	size_t skip = size - c->left;
	struct object_stream st;
	struct fault f;
	int ret = 0;

	if (open_object_unverified(&st, sha1, &f) < 0) {
		free(stored);
		return refuse_different(sha1, -1, &f);
	}
	set_zlib_check(&st, 0);
	if (st.type != type || st.size != size)
		ret = PIECES_DIFFER;
	while (!ret && (skip || c->left)) {
		size_t want = skip ? skip : c->left;
		size_t n = want < OBJECT_CHUNK ? want : OBJECT_CHUNK;
		ssize_t got = read_object_stream(&st, stored, n, &f);

		if (got < 0)
			ret = refuse_different(sha1, -1, &f);
		else if ((size_t)got != n)
			ret = PIECES_DIFFER;
		else if (skip)
			skip -= n;
		else
			ret = compare_next(c, stored, n);
	}
	/* The stream's own checks at its end (nothing after it). */
	if (!ret && read_object_stream(&st, stored, 1, &f) < 0)
		ret = refuse_different(sha1, -1, &f);
	close_object_stream(&st);
	free(stored);
	return ret;
}

int compare_stored_pieces(const unsigned char *sha1, enum object_type type,
			  size_t size, piece_fn next, void *data)
{
	struct piece_compare c = { next, data, xmalloc(OBJECT_CHUNK), size,
				   NULL, 0 };
	int ret = 0;

	if (VERIFY_EXISTING)
		ret = compare_loose_windows(sha1, type, size, &c);
	if (ret == PIECES_UNSURE)
		ret = compare_stream(sha1, type, size, &c);
	/* The rest of the pieces, read even when they cannot be the same. */
	while (ret >= 0 && ret != PIECES_FAILED && c.left) {
		size_t n = c.left < OBJECT_CHUNK ? c.left : OBJECT_CHUNK;

		if (next(data, c.ours, n) < 0)
			ret = PIECES_FAILED;
		c.left -= n;
	}
	free(c.ours);
	if (ret == PIECES_FAILED)
		return -1;
	return ret < 0 ? ret : ret == PIECES_DIFFER;
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

/* ---- names given after the sync ---- */

/*
 * While hold_object_names(1), a new loose object is written whole to a
 * file with no name and held there, with a copy of its content, until
 * sync_written_objects: one syncfs makes the bytes of all of them
 * durable, then each takes its name, in the order they were written,
 * and a second syncfs makes the names durable.  Linked as soon as
 * written, an object's name could reach the disk before its bytes
 * (ext4 allocates them at writeback), and a crash then leave an empty
 * file under the name.  Few are held at a time (HOLD_MAX): each keeps
 * a file open.
 */
struct held_object {
	int fd;
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	void *buf;
	size_t len;
};

#define HOLD_MAX 256
static struct held_object *held;
static size_t held_nr, held_alloc;
static int holding;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;

void hold_object_names(int on)
{
	holding = on;
}

/* Hold a place in the list, or -1 when it is full. */
static ssize_t held_slot(void)
{
	ssize_t i = -1;

	pthread_mutex_lock(&held_lock);
	if (held_nr < HOLD_MAX) {
		ALLOC_GROW(held, held_nr + 1, held_alloc);
		i = held_nr++;
		held[i].fd = -1;
		held[i].buf = NULL;
	}
	pthread_mutex_unlock(&held_lock);
	return i;
}

/*
 * The object written to a nameless file and held: 0 when held, 1 when
 * it must be written the usual way (the list is full, or nameless
 * files do not work here), -1 after error().
 */
static int hold_object(const char *name, const unsigned char *sha1,
		       enum object_type type, const void *buf, size_t len)
{
	ssize_t i = held_slot();
	struct held_object *h;
	int fd;

	if (i < 0)
		return 1;
	fd = open_nameless_object(name);
	if (fd < 0 && nameless_files_work())
		return error_errno("unable to create temporary object in "
				   "'%.*s'", (int)(strrchr(name, '/') - name),
				   name);
	if (fd < 0)
		return 1;
	if (deflate_object(fd, type, buf, len) < 0) {
		error_errno("write object %s", sha1_to_hex(sha1));
		close(fd);
		return -1;
	}
	pthread_mutex_lock(&held_lock);
	h = &held[i];
	h->fd = fd;
	hashcpy(h->sha1, sha1);
	h->type = type;
	h->buf = xmalloc(len + 1);
	if (len)
		memcpy(h->buf, buf, len);
	h->len = len;
	pthread_mutex_unlock(&held_lock);
	return 0;
}

static int write_loose_object(const unsigned char *sha1, enum object_type type,
			      const void *buf, size_t len, int checked);

/*
 * Give one held object its name; one of that name that came meanwhile
 * must hold the same bytes.  Where linking does not work after all,
 * the object is written again the temporary way.
 */
static int name_held_object(const struct held_object *h)
{
	const char *name = sha1_file_name(h->sha1);
	int ret;

	if (!link_nameless(h->fd, name))
		return 0;
	if (errno != EEXIST)
		return write_loose_object(h->sha1, h->type, h->buf, h->len, 0);
	ret = check_existing_buffer(h->sha1, h->buf, h->len, h->type);
	if (ret > 0)
		return error("object %s vanished while it was written",
			     sha1_to_hex(h->sha1));
	return ret;
}

/*
 * Name (when name is set) or drop every held object, in the order they
 * were held; -1 after error(), the rest dropped.
 */
static int release_held_objects(int name)
{
	int was_holding = holding, ret = 0;
	size_t i;

	holding = 0;
	for (i = 0; i < held_nr; i++) {
		struct held_object *h = &held[i];

		if (h->fd < 0)
			continue;	/* its write failed */
		if (name && !ret && name_held_object(h) < 0)
			ret = -1;
		else if (name && !ret)
			__atomic_fetch_add(&objects_written, 1,
					   __ATOMIC_RELAXED);
		close(h->fd);
		free(h->buf);
	}
	held_nr = 0;
	holding = was_holding;
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

	if (holding) {
		ret = hold_object(dir, sha1, type, buf, len);
		if (ret <= 0) {
			free(dir);
			return ret;
		}
	}

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

/* One syncfs(2) of the file system that holds the object store. */
static int sync_store(void)
{
	int dfd = open(get_object_directory(), O_RDONLY | O_DIRECTORY);

	if (dfd < 0 || syncfs(dfd) < 0) {
		error_errno("sync object directory '%s'",
			    get_object_directory());
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	close(dfd);
	return 0;
}

int sync_written_objects(int fd)
{
	if (held_nr && sync_wanted() && sync_store() < 0) {
		release_held_objects(0);
		return -1;
	}
	if (held_nr && release_held_objects(1) < 0)
		return -1;
	if (!sync_wanted())
		return 0;
	if (objects_written) {
		if (sync_store() < 0)
			return -1;
		objects_written = 0;
	}
	if (fd >= 0 && fsync(fd) < 0)
		return error_errno("fsync");
	return 0;
}
