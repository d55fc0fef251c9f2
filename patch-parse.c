/*
 * patch-parse.c: patch text into a struct patch_set.  Git diffs
 * ("diff --git" and its extended headers) and plain unified diffs
 * ("--- "/"+++ " then "@@"), anything else between them skipped, as
 * git apply skips a mail's text.  Input is trusted for nothing: every
 * read is bounded by the buffer's end, every count checked.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "patch-internal.h"

struct parser {
	const char *p, *end;	/* the line being read, the input's end */
	unsigned long lineno;	/* p's line, 1-based */
	int p_value;
	struct fault *f;
};

static size_t cur_len(const struct parser *ps)
{
	return patch_line_len(ps->p, ps->end);
}

static void next_line(struct parser *ps)
{
	ps->p += cur_len(ps);
	ps->lineno++;
}

static int starts(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !memcmp(p, prefix, n);
}

static int line_starts(const struct parser *ps, const char *prefix)
{
	return starts(ps->p, ps->end, prefix);
}

/* The text of the current line after prefix, without its '\n'. */
static size_t rest_of_line(const struct parser *ps, const char *prefix,
			   const char **rest)
{
	size_t len = cur_len(ps), n = strlen(prefix);

	*rest = ps->p + n;
	len -= n;
	if (len && (*rest)[len - 1] == '\n')
		len--;
	return len;
}

/* ---- hunks ---- */

static int parse_number(const char **s, const char *end, unsigned long *v)
{
	const char *p = *s;

	if (p >= end || *p < '0' || *p > '9')
		return -1;
	*v = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		if (*v > 100000000)
			return -1;
		*v = *v * 10 + (*p++ - '0');
	}
	*s = p;
	return 0;
}

/* "-a[,b] +c[,d] @@" after "@@ ". */
static int parse_range(const char **s, const char *end, char sign,
		       unsigned long *pos, unsigned long *lines)
{
	if (*s >= end || **s != sign)
		return -1;
	(*s)++;
	if (parse_number(s, end, pos) < 0)
		return -1;
	*lines = 1;
	if (*s < end && **s == ',') {
		(*s)++;
		if (parse_number(s, end, lines) < 0)
			return -1;
	}
	return 0;
}

static int parse_hunk_header(struct parser *ps, struct patch_hunk *h)
{
	const char *s = ps->p + 3, *end = ps->p + cur_len(ps);

	if (parse_range(&s, end, '-', &h->oldpos, &h->oldlines) < 0 ||
	    s >= end || *s++ != ' ' ||
	    parse_range(&s, end, '+', &h->newpos, &h->newlines) < 0 ||
	    !starts(s, end, " @@"))
		return set_fault_at(ps->f, FAULT_CORRUPT, NULL, ps->lineno,
				    "corrupt patch at line %lu", ps->lineno);
	return 0;
}

/* One hunk's body: exactly the lines its header counts. */
static int parse_hunk_body(struct parser *ps, struct patch *patch,
			   struct patch_hunk *h)
{
	unsigned long old = h->oldlines, new = h->newlines;
	int last = 0;

	h->text = ps->p;
	while (old || new) {
		if (ps->p >= ps->end)
			return set_fault_at(ps->f, FAULT_CORRUPT, NULL,
					    ps->lineno, "corrupt patch at line "
					    "%lu", ps->lineno);
		switch (*ps->p) {
		case ' ':
		case '\n':
			if (!old || !new)
				goto corrupt;
			old--;
			new--;
			break;
		case '-':
			if (!old)
				goto corrupt;
			old--;
			patch->deleted++;
			break;
		case '+':
			if (!new)
				goto corrupt;
			new--;
			patch->added++;
			break;
		case '\\':
			if (!last || cur_len(ps) < 12)
				goto corrupt;
			break;
		default:
			goto corrupt;
		}
		last = 1;
		next_line(ps);
	}
	if (ps->p < ps->end && *ps->p == '\\' && cur_len(ps) >= 12)
		next_line(ps);
	h->size = ps->p - h->text;
	return 0;
corrupt:
	return set_fault_at(ps->f, FAULT_CORRUPT, NULL, ps->lineno, "corrupt "
			    "patch at line %lu", ps->lineno);
}

