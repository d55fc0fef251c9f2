/*
 * pack-write.c: many new objects as one pack file and its idx (v2).
 *
 * applymbox's checkpoint stores some 800 objects at once; as loose
 * objects each is a file of its own to create, write, chmod, close
 * and rename, and a fan-out directory entry for the sync to flush.
 * As one pack they are two files.  The entries are whole objects (no
 * deltas), deflated at level 1 on every core, a batch at a time so
 * that only one batch of zlib output is held; the pack is written in
 * the objects' order, then its idx.
 *
 * A reader takes a pack by its idx, and only when the pack is there
 * too (pack-list.c), so the pack is renamed into place first and the idx
 * last, each complete and synced before: neither a crash nor a reader
 * ever sees an idx whose pack is missing or short.
 */
#define _GNU_SOURCE		/* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

/* One batch: this many objects, or this much content, at most. */
#define BATCH_OBJECTS 64
#define BATCH_BYTES (1 << 20)

struct deflated {
	unsigned char hdr[32];
	int hdr_len;
	unsigned char *data;
	size_t len;
	uint32_t crc;
};

struct pack_out {
	struct hashfile *f;
	const struct pack_object *objs;
	struct deflated *batch;	/* batch[i - first] for objs[i] */
	size_t first;
	int failed;
};

int pack_entry_header(unsigned char *hdr, int type, uint64_t size,
		      uint64_t base_distance)
{
	unsigned char ofs[10];
	int n = 0, k = sizeof(ofs) - 1;
	unsigned char c = (type << 4) | (size & 15);

	for (size >>= 4; size; size >>= 7) {
		hdr[n++] = c | 0x80;
		c = size & 0x7f;
	}
	hdr[n++] = c;
	if (type != OBJ_OFS_DELTA)
		return n;
	/* Big-endian base 128, each byte but the last one less. */
	ofs[k] = base_distance & 0x7f;
	while (base_distance >>= 7)
		ofs[--k] = 0x80 | (--base_distance & 0x7f);
	memcpy(hdr + n, ofs + k, sizeof(ofs) - k);
	return n + sizeof(ofs) - k;
}

const void *pack_object_content(const struct pack_object *o,
				void **to_free)
{
	char *buf;

	*to_free = NULL;
	if (o->buf)
		return o->buf;
	buf = xmalloc(o->len + 1);
	if (pread_in_full(o->fd, buf, o->len, o->offset) < 0) {
		error_errno("read object %s back", sha1_to_hex(o->sha1));
		free(buf);
		return NULL;
	}
	buf[o->len] = '\0';
	*to_free = buf;
	return buf;
}

static size_t deflate_nth(void *data, size_t i)
{
	struct pack_out *out = data;
	const struct pack_object *o = &out->objs[i];
	struct deflated *d = &out->batch[i - out->first];
	void *to_free;
	const void *buf = pack_object_content(o, &to_free);

	d->hdr_len = pack_entry_header(d->hdr, o->type, o->len, 0);
	d->data = buf ? deflate_to_memory(buf, o->len, &d->len) : NULL;
	free(to_free);
	if (!d->data) {
		__atomic_store_n(&out->failed, 1, __ATOMIC_RELAXED);
		return 1;
	}
	d->crc = crc32_z(crc32(0, d->hdr, d->hdr_len), d->data, d->len);
	return 1;
}

/* The objects from first on that go in one batch: their end. */
static size_t batch_end(const struct pack_object *objs, size_t first,
			size_t nr)
{
	size_t end = first, bytes = 0;

	while (end < nr && end - first < BATCH_OBJECTS &&
	       (end == first || bytes + objs[end].len <= BATCH_BYTES))
		bytes += objs[end++].len;
	return end;
}

/* Deflate objs[first, end) on every core and append them. */
static int write_batch(struct pack_out *out, size_t end,
		       struct pack_idx_entry *ents)
{
	size_t i, first = out->first;
	int ret = 0;

	run_parallel(first, end, deflate_nth, out, NULL, 0);
	for (i = first; i < end; i++) {
		struct deflated *d = &out->batch[i - first];

		hashcpy(ents[i].sha1, out->objs[i].sha1);
		ents[i].crc = d->crc;
		ents[i].offset = out->f->total;
		if (!out->failed && !ret &&
		    (hashwrite(out->f, d->hdr, d->hdr_len) < 0 ||
		     hashwrite(out->f, d->data, d->len) < 0))
			ret = -1;
		free(d->data);
	}
	if (out->failed) {
		errno = EIO;
		ret = -1;
	}
	return ret;
}

