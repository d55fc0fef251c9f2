/*
 * pack-resolve.c: a pack file read whole and checked, every object's
 * id computed, with no idx to help (index-pack, unpack-objects).
 *
 * The first pass walks the entries in order, as only inflating one
 * finds where the next begins: each header is parsed, its zlib stream
 * inflated and checked (size, Adler-32), its raw bytes summed (CRC32
 * for the idx, the_hash for the trailer), and a whole object hashed.  The
 * second pass resolves the deltas as git does: from each whole object,
 * its children (the deltas whose base it is, by offset or by id), then
 * theirs, depth first, so that only one chain of bases is held at a
 * time, on every core (one root a task).  A thread holding more than
 * bases_held bytes of bases drops the oldest and makes them again from
 * the pack when it comes back to them.  A delta left over is one whose
 * base is missing, or a cycle.
 *
 * Nothing is allocated from a size the pack claims before it is
 * checked against what is left of the pack (deflate cannot shrink
 * more than 1032 to 1).  The first pass reads the pack mapped, its
 * pages given back every TRIM_BYTES, so that a big pack does not count
 * whole in the process's memory; the second reads entries with pread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

#define TRIM_BYTES ((uint64_t)8 << 20)

static size_t bases_held = (size_t)32 << 20;

void set_pack_bases_held(size_t bytes)
{
	bases_held = bytes;
}

struct ofs_child {
	uint64_t base;
	uint32_t n;
};

struct ref_child {
	unsigned char base[HASH_MAX_RAWSZ];
	uint32_t n;
};

struct resolver {
	struct pack_in *p;
	const unsigned char *map;
	uint64_t end;			/* the trailer's offset */
	struct ofs_child *ofs;		/* OFS_DELTAs by base offset */
	uint32_t nr_ofs;
	struct ref_child *ref;		/* REF_DELTAs by base id */
	uint32_t nr_ref;
	int fd;
	pthread_mutex_t lock;		/* fault, failed */
	int failed;
	struct fault *f;
};

/* Record the first fault of any thread; -1. */
static int fail(struct resolver *r, const struct fault *f)
{
	pthread_mutex_lock(&r->lock);
	if (!r->failed) {
		*r->f = *f;
		r->failed = 1;
	}
	pthread_mutex_unlock(&r->lock);
	return -1;
}

static int failed(struct resolver *r)
{
	return __atomic_load_n(&r->failed, __ATOMIC_RELAXED);
}

/* The end of entry n: where the next begins, or the trailer. */
static uint64_t entry_end(const struct pack_in *p, uint32_t n)
{
	return n + 1 < p->nr ? p->entries[n + 1].offset :
	       p->pack_size - the_hash->rawsz;
}

/* ---- the first pass ---- */

/* An object that looks like half of a SHA-1 collision: refused. */
static int collision_fault(const struct pack_in_entry *e, struct fault *f)
{
	return set_fault(f, FAULT_CORRUPT, "%s: SHA-1 collision attack "
			 "detected", sha1_to_hex(e->sha1));
}

/*
 * The pages of the map from..to were read: given back (an entry of
 * many GiB would otherwise count whole in our memory).
 */
static void trim_read(const struct resolver *r, const unsigned char *from,
		      const unsigned char *to)
{
	uint64_t a = (uint64_t)(from - r->map) & ~(uint64_t)4095;
	uint64_t b = (uint64_t)(to - r->map) & ~(uint64_t)4095;

	if (b > a)
		madvise((void *)(r->map + a), b - a, MADV_DONTNEED);
}

/*
 * Inflate a big whole object a piece at a time, hashing it, each piece
 * handed to p->piece when there is one; its zlib bytes are fed TRIM_BYTES
 * at a time, summed into e->crc and their pages given back.
 */
