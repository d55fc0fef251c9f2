/*
 * object.c: parsing trees and commits.  Every tool that reads a tree
 * walks it with tree_entry_next() (and checks it first with fsck.c's
 * check_tree(), so a hostile tree is refused the same way everywhere).
 * Modes are read as git reads them, canonicalised (a 2005 tree's
 * 100664 is 100644).  Parsers take (buf, len) and trust nothing in it.
 * The shallow commits of a shallow clone, whose parents git never
 * fetched, are known here, so that every walk sees them as roots.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"

void init_tree_desc(struct tree_desc *desc, const void *buf, size_t size)
{
	desc->buf = buf;
	desc->size = size;
}

/*
 * The two modes nearly every entry has, "100644 " and "40000 ", read
 * at once: digit by digit they were a fifth of parsing a tree.  *p
 * moves past the space; 0 for any other mode.
 */
static unsigned int common_mode(const unsigned char **p,
				const unsigned char *end)
{
	if (end - *p >= 7 && !memcmp(*p, "100644 ", 7)) {
		*p += 7;
		return 0100644;
	}
	if (end - *p >= 6 && !memcmp(*p, "40000 ", 6)) {
		*p += 6;
		return 040000;
	}
	return 0;
}

int tree_entry_raw(struct tree_desc *desc, struct name_entry *entry)
{
	const unsigned char *p = desc->buf, *end = p + desc->size;
	const unsigned char *nul;
	size_t rawsz = the_hash->rawsz;
	unsigned int mode;

	if (!desc->size)
		return 0;
	mode = common_mode(&p, end);
	if (mode)
		goto name;
	for (; p < end && *p != ' '; p++) {
		if (*p < '0' || *p > '7' || mode > 0177777)
			return -1;
		mode = mode << 3 | (*p - '0');
	}
	if (p == desc->buf || p == end)
		return -1;
	p++;
name:
	nul = memchr(p, '\0', end - p);
	if (!nul || nul == p || (size_t)(end - nul - 1) < rawsz)
		return -1;
	entry->mode = mode;
	entry->path = (const char *)p;
	entry->pathlen = nul - p;
	entry->sha1 = nul + 1;
	desc->size -= nul + 1 + rawsz - desc->buf;
	desc->buf = nul + 1 + rawsz;
	return 1;
}

unsigned int canon_mode(unsigned int mode)
{
	if (S_ISREG(mode))
		return S_IFREG | ((mode & 0100) ? 0755 : 0644);
	if (S_ISLNK(mode))
		return S_IFLNK;
	if (S_ISDIR(mode))
		return S_IFDIR;
	return S_IFGITLINK;
}

int tree_entry_next(struct tree_desc *desc, struct name_entry *entry)
{
	int ret = tree_entry_raw(desc, entry);

	if (ret > 0)
		entry->mode = canon_mode(entry->mode);
	return ret;
}

int base_name_compare(const char *n1, size_t l1, unsigned int m1,
		      const char *n2, size_t l2, unsigned int m2)
{
	size_t len = l1 < l2 ? l1 : l2;
	unsigned char c1, c2;
	int cmp = memcmp(n1, n2, len);

	if (cmp)
		return cmp;
	c1 = len < l1 ? n1[len] : (S_ISDIR(m1) ? '/' : '\0');
	c2 = len < l2 ? n2[len] : (S_ISDIR(m2) ? '/' : '\0');
	return c1 < c2 ? -1 : c1 > c2;
}

enum object_type object_type_of_mode(unsigned int mode)
{
	if (S_ISDIR(mode))
		return OBJ_TREE;
	if (S_ISGITLINK(mode))
		return OBJ_COMMIT;
	return OBJ_BLOB;
}

/* ---- file/directory clashes ---- */

/* Does name extend the file f by a byte that sorts below '/'? */
static int may_lie_between(const struct df_name *f, const char *name,
			   size_t len)
{
	return len > f->len && !memcmp(name, f->name, f->len) &&
	       (unsigned char)name[f->len] < '/';
}

/*
 * Keep a stack of files each extending the one below it by a byte that
 * sorts below '/': only those can still be followed by a directory of
 * their name.  A name that does not extend the top ends the top's run
 * for good, so each file is pushed and popped once.
 */
