/*
 * fsck.c: checking objects as git fsck does, with git's message ids,
 * texts and severities, so that fsck-cache and git fsck say the same
 * thing about the same store.  Each problem is reported with its level
 * (info and warning messages are printed as warnings, and a warning is
 * an error under --strict); a tree, commit or tag with an error-level
 * problem is bad.  check_tree() is the readers' view of the same
 * checks: a tree they may walk, however old, or the reason it is not.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cache.h"

enum fsck_msg_id {
	BAD_DATE, BAD_DATE_OVERFLOW, BAD_EMAIL, BAD_NAME, BAD_OBJECT_SHA1,
	BAD_PARENT_SHA1, BAD_TIMEZONE, BAD_TREE, BAD_TREE_SHA1, BAD_TYPE,
	DUPLICATE_ENTRIES, MISSING_AUTHOR, MISSING_COMMITTER, MISSING_EMAIL,
	MISSING_NAME_BEFORE_EMAIL, MISSING_OBJECT, MISSING_SPACE_BEFORE_DATE,
	MISSING_SPACE_BEFORE_EMAIL, MISSING_TAG_ENTRY, MISSING_TREE,
	MISSING_TYPE_ENTRY, MULTIPLE_AUTHORS, NUL_IN_HEADER, TREE_NOT_SORTED,
	UNTERMINATED_HEADER, ZERO_PADDED_DATE,
	/* warnings */
	FULL_PATHNAME, HAS_DOT, HAS_DOTDOT, HAS_DOTGIT, HAS_DOTDIRCACHE,
	NULL_SHA1, ZERO_PADDED_FILEMODE, NUL_IN_COMMIT,
	/* infos */
	BAD_FILEMODE, BAD_TAG_NAME, MISSING_TAGGER_ENTRY,
};

struct fsck_msg {
	const char *id;
	enum fsck_level level;
	const char *text;
};