static int stream_entry(struct resolver *r, const unsigned char *in,
			size_t len, struct pack_in_entry *e, size_t *used,
			struct fault *f)
{
	unsigned char out[OBJECT_CHUNK], hdr[MAX_HEADER_LEN];
	const unsigned char *fed = in;
	struct pack_in *p = r->p;
	z_stream z;
	struct hash_ctx ctx;
	size_t left = e->size;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return set_fault(f, FAULT_IO, "zlib cannot start");
	hash_init(&ctx, the_hash);
	hash_update(&ctx, hdr, format_object_header((char *)hdr, e->type,
						    e->size));
	z.next_in = (unsigned char *)in;
	do {
		if (!z.avail_in && len) {
			e->crc = crc32_z(e->crc, fed, z.next_in - fed);
			trim_read(r, fed, z.next_in);
			fed = z.next_in;
			z.avail_in = len > TRIM_BYTES ? TRIM_BYTES : (uInt)len;
			len -= z.avail_in;
		}
		z.next_out = out;
		z.avail_out = sizeof(out);
		ret = inflate(&z, Z_NO_FLUSH);
		if (sizeof(out) - z.avail_out > left) {
			ret = INFLATE_LONGER;
			break;
		}
		left -= sizeof(out) - z.avail_out;
		if (e->type == OBJ_NONE)	/* a delta's data: checked only */
			continue;
		hash_update(&ctx, out, sizeof(out) - z.avail_out);
		if (p->piece && p->piece(p->data, e, out,
					 sizeof(out) - z.avail_out, f) < 0) {
			inflateEnd(&z);
			return -1;
		}
	} while (ret == Z_OK);
	*used = z.total_in;
	e->crc = crc32_z(e->crc, fed, z.next_in - fed);
	inflateEnd(&z);
	if (ret == Z_STREAM_END && !left) {
		if (e->type != OBJ_NONE && hash_final(e->sha1, &ctx) < 0)
			return collision_fault(e, f);
		return 0;
	}
	if (ret == Z_STREAM_END)
		ret = INFLATE_SHORTER;
	else if (ret == Z_BUF_ERROR)
		ret = INFLATE_TRUNCATED;
	else if (ret != INFLATE_LONGER)
		ret = INFLATE_CORRUPT;
	return set_fault(f, FAULT_CORRUPT, "bad object at offset %llu: %s",
			 (unsigned long long)e->offset, inflate_error(ret));
}

/* The stored size must be one the data left can give. */
static int check_size(const struct pack_in_entry *e, uint64_t left,
		      struct fault *f)
{
	if (e->size / 1032 > left || e->size > SIZE_MAX - 64)
		return set_fault(f, FAULT_CORRUPT, "bad object at offset %llu: "
				 "its size is more than its data can hold",
				 (unsigned long long)e->offset);
	return 0;
}

/*
 * Inflate entry e (its data at in, len bytes up to the trailer): into
 * *buf when it is small or its content is wanted (malloc'd, grown as
 * needed), else streamed.  The length of its zlib stream in *used.
 */
static int inflate_first(struct resolver *r, struct pack_in_entry *e,
			 const unsigned char *in, size_t len,
			 unsigned char **buf, size_t *alloc, size_t *used,
			 int *whole, struct fault *f)
{
	int ret;

	*whole = e->type > OBJ_TAG || e->size <= WHOLE_INFLATE_MAX ||
		 (r->p->want_content & (1 << e->type));
	if (!*whole)
		return stream_entry(r, in, len, e, used, f);
	if (e->size + INFLATE_SLACK + 1 > *alloc) {
		free(*buf);
		*alloc = e->size + INFLATE_SLACK + 1;
		*buf = malloc(*alloc);
		if (!*buf) {
			*alloc = 0;
			return set_fault(f, FAULT_IO, "out of memory for an "
					 "object of %zu bytes", e->size);
		}
	}
	ret = inflate_whole(in, len, *buf, e->size, used, 1);
	if (ret)
		return set_fault(f, FAULT_CORRUPT, "bad object at offset %llu: "
				 "%s", (unsigned long long)e->offset,
				 inflate_error(ret));
	(*buf)[e->size] = '\0';
	return 0;
}