void df_check_file(struct df_check *c, const char *name, size_t len)
{
	while (c->nr && !may_lie_between(&c->files[c->nr - 1], name, len))
		c->nr--;
	ALLOC_GROW(c->files, c->nr + 1, c->alloc);
	c->files[c->nr].name = name;
	c->files[c->nr++].len = len;
}

int df_check_dir(struct df_check *c, const char *name, size_t len)
{
	while (c->nr) {
		const struct df_name *top = &c->files[c->nr - 1];

		if (top->len == len && !memcmp(top->name, name, len))
			return 1;
		if (may_lie_between(top, name, len))
			return 0;
		c->nr--;
	}
	return 0;
}

void df_check_clear(struct df_check *c)
{
	free(c->files);
	memset(c, 0, sizeof(*c));
}

static int parse_sha1_line(const char **p, const char *end,
			   const char *key, unsigned char *sha1)
{
	size_t klen = strlen(key), hexsz = the_hash->hexsz;

	if ((size_t)(end - *p) < klen + hexsz + 1 || memcmp(*p, key, klen) ||
	    (*p)[klen + hexsz] != '\n' || get_sha1_hex(*p + klen, sha1) < 0)
		return -1;
	*p += klen + hexsz + 1;
	return 0;
}

int parse_commit_buffer(const void *buf, size_t size, struct commit_info *ci)
{
	const char *p = buf, *end = p + size;
	size_t alloc = 0;
	unsigned char sha1[HASH_MAX_RAWSZ];

	ci->parents = NULL;
	ci->nr_parents = 0;
	if (parse_sha1_line(&p, end, "tree ", ci->tree) < 0)
		return -1;
	while (!parse_sha1_line(&p, end, "parent ", sha1)) {
		ALLOC_GROW(ci->parents, ci->nr_parents + 1, alloc);
		hashcpy(ci->parents[ci->nr_parents++], sha1);
	}
	return 0;
}

int parse_tag_buffer(const void *buf, size_t size, unsigned char *sha1,
		     enum object_type *type)
{
	const char *p = buf, *end = p + size, *nl;

	if (parse_sha1_line(&p, end, "object ", sha1) < 0 ||
	    (size_t)(end - p) < 5 || memcmp(p, "type ", 5))
		return -1;
	nl = memchr(p + 5, '\n', end - p - 5);
	if (!nl)
		return -1;
	*type = type_from_string(p + 5, nl - p - 5);
	return *type == OBJ_BAD ? -1 : 0;
}

/*
 * One step of peeling toward want: what the tag in buf names, or the
 * tree of the commit in buf when want is a tree, into cur.  -1 when
 * the object of that type peels no further.
 */
static int peel_once(const void *buf, size_t size, enum object_type *type,
		     enum object_type want, unsigned char *cur)
{
	struct commit_info ci;

	if (*type == OBJ_TAG)
		return parse_tag_buffer(buf, size, cur, type);
	if (*type == OBJ_COMMIT && want == OBJ_TREE &&
	    !parse_commit_buffer(buf, size, &ci)) {
		hashcpy(cur, ci.tree);
		free_commit_info(&ci);
		*type = OBJ_TREE;
		return 0;
	}
	return -1;
}

#define MAX_PEEL_DEPTH 64

void *read_object_peeled(const unsigned char *sha1, enum object_type want,
			 size_t *size, unsigned char *peeled)
{
	unsigned char cur[HASH_MAX_RAWSZ];
	enum object_type type;
	int depth;

	hashcpy(cur, sha1);
	for (depth = 0; depth < MAX_PEEL_DEPTH; depth++) {
		void *buf = read_sha1_file(cur, &type, size);
		int step;

		if (!buf || type == want) {
			if (buf && peeled)
				hashcpy(peeled, cur);
			return buf;
		}
		step = peel_once(buf, *size, &type, want, cur);
		free(buf);
		if (step < 0)
			break;
	}
	error("object %s is a %s, not a %s", sha1_to_hex(cur),
	      type_name(type), type_name(want));
	return NULL;
}