static const struct fsck_msg msgs[] = {
#define AUTHOR_LINE "invalid author/committer line - "
	[BAD_DATE] = { "badDate", FSCK_ERROR, AUTHOR_LINE "bad date" },
	[BAD_DATE_OVERFLOW] = { "badDateOverflow", FSCK_ERROR,
				AUTHOR_LINE "date causes integer overflow" },
	[BAD_EMAIL] = { "badEmail", FSCK_ERROR, AUTHOR_LINE "bad email" },
	[BAD_NAME] = { "badName", FSCK_ERROR, AUTHOR_LINE "bad name" },
	[BAD_OBJECT_SHA1] = { "badObjectSha1", FSCK_ERROR,
			      "invalid 'object' line format - bad sha1" },
	[BAD_PARENT_SHA1] = { "badParentSha1", FSCK_ERROR,
			      "invalid 'parent' line format - bad sha1" },
	[BAD_TIMEZONE] = { "badTimezone", FSCK_ERROR,
			   AUTHOR_LINE "bad time zone" },
	[BAD_TREE] = { "badTree", FSCK_ERROR, "cannot be parsed as a tree" },
	[BAD_TREE_SHA1] = { "badTreeSha1", FSCK_ERROR,
			    "invalid 'tree' line format - bad sha1" },
	[BAD_TYPE] = { "badType", FSCK_ERROR, "invalid 'type' value" },
	[DUPLICATE_ENTRIES] = { "duplicateEntries", FSCK_ERROR,
				"contains duplicate file entries" },
	[MISSING_AUTHOR] = { "missingAuthor", FSCK_ERROR,
			     "invalid format - expected 'author' line" },
	[MISSING_COMMITTER] = { "missingCommitter", FSCK_ERROR,
				"invalid format - expected 'committer' line" },
	[MISSING_EMAIL] = { "missingEmail", FSCK_ERROR,
			    AUTHOR_LINE "missing email" },
	/* git's text for this one says "space", as here */
	[MISSING_NAME_BEFORE_EMAIL] = { "missingNameBeforeEmail", FSCK_ERROR,
					AUTHOR_LINE "missing space before "
					"email" },
	[MISSING_OBJECT] = { "missingObject", FSCK_ERROR,
			     "invalid format - expected 'object' line" },
	[MISSING_SPACE_BEFORE_DATE] = { "missingSpaceBeforeDate", FSCK_ERROR,
					AUTHOR_LINE "missing space before "
					"date" },
	[MISSING_SPACE_BEFORE_EMAIL] = { "missingSpaceBeforeEmail",
					 FSCK_ERROR, AUTHOR_LINE "missing "
					 "space before email" },
	[MISSING_TAG_ENTRY] = { "missingTagEntry", FSCK_ERROR,
				"invalid format - expected 'tag' line" },
	[MISSING_TREE] = { "missingTree", FSCK_ERROR,
			   "invalid format - expected 'tree' line" },
	[MISSING_TYPE_ENTRY] = { "missingTypeEntry", FSCK_ERROR,
				 "invalid format - expected 'type' line" },
	[MULTIPLE_AUTHORS] = { "multipleAuthors", FSCK_ERROR,
			       "invalid format - multiple 'author' lines" },
	[NUL_IN_HEADER] = { "nulInHeader", FSCK_ERROR,
			    "unterminated header: NUL at offset %zu" },
	[TREE_NOT_SORTED] = { "treeNotSorted", FSCK_ERROR,
			      "not properly sorted" },
	[UNTERMINATED_HEADER] = { "unterminatedHeader", FSCK_ERROR,
				  "unterminated header" },
	[ZERO_PADDED_DATE] = { "zeroPaddedDate", FSCK_ERROR,
			       AUTHOR_LINE "zero-padded date" },
	[FULL_PATHNAME] = { "fullPathname", FSCK_WARN,
			    "contains full pathnames" },
	[HAS_DOT] = { "hasDot", FSCK_WARN, "contains '.'" },
	[HAS_DOTDOT] = { "hasDotdot", FSCK_WARN, "contains '..'" },
	[HAS_DOTGIT] = { "hasDotgit", FSCK_WARN, "contains '.git'" },
	[HAS_DOTDIRCACHE] = { "hasDotdircache", FSCK_WARN,
			      "contains '.dircache'" },
	[NULL_SHA1] = { "nullSha1", FSCK_WARN,
			"contains entries pointing to null sha1" },
	[ZERO_PADDED_FILEMODE] = { "zeroPaddedFilemode", FSCK_WARN,
				   "contains zero-padded file modes" },
	[NUL_IN_COMMIT] = { "nulInCommit", FSCK_WARN,
			    "NUL byte in the commit object body" },
	[BAD_FILEMODE] = { "badFilemode", FSCK_INFO,
			   "contains bad file modes" },
	[BAD_TAG_NAME] = { "badTagName", FSCK_INFO, "invalid 'tag' name: %s" },
	[MISSING_TAGGER_ENTRY] = { "missingTaggerEntry", FSCK_INFO,
				   "invalid format - expected 'tagger' line" },
#undef AUTHOR_LINE
};

/* "id: text" for a reader's refusal (static buffer). */
static const char *reader_message(const char *id)
{
	static char line[128];
	size_t i;

	for (i = 0; i < sizeof(msgs) / sizeof(*msgs); i++)
		if (msgs[i].id && !strcmp(msgs[i].id, id))
			snprintf(line, sizeof(line), "%s: %s", id, msgs[i].text);
	return line;
}

