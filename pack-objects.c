/*
 * pack-objects: the objects listed on stdin as one pack, as git
 * pack-objects makes it: pack v2, each entry whole or a delta on a
 * base written before it (OFS_DELTA), the idx v2 beside it.
 *
 * The list is what `rev-list --objects` prints, an id and maybe the
 * path it was met at; the path only groups versions of a file for the
 * delta search (pack-delta.c).  With --revs, stdin holds revisions
 * instead (<id>, ^<id>, ref names; --all adds every ref) and the
 * objects are walked here.  What a pack of the store holds already is
 * copied rather than made again: a whole entry as its zlib bytes, a
 * delta whose base goes into the new pack as its delta (CRC-checked
 * against the idx first); --no-reuse-delta and --no-reuse-object say
 * no.  With <base-name>, writes <base-name>-<hex>.pack and .idx (temp
 * files renamed, pack first) and prints <hex>; with --stdout, writes
 * the pack on stdout.  Every id is looked up before any byte goes
 * out: one that names nothing stops it with nothing written; an object
 * found corrupt when read stops it too, its temporary files removed
 * (what went to stdout stays written).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cache.h"
#include "pack.h"
#include "history.h"

static const char pack_objects_usage[] =
	"pack-objects [-q | --progress] [--window=N] [--depth=N] "
	"[--window-memory=N[k|m|g]] [--threads=N] [--no-reuse-delta] "
	"[--no-reuse-object] [--revs] [--all] [--stdout | <base-name>] "
	"< list";

static int window = 10, depth = 50, nr_threads;
static int reuse_delta = 1, reuse_object = 1;
static int use_revs, all_refs, to_stdout;
static int level = Z_DEFAULT_COMPRESSION;
/* What one thread's delta window may hold (git's pack.windowMemory). */
static size_t window_memory = (size_t)64 << 20;
/* Bigger objects are no delta nor base (git's core.bigFileThreshold). */
static size_t big_file_threshold = (size_t)512 << 20;
/*
 * A whole object bigger than this is deflated as it is read, when its
 * turn to be written comes, never held (nor its zlib bytes): any size
 * goes through in a few pieces of memory.  Smaller ones are read and
 * deflated whole on every core, a batch at a time.
 */
#define STREAM_MIN ((size_t)16 << 20)

/* The objects, in the order given, and a table of them by id. */
static struct object_entry *objects;
static size_t nr_objects, alloc_objects;
static uint32_t *table;		/* index + 1, or 0 */
static size_t table_mask;

/* The pack being written, removed unless it is complete. */
static struct pack_tmp tmp;
static int tmp_open;

static void remove_tmp_pack(void)
{
	if (tmp_open)
		remove_pack_tmp(&tmp);
	tmp_open = 0;
}

static size_t bucket(const unsigned char *sha1)
{
	return get_be32(sha1) & table_mask;
}

static struct object_entry *locate(const unsigned char *sha1)
{
	size_t b = bucket(sha1);

	while (table[b]) {
		struct object_entry *e = &objects[table[b] - 1];

		if (hasheq(e->sha1, sha1))
			return e;
		b = (b + 1) & table_mask;
	}
	return NULL;
}

static void rehash(void)
{
	size_t i;

	free(table);
	table_mask = table_mask ? 2 * table_mask + 1 : 1023;
	table = xcalloc(table_mask + 1, sizeof(*table));
	for (i = 0; i < nr_objects; i++) {
		size_t b = bucket(objects[i].sha1);

		while (table[b])
			b = (b + 1) & table_mask;
		table[b] = i + 1;
	}
}

/* Add an object once; the first path it comes with counts. */
static void add_object(const unsigned char *sha1, const char *path)
{
	struct object_entry *e;

	if (table && locate(sha1))
		return;
	if (nr_objects >= UINT32_MAX - 1)
		die("too many objects for one pack");
	ALLOC_GROW(objects, nr_objects + 1, alloc_objects);
	e = &objects[nr_objects++];
	memset(e, 0, sizeof(*e));
	hashcpy(e->sha1, sha1);
	e->name_hash = pack_name_hash(path);
	e->order = nr_objects - 1;
	if (2 * nr_objects > table_mask)
		rehash();
	else {
		size_t b = bucket(sha1);

		while (table[b])
			b = (b + 1) & table_mask;
		table[b] = nr_objects;
	}
}

