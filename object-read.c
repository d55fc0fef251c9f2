/*
 * object-read.c: the object store's one reader.  Every object is found
 * through one lookup that asks the sources in turn (the packs:
 * pack-read.c; the loose objects: loose.c; the alternates' loose
 * objects: alternates.c), so packed and loose objects look the same to
 * every tool, and every object handed out is checked (stream.c)
 * against its id.  A lookup that misses looks for new packs once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "pack.h"

/*
 * bench/run builds a second copy of the tools with -DBENCH_UNVERIFIED to
 * measure what the hash on read costs (and object-write.c's collision
 * check).  Nothing else may define it: those copies trust the store
 * blindly.
 */
#ifdef BENCH_UNVERIFIED
#define VERIFY_READ_HASH 0
#else
#define VERIFY_READ_HASH 1
#endif

/* ---- abbreviations ---- */

struct neighbour {
	const unsigned char *sha1;
	int len;
};

static int note_neighbour(const unsigned char *sha1, void *data)
{
	struct neighbour *nb = data;
	int n;

	if (!hasheq(sha1, nb->sha1) &&
	    (n = common_hex_digits(sha1, nb->sha1, the_hash->rawsz) + 1) >
	    nb->len)
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
	int len = loose_abbrev_len(sha1, min);

	len = packed_abbrev_len(sha1, len);
	len = alternate_abbrev_len(sha1, len);
	return len < (int)the_hash->hexsz ? len : (int)the_hash->hexsz;
}

/*
 * git's "auto" length: about n objects collide at 2^(bits(n)/2), 4
 * bits a digit, so half the bits n needs, rounded up, at least 7.  n
 * is git's approximate count, the objects in packs (loose ones are
 * not counted).
 */
static int auto_abbrev_len(void)
{
	static int len;
	struct packed_git *p;
	uint64_t n = 0;
	int bits = 0;

	if (len)
		return len;
	for (p = get_packs(); p; p = p->next)
		n += p->nr;
	while (n >>= 1)
		bits++;
	len = (bits + 2) / 2;	/* (msb + 1) / 2, rounded up */
	if (len < 7)
		len = 7;
	return len;
}

/*
 * core.abbrev: a number (4 to the hex digits of an id), "auto", or a
 * false boolean (all the digits).
 */
static int parse_abbrev(const char *value)
{
	char *end;
	long n;

	if (!value)
		return error("missing value for 'core.abbrev'");
	if (!strcasecmp(value, "auto"))
		return ABBREV_AUTO;
	if (!strcasecmp(value, "false") || !strcasecmp(value, "no") ||
	    !strcasecmp(value, "off"))
		return the_hash->hexsz;
	n = strtol(value, &end, 10);
	if (end == value || *end)
		return error("bad numeric config value '%s' for 'core.abbrev'",
			     value);
	if (n < 4 || n > (long)the_hash->hexsz)
		return error("abbrev length out of range: %ld", n);
	return n;
}

int default_abbrev(void)
{
	static int len, known;
	char *value;
	int ret;

	if (known)
		return len;
	known = 1;
	len = ABBREV_AUTO;
	ret = config_get("core.abbrev", &value);
	if (ret > 0) {
		ret = parse_abbrev(value);
		if (ret != -1)
			len = ret;
	}
	free(value);
	return len;
}

int find_abbrev_len(const unsigned char *sha1, int len)
{
	if (len == ABBREV_DEFAULT)
		len = default_abbrev();
	if (len == ABBREV_AUTO)
		len = auto_abbrev_len();
	if (len >= (int)the_hash->hexsz)
		return the_hash->hexsz;
	return unique_abbrev_len(sha1, len < 4 ? 4 : len);
}

/* ---- the sources ---- */

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
	open_loose_object,
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

int open_object_unverified(struct object_stream *st,
			   const unsigned char *sha1, struct fault *f)
{
	return open_sources(st, sha1, 0, f);
}

int open_object_stream(struct object_stream *st, const unsigned char *sha1,
		       struct fault *f)
{
	if (open_object_unverified(st, sha1, f) < 0)
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
 * The sources in the order open_object_unverified asks them, headers alone:
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
		ret = stream_info(open_loose_object, sha1, type, size, f);
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