/* Report msg (its text formatted with one optional argument); 1 if an error. */
static int report(struct fsck_options *o, enum fsck_msg_id id, ...)
{
	const struct fsck_msg *m = &msgs[id];
	enum fsck_level level = m->level;
	char text[512], line[600];
	va_list ap;

	if (o->strict && level == FSCK_WARN)
		level = FSCK_ERROR;
	va_start(ap, id);
	vsnprintf(text, sizeof(text), m->text, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s: %s", m->id, text);
	if (o->report)
		o->report(o->data, level, line);
	if (!o->first && level == FSCK_ERROR)
		o->first = m->id;
	return level == FSCK_ERROR;
}

/* ---- trees ---- */

/* The problems of one tree, each reported once, in git's order. */
struct tree_flags {
	int null_sha1, full_path, dot, dotdot, dotgit, dotdircache;
	int zero_pad, bad_mode, dup, unsorted;
};

static int is_valid_mode(unsigned int mode, int strict)
{
	switch (mode) {
	case 0100644: case 0100755: case 0120000: case 040000:
	case S_IFGITLINK:
		return 1;
	case 0100664:		/* written by git before 2005-04-16 */
		return !strict;
	default:
		return 0;
	}
}

static void note_name(struct tree_flags *t, const char *name, size_t len)
{
	int dotgit = is_dotgit_name(name, len);

	t->full_path |= memchr(name, '/', len) != NULL;
	t->dot |= len == 1 && name[0] == '.';
	t->dotdot |= len == 2 && !memcmp(name, "..", 2);
	t->dotgit |= dotgit == DOTGIT;
	t->dotdircache |= dotgit == DOTDIRCACHE;
}

static void note_order(struct tree_flags *t, const struct name_entry *a,
		       const struct name_entry *b, struct df_check *df)
{
	int cmp = base_name_compare(a->path, a->pathlen, a->mode,
				    b->path, b->pathlen, b->mode);

	if (!cmp || (a->pathlen == b->pathlen &&
		     !memcmp(a->path, b->path, a->pathlen)))
		t->dup = 1;
	else if (cmp > 0)
		t->unsorted = 1;
	else if (S_ISDIR(b->mode) && df_check_dir(df, b->path, b->pathlen))
		t->dup = 1;
}

/* Where the links of an object go: its own list, or a tool's hook. */
struct link_sink {
	struct fsck_object *o;
	void (*fn)(void *data, const unsigned char *sha1, int type);
	void *data;
};

static void add_link(const struct link_sink *s, const unsigned char *sha1,
		     int type)
{
	if (s->fn)
		s->fn(s->data, sha1, type);
	else
		fsck_add_link(s->o, sha1, type);
}

/* Is e a .gitmodules or .gitattributes file (FSCK_LINK_* bits)? */
static int special_file(const struct name_entry *e)
{
	if (S_ISLNK(e->mode) || S_ISDIR(e->mode))
		return 0;
	if (e->pathlen == 11 && !memcmp(e->path, ".gitmodules", 11))
		return FSCK_LINK_GITMODULES;
	if (e->pathlen == 14 && !memcmp(e->path, ".gitattributes", 14))
		return FSCK_LINK_GITATTRIBUTES;
	return 0;
}

/*
 * Walk the tree; -1 when it cannot be parsed.  Each entry read, but a
 * gitlink, is a link given to s (NULL: none), in the same walk.
 */
static int scan_tree(const void *buf, size_t size, int strict,
		     struct tree_flags *t, const struct link_sink *s)
{
	struct df_check df = { NULL, 0, 0 };
	struct name_entry prev = { NULL, 0, 0, NULL }, e;
	struct tree_desc desc;
	int ret, first = 1;

	init_tree_desc(&desc, buf, size);
	for (;;) {
		const unsigned char *start = desc.buf;

		ret = tree_entry_raw(&desc, &e);
		if (ret <= 0)
			break;
		t->zero_pad |= *start == '0';
		t->null_sha1 |= is_null_hash(e.sha1);
		t->bad_mode |= !is_valid_mode(e.mode, strict);
		note_name(t, e.path, e.pathlen);
		e.mode = canon_mode(e.mode);
		if (s && !S_ISGITLINK(e.mode))
			add_link(s, e.sha1, object_type_of_mode(e.mode) |
				 (s->fn ? special_file(&e) : 0));
		if (!first)
			note_order(t, &prev, &e, &df);
		if (!S_ISDIR(e.mode))
			df_check_file(&df, e.path, e.pathlen);
		prev = e;
		first = 0;
	}
	df_check_clear(&df);
	return ret;
}

static int fsck_tree_links(const void *buf, size_t size,
			   struct fsck_options *o, const struct link_sink *s)
{
	struct tree_flags t;
	int bad = 0;

	memset(&t, 0, sizeof(t));
	if (scan_tree(buf, size, o->strict, &t, s) < 0)
		return report(o, BAD_TREE);
	if (t.null_sha1)
		bad |= report(o, NULL_SHA1);
	if (t.full_path)
		bad |= report(o, FULL_PATHNAME);
	if (t.dot)
		bad |= report(o, HAS_DOT);
	if (t.dotdot)
		bad |= report(o, HAS_DOTDOT);
	if (t.dotgit)
		bad |= report(o, HAS_DOTGIT);
	if (t.dotdircache)
		bad |= report(o, HAS_DOTDIRCACHE);
	if (t.zero_pad)
		bad |= report(o, ZERO_PADDED_FILEMODE);
	if (t.bad_mode)
		bad |= report(o, BAD_FILEMODE);
	if (t.dup)
		bad |= report(o, DUPLICATE_ENTRIES);
	if (t.unsorted)
		bad |= report(o, TREE_NOT_SORTED);
	return bad;
}

int fsck_tree(const void *buf, size_t size, struct fsck_options *o)
{
	return fsck_tree_links(buf, size, o, NULL);
}

/*
 * The readers' check: a tree may be walked unless it cannot be parsed,
 * is out of order, or holds a name that could leave the work tree or
 * open the repository.  Old modes and zero padding are read, as git
 * reads them.
 */
const char *check_tree(const void *buf, size_t size)
{
	struct fsck_options o = { 1, NULL, NULL, NULL, 0 };
	struct tree_flags t;

	memset(&t, 0, sizeof(t));
	if (scan_tree(buf, size, 0, &t, NULL) < 0)
		report(&o, BAD_TREE);
	else if (t.full_path)
		report(&o, FULL_PATHNAME);
	else if (t.dot)
		report(&o, HAS_DOT);
	else if (t.dotdot)
		report(&o, HAS_DOTDOT);
	else if (t.dotgit)
		report(&o, HAS_DOTGIT);
	else if (t.dotdircache)
		report(&o, HAS_DOTDIRCACHE);
	else if (t.dup)
		report(&o, DUPLICATE_ENTRIES);
	else if (t.unsorted)
		report(&o, TREE_NOT_SORTED);
	return o.first ? reader_message(o.first) : NULL;
}

/* ---- commits and tags ---- */

/*
 * The header ends at the first blank line (or the end, if the object
 * ends in a newline); it may hold no NUL.
 */
static int check_headers(const char *buf, size_t size, const char **end,
			 struct fsck_options *o)
{
	size_t i;

	for (i = 0; i < size; i++) {
		if (!buf[i])
			return report(o, NUL_IN_HEADER, i) ? -1 : 0;
		if (buf[i] == '\n' && i + 1 < size && buf[i + 1] == '\n') {
			*end = buf + i + 1;
			return 0;
		}
	}
	if (!size || buf[size - 1] != '\n')
		return report(o, UNTERMINATED_HEADER) ? -1 : 0;
	*end = buf + size;
	return 0;
}

/* The value of the header line at *p that starts with key, or NULL. */
static const char *header_line(const char **p, const char *end,
			       const char *key, const char **line_end)
{
	size_t klen = strlen(key);
	const char *nl, *v;

	if ((size_t)(end - *p) < klen || memcmp(*p, key, klen))
		return NULL;
	nl = memchr(*p, '\n', end - *p);
	if (!nl)
		return NULL;
	v = *p + klen;
	*line_end = nl;
	*p = nl + 1;
	return v;
}

/* Dates past time_t's reach overflow in git: the largest is 2^63 - 1. */
static int date_overflows(const char *p, const char *end)
{
	const char *max = "9223372036854775807";
	size_t n = end - p;

	return n > strlen(max) || (n == strlen(max) && memcmp(p, max, n) > 0);
}

/* "Name <email> 1112911993 -0700" up to the newline at end. */
static int check_ident(const char *p, const char *end, struct fsck_options *o)
{
	const char *q;

	if (*p == '<')
		return report(o, MISSING_NAME_BEFORE_EMAIL);
	q = p + strcspn(p, "<>\n");
	if (q > end)
		q = end;
	if (*q == '>')
		return report(o, BAD_NAME);
	if (q == end || *q != '<')
		return report(o, MISSING_EMAIL);
	if (q[-1] != ' ')
		return report(o, MISSING_SPACE_BEFORE_EMAIL);
	q++;
	q += strcspn(q, "<>\n");
	if (q >= end || *q != '>')
		return report(o, BAD_EMAIL);
	if (++q >= end || *q++ != ' ')
		return report(o, MISSING_SPACE_BEFORE_DATE);
	if (q < end && *q == '0' && q + 1 < end && q[1] != ' ')
		return report(o, ZERO_PADDED_DATE);
	for (p = q; q < end && *q >= '0' && *q <= '9'; q++)
		;
	if (q > p && date_overflows(p, q))
		return report(o, BAD_DATE_OVERFLOW);
	if (q == p || q >= end || *q != ' ')
		return report(o, BAD_DATE);
	q++;
	if (end - q != 5 || (*q != '+' && *q != '-') ||
	    strspn(q + 1, "0123456789") < 4)
		return report(o, BAD_TIMEZONE);
	return 0;
}

static int is_sha1_line(const char *v, const char *le)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	return le - v == (long)the_hash->hexsz && !get_sha1_hex(v, sha1);
}