/* The pack's entries, then its trailer, into fd; -1 with errno. */
static int write_pack_body(int fd, const struct pack_object *objs,
			   size_t nr, struct pack_idx_entry *ents,
			   unsigned char *pack_sha1)
{
	struct pack_out out = { NULL, objs, NULL, 0, 0 };
	unsigned char hdr[12];
	int ret = 0;

	out.f = hashfd(fd);
	out.f->name = "the new pack";
	out.batch = xcalloc(nr < BATCH_OBJECTS ? nr : BATCH_OBJECTS,
			    sizeof(*out.batch));
	memcpy(hdr, "PACK", 4);
	put_be32(hdr + 4, 2);
	put_be32(hdr + 8, nr);
	ret = hashwrite(out.f, hdr, sizeof(hdr));
	while (!ret && out.first < nr) {
		size_t end = batch_end(objs, out.first, nr);

		ret = write_batch(&out, end, ents);
		out.first = end;
	}
	if (hashfile_finish(out.f, pack_sha1) < 0)
		ret = -1;
	free(out.batch);
	return ret;
}

/* Deflate what z holds (flush: Z_NO_FLUSH or Z_FINISH) into hf. */
static int deflate_into(struct hashfile *hf, z_stream *z, int flush,
			unsigned char *out, uint32_t *crc, struct fault *f)
{
	int ret;

	do {
		size_t n;

		z->next_out = out;
		z->avail_out = OBJECT_CHUNK;
		ret = deflate(z, flush);
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
			return set_fault(f, FAULT_IO, "zlib: deflate failed "
					 "(%d)", ret);
		n = OBJECT_CHUNK - z->avail_out;
		*crc = crc32(*crc, out, n);
		if (hashwrite(hf, out, n) < 0)
			return set_fault_errno(f, "write the pack");
	} while (flush == Z_FINISH ? ret != Z_STREAM_END : !z->avail_out);
	return 0;
}

/* Read st to its checked end, deflating it into hf. */
static int deflate_stream(struct hashfile *hf, struct object_stream *st,
			  z_stream *z, uint32_t *crc, struct fault *f)
{
	unsigned char *in = xmalloc(2 * OBJECT_CHUNK);
	ssize_t n;
	int ret = 0;

	do {
		n = read_object_stream(st, in, OBJECT_CHUNK, f);
		if (n < 0) {
			ret = -1;
			break;
		}
		z->next_in = in;
		z->avail_in = n;
		ret = deflate_into(hf, z, n ? Z_NO_FLUSH : Z_FINISH,
				   in + OBJECT_CHUNK, crc, f);
	} while (!ret && n);
	free(in);
	return ret;
}

int write_streamed_entry(struct hashfile *hf, const unsigned char *sha1,
			 enum object_type type, size_t size, int level,
			 uint32_t *crc, struct fault *f)
{
	struct object_stream st;
	z_stream z;
	int ret;

	if (open_object_stream(&st, sha1, f) < 0)
		return -1;
	if (st.type != type || st.size != size) {
		close_object_stream(&st);
		return set_fault(f, FAULT_CORRUPT, "changed type or size "
				 "while packed");
	}
	memset(&z, 0, sizeof(z));
	if (deflateInit(&z, level) != Z_OK) {
		close_object_stream(&st);
		return set_fault(f, FAULT_IO, "zlib: cannot deflate at "
				 "level %d", level);
	}
	ret = deflate_stream(hf, &st, &z, crc, f);
	deflateEnd(&z);
	close_object_stream(&st);
	return ret;
}

static int compare_entries(const void *a, const void *b)
{
	return hashcmp(a, b);
}

/* Each entry's 4-byte field (its CRC or its offset's low part). */
static int write_idx_words(struct hashfile *f, const struct pack_idx_entry *ents,
			   size_t nr, int crcs)
{
	size_t i, big = 0;
	int ret = 0;

	for (i = 0; !ret && i < nr; i++) {
		unsigned char w[4];

		if (crcs)
			put_be32(w, ents[i].crc);
		else
			put_be32(w, ents[i].offset > 0x7fffffff ?
				 0x80000000 | big++ : ents[i].offset);
		ret = hashwrite(f, w, 4);
	}
	return ret;
}

/*
 * The idx v2 of the sorted entries into fd: fan-out, ids, CRCs,
 * offsets (the big ones in a table of their own), the pack's id, its
 * own id.  -1 with errno.
 */