/* Parse, inflate and sum entry n, which starts at off; its end. */
static int64_t first_pass_entry(struct pack_in *p, struct resolver *r,
				uint32_t n, uint64_t off, unsigned char **buf,
				size_t *alloc, struct fault *f)
{
	struct pack_in_entry *e = &p->entries[n];
	struct pack_entry_info info;
	size_t used;
	int hdr, whole;

	hdr = parse_pack_entry(r->map + off, r->end - off, off, &info, f);
	if (hdr < 0) {
		char why[sizeof(f->msg)];

		memcpy(why, f->msg, sizeof(why));
		return set_fault(f, FAULT_CORRUPT, "bad object at offset "
				 "%llu: %.400s", (unsigned long long)off, why);
	}
	e->offset = off;
	e->in_type = info.type;
	e->type = info.type <= OBJ_TAG ? info.type : OBJ_NONE;
	e->size = info.size;
	e->hdr_len = hdr;
	if (info.type == OBJ_REF_DELTA) {
		hashcpy(r->ref[r->nr_ref].base, info.base_sha1);
		r->ref[r->nr_ref++].n = n;
	} else if (info.type == OBJ_OFS_DELTA) {
		r->ofs[r->nr_ofs].base = info.base_offset;
		r->ofs[r->nr_ofs++].n = n;
	}
	e->crc = crc32(0, r->map + off, hdr);
	if (check_size(e, r->end - off - hdr, f) < 0 ||
	    inflate_first(r, e, r->map + off + hdr, r->end - off - hdr, buf,
			  alloc, &used, &whole, f) < 0)
		return -1;
	if (e->type != OBJ_NONE && whole &&
	    hash_sha1_file(*buf, e->size, e->type, e->sha1) < 0)
		return collision_fault(e, f);
	if (whole)	/* a streamed one summed its own */
		e->crc = crc32_z(e->crc, r->map + off + hdr, used);
	if (e->type != OBJ_NONE && p->fn &&
	    p->fn(p->data, e, whole ? *buf : NULL, e->size, f) < 0)
		return -1;
	return off + hdr + used;
}

static int first_pass(struct pack_in *p, struct resolver *r, struct fault *f)
{
	struct progress *progress = p->progress ?
		start_progress("Indexing objects", p->nr) : NULL;
	unsigned char *buf = NULL;
	size_t alloc = 0;
	uint64_t off = 12, trimmed = 0;
	uint32_t n;
	int64_t next = 0;

	for (n = 0; n < p->nr; n++) {
		next = first_pass_entry(p, r, n, off, &buf, &alloc, f);
		if (next < 0)
			break;
		off = next;
		if (off - trimmed >= TRIM_BYTES) {
			madvise((void *)r->map, off & ~(uint64_t)4095,
				MADV_DONTNEED);
			trimmed = off;
		}
		display_progress(progress, n + 1);
	}
	stop_progress(&progress);
	free(buf);
	if (next < 0)
		return -1;
	if (off != r->end)
		return set_fault(f, FAULT_CORRUPT, "pack has %llu bytes of "
				 "junk after its last object",
				 (unsigned long long)(r->end - off));
	return 0;
}

/* ---- the second pass: deltas ---- */