int fsck_commit(const void *data, size_t size, struct fsck_options *o)
{
	const char *buf = data, *p = buf, *end, *v, *le;
	int authors = 0;

	if (check_headers(buf, size, &end, o) < 0)
		return 1;
	v = header_line(&p, end, "tree ", &le);
	if (!v)
		return report(o, MISSING_TREE);
	if (!is_sha1_line(v, le))
		return report(o, BAD_TREE_SHA1);
	while ((v = header_line(&p, end, "parent ", &le)) != NULL)
		if (!is_sha1_line(v, le))
			return report(o, BAD_PARENT_SHA1);
	while ((v = header_line(&p, end, "author ", &le)) != NULL) {
		if (check_ident(v, le, o))
			return 1;
		authors++;
	}
	if (authors > 1)
		return report(o, MULTIPLE_AUTHORS);
	if (!authors)
		return report(o, MISSING_AUTHOR);
	v = header_line(&p, end, "committer ", &le);
	if (!v)
		return report(o, MISSING_COMMITTER);
	if (check_ident(v, le, o))
		return 1;
	if (memchr(end, '\0', buf + size - end))
		return report(o, NUL_IN_COMMIT);
	return 0;
}

static int check_tag_name(const char *v, const char *le,
			  struct fsck_options *o)
{
	char name[300];
	size_t n = le - v;