int peel_object(const unsigned char *sha1, enum object_type want,
		unsigned char *peeled)
{
	enum object_type type;
	size_t size;
	int depth;

	hashcpy(peeled, sha1);
	for (depth = 0; depth < MAX_PEEL_DEPTH; depth++) {
		void *buf;
		int step;

		if (sha1_object_info(peeled, &type, &size) < 0)
			return -1;
		if (type == want)
			return 0;
		if (type != OBJ_TAG && (type != OBJ_COMMIT || want != OBJ_TREE))
			break;
		buf = read_sha1_file(peeled, &type, &size);
		if (!buf)
			return -1;
		step = peel_once(buf, size, &type, want, peeled);
		free(buf);
		if (step < 0)
			break;
	}
	return error("object %s is a %s, not a %s", sha1_to_hex(peeled),
		     type_name(type), type_name(want));
}

void free_commit_info(struct commit_info *ci)
{
	free(ci->parents);
	ci->parents = NULL;
	ci->nr_parents = 0;
}

/* ---- shallow commits ---- */

static unsigned char (*shallow)[HASH_MAX_RAWSZ];
static size_t nr_shallow;
static pthread_once_t shallow_once = PTHREAD_ONCE_INIT;

/* $GIT_COMMON_DIR/shallow: an id a line; git ignores other lines too. */
static void load_shallow(void)
{
	char *path = path_join(get_common_dir(), "shallow"), *line = NULL;
	size_t size = 0, alloc = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");

	free(path);
	while (f && (len = getline(&line, &size, f)) > 0) {
		if ((size_t)len < the_hash->hexsz ||
		    ((size_t)len > the_hash->hexsz &&
		     line[the_hash->hexsz] != '\n'))
			continue;
		ALLOC_GROW(shallow, nr_shallow + 1, alloc);
		if (get_sha1_hex(line, shallow[nr_shallow]) == 0)
			nr_shallow++;
	}
	free(line);
	if (f)
		fclose(f);
	sort_sha1_table(shallow, nr_shallow, sizeof(*shallow));
}

int is_shallow_commit(const unsigned char *sha1)
{
	pthread_once(&shallow_once, load_shallow);
	return nr_shallow &&
	       find_sha1_in_table(sha1, shallow, nr_shallow, sizeof(*shallow));
}

/* ---- tree-ishes ---- */

void *read_tree_ish(const unsigned char *sha1, size_t *size,
		    unsigned char *tree_sha1)
{
	enum object_type type;
	struct commit_info ci;
	unsigned char cur[HASH_MAX_RAWSZ];
	void *buf = read_sha1_file(sha1, &type, size);
	int depth;

	/* A tag names its object: git peels it here too. */
	hashcpy(cur, sha1);
	for (depth = 0; buf && type == OBJ_TAG && depth < MAX_PEEL_DEPTH;
	     depth++) {
		int bad = parse_tag_buffer(buf, *size, cur, &type);

		free(buf);
		if (bad) {
			error("tag %s is corrupt", sha1_to_hex(sha1));
			return NULL;
		}
		buf = read_sha1_file(cur, &type, size);
	}
	if (!buf)
		return NULL;
	if (type == OBJ_TREE) {
		hashcpy(tree_sha1, cur);
		return buf;
	}
	if (type != OBJ_COMMIT) {
		error("object %s is a %s, not a tree or a commit",
		      sha1_to_hex(cur), type_name(type));
		free(buf);
		return NULL;
	}
	if (parse_commit_buffer(buf, *size, &ci) < 0) {
		error("commit %s is corrupt", sha1_to_hex(cur));
		free(buf);
		return NULL;
	}
	free(buf);
	hashcpy(tree_sha1, ci.tree);
	free_commit_info(&ci);
	return read_object_of_type(tree_sha1, OBJ_TREE, size);
}

/* ---- walking n trees in step ---- */

/* The index of the tree whose current entry sorts first. */
static int first_entry(int n, const struct name_entry *e, const int *have)
{
	int i, best = -1;

	for (i = 0; i < n; i++) {
		if (!have[i])
			continue;
		if (best < 0 ||
		    base_name_compare(e[i].path, e[i].pathlen, e[i].mode,
				      e[best].path, e[best].pathlen,
				      e[best].mode) < 0)
			best = i;
	}
	return best;
}