static int parse_hunks(struct parser *ps, struct patch *patch)
{
	struct patch_hunk **tail = &patch->hunks;

	while (ps->p < ps->end && line_starts(ps, "@@ -")) {
		struct patch_hunk *h = xcalloc(1, sizeof(*h));

		*tail = h;
		tail = &h->next;
		h->lineno = ps->lineno;
		h->header = ps->p;
		if (parse_hunk_header(ps, h) < 0)
			return -1;
		next_line(ps);
		if (parse_hunk_body(ps, patch, h) < 0)
			return -1;
		patch->nr_hunks++;
		if (patch->is_new && h->oldlines)
			return set_fault_at(ps->f, FAULT_CORRUPT, NULL, 0,
					    "new file %s depends on old "
					    "contents", patch->new_name);
		if (patch->is_delete && h->newlines)
			return set_fault_at(ps->f, FAULT_CORRUPT, NULL, 0,
					    "deleted file %s still has "
					    "contents", patch->old_name);
	}
	return 0;
}

/* ---- git's extended headers ---- */

static int parse_mode(const char *s, size_t len, unsigned int *mode)
{
	unsigned int m = 0;
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '7'; i++)
		m = m << 3 | (s[i] - '0');
	if (!i || i > 6 || (i < len && s[i] != ' ' && s[i] != '\r'))
		return -1;
	if (m != 0100644 && m != 0100755 && m != 0120000 && m != 0160000 &&
	    m != 0100664)
		return -1;
	*mode = m == 0100664 ? 0100644 : m;
	return 0;
}

static void copy_id(char *dst, const char *s, size_t len)
{
	if (len > the_hash->hexsz)
		len = the_hash->hexsz;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/*
 * "index <a>..<b>[ <mode>]".  An id longer than the store's (a sha256
 * patch in a sha1 store) leaves the rest of the line unread, as in
 * git apply: a text patch still applies, a binary one lacks its ids.
 */
static int parse_index_line(const char *s, size_t len, struct patch *patch)
{
	const char *end = s + len, *dots, *sp;
	const ptrdiff_t hexsz = the_hash->hexsz;

	dots = memmem(s, len, "..", 2);
	if (!dots)
		return -1;
	if (dots - s > hexsz)
		return 0;
	copy_id(patch->old_id, s, dots - s);
	s = dots + 2;
	sp = memchr(s, ' ', end - s);
	if (!sp)
		sp = end;
	if (sp - s > hexsz)
		return 0;
	copy_id(patch->new_id, s, sp - s);
	if (sp < end && !patch->old_mode &&
	    parse_mode(sp + 1, end - sp - 1, &patch->old_mode) < 0)
		return -1;
	return 0;
}

static int parse_score(const char *s, size_t len, int *score)
{
	unsigned long v;

	if (parse_number(&s, s + len, &v) < 0 || v > 100)
		return -1;
	*score = v;
	return 0;
}

static int set_name(char **dst, const char *s, size_t len, int p_value)
{
	int null;
	char *name = line_name(s, len, p_value, &null);

	if (!name)
		return -1;
	free(*dst);
	*dst = name;
	return 0;
}

/* One extended header line; 1 when the line is not one (header over). */
static int parse_header_line(struct parser *ps, struct patch *patch)
{
	const char *s;
	size_t n;
	int pv = ps->p_value ? ps->p_value - 1 : 0;

#define IS(prefix) (line_starts(ps, prefix) && \
		    ((n = rest_of_line(ps, prefix, &s)), 1))
	if (IS("old mode "))
		return parse_mode(s, n, &patch->old_mode);
	if (IS("new mode "))
		return parse_mode(s, n, &patch->new_mode);
	if (IS("deleted file mode ")) {
		patch->is_delete = 1;
		return parse_mode(s, n, &patch->old_mode);
	}
	if (IS("new file mode ")) {
		patch->is_new = 1;
		return parse_mode(s, n, &patch->new_mode);
	}
	if (IS("rename from ") || IS("rename old ")) {
		patch->is_rename = 1;
		return set_name(&patch->old_name, s, n, pv);
	}
	if (IS("rename to ") || IS("rename new ")) {
		patch->is_rename = 1;
		return set_name(&patch->new_name, s, n, pv);
	}
	if (IS("copy from ")) {
		patch->is_copy = 1;
		return set_name(&patch->old_name, s, n, pv);
	}
	if (IS("copy to ")) {
		patch->is_copy = 1;
		return set_name(&patch->new_name, s, n, pv);
	}
	if (IS("similarity index ") || IS("dissimilarity index "))
		return parse_score(s, n, &patch->score);
	if (IS("index "))
		return parse_index_line(s, n, patch);
#undef IS
	return 1;
}