/* Lines as rev-list --objects prints them: "<id>" or "<id> <path>". */
static void read_object_list(void)
{
	char *line = NULL;
	size_t alloc = 0;
	ssize_t len;
	unsigned char sha1[HASH_MAX_RAWSZ];
	ssize_t hexsz = the_hash->hexsz;

	while ((len = getline(&line, &alloc, stdin)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len < hexsz || get_sha1_hex(line, sha1) < 0 ||
		    (len > hexsz && line[hexsz] != ' '))
			die("expected object id, got garbage: '%s'", line);
		add_object(sha1, len > hexsz ? line + hexsz + 1 : NULL);
	}
	if (ferror(stdin))
		die_errno("read the object list");
	free(line);
}

static int add_ref(const char *name, const unsigned char *sha1, void *data)
{
	struct rev_info *revs = data;

	if (add_revision(revs, sha1, 0) < 0)
		die("bad ref '%s'", name);
	return 0;
}

static int show_walked(const struct object *obj, const char *path,
		       void *data)
{
	(void)data;
	add_object(obj->sha1, path);
	return 0;
}

/* --revs: the revisions on stdin (and every ref), walked here. */
static void walk_revisions(void)
{
	struct rev_info revs;
	struct commit *c;
	char *line = NULL;
	size_t alloc = 0;
	ssize_t len;
	unsigned char sha1[HASH_MAX_RAWSZ];

	init_revisions(&revs);
	revs.tree_objects = 1;
	while ((len = getline(&line, &alloc, stdin)) > 0) {
		int excluded = line[0] == '^';

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!line[excluded])
			continue;
		if (get_sha1(line + excluded, sha1) < 0 ||
		    add_revision(&revs, sha1, excluded) < 0)
			die("bad revision '%s'", line);
	}
	free(line);
	if (all_refs)
		for_each_ref(add_ref, &revs);
	if (prepare_revision_walk(&revs) < 0)
		die("cannot walk the revisions");
	while ((c = get_revision(&revs)))
		add_object(c->object.sha1, NULL);
	if (revs.failed || walk_objects(&revs, show_walked, NULL))
		die("cannot walk the revisions");
	release_revisions(&revs);
}

/*
 * The objects in the order of the packs that hold them, by offset,
 * loose ones last: headers read in that order touch each page of a
 * pack once, and the pages read can be given back as we go (the
 * kernel maps pages around each one touched: in the list's order the
 * whole pack would be ours at once).
 */
static struct object_entry **by_place;

static size_t find_one(void *data, size_t i)
{
	struct object_entry *e = &objects[i];

	(void)data;
	if (find_packed(e->sha1, &e->in_pack, &e->in_pos) < 0)
		e->in_pack = NULL;
	else
		e->in.offset = nth_packed_offset(e->in_pack, e->in_pos);
	return 0;
}