static int same_name(const struct name_entry *a, const struct name_entry *b)
{
	return !base_name_compare(a->path, a->pathlen, a->mode, b->path,
				  b->pathlen, b->mode);
}

int traverse_trees(int n, struct tree_desc *t, traverse_fn fn, void *data)
{
	struct name_entry e[MAX_TRAVERSE_TREES];
	const struct name_entry *step[MAX_TRAVERSE_TREES];
	int have[MAX_TRAVERSE_TREES], i, first, ret = 0;

	if (n > MAX_TRAVERSE_TREES)
		return error("internal error: %d trees to walk", n);
	for (i = 0; i < n; i++)
		if ((have[i] = tree_entry_next(&t[i], &e[i])) < 0)
			return -1;
	while (!ret && (first = first_entry(n, e, have)) >= 0) {
		for (i = 0; i < n; i++)
			step[i] = have[i] && same_name(&e[i], &e[first]) ?
				  &e[i] : NULL;
		ret = fn(n, step, data);
		for (i = 0; i < n && ret >= 0; i++)
			if (step[i] && (have[i] = tree_entry_next(&t[i],
								  &e[i])) < 0)
				ret = -1;
	}
	return ret;
}

#define ONES_64 0x0101010101010101ULL
#define HIGHS_64 0x8080808080808080ULL

static uint64_t load_64(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
	return x;
}

/* Are the n bytes at a and b the same?  Inlined, for the ids. */
static int same_bytes(const unsigned char *a, const unsigned char *b,
		      size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		if (load_64(a + i) != load_64(b + i))
			return 0;
	for (; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/*
 * The length of the entry both a and b start with, byte for byte the
 * same (mode, name and id), or 0 when they differ or are cut short.
 * Eight bytes at a time up to the word with the name's NUL or a
 * difference in it.
 */
static size_t same_raw_entry(const unsigned char *a, size_t na,
			     const unsigned char *b, size_t nb, size_t rawsz)
{
	size_t n = na < nb ? na : nb, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x = load_64(a + i);

		if (x != load_64(b + i) || ((x - ONES_64) & ~x & HIGHS_64))
			break;
	}
	for (; i < n && a[i] == b[i]; i++) {
		if (a[i])
			continue;
		i++;
		if (n - i < rawsz || !same_bytes(a + i, b + i, rawsz))
			return 0;
		return i + rawsz;
	}
	return 0;
}

/* Step both trees past the run of entries they hold byte for byte. */
static void skip_same_entries(struct tree_desc *t)
{
	size_t rawsz = the_hash->rawsz, len;

	while ((len = same_raw_entry(t[0].buf, t[0].size, t[1].buf,
				     t[1].size, rawsz)) != 0) {
		t[0].buf += len;
		t[0].size -= len;
		t[1].buf += len;
		t[1].size -= len;
	}
}

int traverse_tree_changes(struct tree_desc *t, traverse_fn fn, void *data)
{
	struct name_entry e[2];
	const struct name_entry *step[2];
	int have[2], cmp, ret = 0;

	skip_same_entries(t);
	if ((have[0] = tree_entry_next(&t[0], &e[0])) < 0 ||
	    (have[1] = tree_entry_next(&t[1], &e[1])) < 0)
		return -1;
	while (!ret && (have[0] || have[1])) {
		cmp = !have[1] ? -1 : !have[0] ? 1 :
		      base_name_compare(e[0].path, e[0].pathlen, e[0].mode,
					e[1].path, e[1].pathlen, e[1].mode);
		step[0] = cmp <= 0 ? &e[0] : NULL;
		step[1] = cmp >= 0 ? &e[1] : NULL;
		if (cmp || e[0].mode != e[1].mode ||
		    hashcmp(e[0].sha1, e[1].sha1))
			ret = fn(2, step, data);
		if (ret < 0)
			break;
		if (step[0] && step[1])
			skip_same_entries(t);
		if ((step[0] && (have[0] = tree_entry_next(&t[0],
							   &e[0])) < 0) ||
		    (step[1] && (have[1] = tree_entry_next(&t[1],
							   &e[1])) < 0))
			ret = -1;
	}
	return ret;
}