/*
 * The name on the prefix line ps is at into *slot, unless it is
 * /dev/null; ps then moves past the line.  -1 when the line has none.
 */
static int take_name_line(struct parser *ps, const char *prefix, char **slot)
{
	const char *s;
	size_t n = rest_of_line(ps, prefix, &s);
	int null;
	char *name = line_name(s, n, ps->p_value, &null);

	if (!name && !null)
		return -1;
	if (name) {
		free(*slot);
		*slot = name;
	}
	next_line(ps);
	return 0;
}

/* "--- a/x" and "+++ b/x" of a git diff. */
static int parse_name_lines(struct parser *ps, struct patch *patch)
{
	if (take_name_line(ps, "--- ", &patch->old_name) < 0 ||
	    !line_starts(ps, "+++ "))
		return -1;
	return take_name_line(ps, "+++ ", &patch->new_name);
}

/* The lines after "diff --git", up to the hunks or the next patch. */
static int parse_git_header(struct parser *ps, struct patch *patch)
{
	const char *s;
	size_t n = rest_of_line(ps, "diff --git ", &s);
	char *def = git_header_name(s, n, ps->p_value);
	unsigned long start = ps->lineno;

	next_line(ps);
	while (ps->p < ps->end) {
		int r;

		if (line_starts(ps, "--- ")) {
			if (parse_name_lines(ps, patch) < 0)
				goto bad;
			break;
		}
		r = parse_header_line(ps, patch);
		if (r > 0)
			break;
		if (r < 0)
			goto bad;
		next_line(ps);
	}
	if (!patch->old_name && !patch->is_new && def)
		patch->old_name = xstrdup(def);
	if (!patch->new_name && !patch->is_delete && def)
		patch->new_name = xstrdup(def);
	free(def);
	if (patch->is_new) {
		free(patch->old_name);
		patch->old_name = NULL;
	}
	if (patch->is_delete) {
		free(patch->new_name);
		patch->new_name = NULL;
	}
	if ((!patch->is_new && !patch->old_name) ||
	    (!patch->is_delete && !patch->new_name))
		return set_fault_at(ps->f, FAULT_CORRUPT, NULL, 0, "git diff "
				    "header lacks filename information when "
				    "removing %d leading pathname component "
				    "(line %lu)", ps->p_value, start);
	return 0;
bad:
	free(def);
	return set_fault_at(ps->f, FAULT_CORRUPT, NULL, ps->lineno, "corrupt "
			    "git diff header at line %lu", ps->lineno);
}

/* Does the header alone say something (a git diff with no hunks)? */
static int changes_metadata(const struct patch *patch)
{
	return patch->is_new || patch->is_delete || patch->is_rename ||
	       patch->is_copy ||
	       (patch->new_mode && patch->new_mode != patch->old_mode);
}

