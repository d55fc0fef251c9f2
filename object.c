/*
 * object.c: parsing trees and commits.  Every tool that reads a tree
 * walks it with tree_entry_next() and checks it with check_tree(), so
 * a hostile tree is refused the same way everywhere.  Parsers take
 * (buf, len) and trust nothing in it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"

void init_tree_desc(struct tree_desc *desc, const void *buf, size_t size)
{
	desc->buf = buf;
	desc->size = size;
}

int tree_entry_next(struct tree_desc *desc, struct name_entry *entry)
{
	const unsigned char *p = desc->buf, *end = p + desc->size;
	const unsigned char *nul;
	unsigned int mode = 0;

	if (!desc->size)
		return 0;
	for (; p < end && *p != ' '; p++) {
		if (*p < '0' || *p > '7' || mode > 0177777)
			return -1;
		mode = mode << 3 | (*p - '0');
	}
	if (p == desc->buf || p == end)
		return -1;
	p++;
	nul = memchr(p, '\0', end - p);
	if (!nul || nul == p || (size_t)(end - nul - 1) < 20)
		return -1;
	entry->mode = mode;
	entry->path = (const char *)p;
	entry->pathlen = nul - p;
	entry->sha1 = nul + 1;
	desc->size -= nul + 21 - desc->buf;
	desc->buf = nul + 21;
	return 1;
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

static int is_canonical_mode(unsigned int mode)
{
	return mode == 0100644 || mode == 0100755 || mode == 0120000 ||
	       mode == 040000 || mode == S_IFGITLINK;
}

/* A reason the name is unfit for a tree entry, or NULL. */
static const char *check_entry_name(const char *name, size_t len)
{
	if (memchr(name, '/', len))
		return "fullPathname: contains full pathnames";
	if (len == 1 && name[0] == '.')
		return "hasDot: contains '.'";
	if (len == 2 && !memcmp(name, "..", 2))
		return "hasDotdot: contains '..'";
	if (len == 4 && !strncasecmp(name, ".git", 4))
		return "hasDotgit: contains '.git'";
	if (len == 9 && !strncasecmp(name, ".dircache", 9))
		return "hasDotdircache: contains '.dircache'";
	return NULL;
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

static const char *check_order(struct name_entry *a, struct name_entry *b,
			       struct df_check *df)
{
	int cmp = base_name_compare(a->path, a->pathlen, a->mode,
				    b->path, b->pathlen, b->mode);

	if (!cmp || (a->pathlen == b->pathlen &&
		     !memcmp(a->path, b->path, a->pathlen)))
		return "duplicateEntries: contains duplicate file entries";
	if (cmp > 0)
		return "treeNotSorted: not properly sorted";
	if (S_ISDIR(b->mode) && df_check_dir(df, b->path, b->pathlen))
		return "duplicateEntries: contains duplicate file entries";
	return NULL;
}

const char *check_tree(const void *buf, size_t size)
{
	struct df_check df = { NULL, 0, 0 };
	struct name_entry prev = { NULL, 0, 0, NULL }, e;
	struct tree_desc desc;
	const char *bad = NULL;
	int ret, first = 1;

	init_tree_desc(&desc, buf, size);
	while (!bad) {
		const unsigned char *start = desc.buf;

		ret = tree_entry_next(&desc, &e);
		if (!ret)
			break;
		if (ret < 0)
			bad = "badTree: cannot be parsed as a tree";
		else if (*start == '0')
			bad = "zeroPaddedFilemode: contains zero-padded file modes";
		else if (!is_canonical_mode(e.mode))
			bad = "badFilemode: contains bad file modes";
		else
			bad = check_entry_name(e.path, e.pathlen);
		if (!bad && !first)
			bad = check_order(&prev, &e, &df);
		if (!S_ISDIR(e.mode))
			df_check_file(&df, e.path, e.pathlen);
		prev = e;
		first = 0;
	}
	df_check_clear(&df);
	return bad;
}

/* "Name <email> 1112911993 -0700" up to the newline at end. */
static const char *check_ident(const char *p, const char *end)
{
	const char *lt = memchr(p, '<', end - p), *gt;

	if (!lt)
		return "badEmail: invalid author/committer line - bad email";
	if (lt == p || lt[-1] != ' ')
		return "missingSpaceBeforeEmail: invalid author/committer "
		       "line - missing space before email";
	if (memchr(p, '>', lt - p))
		return "badName: invalid author/committer line - bad name";
	gt = memchr(lt, '>', end - lt);
	if (!gt || memchr(lt + 1, '<', gt - lt - 1))
		return "badEmail: invalid author/committer line - bad email";
	p = gt + 1;
	if (p >= end || *p++ != ' ')
		return "missingSpaceBeforeDate: invalid author/committer line "
		       "- missing space before date";
	if (p >= end || *p < '0' || *p > '9')
		return "badDate: invalid author/committer line - bad date";
	if (*p == '0' && p + 1 < end && p[1] != ' ')
		return "zeroPaddedDate: invalid author/committer line - "
		       "zero-padded date";
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (end - p != 6 || p[0] != ' ' || (p[1] != '+' && p[1] != '-'))
		return "badTimezone: invalid author/committer line - bad "
		       "time zone";
	for (p += 2; p < end; p++)
		if (*p < '0' || *p > '9')
			return "badTimezone: invalid author/committer line - "
			       "bad time zone";
	return NULL;
}

/* The header line at *p that starts with key; NULL when it is not. */
static const char *header_line(const char **p, const char *end,
			       const char *key, const char **line_end)
{
	size_t klen = strlen(key);
	const char *nl;

	if ((size_t)(end - *p) < klen || memcmp(*p, key, klen))
		return NULL;
	nl = memchr(*p, '\n', end - *p);
	if (!nl)
		return NULL;
	*line_end = nl;
	nl = *p + klen;
	*p = *line_end + 1;
	return nl;
}

const char *check_commit(const void *data, size_t size)
{
	const char *buf = data;
	const char *p = buf, *end = buf + size, *v, *le;
	const char *hdr_end = NULL;
	unsigned char sha1[20];
	size_t i;

	for (i = 0; i + 1 < size; i++) {
		if (!buf[i])
			return "nulInHeader: unterminated header: NUL in header";
		if (buf[i] == '\n' && buf[i + 1] == '\n') {
			hdr_end = buf + i + 1;
			break;
		}
	}
	if (!hdr_end && (!size || buf[size - 1] != '\n'))
		return "unterminatedHeader: unterminated header";
	end = hdr_end ? hdr_end : end;
	v = header_line(&p, end, "tree ", &le);
	if (!v)
		return "missingTree: invalid format - expected 'tree' line";
	if (le - v != 40 || get_sha1_hex(v, sha1) < 0)
		return "badTreeSha1: invalid 'tree' line format - bad sha1";
	while ((v = header_line(&p, end, "parent ", &le)) != NULL) {
		if (le - v != 40 || get_sha1_hex(v, sha1) < 0)
			return "badParentSha1: invalid 'parent' line format "
			       "- bad sha1";
	}
	v = header_line(&p, end, "author ", &le);
	if (!v)
		return "missingAuthor: invalid format - expected 'author' line";
	if ((v = check_ident(v, le)) != NULL)
		return v;
	v = header_line(&p, end, "committer ", &le);
	if (!v)
		return "missingCommitter: invalid format - expected "
		       "'committer' line";
	return check_ident(v, le);
}

const char *check_tag(const void *data, size_t size, unsigned char *sha1,
		      enum object_type *type)
{
	const char *p = data, *end = p + size, *v, *le;

	v = header_line(&p, end, "object ", &le);
	if (!v || le - v != 40 || get_sha1_hex(v, sha1) < 0)
		return "badObjectSha1: invalid 'object' line format - bad sha1";
	v = header_line(&p, end, "type ", &le);
	*type = v ? type_from_string(v, le - v) : OBJ_BAD;
	if (*type == OBJ_BAD)
		return "badType: invalid 'type' value";
	return NULL;
}

static int parse_sha1_line(const char **p, const char *end,
			   const char *key, unsigned char *sha1)
{
	size_t klen = strlen(key);

	if ((size_t)(end - *p) < klen + 41 || memcmp(*p, key, klen) ||
	    (*p)[klen + 40] != '\n' || get_sha1_hex(*p + klen, sha1) < 0)
		return -1;
	*p += klen + 41;
	return 0;
}

int parse_commit_buffer(const void *buf, size_t size, struct commit_info *ci)
{
	const char *p = buf, *end = p + size;
	size_t alloc = 0;
	unsigned char sha1[20];

	ci->parents = NULL;
	ci->nr_parents = 0;
	if (parse_sha1_line(&p, end, "tree ", ci->tree) < 0)
		return -1;
	while (!parse_sha1_line(&p, end, "parent ", sha1)) {
		ALLOC_GROW(ci->parents, ci->nr_parents + 1, alloc);
		memcpy(ci->parents[ci->nr_parents++], sha1, 20);
	}
	return 0;
}

void free_commit_info(struct commit_info *ci)
{
	free(ci->parents);
	ci->parents = NULL;
	ci->nr_parents = 0;
}

/* ---- tree-ishes ---- */

void *read_tree_ish(const unsigned char *sha1, size_t *size,
		    unsigned char *tree_sha1)
{
	enum object_type type;
	struct commit_info ci;
	void *buf = read_sha1_file(sha1, &type, size);

	if (!buf)
		return NULL;
	if (type == OBJ_TREE) {
		memcpy(tree_sha1, sha1, 20);
		return buf;
	}
	if (type != OBJ_COMMIT) {
		error("object %s is a %s, not a tree or a commit",
		      sha1_to_hex(sha1), type_name(type));
		free(buf);
		return NULL;
	}
	if (parse_commit_buffer(buf, *size, &ci) < 0) {
		error("commit %s is corrupt", sha1_to_hex(sha1));
		free(buf);
		return NULL;
	}
	free(buf);
	memcpy(tree_sha1, ci.tree, 20);
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