	if (n > sizeof(name) - 11)
		n = sizeof(name) - 11;
	memcpy(name, "refs/tags/", 10);
	memcpy(name + 10, v, n);
	name[10 + n] = '\0';
	if (check_ref_name(name) < 0 || !n)
		return report(o, BAD_TAG_NAME, name + 10);
	return 0;
}

int fsck_tag(const void *data, size_t size, struct fsck_options *o,
	     unsigned char *sha1, enum object_type *type)
{
	const char *buf = data, *p = buf, *end, *v, *le;

	*type = OBJ_BAD;
	if (check_headers(buf, size, &end, o) < 0)
		return 1;
	v = header_line(&p, end, "object ", &le);
	if (!v)
		return report(o, MISSING_OBJECT);
	if (!is_sha1_line(v, le) || get_sha1_hex(v, sha1) < 0)
		return report(o, BAD_OBJECT_SHA1);
	v = header_line(&p, end, "type ", &le);
	if (!v)
		return report(o, MISSING_TYPE_ENTRY);
	*type = type_from_string(v, le - v);
	if (*type == OBJ_BAD)
		return report(o, BAD_TYPE);
	v = header_line(&p, end, "tag ", &le);
	if (!v)
		return report(o, MISSING_TAG_ENTRY);
	if (check_tag_name(v, le, o))
		return 1;
	v = header_line(&p, end, "tagger ", &le);
	if (!v)
		return report(o, MISSING_TAGGER_ENTRY);
	return check_ident(v, le, o);
}