static int parse_git_patch(struct parser *ps, struct patch *patch)
{
	if (parse_git_header(ps, patch) < 0)
		return -1;
	if (ps->p < ps->end && line_starts(ps, "GIT binary patch\n")) {
		unsigned long lines;
		long taken;

		next_line(ps);
		taken = parse_binary_hunks(patch, ps->p, ps->end, ps->lineno,
					   &lines, ps->f);
		if (taken < 0)
			return -1;
		ps->p += taken;
		ps->lineno += lines;
		patch->is_binary = 1;
		return 0;
	}
	if (ps->p < ps->end && line_starts(ps, "Binary files ")) {
		patch->is_binary = 1;
		next_line(ps);
		return 0;
	}
	if (parse_hunks(ps, patch) < 0)
		return -1;
	if (!patch->nr_hunks && !changes_metadata(patch))
		return set_fault_at(ps->f, FAULT_CORRUPT, NULL, ps->lineno,
				    "patch with only garbage at line %lu",
				    ps->lineno);
	return 0;
}

/* "--- x" "+++ y" "@@ -" with no git header. */
static int is_plain_start(const struct parser *ps)
{
	const char *p = ps->p, *end = ps->end;

	if (!starts(p, end, "--- "))
		return 0;
	p += patch_line_len(p, end);
	if (!starts(p, end, "+++ "))
		return 0;
	p += patch_line_len(p, end);
	return starts(p, end, "@@ -");
}

/*
 * diff -N marks a missing side with the epoch as its date ("1970-01-01
 * 00:00:00", or 1969-12-31 west of UTC) instead of /dev/null.
 */
static int has_epoch_date(const char *line, size_t len)
{
	const char *tab = NULL, *p;

	for (p = line; p < line + len; p++)
		if (*p == '\t')
			tab = p + 1;
	if (!tab)
		return 0;
	len -= tab - line;
	return (len >= 19 && !memcmp(tab, "1970-01-01 00:00:00", 19)) ||
	       (len >= 11 && !memcmp(tab, "1969-12-31 ", 11));
}

static int parse_plain_patch(struct parser *ps, struct patch *patch)
{
	const char *s;
	size_t n;
	int null_a, null_b, epoch_a, epoch_b;
	char *a, *b;

	n = rest_of_line(ps, "--- ", &s);
	a = line_name(s, n, ps->p_value, &null_a);
	epoch_a = has_epoch_date(s, n);
	next_line(ps);
	n = rest_of_line(ps, "+++ ", &s);
	b = line_name(s, n, ps->p_value, &null_b);
	epoch_b = has_epoch_date(s, n);
	next_line(ps);
	if ((!a && !null_a) || (!b && !null_b) || (null_a && null_b)) {
		free(a);
		free(b);
		return set_fault_at(ps->f, FAULT_CORRUPT, NULL, ps->lineno - 2,
				    "unable to find filename in patch at line "
				    "%lu", ps->lineno - 2);
	}
	if (!null_a && !null_b && epoch_a != epoch_b) {
		null_a = epoch_a;
		null_b = epoch_b;
	}
	if (null_a) {
		patch->is_new = 1;
		free(a);
		a = NULL;
	} else if (null_b) {
		patch->is_delete = 1;
		free(b);
		b = NULL;
	} else if (strlen(a) < strlen(b)) {
		free(b);
		b = xstrdup(a);
	} else {
		free(a);
		a = xstrdup(b);
	}
	patch->old_name = a;
	patch->new_name = b;
	return parse_hunks(ps, patch);
}

static void free_patch(struct patch *patch)
{
	while (patch->hunks) {
		struct patch_hunk *h = patch->hunks;

		patch->hunks = h->next;
		free(h);
	}
	free(patch->old_name);
	free(patch->new_name);
	free(patch->forward.data);
	free(patch->reverse.data);
	free(patch->result);
	free(patch);
}

/* Every name must be fit for the index, as update-cache's are. */
static int check_names(struct patch *patch, struct fault *f)
{
	const char *names[2] = { patch->old_name, patch->new_name };
	int i;

	if ((patch->is_new && patch->is_delete) ||
	    (!patch->old_name && !patch->new_name))
		return set_fault_at(f, FAULT_CORRUPT, NULL, patch->lineno, "a "
				    "patch at line %lu both creates and "
				    "deletes its file", patch->lineno);

	for (i = 0; i < 2; i++)
		if (names[i] && !verify_path(names[i], strlen(names[i])))
			return set_fault_at(f, FAULT_CORRUPT, NULL, 0, "%s: "
					    "invalid path", names[i]);
	return 0;
}

