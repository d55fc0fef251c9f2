/*
 * worktree.c: content between the work tree and the store.  The one
 * reader of a work-tree file (a regular file's bytes or a symlink's
 * target, nothing else: a FIFO or a device would hang or lie), hashing
 * and storing it as update-cache does (files over STREAM_MIN a piece at
 * a time, so memory stays flat), and writing a blob into a file a piece
 * at a time, as checkout-cache does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

/*
 * Files up to this size are read whole; bigger ones are hashed and
 * deflated as they are read (the kernel's biggest file is 24 MB, and
 * every thread may hold one).
 */
#define STREAM_MIN (1024 * 1024)

/* ---- reading ---- */

/*
 * The readers below print nothing: they fill a struct fault, which the
 * functions that print (read_work_file, index_path...) report.
 */
static int report_fault(const struct fault *f)
{
	return error("%s", f->msg);
}

/* Read exactly len bytes of a file that should hold them. */
static int read_piece(int fd, const char *path, void *buf, size_t len,
		      struct fault *f)
{
	ssize_t n = read_in_full(fd, buf, len);

	if (n < 0)
		return set_fault_errno(f, "read '%s'", path);
	if ((size_t)n != len)
		return set_fault(f, FAULT_IO,
				 "'%s' changed size while it was read", path);
	return 0;
}

/* Nothing must follow what lstat said the file held. */
static int check_at_end(int fd, const char *path, struct fault *f)
{
	unsigned char extra;

	if (read_in_full(fd, &extra, 1) != 0)
		return set_fault(f, FAULT_IO,
				 "'%s' changed size while it was read", path);
	return 0;
}

/*
 * Read a file that should hold len bytes into buf (len + 1 bytes): one
 * read(2) asks for a byte more, and its coming back short is the end
 * of a regular file (reads of a regular file stop short only there),
 * so the common file costs one call, not a second one to see the end.
 */
static int read_whole(int fd, const char *path, char *buf, size_t len,
		      struct fault *f)
{
	ssize_t n;