static int compare_ofs(const void *a, const void *b)
{
	const struct ofs_child *x = a, *y = b;

	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

static int compare_ref(const void *a, const void *b)
{
	const struct ref_child *x = a, *y = b;
	int cmp = hashcmp(x->base, y->base);

	if (cmp)
		return cmp;
	return x->n < y->n ? -1 : x->n > y->n;
}

/* The entry that starts at offset, or -1. */
static int64_t entry_at(const struct pack_in *p, uint64_t offset)
{
	uint32_t lo = 0, hi = p->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->entries[mid].offset == offset)
			return mid;
		if (p->entries[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Every OFS_DELTA's base must be an entry's start. */
static int check_ofs_bases(struct resolver *r, struct fault *f)
{
	uint32_t i;

	for (i = 0; i < r->nr_ofs; i++) {
		const struct pack_in_entry *e = &r->p->entries[r->ofs[i].n];

		if (entry_at(r->p, r->ofs[i].base) < 0)
			return set_fault(f, FAULT_CORRUPT, "bad delta at "
					 "offset %llu: no object at its base "
					 "offset",
					 (unsigned long long)e->offset);
	}
	return 0;
}

/* The children of a base: [*lo, *hi) of the ofs and ref tables. */
struct children {
	uint32_t ofs, ofs_end, ref, ref_end;
};

static void find_children(const struct resolver *r, uint64_t offset,
			  const unsigned char *sha1, struct children *c)
{
	uint32_t lo = 0, hi = r->nr_ofs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->ofs[mid].base < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	c->ofs = c->ofs_end = lo;
	while (c->ofs_end < r->nr_ofs &&
	       r->ofs[c->ofs_end].base == offset)
		c->ofs_end++;
	lo = 0;
	hi = r->nr_ref;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (hashcmp(r->ref[mid].base, sha1) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	c->ref = c->ref_end = lo;
	while (c->ref_end < r->nr_ref &&
	       hasheq(r->ref[c->ref_end].base, sha1))
		c->ref_end++;
}

/* The next child not taken by another thread, or -1. */
static int64_t next_child(struct resolver *r, struct children *c)
{
	for (;;) {
		uint32_t n;
		signed char none = OBJ_NONE;

		if (c->ofs < c->ofs_end)
			n = r->ofs[c->ofs++].n;
		else if (c->ref < c->ref_end)
			n = r->ref[c->ref++].n;
		else
			return -1;
		/* a REF_DELTA whose base is in the pack twice: claim it */
		if (__atomic_compare_exchange_n(&r->p->entries[n].claimed,
						&none, 1, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return n;
	}
}

/* A base on the path from a root: its content, when held. */
struct held {
	uint32_t n;
	unsigned char *data;
	size_t size;
	struct children c;
};

struct walk {
	struct resolver *r;
	struct held *path;
	size_t depth, alloc;
	size_t bytes;			/* held by path[0..depth-1] */
	const unsigned char *ext_data;	/* the root, from the store */
	enum object_type ext_type;
	size_t resolved;
};

/*
 * Entry n's data inflated (the delta, or the whole object): NULL (f).
 * Its zlib bytes are read with pread, not through the map: the threads
 * jump about the pack, and each page fault may map a large folio of
 * it, which counts in the process's memory until the next trim.
 */
static unsigned char *inflate_again(struct resolver *r, uint32_t n,
				    struct fault *f)
{
	const struct pack_in_entry *e = &r->p->entries[n];
	uint64_t start = e->offset + e->hdr_len;
	size_t len = entry_end(r->p, n) - start, used;
	unsigned char *buf = malloc(e->size + 1 + INFLATE_SLACK);
	unsigned char *in = malloc(len ? len : 1);
	int ret;

	if (!buf || !in) {
		free(buf);
		free(in);
		set_fault(f, FAULT_IO, "out of memory for %zu bytes", e->size);
		return NULL;
	}
	if (pread_in_full(r->fd, in, len, start) < 0) {
		free(buf);
		free(in);
		set_fault_errno(f, "read the pack at %llu",
				(unsigned long long)start);
		return NULL;
	}
	ret = inflate_whole(in, len, buf, e->size, &used, 0);
	free(in);
	if (ret) {
		free(buf);
		set_fault(f, FAULT_CORRUPT, "bad object at offset %llu: %s",
			  (unsigned long long)e->offset, inflate_error(ret));
		return NULL;
	}
	buf[e->size] = '\0';
	return buf;
}

/* Apply delta entry n to base: its content (malloc'd), NULL (f). */
static unsigned char *apply_entry(struct resolver *r, uint32_t n,
				  const unsigned char *base, size_t base_size,
				  size_t *size, struct fault *f)
{
	const char *why;
	unsigned char *delta = inflate_again(r, n, f), *result;

	if (!delta)
		return NULL;
	result = apply_delta(base, base_size, delta, r->p->entries[n].size,
			     size, &why);
	free(delta);
	if (!result)
		set_fault(f, FAULT_CORRUPT, "bad delta at offset %llu: %s",
			  (unsigned long long)r->p->entries[n].offset, why);
	return result;
}

/*
 * Make path[k]'s content again from the nearest base still held (the
 * root is inflated again when none is), letting go of the bases made
 * on the way.
 */
static int remake(struct walk *w, size_t k, struct fault *f)
{
	size_t j = k, m;
	int fresh_root = 0;

	while (j > 0 && !w->path[j].data)
		j--;
	if (!w->path[j].data) {
		/* j is 0; a root from the store is never let go */
		w->path[0].data = inflate_again(w->r, w->path[0].n, f);
		if (!w->path[0].data)
			return -1;
		fresh_root = 1;
	}
	for (m = j; m < k; m++) {
		struct held *b = &w->path[m], *h = &w->path[m + 1];

		h->data = apply_entry(w->r, h->n, b->data, b->size, &h->size,
				      f);
		if (m > j || fresh_root) {
			free(b->data);
			b->data = NULL;
		}
		if (!h->data)
			return -1;
	}
	return 0;
}

/* Let go of the oldest bases held until the path holds little enough. */
static void shed_bases(struct walk *w)
{
	size_t i;

	for (i = 0; i + 1 < w->depth && w->bytes > bases_held; i++) {
		struct held *h = &w->path[i];

		if (!h->data || (i == 0 && w->ext_data))
			continue;
		w->bytes -= h->size;
		free(h->data);
		h->data = NULL;
	}
}

static void push(struct walk *w, uint32_t n, unsigned char *data,
		 size_t size)
{
	struct held *h;
	const struct pack_in_entry *e = &w->r->p->entries[n];

	ALLOC_GROW(w->path, w->depth + 1, w->alloc);
	if (w->depth)
		w->bytes += w->path[w->depth - 1].size;
	h = &w->path[w->depth++];
	h->n = n;
	h->data = data;
	h->size = size;
	find_children(w->r, e->offset, e->sha1, &h->c);
	shed_bases(w);
}

static void pop(struct walk *w)
{
	struct held *h = &w->path[--w->depth];

	if (h->data && (w->depth || !w->ext_data))
		free(h->data);
	if (w->depth && w->path[w->depth - 1].data)
		w->bytes -= w->path[w->depth - 1].size;
}

/* Resolve child n of the path's top and hand it to the caller's fn. */
static int resolve_child(struct walk *w, uint32_t n, struct fault *f)
{
	struct held *top = &w->path[w->depth - 1];
	struct pack_in_entry *e = &w->r->p->entries[n];
	const struct pack_in_entry *b = &w->r->p->entries[top->n];
	unsigned char *data;
	size_t size;
	struct children c;

	if (!top->data && remake(w, w->depth - 1, f) < 0)
		return -1;
	data = apply_entry(w->r, n, top->data, top->size, &size, f);
	if (!data)
		return -1;
	e->type = w->ext_data && w->depth == 1 ? w->ext_type : b->type;
	if (hash_sha1_file(data, size, e->type, e->sha1) < 0) {
		free(data);
		return collision_fault(e, f);
	}
	w->resolved++;
	if (w->r->p->fn && w->r->p->fn(w->r->p->data, e, data, size, f) < 0) {
		free(data);
		return -1;
	}
	find_children(w->r, e->offset, e->sha1, &c);
	if (c.ofs == c.ofs_end && c.ref == c.ref_end) {
		free(data);
		return 0;
	}
	push(w, n, data, size);
	return 0;
}

/* Resolve every delta below the path's root, depth first. */
static int walk_down(struct walk *w, struct fault *f)
{
	while (w->depth) {
		int64_t n;

		if (failed(w->r))
			return -1;
		n = next_child(w->r, &w->path[w->depth - 1].c);
		if (n < 0) {
			pop(w);
			continue;
		}
		if (resolve_child(w, n, f) < 0)
			return -1;
	}
	return 0;
}

static void end_walk(struct walk *w)
{
	while (w->depth)
		pop(w);
	free(w->path);
}

/* One task of the pool: the deltas below whole object n. */
static size_t resolve_root(void *data, size_t n)
{
	struct resolver *r = data;
	struct pack_in_entry *e = &r->p->entries[n];
	struct walk w = { r, NULL, 0, 0, 0, NULL, OBJ_NONE, 0 };
	struct children c;
	struct fault f;
	unsigned char *buf;

	if (e->in_type > OBJ_TAG || failed(r))
		return 0;
	find_children(r, e->offset, e->sha1, &c);
	if (c.ofs == c.ofs_end && c.ref == c.ref_end)
		return 0;
	buf = inflate_again(r, n, &f);
	if (!buf) {
		fail(r, &f);
		return 0;
	}
	push(&w, n, buf, e->size);
	if (walk_down(&w, &f) < 0)
		fail(r, &f);
	end_walk(&w);
	return w.resolved;
}

/*
 * A thin pack: the REF_DELTAs left whose base the store has, resolved
 * from it (one base at a time, on this thread).
 */
static int resolve_thin(struct resolver *r, size_t *resolved,
			struct fault *f)
{
	uint32_t i = 0;

	while (i < r->nr_ref && !failed(r)) {
		struct walk w = { r, NULL, 0, 0, 0, NULL, OBJ_NONE, 0 };
		const unsigned char *base = r->ref[i].base;
		struct held *h;
		enum object_type type;
		size_t size;
		void *buf;

		if (r->p->entries[r->ref[i].n].type != OBJ_NONE ||
		    !has_sha1_file(base)) {
			i++;
			continue;
		}
		buf = read_sha1_file(base, &type, &size);
		if (!buf)
			return set_fault(f, FAULT_CORRUPT, "cannot read delta "
					 "base %s", sha1_to_hex(base));
		w.ext_data = buf;
		w.ext_type = type;
		ALLOC_GROW(w.path, 1, w.alloc);
		h = &w.path[w.depth++];
		h->n = r->ref[i].n;	/* unused: not an entry */
		h->data = buf;
		h->size = size;
		find_children(r, UINT64_MAX, base, &h->c);
		if (walk_down(&w, f) < 0) {
			end_walk(&w);
			free(buf);
			return -1;
		}
		end_walk(&w);
		free(buf);
		*resolved += w.resolved;
		while (i < r->nr_ref && hasheq(r->ref[i].base, base))
			i++;
	}
	return failed(r) ? -1 : 0;
}

/* A delta left now has its base missing from the pack, or is in a cycle. */
static int report_unresolved(struct resolver *r, struct fault *f)
{
	uint32_t i, left = 0;

	for (i = 0; i < r->p->nr; i++)
		if (r->p->entries[i].type == OBJ_NONE)
			left++;
	if (!left)
		return 0;
	return set_fault(f, FAULT_CORRUPT, "pack has %u unresolved delta%s "
			 "(a base missing from the pack, or a cycle)", left,
			 left == 1 ? "" : "s");
}

static int second_pass(struct pack_in *p, struct resolver *r,
		       struct fault *f)
{
	struct progress *progress = NULL;
	size_t resolved;

	if (check_ofs_bases(r, f) < 0)
		return -1;
	qsort(r->ofs, r->nr_ofs, sizeof(*r->ofs), compare_ofs);
	qsort(r->ref, r->nr_ref, sizeof(*r->ref), compare_ref);
	if (p->progress && r->nr_ofs + r->nr_ref)
		progress = start_progress("Resolving deltas",
					  r->nr_ofs + r->nr_ref);
	resolved = run_parallel(0, p->nr, resolve_root, r, progress, 0);
	if (!failed(r) && p->thin && resolve_thin(r, &resolved, f) < 0)
		fail(r, f);
	display_progress(progress, resolved);
	stop_progress(&progress);
	if (failed(r))
		return -1;
	return report_unresolved(r, f);
}

/* ---- the whole ---- */

static int check_header(struct pack_in *p, const unsigned char *map,
			struct fault *f)
{
	uint64_t min = 12 + the_hash->rawsz;

	if (p->pack_size < min)
		return set_fault(f, FAULT_CORRUPT, "pack is truncated "
				 "(%llu bytes)",
				 (unsigned long long)p->pack_size);
	if (memcmp(map, "PACK", 4))
		return set_fault(f, FAULT_CORRUPT, "not a pack (bad "
				 "signature)");
	if (get_be32(map + 4) != 2 && get_be32(map + 4) != 3)
		return set_fault(f, FAULT_CORRUPT, "pack version %u is not "
				 "supported", get_be32(map + 4));
	p->nr = get_be32(map + 8);
	/* an entry is at least 1 byte of header and 8 of zlib */
	if (p->nr > (p->pack_size - min) / 9)
		return set_fault(f, FAULT_CORRUPT, "pack claims %u objects, "
				 "more than it can hold", p->nr);
	return 0;
}

/* The hash (algo) of the first len bytes of map into sum, a piece at a time. */
static int hash_map(const struct hash_algo *algo, const unsigned char *map,
		    uint64_t len, unsigned char *sum)
{
	struct hash_ctx ctx;
	uint64_t off = 0;

	hash_init(&ctx, algo);
	while (off < len) {
		uint64_t n = len - off;

		if (n > TRIM_BYTES)
			n = TRIM_BYTES;
		hash_update(&ctx, map + off, n);
		off += n;
		madvise((void *)map, off & ~(uint64_t)4095, MADV_DONTNEED);
	}
	return hash_final(sum, &ctx);
}

/*
 * A pack whose trailer is wrong for the_hash but right for the other
 * is not corrupt: it belongs to a store of the other kind.
 */
static int other_hash_pack(const struct pack_in *p, const unsigned char *map)
{
	const struct hash_algo *other = the_hash == &hash_sha1 ?
		&hash_sha256 : &hash_sha1;
	unsigned char sum[HASH_MAX_RAWSZ];

	if (p->pack_size < 12 + other->rawsz ||
	    hash_map(other, map, p->pack_size - other->rawsz, sum) < 0)
		return 0;
	return !memcmp(sum, map + p->pack_size - other->rawsz, other->rawsz);
}

static int check_trailer(struct pack_in *p, const unsigned char *map,
			 struct fault *f)
{
	uint64_t end = p->pack_size - the_hash->rawsz;

	if (hash_map(the_hash, map, end, p->sha1) < 0)
		return set_fault(f, FAULT_CORRUPT, "pack %s: SHA-1 collision "
				 "attack detected", sha1_to_hex(p->sha1));
	if (hasheq(p->sha1, map + end))
		return 0;
	if (other_hash_pack(p, map))
		return set_fault(f, FAULT_CORRUPT, "pack is a %s pack, the "
				 "store is %s", the_hash == &hash_sha1 ?
				 "sha256" : "sha1", the_hash->name);
	return set_fault(f, FAULT_CORRUPT, "pack is corrupted (SHA1 "
			 "mismatch)");
}

int read_pack_in(struct pack_in *p, int fd, struct fault *f)
{
	struct resolver r;
	struct stat st;
	void *map;
	int ret = -1;

	p->entries = NULL;
	if (fstat(fd, &st) < 0)
		return set_fault_errno(f, "stat");
	p->pack_size = st.st_size;
	if (p->pack_size < 12 + the_hash->rawsz)
		return check_header(p, NULL, f);
	map = mmap(NULL, p->pack_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return set_fault_errno(f, "mmap");
	memset(&r, 0, sizeof(r));
	r.p = p;
	r.map = map;
	r.fd = fd;
	r.end = p->pack_size - the_hash->rawsz;
	r.f = f;
	pthread_mutex_init(&r.lock, NULL);
	if (check_header(p, map, f) < 0 || check_trailer(p, map, f) < 0)
		goto out;
	p->entries = xcalloc(p->nr ? p->nr : 1, sizeof(*p->entries));
	r.ofs = xmalloc((p->nr ? p->nr : 1) * sizeof(*r.ofs));
	r.ref = xmalloc((p->nr ? p->nr : 1) * sizeof(*r.ref));
	if (first_pass(p, &r, f) < 0 || second_pass(p, &r, f) < 0)
		goto out;
	ret = 0;
out:
	free(r.ofs);
	free(r.ref);
	pthread_mutex_destroy(&r.lock);
	munmap(map, p->pack_size);
	if (ret) {
		free(p->entries);
		p->entries = NULL;
	}
	return ret;
}