int write_pack_idx(int fd, const struct pack_idx_entry *ents, size_t nr,
		   const unsigned char *pack_sha1)
{
	struct hashfile *f = hashfd(fd);
	unsigned char hdr[8 + 256 * 4], w[8];
	uint32_t fan[256] = { 0 };
	size_t i;
	int ret;

	f->name = "the new pack's idx";
	for (i = 0; i < nr; i++)
		fan[ents[i].sha1[0]]++;
	memcpy(hdr, "\377tOc", 4);
	put_be32(hdr + 4, 2);
	for (i = 0; i < 256; i++)
		put_be32(hdr + 8 + 4 * i, (fan[i] += i ? fan[i - 1] : 0));
	ret = hashwrite(f, hdr, sizeof(hdr));
	for (i = 0; !ret && i < nr; i++)
		ret = hashwrite(f, ents[i].sha1, the_hash->rawsz);
	if (!ret)
		ret = write_idx_words(f, ents, nr, 1);
	if (!ret)
		ret = write_idx_words(f, ents, nr, 0);
	for (i = 0; !ret && i < nr; i++) {
		if (ents[i].offset <= 0x7fffffff)
			continue;
		put_be64(w, ents[i].offset);
		ret = hashwrite(f, w, 8);
	}
	if (!ret)
		ret = hashwrite(f, pack_sha1, the_hash->rawsz);
	if (hashfile_finish(f, NULL) < 0)
		ret = -1;
	return ret;
}

static void remove_tmp(struct pack_tmp *t)
{
	if (t->pack_fd >= 0)
		close(t->pack_fd);
	if (t->idx_fd >= 0)
		close(t->idx_fd);
	if (t->tmp_pack)
		unlink(t->tmp_pack);
	if (t->tmp_idx)
		unlink(t->tmp_idx);
	t->pack_fd = t->idx_fd = -1;
}

