/*
 * limits: the physical limits of operation 1 (adding a tree) on the
 * same bytes, measured on one core: reading every file, lstat of every
 * path, the stores' hash as the tools compute it (hash_buffer: SHA-1
 * with collision detection, or SHA-256 when the argument says sha256),
 * and the throughput of zlib's level-1 deflate and of ours (deflate.c,
 * what the tools write with); then inflating our stream back
 * (inflate.c, what the readers and fsck-cache use, Adler-32 checked as
 * fsck-cache asks), for the limit of fsck-cache, and zlib's inflate()
 * on the same stream beside it; then the same with each file a stream
 * of its own, as the store holds them (inflate_objects_ours and _zlib),
 * where setting up each stream's tables counts too.  With a directory
 * as second argument (it must not exist), every file is also written
 * there from memory, as a checkout makes it (its directories made,
 * each file created, written and closed), for the limit of
 * read-tree + checkout -a: "write" is that time.
 * Paths come NUL-separated on stdin.  Prints "name seconds" lines, and
 * "hash_name sha1" (or sha256): the hash the "hash" line timed.
 *
 *   limits [sha1 | sha256] [new-dir] <paths
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../cache.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* zlib's inflate() of in (len bytes) into out (size bytes): 0 if whole. */
static int zlib_inflate(const unsigned char *in, size_t len,
			unsigned char *out, size_t size)
{
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)in;
	z.avail_in = len;
	z.next_out = out;
	z.avail_out = size;
	ret = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	return ret == Z_STREAM_END && z.total_out == size ? 0 : -1;
}

/*
 * Each of the nr files (ends[i] where file i ends in all) deflated by
 * deflate.c as a stream of its own, then inflated back by inflate.c
 * and by zlib: the times of both.
 */
static int inflate_objects(const char *all, const size_t *ends, size_t nr)
{
	unsigned char **z = malloc(nr * sizeof(*z));
	size_t *zlen = malloc(nr * sizeof(*zlen)), i, used, start, max = 0;
	unsigned char *back;
	double t;
	int bad = 0;

	for (i = 0, start = 0; i < nr; start = ends[i++]) {
		struct deflate_writer *w = deflate_writer_start(-1);

		deflate_writer_add(w, all + start, ends[i] - start, 1);
		z[i] = deflate_writer_result(w, &zlen[i]);
		deflate_writer_end(w);
		if (ends[i] - start > max)
			max = ends[i] - start;
	}
	back = malloc(max + INFLATE_SLACK);
	t = now();
	for (i = 0, start = 0; i < nr; start = ends[i++])
		bad |= inflate_whole(z[i], zlen[i], back, ends[i] - start,
				     &used, 1);
	printf("inflate_objects_ours %.3f\n", now() - t);
	t = now();
	for (i = 0, start = 0; i < nr; start = ends[i++])
		bad |= zlib_inflate(z[i], zlen[i], back, ends[i] - start);
	printf("inflate_objects_zlib %.3f\n", now() - t);
	printf("objects %zu\n", nr);
	for (i = 0; i < nr; i++)
		free(z[i]);
	free(z);
	free(zlen);
	free(back);
	if (bad)
		fprintf(stderr, "limits: inflate: an object does not come back\n");
	return bad ? -1 : 0;
}

/* mkdir -p of path's directories, below the current one. */
static void make_leading_dirs(char *path)
{
	char *slash;

	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0777);
		*slash = '/';
	}
}

/*
 * The nr files of all (ends[i] where file i ends) written into dir,
 * which is made: directories, then each file created, written, closed.
 */
static int write_files(const char *dir, char **paths, const char *all,
		       const size_t *ends, size_t nr)
{
	size_t i, start;
	double t;
	int bad = 0;

	if (mkdir(dir, 0777) || chdir(dir)) {
		perror(dir);
		return -1;
	}
	/*
	 * What the bench copied just before is still dirty: past the
	 * kernel's dirty threshold every write would wait for the disk
	 * (22.7 s here once, against 2.4-2.6 s after a sync).
	 */
	sync();
	t = now();
	for (i = 0, start = 0; i < nr; start = ends[i++]) {
		int fd = open(paths[i], O_WRONLY | O_CREAT | O_EXCL, 0666);

		if (fd < 0 && errno == ENOENT) {
			make_leading_dirs(paths[i]);
			fd = open(paths[i], O_WRONLY | O_CREAT | O_EXCL, 0666);
		}
		if (fd < 0 || write(fd, all + start, ends[i] - start) !=
			      (ssize_t)(ends[i] - start))
			bad = 1;
		if (fd >= 0)
			close(fd);
	}
	printf("write %.3f\n", now() - t);
	if (bad)
		fprintf(stderr, "limits: write: a file could not be written\n");
	return bad ? -1 : 0;
}