/* ---- an object read and checked whole, and its links ---- */

void fsck_add_link(struct fsck_object *o, const unsigned char *sha1,
		   int type)
{
	ALLOC_GROW(o->links, o->nr_links + 1, o->alloc_links);
	hashcpy(o->links[o->nr_links].sha1, sha1);
	o->links[o->nr_links++].type = type;
}

static void report_error(struct fsck_options *opt, const char *msg)
{
	if (opt->report)
		opt->report(opt->data, FSCK_ERROR, msg);
}

/*
 * 1 when git cannot even begin to walk the tree (init_tree_desc_gently
 * fails on its first entry): no NUL where the last entry's name must
 * end, a mode that is not octal, or an empty name.  git fsck then says
 * "broken links" before the tree's other findings.
 */
static int walk_fails_at_once(const unsigned char *buf, size_t size)
{
	size_t rawsz = the_hash->rawsz, i;

	if (!size)
		return 0;
	if (size < rawsz + 3 || buf[size - rawsz - 1])
		return 1;
	for (i = 0; buf[i] != ' '; i++)
		if (buf[i] < '0' || buf[i] > '7')
			return 1;	/* the NUL ends the scan at worst */
	return !buf[i + 1];
}

/* The links of a tree are kept even when it has problems, as git's. */
static void tree_links(const struct link_sink *s, const char *buf,
		       size_t size, struct fsck_options *opt)
{
	const char *bad = opt->walkable ? check_tree(buf, size) : NULL;

	if (bad) {
		report_error(opt, bad);
		return;
	}
	if (walk_fails_at_once((const unsigned char *)buf, size))
		report_error(opt, "broken links");
	fsck_tree_links(buf, size, opt, s);
}

static void commit_links(const struct link_sink *s, const char *buf,
			 size_t size, struct fsck_options *opt)
{
	struct commit_info ci;
	size_t i;
	int bad = fsck_commit(buf, size, opt);

	/* git walks a commit it can parse whatever fsck finds in it */
	if (parse_commit_buffer(buf, size, &ci) < 0) {
		if (!bad)
			report_error(opt, "badCommit: cannot parse");
		return;
	}
	add_link(s, ci.tree, OBJ_TREE);
	for (i = 0; i < ci.nr_parents && !is_shallow_commit(s->o->sha1); i++)
		add_link(s, ci.parents[i], OBJ_COMMIT);
	free_commit_info(&ci);
}

static void tag_links(const struct link_sink *s, const char *buf,
		      size_t size, struct fsck_options *opt)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	int bad = fsck_tag(buf, size, opt, sha1, &type);

	if (type != OBJ_BAD)
		add_link(s, sha1, type);
	else if (!bad)
		report_error(opt, "badTag: cannot parse");
}

int fsck_object_links(struct fsck_object *o, struct object_stream *st,
		      struct fsck_options *opt,
		      void (*link)(void *data, const unsigned char *sha1,
				   int type),
		      char **buf, struct fault *f)
{
	struct link_sink s = { o, link, opt->data };

	verify_object_stream(st, o->sha1);
	set_zlib_check(st, 1);	/* the whole proof, as git fsck */
	if (check_object_stream(st, buf, f) < 0) {
		o->type = OBJ_BAD;
		return -1;
	}
	o->type = st->type;
	if (st->type == OBJ_TREE)
		tree_links(&s, *buf, st->size, opt);
	else if (st->type == OBJ_COMMIT)
		commit_links(&s, *buf, st->size, opt);
	else if (st->type == OBJ_TAG)
		tag_links(&s, *buf, st->size, opt);
	return 0;
}

int fsck_object_stream(struct fsck_object *o, struct object_stream *st,
		       struct fsck_options *opt, char **buf, struct fault *f)
{
	return fsck_object_links(o, st, opt, NULL, buf, f);
}