int open_pack_tmp_file(const char *dir, const char *prefix, char **tmp)
{
	char *name = xmalloc(strlen(prefix) + 8);
	int fd;

	sprintf(name, "%sXXXXXX", prefix);
	*tmp = path_join(dir, name);
	free(name);
	fd = mkstemp(*tmp);
	if (fd < 0 && errno == ENOENT &&
	    (!mkdir(dir, 0777) || errno == EEXIST)) {
		sprintf(*tmp + strlen(*tmp) - 6, "XXXXXX");
		fd = mkstemp(*tmp);
	}
	if (fd < 0) {
		error_errno("unable to create a temporary pack in '%s'", dir);
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

int place_pack_file(char **tmp, int *fd, const char *path)
{
	int ret = 0;

	if (fchmod(*fd, 0444) < 0 && errno != EPERM)
		ret = error_errno("chmod '%s'", *tmp);
	if (!ret && sync_wanted() && fsync(*fd) < 0)
		ret = error_errno("fsync '%s'", *tmp);
	if (close(*fd) < 0 && !ret)
		ret = error_errno("close '%s'", *tmp);
	*fd = -1;
	if (!ret && rename(*tmp, path) < 0)
		ret = error_errno("rename '%s' to '%s'", *tmp, path);
	if (!ret) {
		free(*tmp);
		*tmp = NULL;
	}
	return ret;
}

/* place_pack_file to <base>-<hex><ext>. */
static int place(const char *base, char **tmp, int *fd,
		 const unsigned char *pack_sha1, const char *ext)
{
	char *path = xmalloc(strlen(base) + HASH_MAX_HEXSZ + 8);
	int ret;

	sprintf(path, "%s-%s%s", base, sha1_to_hex(pack_sha1), ext);
	ret = place_pack_file(tmp, fd, path);
	free(path);
	return ret;
}

/*
 * Have the kernel start writing fd's pages back now, so that the sync
 * before the rename finds them on their way (a hint: the fsync is what
 * makes them durable).
 */
static void start_writeback(int fd)
{
#ifdef SYNC_FILE_RANGE_WRITE
	if (sync_wanted())
		sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
	(void)fd;
#endif
}

int sync_pack_dir(const char *dir)
{
	int fd, ret = 0;

	if (!sync_wanted())
		return 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fsync(fd) < 0)
		ret = error_errno("sync '%s'", dir);
	if (fd >= 0)
		close(fd);
	return ret;
}

int sort_pack_idx(struct pack_idx_entry *ents, size_t nr,
		  unsigned char *dup)
{
	size_t i;

	qsort(ents, nr, sizeof(*ents), compare_entries);
	for (i = 1; i < nr; i++)
		if (hasheq(ents[i - 1].sha1, ents[i].sha1)) {
			hashcpy(dup, ents[i].sha1);
			return -1;
		}
	return 0;
}

static int check_unique(const struct pack_idx_entry *ents, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (hasheq(ents[i - 1].sha1, ents[i].sha1))
			return error("object %s twice in one pack",
				     sha1_to_hex(ents[i].sha1));
	return 0;
}

int open_pack_tmp(struct pack_tmp *t, const char *base_name)
{
	const char *slash = strrchr(base_name, '/');

	t->base = xstrdup(base_name);
	t->dir = slash ? xstrdup(base_name) : xstrdup(".");
	if (slash)
		t->dir[slash - base_name + !(slash - base_name)] = '\0';
	t->tmp_pack = t->tmp_idx = NULL;
	t->idx_fd = -1;
	t->pack_fd = open_pack_tmp_file(t->dir, "tmp_pack_", &t->tmp_pack);
	return t->pack_fd < 0 ? -1 : 0;
}

int finish_pack_tmp(struct pack_tmp *t, struct pack_idx_entry *ents,
		    size_t nr, const unsigned char *pack_sha1)
{
	if (write_pack_tmp_idx(t, ents, nr, pack_sha1) < 0)
		return -1;
	return place_pack_tmp(t, pack_sha1);
}

int write_pack_tmp_idx(struct pack_tmp *t, struct pack_idx_entry *ents,
		       size_t nr, const unsigned char *pack_sha1)
{
	start_writeback(t->pack_fd);
	qsort(ents, nr, sizeof(*ents), compare_entries);
	if (check_unique(ents, nr) < 0)
		return -1;
	t->idx_fd = open_pack_tmp_file(t->dir, "tmp_idx_", &t->tmp_idx);
	if (t->idx_fd < 0)
		return -1;
	if (write_pack_idx(t->idx_fd, ents, nr, pack_sha1) < 0)
		return error_errno("unable to write the idx '%s'", t->tmp_idx);
	start_writeback(t->idx_fd);
	return 0;
}

int place_pack_tmp(struct pack_tmp *t, const unsigned char *pack_sha1)
{
	if (place(t->base, &t->tmp_pack, &t->pack_fd, pack_sha1, ".pack") < 0 ||
	    place(t->base, &t->tmp_idx, &t->idx_fd, pack_sha1, ".idx") < 0)
		return -1;
	return sync_pack_dir(t->dir);
}

void remove_pack_tmp(struct pack_tmp *t)
{
	remove_tmp(t);
	free(t->tmp_pack);
	free(t->tmp_idx);
	free(t->dir);
	free(t->base);
	t->tmp_pack = t->tmp_idx = t->dir = t->base = NULL;
}

int write_pack_objects_unplaced(struct pack_tmp *t, unsigned char *pack_sha1,
				const struct pack_object *objs, size_t nr)
{
	struct pack_idx_entry *ents;
	char *base;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	t->pack_fd = t->idx_fd = -1;
	if (nr > UINT32_MAX)
		return error("%zu objects are too many for one pack", nr);
	base = path_join(get_object_directory(), "pack/pack");
	ents = xmalloc((nr ? nr : 1) * sizeof(*ents));
	if (open_pack_tmp(t, base) < 0)
		goto out;
	if (write_pack_body(t->pack_fd, objs, nr, ents, pack_sha1) < 0) {
		error_errno("unable to write the pack '%s'", t->tmp_pack);
		goto out;
	}
	ret = write_pack_tmp_idx(t, ents, nr, pack_sha1);
out:
	free(base);
	free(ents);
	return ret;
}

int place_new_pack(struct pack_tmp *t, const unsigned char *pack_sha1)
{
	int ret = place_pack_tmp(t, pack_sha1);

	/* Its objects are stored now: has_sha1_file must see them. */
	if (!ret)
		rescan_packs();
	remove_pack_tmp(t);
	return ret;
}

int write_pack_objects(const struct pack_object *objs, size_t nr)
{
	struct pack_tmp t;
	unsigned char pack_sha1[HASH_MAX_RAWSZ];

	if (!nr)
		return 0;
	if (write_pack_objects_unplaced(&t, pack_sha1, objs, nr) < 0) {
		remove_pack_tmp(&t);
		return -1;
	}
	return place_new_pack(&t, pack_sha1);
}