	do {
		n = read(fd, buf, len + 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return set_fault_errno(f, "read '%s'", path);
	if ((size_t)n == len)
		return 0;
	if ((size_t)n > len)
		return set_fault(f, FAULT_IO,
				 "'%s' changed size while it was read", path);
	if (read_piece(fd, path, buf + n, len - n, f) < 0)
		return -1;
	return check_at_end(fd, path, f);
}

/*
 * Open a file lstat called regular: never a symlink put there since,
 * and O_NONBLOCK so that a FIFO put there since cannot hang us.
 */
static int open_regular(const char *path, struct fault *f)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return set_fault_errno(f, "open '%s'", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return set_fault(f, FAULT_IO,
				 "'%s' changed type while it was read", path);
	}
	return fd;
}

static char *read_link(const char *path, const struct stat *st,
		       size_t *len, struct fault *f)
{
	char *buf = xmalloc(st->st_size + 1);
	ssize_t n = readlink(path, buf, st->st_size + 1);

	if (n < 0 || n > st->st_size) {
		if (n < 0)
			set_fault_errno(f, "readlink '%s'", path);
		else
			set_fault(f, FAULT_IO, "'%s' changed while it was read",
				  path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int work_file_type(const char *path, const struct stat *st,
			  struct fault *f)
{
	if (S_ISREG(st->st_mode) || S_ISLNK(st->st_mode))
		return 0;
	return set_fault(f, FAULT_CORRUPT, "'%s': unsupported file type",
			 path);
}

int check_work_file_type(const char *path, const struct stat *st)
{
	struct fault f;

	return work_file_type(path, st, &f) < 0 ? report_fault(&f) : 0;
}

char *read_work_file(const char *path, const struct stat *st, size_t *size)
{
	struct fault f;
	char *buf = read_work_file_f(path, st, size, &f);

	if (!buf)
		report_fault(&f);
	return buf;
}

char *read_work_file_f(const char *path, const struct stat *st,
		       size_t *size, struct fault *f)
{
	size_t len = st->st_size;
	char *buf;
	int fd;

	if (work_file_type(path, st, f) < 0)
		return NULL;
	if (S_ISLNK(st->st_mode))
		return read_link(path, st, size, f);
	fd = open_regular(path, f);
	if (fd < 0)
		return NULL;
	buf = xmalloc(len + 1);
	if (read_whole(fd, path, buf, len, f) < 0) {
		close(fd);
		free(buf);
		return NULL;
	}
	close(fd);
	buf[len] = '\0';
	*size = len;
	return buf;
}

/* ---- hashing and storing ---- */

/*
 * Hash a big file a piece at a time; with w, deflate it into w too
 * (header first, as deflate_object does).
 */
static int stream_file(int fd, const char *path, size_t size,
		       struct deflate_writer *w, unsigned char *sha1,
		       struct fault *f)
{
	char hdr[MAX_HEADER_LEN];
	int hdrlen = format_object_header(hdr, OBJ_BLOB, size), ret = 0;
	unsigned char *in = xmalloc(OBJECT_CHUNK);
	size_t left = size;
	struct hash_ctx c;

	hash_init(&c, the_hash);
	hash_update(&c, hdr, hdrlen);
	if (w && deflate_writer_add(w, hdr, hdrlen, 0) < 0)
		ret = set_fault_errno(f, "write object for '%s'", path);
	while (!ret && left) {
		size_t n = left < OBJECT_CHUNK ? left : OBJECT_CHUNK;

		ret = read_piece(fd, path, in, n, f);
		left -= n;
		if (!ret)
			hash_update(&c, in, n);
		if (!ret && w && deflate_writer_add(w, in, n, !left) < 0)
			ret = set_fault_errno(f, "write object for '%s'",
					      path);
	}
	if (!ret)
		ret = check_at_end(fd, path, f);
	free(in);
	if (hash_final(sha1, &c) < 0 && !ret)
		ret = set_fault(f, FAULT_CORRUPT, "'%s': SHA-1 collision "
				"attack detected", path);
	return ret;
}

/* Store a big file: deflate it into objects/tmp_obj_*, name it after. */
static int write_big_file(int fd, const char *path, size_t size,
			  unsigned char *sha1)
{
	struct deflate_writer *w;
	struct fault f;
	char *tmp;
	int ofd = open_tmp_object(get_object_directory(), &tmp), ret;

	if (ofd < 0)
		return -1;
	w = deflate_writer_start(ofd);
	ret = stream_file(fd, path, size, w, sha1, &f);
	if (ret < 0)
		report_fault(&f);
	deflate_writer_end(w);
	if (ret < 0) {
		close(ofd);
		unlink(tmp);
	} else {
		ret = place_tmp_object(tmp, ofd, sha1);
	}
	free(tmp);
	return ret;
}

/* A big file's bytes, read again, for compare_stored_pieces. */
struct piece_reader {
	int fd;
	const char *path;
};

static int read_next_piece(void *data, unsigned char *buf, size_t n)
{
	struct piece_reader *r = data;
	struct fault f;

	if (read_piece(r->fd, r->path, buf, n, &f) < 0)
		return report_fault(&f);
	return 0;
}

/*
 * The collision check on a big file whose object exists: its bytes
 * against the stored ones, read again a piece at a time.  Equal bytes
 * are the object's, whatever the file held when it was hashed.  Only
 * when they differ is the file hashed again (a third read), so that a
 * file that changed since it was hashed is told from a collision.
 */
static int check_big_file(int fd, const char *path, size_t size,
			  const unsigned char *sha1)
{
	struct piece_reader r = { .fd = fd, .path = path };
	unsigned char again[HASH_MAX_RAWSZ];
	struct fault f;
	int cmp;

	cmp = compare_stored_pieces(sha1, OBJ_BLOB, size, read_next_piece,
				    &r);
	if (cmp < 0)
		return -1;
	if (check_at_end(fd, path, &f) < 0)
		return report_fault(&f);
	if (!cmp)
		return 0;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error_errno("seek '%s'", path);
	if (stream_file(fd, path, size, NULL, again, &f) < 0)
		return report_fault(&f);
	if (hashcmp(again, sha1))
		return error("'%s' changed while it was read", path);
	return report_collision(sha1);
}

/*
 * A big file is hashed first, and deflated only when its object is not
 * there yet: an add of files already stored (a re-add, or the same
 * content under another name) then costs a read and a comparison, not
 * a deflate.  What is deflated is hashed again as it goes, and stored
 * under that id.
 */
static int store_big_file(int fd, const char *path, size_t size,
			  unsigned char *sha1)
{
	struct fault f;

	if (stream_file(fd, path, size, NULL, sha1, &f) < 0)
		return report_fault(&f);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error_errno("seek '%s'", path);
	if (has_sha1_file(sha1))
		return check_big_file(fd, path, size, sha1);
	return write_big_file(fd, path, size, sha1);
}


int hash_work_file(const char *path, const struct stat *st,
		   unsigned char *sha1, char **keep, size_t *size,
		   struct fault *f)
{
	size_t len;
	char *buf;
	int fd, ret;

	if (keep)
		*keep = NULL;
	if (S_ISREG(st->st_mode) && st->st_size > STREAM_MIN) {
		fd = open_regular(path, f);
		if (fd < 0)
			return -1;
		ret = stream_file(fd, path, st->st_size, NULL, sha1, f);
		close(fd);
		return ret;
	}
	buf = read_work_file_f(path, st, &len, f);
	if (!buf)
		return -1;
	if (hash_sha1_file(buf, len, OBJ_BLOB, sha1) < 0) {
		free(buf);
		return set_fault(f, FAULT_CORRUPT, "'%s': SHA-1 collision "
				 "attack detected", path);
	}
	if (keep) {
		*keep = buf;
		*size = len;
	} else {
		free(buf);
	}
	return 0;
}

/* index_path_keep that stores the object. */
static int store_work_file(const char *path, const struct stat *st,
			   unsigned char *sha1, char **keep, size_t *size)
{
	struct fault f;
	size_t len;
	char *buf;
	int fd, ret;

	if (S_ISREG(st->st_mode) && st->st_size > STREAM_MIN) {
		fd = open_regular(path, &f);
		if (fd < 0)
			return report_fault(&f);
		ret = store_big_file(fd, path, st->st_size, sha1);
		close(fd);
		return ret;
	}
	buf = read_work_file(path, st, &len);
	if (!buf)
		return -1;
	ret = write_sha1_file(buf, len, OBJ_BLOB, sha1);
	if (keep && !ret) {
		*keep = buf;
		*size = len;
	} else {
		free(buf);
	}
	return ret;
}

int index_path_keep(const char *path, const struct stat *st,
		    int write_object, unsigned char *sha1, char **keep,
		    size_t *size)
{
	struct fault f;

	if (keep)
		*keep = NULL;
	if (write_object)
		return store_work_file(path, st, sha1, keep, size);
	if (hash_work_file(path, st, sha1, keep, size, &f) < 0)
		return report_fault(&f);
	return 0;
}

int index_path(const char *path, const struct stat *st, int write_object,
	       unsigned char *sha1)
{
	return index_path_keep(path, st, write_object, sha1, NULL, NULL);
}

int path_matches_sha1(const char *path, const struct stat *st,
		      const unsigned char *sha1)
{
	unsigned char now[HASH_MAX_RAWSZ];

	if (index_path(path, st, 0, now) < 0)
		return -1;
	return !hashcmp(now, sha1);
}

/* ---- writing a blob out ---- */

/* A whole piece of zeros, which a new file can hold as a hole. */
static int is_zero_piece(const unsigned char *buf, size_t n)
{
	return n == OBJECT_CHUNK && !buf[0] && !memcmp(buf, buf + 1, n - 1);
}

/*
 * Write n bytes of a blob to fd, or skip over them when they are a
 * piece of zeros and fd is a new file (holes).  *hole says whether the
 * file now ends in one.
 */
static int write_piece(int fd, const unsigned char *buf, size_t n,
		       int holes, int *hole)
{
	*hole = holes && is_zero_piece(buf, n);
	if (*hole)
		return lseek(fd, n, SEEK_CUR) < 0 ? -1 : 0;
	return write_in_full(fd, buf, n) < 0 ? -1 : 0;
}

/* A file that ends in a hole gets its size here. */
static int end_in_hole(int fd)
{
	off_t end = lseek(fd, 0, SEEK_CUR);

	return end < 0 || ftruncate(fd, end) < 0 ? -1 : 0;
}

/* fd is an empty regular file: pieces of zeros may be left as holes. */
static int can_hold_holes(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) && !st.st_size &&
	       lseek(fd, 0, SEEK_CUR) == 0;
}

/*
 * A blob held whole: written with one write(2) a run of pieces that
 * are not holes (one for most files), with the same holes as a piece
 * at a time.
 */
static int write_whole(int fd, const unsigned char *buf, size_t len,
		       int holes)
{
	size_t at = 0, start = 0;
	int hole = 0;

	while (holes && at < len) {
		size_t n = len - at < OBJECT_CHUNK ? len - at : OBJECT_CHUNK;

		hole = is_zero_piece(buf + at, n);
		if (hole && (write_in_full(fd, buf + start, at - start) < 0 ||
			     lseek(fd, n, SEEK_CUR) < 0))
			return -1;
		at += n;
		if (hole)
			start = at;
	}
	if (write_in_full(fd, buf + start, len - start) < 0)
		return -1;
	return hole ? end_in_hole(fd) : 0;
}

/* The blob a piece at a time: 0, or -1 after saying why not. */
static int write_pieces(int fd, const char *path, struct object_stream *st,
			const unsigned char *sha1, int holes)
{
	unsigned char *chunk = xmalloc(OBJECT_CHUNK);
	struct fault f;
	ssize_t n;
	int hole = 0;

	while ((n = read_object_stream(st, chunk, OBJECT_CHUNK, &f)) > 0)
		if (write_piece(fd, chunk, n, holes, &hole) < 0)
			break;
	if (!n && hole && end_in_hole(fd) < 0)
		n = 1;
	if (n > 0)
		error_errno("write '%s'", path);
	else if (n < 0)
		report_object_fault(sha1, &f);
	free(chunk);
	return n ? -1 : 0;
}

static int stream_blob(int fd, const char *path, const unsigned char *sha1,
		       int holes)
{
	struct object_stream st;
	const unsigned char *whole;
	struct fault f;
	int ret;

	if (open_object_stream(&st, sha1, &f) < 0)
		return report_object_fault(sha1, &f);
	if (st.type != OBJ_BLOB) {
		close_object_stream(&st);
		return error("object %s is a %s, not a blob", sha1_to_hex(sha1),
			     type_name(st.type));
	}
	ret = read_object_stream_in_memory(&st, &whole, &f);
	if (ret < 0)
		report_object_fault(sha1, &f);
	else if (ret > 0)
		ret = write_pieces(fd, path, &st, sha1, holes);
	else if (write_whole(fd, whole, st.size, holes) < 0)
		ret = error_errno("write '%s'", path);
	close_object_stream(&st);
	return ret;
}

int stream_blob_to_fd(int fd, const char *path, const unsigned char *sha1)
{
	return stream_blob(fd, path, sha1, can_hold_holes(fd));
}

int stream_blob_to_new_file(int fd, const char *path,
			    const unsigned char *sha1)
{
	return stream_blob(fd, path, sha1, 1);
}