static char **read_paths(size_t *nr)
{
	char **paths = NULL, *line = NULL;
	size_t alloc = 0, size = 0;
	ssize_t len;

	*nr = 0;
	while ((len = getdelim(&line, &size, '\0', stdin)) > 0) {
		if (*nr == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			paths = realloc(paths, alloc * sizeof(*paths));
		}
		paths[(*nr)++] = strdup(line);
	}
	free(line);
	return paths;
}

int main(int argc, char **argv)
{
	size_t nr, i, total, alloc = 1 << 20, off = 0;
	char **paths = read_paths(&nr);
	char *all = malloc(alloc);
	unsigned char id[HASH_MAX_RAWSZ];
	size_t *ends = malloc((nr ? nr : 1) * sizeof(*ends)), files = 0;
	struct stat st;
	double t;
	struct deflate_writer *w;
	z_stream z;
	unsigned char *out, *back;
	size_t zlen, used;
	int ret;

	if (argc > 1 && !(the_hash = hash_algo_by_name(argv[1]))) {
		fprintf(stderr, "limits: %s: not a hash we know\n", argv[1]);
		return 129;
	}
	t = now();
	for (i = 0; i < nr; i++)
		lstat(paths[i], &st);
	printf("lstat %.3f\n", now() - t);

	t = now();
	for (i = 0; i < nr; i++) {
		int fd = open(paths[i], O_RDONLY);
		ssize_t n;

		if (fd < 0)
			continue;
		fstat(fd, &st);
		if (off + st.st_size + 1 > alloc) {
			while (off + st.st_size + 1 > alloc)
				alloc *= 2;
			all = realloc(all, alloc);
		}
		while ((n = read(fd, all + off, st.st_size)) > 0)
			off += n;
		close(fd);
		ends[files++] = off;
	}
	total = off;
	printf("read %.3f\n", now() - t);

	t = now();
	if (hash_buffer(all, total, id) < 0)
		return 1;
	printf("hash %.3f\n", now() - t);
	printf("hash_name %s\n", the_hash->name);

	out = malloc(compressBound(total));
	memset(&z, 0, sizeof(z));
	deflateInit(&z, 1);
	z.next_in = (unsigned char *)all;
	z.avail_in = total;
	z.next_out = out;
	z.avail_out = compressBound(total);
	t = now();
	deflate(&z, Z_FINISH);
	printf("deflate1 %.3f\n", now() - t);
	printf("bytes %zu\n", total);
	deflateEnd(&z);
	free(out);

	/* ours (deflate.c), what the tools write with */
	t = now();
	w = deflate_writer_start(-1);
	deflate_writer_add(w, all, total, 1);
	out = deflate_writer_result(w, &zlen);
	printf("deflate_ours %.3f\n", now() - t);

	/* ours back (inflate.c), what fsck-cache and the readers use */
	back = malloc(total + INFLATE_SLACK);
	if (!back)
		return 1;
	t = now();
	ret = inflate_whole(out, zlen, back, total, &used, 1);
	printf("inflate_ours %.3f\n", now() - t);
	if (ret || memcmp(back, all, total)) {
		fprintf(stderr, "limits: inflate: %s\n",
			ret ? inflate_error(ret) : "not the bytes deflated");
		return 1;
	}

	/* zlib's inflate() on the same stream, Adler-32 checked too */
	t = now();
	ret = zlib_inflate(out, zlen, (unsigned char *)back, total);
	printf("inflate_zlib %.3f\n", now() - t);
	if (ret) {
		fprintf(stderr, "limits: inflate: zlib refuses our stream\n");
		return 1;
	}
	free(out);
	deflate_writer_end(w);
	if (inflate_objects(all, ends, files))
		return 1;
	if (argc > 2 && files == nr &&
	    write_files(argv[2], paths, all, ends, files))
		return 1;
	return 0;
}