static int compare_place(const void *a_, const void *b_)
{
	const struct object_entry *a = *(struct object_entry *const *)a_;
	const struct object_entry *b = *(struct object_entry *const *)b_;

	if (a->in_pack != b->in_pack) {
		if (!a->in_pack || !b->in_pack)
			return a->in_pack ? -1 : 1;
		return a->in_pack < b->in_pack ? -1 : 1;
	}
	if (a->in.offset != b->in.offset)
		return a->in.offset < b->in.offset ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void sort_by_place(void)
{
	size_t i;

	run_parallel_threads(nr_threads, 0, nr_objects, find_one, NULL,
			     NULL, 0);
	by_place = xmalloc((nr_objects + 1) * sizeof(*by_place));
	for (i = 0; i < nr_objects; i++)
		by_place[i] = &objects[i];
	qsort(by_place, nr_objects, sizeof(*by_place), compare_place);
}

/* The faults of one piece of by_place, from first on. */
struct count_piece {
	size_t first;
	struct fault *faults;
};

/* The type and size of by_place[i]. */
static size_t count_one(void *data, size_t i)
{
	struct count_piece *piece = data;
	struct object_entry *e = by_place[i];
	struct fault *f = &piece->faults[i - piece->first];
	size_t size;
	int ret;

	if (e->in_pack)
		ret = pack_object_info(e->in_pack, e->in_pos, &e->type, &size,
				       f);
	else
		ret = object_info(e->sha1, &e->type, &size, f);
	if (ret < 0 && f->code == FAULT_NONE)
		f->code = FAULT_CORRUPT;
	else if (!ret) {
		f->code = FAULT_NONE;
		e->size = size;
	}
	return 1;
}

/* Give back the pages of the packs read so far (see by_place). */
#define TRIM_EVERY 1024

static void trim_packs(void)
{
	struct packed_git *p;

	for (p = get_packs(); p; p = p->next)
		trim_pack(p);
}

static void count_objects(void)
{
	struct count_piece piece = { 0, NULL };
	struct progress *progress;
	size_t i, done = 0;

	piece.faults = xcalloc(TRIM_EVERY, sizeof(*piece.faults));
	progress = start_progress("Counting objects", nr_objects);
	sort_by_place();
	for (; piece.first < nr_objects; piece.first += TRIM_EVERY) {
		size_t end = nr_objects - piece.first < TRIM_EVERY ?
			nr_objects : piece.first + TRIM_EVERY;

		done = run_parallel_threads(nr_threads, piece.first, end,
					    count_one, &piece, progress, done);
		trim_packs();
		for (i = piece.first; i < end; i++) {
			struct fault *f = &piece.faults[i - piece.first];

			if (f->code == FAULT_NONE)
				continue;
			report_object_fault(by_place[i]->sha1, f);
			exit(128);
		}
	}
	stop_progress(&progress);
	free(piece.faults);
}

/* The object at offset of p (a delta's base), if it is in the pack made. */
static struct object_entry *entry_at(struct packed_git *p, uint64_t offset)
{
	struct fault f;
	const uint64_t *order = pack_order(p, &f);
	size_t lo = 0, hi = p->nr;

	if (!order)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (order[2 * mid] == offset)
			return locate(nth_packed_sha1(p, order[2 * mid + 1]));
		if (order[2 * mid] < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* What of e's stored entry can be copied: whole, its delta, or nothing. */
static void check_reuse(struct object_entry *e)
{
	struct packed_git *p = e->in_pack;
	struct fault f;
	struct object_entry *base = NULL;

	e->reuse = REUSE_NONE;
	if (!p || !reuse_object || !pack_order(p, &f) ||
	    pack_entry_info(p, e->in_pos, &e->in, &f) < 0)
		return;
	if (e->in.type == OBJ_OFS_DELTA)
		base = entry_at(p, e->in.base_offset);
	else if (e->in.type == OBJ_REF_DELTA)
		base = locate(e->in.base_sha1);
	else {
		e->reuse = REUSE_WHOLE;
		return;
	}
	if (!base || !reuse_delta || base == e || base->type != e->type)
		return;
	e->reuse = REUSE_DELTA;
	e->delta = base;
	e->delta_size = e->in.size;
}

enum { UNSEEN, ON_PATH, DONE };

/* Keep e whole in the new pack, its delta made anew or not at all. */
static void cut_delta(struct object_entry *e)
{
	e->delta = NULL;
	e->reuse = REUSE_NONE;
	e->depth = 0;
}

/*
 * The depth of each chain of reused deltas, cut where it runs deeper
 * than allowed or round in a circle (two packs holding each object as
 * a delta of the other).  state[] is per object.
 */
static void chain_depth(struct object_entry *e, unsigned char *state,
			struct object_entry ***path, size_t *alloc)
{
	struct object_entry *b = e;
	size_t n = 0;

	while (state[b - objects] == UNSEEN && b->delta) {
		state[b - objects] = ON_PATH;
		ALLOC_GROW(*path, n + 1, *alloc);
		(*path)[n++] = b;
		b = b->delta;
	}
	if (state[b - objects] == ON_PATH)
		cut_delta(b);
	state[b - objects] = DONE;
	while (n--) {
		struct object_entry *x = (*path)[n];

		if (state[x - objects] == DONE)
			continue;
		state[x - objects] = DONE;
		if (x->delta->depth + 1 > (unsigned int)depth)
			cut_delta(x);
		else
			x->depth = x->delta->depth + 1;
	}
}

static void decide_reuse(void)
{
	struct object_entry **path = NULL;
	unsigned char *state;
	size_t i, alloc = 0;

	for (i = 0; i < nr_objects; i++) {
		check_reuse(by_place[i]);
		if (i % TRIM_EVERY == TRIM_EVERY - 1)
			trim_packs();
	}
	trim_packs();
	free(by_place);
	state = xcalloc(nr_objects, 1);
	for (i = 0; i < nr_objects; i++)
		chain_depth(&objects[i], state, &path, &alloc);
	free(state);
	free(path);
	/* How far reused deltas hang below each base. */
	for (i = 0; i < nr_objects; i++) {
		struct object_entry *b = &objects[i];
		unsigned int h = 0;

		while (b->delta && b->reuse == REUSE_DELTA) {
			b = b->delta;
			if (b->height < ++h)
				b->height = h;
		}
	}
}

static int compare_type_size(const void *a_, const void *b_)
{
	const struct object_entry *a = *(struct object_entry *const *)a_;
	const struct object_entry *b = *(struct object_entry *const *)b_;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * Whether two objects of sizes small <= big could ever make a delta:
 * the search tries none where the target is under 1/32 of its base,
 * nor one on a base under half the target's size, so the pair needs
 * small >= big / 32 either way round.
 */
static int could_pair(size_t small, size_t big)
{
	return small >= big / 32;
}

/*
 * Take out of list (sorted by type and size) the objects too big to be
 * read for nothing: over STREAM_MIN with no object of their type near
 * enough in size to be a delta's base or target.  The search would
 * read each whole (a blob of 5 GiB and a few small ones).  Those left
 * keep their order.
 */
static size_t drop_lonely(struct object_entry **list, size_t n)
{
	struct object_entry **sorted = xmalloc((n + 1) * sizeof(*sorted));
	unsigned char *lonely = xcalloc(nr_objects, 1);
	size_t i, k = 0;

	memcpy(sorted, list, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_type_size);
	for (i = 0; i < n; i++) {
		struct object_entry *e = sorted[i];
		const struct object_entry *lo = i ? sorted[i - 1] : NULL;
		const struct object_entry *hi = i + 1 < n ? sorted[i + 1] : NULL;

		if (e->size <= STREAM_MIN)
			continue;
		if ((lo && lo->type == e->type && could_pair(lo->size, e->size)) ||
		    (hi && hi->type == e->type && could_pair(e->size, hi->size)))
			continue;
		lonely[e - objects] = 1;
	}
	for (i = 0; i < n; i++)
		if (!lonely[list[i] - objects])
			list[k++] = list[i];
	free(lonely);
	free(sorted);
	return k;
}

/* The objects the delta search may deltify, searched. */
static void search_deltas(void)
{
	struct object_entry **list = xmalloc(nr_objects * sizeof(*list));
	struct delta_search opt = {
		window, depth, nr_threads, level, reuse_delta, window_memory,
		NULL
	};
	size_t i, n = 0;

	for (i = 0; i < nr_objects; i++)
		if (objects[i].reuse != REUSE_DELTA && objects[i].size >= 50 &&
		    objects[i].size <= big_file_threshold)
			list[n++] = &objects[i];
	n = drop_lonely(list, n);
	opt.progress = start_progress("Compressing objects", n);
	if (find_deltas(list, n, &opt) < 0)
		exit(128);
	stop_progress(&opt.progress);
	/* A new delta beats the whole entry a pack has. */
	for (i = 0; i < n; i++)
		if (list[i]->delta)
			list[i]->reuse = REUSE_NONE;
	free(list);
}

/* The order of the entries: as given, each base before its deltas. */
static struct object_entry **write_order(void)
{
	struct object_entry **order = xmalloc(nr_objects * sizeof(*order));
	struct object_entry **chain = NULL;
	unsigned char *queued = xcalloc(nr_objects, 1);
	size_t i, n = 0, alloc = 0;

	for (i = 0; i < nr_objects; i++) {
		struct object_entry *b = &objects[i];
		size_t k = 0;

		for (; b && !queued[b - objects]; b = b->delta) {
			ALLOC_GROW(chain, k + 1, alloc);
			chain[k++] = b;
		}
		while (k--) {
			queued[chain[k] - objects] = 1;
			order[n++] = chain[k];
		}
	}
	free(chain);
	free(queued);
	return order;
}

/* A reused entry's bytes are copied, and CRC-checked, this much at a time. */
#define COPY_PIECE ((size_t)32 << 20)

/* One batch of entries is prepared on every core, then written in order. */
#define BATCH_OBJECTS 256
#define BATCH_BYTES (16 << 20)

struct prepared {
	unsigned char *zdata;	/* a whole object deflated (ours) */
	size_t zlen;
	struct fault fault;
};

struct writer {
	struct hashfile *f;
	struct object_entry **order;
	struct prepared *prep;	/* prep[i - first] for order[i] */
	size_t first;
	struct pack_idx_entry *ents;
};

/* Read and deflate e whole: 0, or -1 (f). */
static int deflate_whole(struct object_entry *e, struct prepared *p)
{
	enum object_type type;
	size_t size;
	void *buf = read_object(e->sha1, &type, &size, &p->fault);

	if (!buf)
		return -1;
	if (type != e->type || size != e->size) {
		free(buf);
		return set_fault(&p->fault, FAULT_CORRUPT,
				 "changed type or size while packed");
	}
	p->zdata = zlib_deflate(buf, size, level, &p->zlen);
	free(buf);
	if (!p->zdata)
		return set_fault(&p->fault, FAULT_IO, "cannot deflate");
	p->fault.code = FAULT_NONE;
	return 0;
}

static size_t prepare_one(void *data, size_t i)
{
	struct writer *w = data;
	struct object_entry *e = w->order[i];
	struct prepared *p = &w->prep[i - w->first];

	p->fault.code = FAULT_NONE;
	p->zdata = NULL;
	if (e->reuse != REUSE_NONE) {
		struct fault f;
		int bad = check_pack_crc(e->in_pack, e->in_pos, &f);

		/* A big entry's pages, read whole, are given back. */
		if (e->in.length > COPY_PIECE)
			trim_pack(e->in_pack);
		if (!bad)
			return 1;
		/* Bad bytes in the old pack: not copied, made anew. */
		e->reuse = REUSE_NONE;
		e->delta = NULL;
	}
	if (!e->delta && e->size <= STREAM_MIN)
		deflate_whole(e, p);
	return 1;
}

/* The zlib bytes of a reused entry, mapped until unuse_pack(*win). */
static const unsigned char *reused_bytes(struct object_entry *e,
					 size_t *len, struct pack_window **win)
{
	struct fault f;
	struct pack_entry_info info;
	size_t whole;
	const unsigned char *buf = use_pack_entry(e->in_pack, e->in.offset,
						  &whole, NULL, win, &f);
	int hdr = buf ? parse_pack_entry(buf, whole, e->in.offset, &info,
					 &f) : -1;

	if (hdr < 0) {
		unuse_pack(*win);
		report_object_fault(e->sha1, &f);
		return NULL;
	}
	*len = whole - hdr;
	return buf + hdr;
}

/*
 * Copy the len bytes of a reused entry into the pack: a big one a piece
 * at a time, its pages given back after each (a mapped page read counts
 * in our memory until then).
 */

static int copy_reused(struct writer *w, struct object_entry *e,
		       const unsigned char *data, size_t len)
{
	while (len > COPY_PIECE) {
		if (hashwrite(w->f, data, COPY_PIECE) < 0)
			return -1;
		if (e->reuse != REUSE_NONE)
			trim_pack(e->in_pack);
		data += COPY_PIECE;
		len -= COPY_PIECE;
	}
	return hashwrite(w->f, data, len);
}

/* A whole object too big to hold: deflated as it is read. */
static int write_streamed(struct writer *w, struct object_entry *e,
			  const unsigned char *hdr, int hlen,
			  struct pack_idx_entry *ent)
{
	struct fault f;
	uint32_t crc = crc32(0, hdr, hlen);

	hashcpy(ent->sha1, e->sha1);
	ent->offset = e->offset;
	if (hashwrite(w->f, hdr, hlen) < 0)
		return error_errno("write the pack");
	if (write_streamed_entry(w->f, e->sha1, e->type, e->size, level,
				 &crc, &f) < 0)
		return report_object_fault(e->sha1, &f);
	ent->crc = crc;
	return 0;
}

static int write_entry(struct writer *w, struct object_entry *e,
		       struct prepared *p, struct pack_idx_entry *ent)
{
	unsigned char hdr[32];
	const unsigned char *data = p->zdata;
	size_t len = p->zlen;
	struct pack_window *win = NULL;
	int hlen, ret;

	if (p->fault.code != FAULT_NONE)
		return report_object_fault(e->sha1, &p->fault);
	e->offset = w->f->total;
	if (e->delta)
		hlen = pack_entry_header(hdr, OBJ_OFS_DELTA, e->delta_size,
				    e->offset - e->delta->offset);
	else
		hlen = pack_entry_header(hdr, e->type, e->size, 0);
	if (e->reuse != REUSE_NONE)
		data = reused_bytes(e, &len, &win);
	else if (e->delta) {
		data = e->delta_data;
		len = e->delta_zlen;
	} else if (e->size > STREAM_MIN) {
		return write_streamed(w, e, hdr, hlen, ent);
	}
	if (!data)
		return -1;
	hashcpy(ent->sha1, e->sha1);
	ent->offset = e->offset;
	ent->crc = crc32_z(crc32(0, hdr, hlen), data, len);
	ret = hashwrite(w->f, hdr, hlen);
	if (!ret)
		ret = copy_reused(w, e, data, len);
	/* Counted, so that the pages read are given back as we go. */
	unuse_pack_read(win, len);
	if (ret < 0)
		return error_errno("write the pack");
	return 0;
}

/* order[first, end) on every core, then into the pack. */
static int write_batch(struct writer *w, size_t end,
		       struct progress *progress)
{
	size_t i;
	int ret = 0;

	run_parallel_threads(nr_threads, w->first, end, prepare_one, w,
			     NULL, 0);
	for (i = w->first; i < end; i++) {
		struct prepared *p = &w->prep[i - w->first];

		if (!ret)
			ret = write_entry(w, w->order[i], p, &w->ents[i]);
		free(p->zdata);
		display_progress(progress, i + 1);
	}
	/* The entries copied are scattered over the old packs. */
	trim_packs();
	return ret;
}

static size_t batch_end(struct object_entry **order, size_t first)
{
	size_t end = first, bytes = 0;

	while (end < nr_objects && end - first < BATCH_OBJECTS &&
	       (end == first || bytes + order[end]->size <= BATCH_BYTES))
		bytes += order[end++]->size;
	return end;
}

/* The pack into fd: its entries and trailer; -1 after error(). */
static int write_pack(int fd, struct pack_idx_entry *ents,
		      unsigned char *pack_sha1)
{
	struct writer w = { hashfd(fd), write_order(), NULL, 0, ents };
	struct progress *progress;
	unsigned char hdr[12];
	int ret;

	w.f->name = "the pack";
	w.prep = xcalloc(BATCH_OBJECTS, sizeof(*w.prep));
	memcpy(hdr, "PACK", 4);
	put_be32(hdr + 4, 2);
	put_be32(hdr + 8, nr_objects);
	ret = hashwrite(w.f, hdr, sizeof(hdr));
	if (ret)
		error_errno("write the pack");
	progress = start_progress("Writing objects", nr_objects);
	while (!ret && w.first < nr_objects) {
		size_t end = batch_end(w.order, w.first);

		ret = write_batch(&w, end, progress);
		w.first = end;
	}
	stop_progress(&progress);
	if (hashfile_finish(w.f, pack_sha1) < 0 && !ret)
		ret = error_errno("write the pack");
	free(w.prep);
	free(w.order);
	return ret;
}

static void write_to_stdout(void)
{
	struct pack_idx_entry *ents = xmalloc((nr_objects + 1) *
					      sizeof(*ents));
	unsigned char pack_sha1[HASH_MAX_RAWSZ];

	if (write_pack(1, ents, pack_sha1) < 0)
		exit(128);
	free(ents);
}

static void write_to_files(const char *base_name)
{
	struct pack_idx_entry *ents = xmalloc((nr_objects + 1) *
					      sizeof(*ents));
	unsigned char pack_sha1[HASH_MAX_RAWSZ];

	if (open_pack_tmp(&tmp, base_name) < 0) {
		remove_pack_tmp(&tmp);
		exit(128);
	}
	tmp_open = 1;
	atexit(remove_tmp_pack);
	if (write_pack(tmp.pack_fd, ents, pack_sha1) < 0 ||
	    finish_pack_tmp(&tmp, ents, nr_objects, pack_sha1) < 0)
		exit(128);
	remove_tmp_pack();
	printf("%s\n", sha1_to_hex(pack_sha1));
	free(ents);
}

static int parse_int(const char *arg, const char *name, int *v)
{
	size_t n = strlen(name);
	char *end;
	long l;

	if (strncmp(arg, name, n) || arg[n] != '=')
		return 0;
	l = strtol(arg + n + 1, &end, 10);
	if (end == arg + n + 1 || *end || l < 0 || l > 4095)
		die("%s: not a number from 0 to 4095: '%s'", name, arg + n + 1);
	*v = l;
	return 1;
}

/* --window-memory=N, with git's k, m or g after it. */
static int parse_window_memory(const char *arg)
{
	const char *name = "--window-memory=";
	unsigned long long v;
	char *end;
	int shift = 0;

	if (strncmp(arg, name, strlen(name)))
		return 0;
	arg += strlen(name);
	v = strtoull(arg, &end, 10);
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end == 'g' || *end == 'G')
		shift = 30;
	if (end == arg || *arg == '-' || end[!!shift] ||
	    v > (SIZE_MAX >> 30))
		die("--window-memory: not a size: '%s'", arg);
	window_memory = (size_t)v << shift;
	return 1;
}

/* core.bigFileThreshold, as git reads it (k, m or g after it). */
static void read_big_file_threshold(void)
{
	char *value = NULL;
	long v;
	int ret = config_get("core.bigfilethreshold", &value);

	if (ret < 0)
		exit(128);
	if (ret > 0 && (config_int(value, &v) < 0 || v < 0))
		die("bad numeric config value '%s' for "
		    "'core.bigfilethreshold'", value ? value : "");
	if (ret > 0)
		big_file_threshold = v;
	free(value);
}

static int parse_option(const char *arg)
{
	if (!strcmp(arg, "-q"))
		set_progress_mode(-1);
	else if (!strcmp(arg, "--progress"))
		set_progress_mode(1);
	else if (!strcmp(arg, "--no-reuse-delta"))
		reuse_delta = 0;
	else if (!strcmp(arg, "--no-reuse-object"))
		reuse_object = reuse_delta = 0;
	else if (!strcmp(arg, "--revs"))
		use_revs = 1;
	else if (!strcmp(arg, "--all"))
		all_refs = 1;
	else if (!strcmp(arg, "--stdout"))
		to_stdout = 1;
	else if (!parse_window_memory(arg) &&
		 !parse_int(arg, "--window", &window) &&
		 !parse_int(arg, "--depth", &depth) &&
		 !parse_int(arg, "--threads", &nr_threads))
		return -1;
	return 0;
}

/*
 * glibc serves a block of 128 KiB or more with mmap and gives it back
 * on free, but raises that threshold to the size of each such block
 * freed (up to 32 MiB): after the first big object, the objects and
 * delta indexes of the search came from the threads' heaps, and what
 * was freed stayed ours (a kernel's pack: 190 MB still held after the
 * search, 220 MB at the peak).  A fixed threshold keeps it at 128 KiB.
 */
static void give_back_big_blocks(void)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 128 << 10);
#endif
}

int main(int argc, char **argv)
{
	const char *base_name = NULL;
	int i;

	setup_tool(argv[0]);
	give_back_big_blocks();
	handle_help(argc, argv, pack_objects_usage);
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-' && !base_name)
			base_name = argv[i];
		else if (argv[i][0] != '-' || parse_option(argv[i]) < 0)
			usage(pack_objects_usage);
	}
	if (!to_stdout == !base_name || (all_refs && !use_revs))
		usage(pack_objects_usage);
	if (!nr_threads)
		nr_threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ?
			sysconf(_SC_NPROCESSORS_ONLN) : 1;
	if (setup_repository() < 0)
		exit(128);
	read_big_file_threshold();
	if (use_revs)
		walk_revisions();
	else
		read_object_list();
	count_objects();
	decide_reuse();
	search_deltas();
	if (to_stdout)
		write_to_stdout();
	else
		write_to_files(base_name);
	if (fflush(stdout) || ferror(stdout))
		die_errno("write to stdout");
	return 0;
}