int parse_patch(struct patch_set *set, const char *buf, size_t len,
		int p_value, struct fault *f)
{
	char *copy = xmalloc(len + 1);

	memcpy(copy, buf, len);
	return parse_patch_owned(set, copy, len, p_value, f);
}

int parse_patch_owned(struct patch_set *set, char *copy, size_t len,
		      int p_value, struct fault *f)
{
	struct patch *first = NULL, **tail = &first;
	struct parser ps;
	int nr = 0;

	copy[len] = '\0';
	ps.p = copy;
	ps.end = copy + len;
	ps.lineno = 1;
	ps.p_value = p_value;
	ps.f = f;
	while (ps.p < ps.end) {
		struct patch *patch;
		int git = line_starts(&ps, "diff --git ");

		if (!git && !is_plain_start(&ps)) {
			next_line(&ps);
			continue;
		}
		patch = xcalloc(1, sizeof(*patch));
		patch->lineno = ps.lineno;
		*tail = patch;
		tail = &patch->next;
		nr++;
		if ((git ? parse_git_patch(&ps, patch) :
			   parse_plain_patch(&ps, patch)) < 0 ||
		    check_names(patch, f) < 0)
			goto fail;
	}
	if (first) {
		if (set->last)
			set->last->next = first;
		else
			set->first = first;
		while (first) {
			set->last = first;
			first = first->next;
		}
		set->nr += nr;
	}
	ALLOC_GROW(set->bufs, set->nr_bufs + 1, set->alloc_bufs);
	set->bufs[set->nr_bufs++] = copy;
	return nr;
fail:
	while (first) {
		struct patch *next = first->next;

		free_patch(first);
		first = next;
	}
	free(copy);
	return -1;
}

void init_patch_set(struct patch_set *set)
{
	memset(set, 0, sizeof(*set));
}

void free_patch_set(struct patch_set *set)
{
	size_t i;

	while (set->first) {
		struct patch *next = set->first->next;

		free_patch(set->first);
		set->first = next;
	}
	for (i = 0; i < set->nr_bufs; i++)
		free(set->bufs[i]);
	free(set->bufs);
	init_patch_set(set);
}

static void swap_ul(unsigned long *a, unsigned long *b)
{
	unsigned long t = *a;

	*a = *b;
	*b = t;
}

/* The order turns around too: undoing goes from the last change back. */
static void reverse_order(struct patch_set *set)
{
	struct patch *p = set->first, *rev = NULL;

	set->last = p;
	while (p) {
		struct patch *next = p->next;

		p->next = rev;
		rev = p;
		p = next;
	}
	set->first = rev;
}

void reverse_patch_set(struct patch_set *set)
{
	struct patch *p;

	reverse_order(set);
	for (p = set->first; p; p = p->next) {
		struct patch_hunk *h;
		struct patch_binary b = p->forward;
		char *name = p->old_name, id[HASH_MAX_HEXSZ + 1];
		unsigned int mode = p->old_mode;
		int flag = p->is_new;

		p->old_name = p->new_name;
		p->new_name = name;
		p->old_mode = p->new_mode;
		p->new_mode = mode;
		p->is_new = p->is_delete;
		p->is_delete = flag;
		memcpy(id, p->old_id, sizeof(id));
		memcpy(p->old_id, p->new_id, sizeof(id));
		memcpy(p->new_id, id, sizeof(id));
		p->forward = p->reverse;
		p->reverse = b;
		swap_ul(&p->added, &p->deleted);
		for (h = p->hunks; h; h = h->next) {
			swap_ul(&h->oldpos, &h->newpos);
			swap_ul(&h->oldlines, &h->newlines);
		}
		p->reversed = !p->reversed;
	}
}
