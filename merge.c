/*
 * merge.c: the three-way file merge, as git merge-file does it.
 *
 * Both sides are diffed against the base with the one diff engine.
 * Walking the two lists of edits in base order, an edit that neither
 * touches nor overlaps an edit of the other side is taken as it is;
 * edits that touch or overlap are a conflict spanning all of them,
 * unless they are the same edit (same base lines, same new lines).
 * Chunks of the result that meet in ours or in theirs join, a conflict
 * swallowing what it joins.
 *
 * Then, as git's default ("zealous, alnum") level does, each conflict
 * with lines on both sides is narrowed by a diff of ours against
 * theirs: lines equal on both sides leave the conflict, which may fall
 * apart into several; conflicts that end up at most three lines apart,
 * or apart by lines without a letter or digit, join again.  With the
 * base shown (diff3) git does neither, and neither do we.
 *
 * Conflicts are written between markers; lines in them get a newline
 * if they lack one, and the markers end in CRLF when the lines around
 * do.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"

#define DEFAULT_MARKER_SIZE 7
#define JOIN_DISTANCE 3		/* conflicts this close become one */

/* What a chunk of the result is made of. */
enum chunk_kind {
	CONFLICT,
	FROM_OURS,		/* ours changed it, theirs did not */
	FROM_THEIRS,
	SAME_CHANGE		/* both changed it alike: as ours */
};

/* Lines [base, base + nbase) of the base and the same of each side. */
struct chunk {
	enum chunk_kind kind;
	long base, nbase;
	long ours, nours;
	long theirs, ntheirs;
};

struct text {
	struct diff_line *line;
	long nr;
};

struct merge {
	struct text base, ours, theirs;
	struct chunk *chunk;
	size_t nr, alloc;
	char *out;		/* the result */
	size_t len, out_alloc;
};

/* ---- the chunks ---- */

/*
 * Add a chunk, joining it to the last one when they meet or overlap
 * in ours or in theirs (a join of different kinds is a conflict).
 */
static void add_chunk(struct merge *m, const struct chunk *c)
{
	struct chunk *last = m->nr ? &m->chunk[m->nr - 1] : NULL;

	if (last && (c->ours <= last->ours + last->nours ||
		     c->theirs <= last->theirs + last->ntheirs)) {
		if (c->kind != last->kind)
			last->kind = CONFLICT;
		last->nbase = c->base + c->nbase - last->base;
		last->nours = c->ours + c->nours - last->ours;
		last->ntheirs = c->theirs + c->ntheirs - last->theirs;
		return;
	}
	ALLOC_GROW(m->chunk, m->nr + 1, m->alloc);
	m->chunk[m->nr++] = *c;
}

/*
 * An edit of one side alone; `shift` is where the other side's line
 * for base line 0 would be (its offset at this point).  Which side is
 * whose is left to the caller.
 */
static struct chunk one_sided(const struct diff_edit *e, long shift)
{
	struct chunk c;

	c.base = e->old_start;
	c.nbase = e->old_count;
	c.ours = e->new_start;
	c.nours = e->new_count;
	c.theirs = e->old_start + shift;
	c.ntheirs = e->old_count;
	return c;
}

static struct chunk swap_sides(struct chunk c)
{
	long start = c.ours, n = c.nours;

	c.ours = c.theirs;
	c.nours = c.ntheirs;
	c.theirs = start;
	c.ntheirs = n;
	return c;
}

static void add_ours(struct merge *m, const struct diff_edit *e, long shift)
{
	struct chunk c = one_sided(e, shift);

	c.kind = FROM_OURS;
	add_chunk(m, &c);
}

static void add_theirs(struct merge *m, const struct diff_edit *e,
		       long shift)
{
	struct chunk c = swap_sides(one_sided(e, shift));

	c.kind = FROM_THEIRS;
	add_chunk(m, &c);
}

/* Are lines [i, i + n) of x those of y from j? */
static int same_lines(const struct text *x, long i, const struct text *y,
		      long j, long n)
{
	for (; n > 0; n--, i++, j++)
		if (x->line[i].len != y->line[j].len ||
		    memcmp(x->line[i].start, y->line[j].start, x->line[i].len))
			return 0;
	return 1;
}

static int same_edit(const struct merge *m, const struct diff_edit *a,
		     const struct diff_edit *b)
{
	return a->old_start == b->old_start &&
		a->old_count == b->old_count &&
		a->new_count == b->new_count &&
		same_lines(&m->ours, a->new_start, &m->theirs, b->new_start,
			   a->new_count);
}

/*
 * Edits a (of ours) and b (of theirs) that meet: one conflict from
 * the first base line either touches to the last, each side taking
 * the lines its own edit does not cover as they are in the base.
 */
static void add_conflict(struct merge *m, const struct diff_edit *a,
			 const struct diff_edit *b)
{
	long a_end = a->old_start + a->old_count;
	long b_end = b->old_start + b->old_count;
	long start = a->old_start < b->old_start ? a->old_start : b->old_start;
	long end = a_end > b_end ? a_end : b_end;
	struct chunk c;

	c.kind = CONFLICT;
	c.base = start;
	c.nbase = end - start;
	c.ours = a->new_start - (a->old_start - start);
	c.nours = a->new_count + (a->old_start - start) + (end - a_end);
	c.theirs = b->new_start - (b->old_start - start);
	c.ntheirs = b->new_count + (b->old_start - start) + (end - b_end);
	add_chunk(m, &c);
}

/* Walk the edits of both sides in base order into chunks. */
static void make_chunks(struct merge *m, const struct diff_edit *a,
			size_t na, const struct diff_edit *b, size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		long a_end = a[i].old_start + a[i].old_count;
		long b_end = b[j].old_start + b[j].old_count;

		if (a_end < (long)b[j].old_start) {
			add_ours(m, &a[i++], b[j].new_start - b[j].old_start);
			continue;
		}
		if (b_end < (long)a[i].old_start) {
			add_theirs(m, &b[j++], a[i].new_start - a[i].old_start);
			continue;
		}
		if (!same_edit(m, &a[i], &b[j]))
			add_conflict(m, &a[i], &b[j]);
		if (a_end >= b_end)
			j++;
		if (b_end >= a_end)
			i++;
	}
	for (; i < na; i++)
		add_ours(m, &a[i], m->theirs.nr - m->base.nr);
	for (; j < nb; j++)
		add_theirs(m, &b[j], m->ours.nr - m->base.nr);
}

/* ---- narrowing conflicts ---- */

/*
 * Narrow conflict k to where ours and theirs differ: a conflict per
 * edit of a diff between them (none: they agree, it is no conflict).
 * The pieces keep the whole conflict's base lines.  Returns how many
 * chunks now stand at k.
 */
static size_t narrow_conflict(struct merge *m, size_t k)
{
	struct chunk c = m->chunk[k];
	struct diff_edit *e;
	size_t n, i;

	e = diff_lines(&m->ours.line[c.ours], c.nours,
		       &m->theirs.line[c.theirs], c.ntheirs, 0, &n);
	if (!n) {
		m->chunk[k].kind = SAME_CHANGE;
		return 1;
	}
	ALLOC_GROW(m->chunk, m->nr + n - 1, m->alloc);
	memmove(&m->chunk[k + n], &m->chunk[k + 1],
		(m->nr - k - 1) * sizeof(*m->chunk));
	m->nr += n - 1;
	for (i = 0; i < n; i++) {
		struct chunk *p = &m->chunk[k + i];

		*p = c;
		p->ours = c.ours + e[i].old_start;
		p->nours = e[i].old_count;
		p->theirs = c.theirs + e[i].new_start;
		p->ntheirs = e[i].new_count;
	}
	free(e);
	return n;
}

static void narrow_conflicts(struct merge *m)
{
	size_t k = 0;

	while (k < m->nr) {
		const struct chunk *c = &m->chunk[k];

		if (c->kind == CONFLICT && c->nours && c->ntheirs)
			k += narrow_conflict(m, k);
		else
			k++;
	}
}

static int has_alnum(const struct diff_line *l, long n)
{
	size_t i;

	for (; n > 0; n--, l++)
		for (i = 0; i < l->len; i++) {
			unsigned char c = l->start[i];

			if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    (c >= 'A' && c <= 'Z'))
				return 1;
		}
	return 0;
}

/*
 * Join neighbouring conflicts that are at most JOIN_DISTANCE lines of
 * ours apart, or apart by lines with no letter or digit.
 */
static void join_conflicts(struct merge *m)
{
	size_t k = 0, next;

	while (k + 1 < m->nr) {
		struct chunk *c = &m->chunk[k];
		const struct chunk *d = &m->chunk[k + 1];
		long from = c->ours + c->nours, gap = d->ours - from;

		if (c->kind != CONFLICT || d->kind != CONFLICT ||
		    (gap > JOIN_DISTANCE &&
		     has_alnum(&m->ours.line[from], gap))) {
			k++;
			continue;
		}
		c->nbase = d->base + d->nbase - c->base;
		c->nours = d->ours + d->nours - c->ours;
		c->ntheirs = d->theirs + d->ntheirs - c->theirs;
		next = k + 2;
		memmove(&m->chunk[k + 1], &m->chunk[next],
			(m->nr - next) * sizeof(*m->chunk));
		m->nr--;
	}
}

/* ---- the result ---- */

static void put(struct merge *m, const void *p, size_t n)
{
	ALLOC_GROW(m->out, m->len + n, m->out_alloc);
	memcpy(m->out + m->len, p, n);
	m->len += n;
}

/*
 * Lines [from, from + n) of t; with eol, the last one gets that line
 * end if it has no newline.
 */
static void put_lines(struct merge *m, const struct text *t, long from,
		      long n, const char *eol)
{
	const struct diff_line *last;

	if (n <= 0)
		return;
	last = &t->line[from + n - 1];
	put(m, t->line[from].start, last->start + last->len -
	    t->line[from].start);
	if (eol && (!last->len || last->start[last->len - 1] != '\n'))
		put(m, eol, strlen(eol));
}

/*
 * Does line i of t end in CRLF?  For a last line without a newline,
 * the line before tells; -1 when nothing does.
 */
static int ends_in_crlf(const struct text *t, long i)
{
	const struct diff_line *l;

	if (!t->nr)
		return -1;
	l = &t->line[i];
	if (i == t->nr - 1 && (!l->len || l->start[l->len - 1] != '\n')) {
		if (!i)
			return -1;
		l--;
	}
	return l->len > 1 && l->start[l->len - 2] == '\r';
}

/*
 * Markers end in CRLF when the line before the conflict (or the first)
 * does in ours and in theirs, and the base's first line does too (an
 * undecided text does not vote).
 */
static int conflict_wants_crlf(const struct merge *m, const struct chunk *c)
{
	int crlf = ends_in_crlf(&m->ours, c->ours ? c->ours - 1 : 0);

	if (crlf)
		crlf = ends_in_crlf(&m->theirs, c->theirs ? c->theirs - 1 : 0);
	if (crlf)
		crlf = ends_in_crlf(&m->base, 0);
	return crlf > 0;
}

static void put_marker(struct merge *m, char c, int size, const char *label,
		       const char *eol)
{
	for (; size > 0; size--)
		put(m, &c, 1);
	if (label) {
		put(m, " ", 1);
		put(m, label, strlen(label));
	}
	put(m, eol, strlen(eol));
}

static void put_conflict(struct merge *m, const struct chunk *c,
			 const struct merge_options *opt)
{
	const char *eol = conflict_wants_crlf(m, c) ? "\r\n" : "\n";
	int size = opt->marker_size > 0 ?
		opt->marker_size : DEFAULT_MARKER_SIZE;

	put_marker(m, '<', size, opt->ours_label, eol);
	put_lines(m, &m->ours, c->ours, c->nours, eol);
	if (opt->diff3) {
		put_marker(m, '|', size, opt->base_label, eol);
		put_lines(m, &m->base, c->base, c->nbase, eol);
	}
	put_marker(m, '=', size, NULL, eol);
	put_lines(m, &m->theirs, c->theirs, c->ntheirs, eol);
	put_marker(m, '>', size, opt->theirs_label, eol);
}

/* Ours, with each chunk put in. */
static void write_result(struct merge *m, const struct merge_options *opt)
{
	long done = 0;		/* lines of ours written or passed */
	size_t k;

	for (k = 0; k < m->nr; k++) {
		const struct chunk *c = &m->chunk[k];

		if (c->kind == SAME_CHANGE)
			continue;
		put_lines(m, &m->ours, done, c->ours - done, NULL);
		if (c->kind == CONFLICT)
			put_conflict(m, c, opt);
		else if (c->kind == FROM_OURS)
			put_lines(m, &m->ours, c->ours, c->nours, NULL);
		else
			put_lines(m, &m->theirs, c->theirs, c->ntheirs, NULL);
		done = c->ours + c->nours;
	}
	put_lines(m, &m->ours, done, m->ours.nr - done, NULL);
}

/* ---- merge_buffers ---- */

static void split_text(struct text *t, const char *buf, size_t size)
{
	size_t nr;

	t->line = split_lines(buf, size, &nr);
	t->nr = nr;
}

static int count_conflicts(const struct merge *m)
{
	size_t k;
	int n = 0;

	for (k = 0; k < m->nr; k++)
		n += m->chunk[k].kind == CONFLICT;
	return n;
}

static void merge_lines(struct merge *m, const struct merge_options *opt)
{
	struct diff_edit *a, *b;
	size_t na, nb;

	a = diff_lines(m->base.line, m->base.nr, m->ours.line, m->ours.nr,
		       0, &na);
	b = diff_lines(m->base.line, m->base.nr, m->theirs.line,
		       m->theirs.nr, 0, &nb);
	if (!na) {
		put_lines(m, &m->theirs, 0, m->theirs.nr, NULL);
	} else if (!nb) {
		put_lines(m, &m->ours, 0, m->ours.nr, NULL);
	} else {
		make_chunks(m, a, na, b, nb);
		if (!opt->diff3) {
			narrow_conflicts(m);
			join_conflicts(m);
		}
		write_result(m, opt);
	}
	free(a);
	free(b);
}

int merge_buffers(struct merge_result *out, const struct merge_input *in,
		  const struct merge_options *opt)
{
	static const struct merge_options defaults;
	struct merge m;

	memset(&m, 0, sizeof(m));
	if (!opt)
		opt = &defaults;
	split_text(&m.base, in->base, in->base_size);
	split_text(&m.ours, in->ours, in->ours_size);
	split_text(&m.theirs, in->theirs, in->theirs_size);
	merge_lines(&m, opt);
	out->buf = m.out ? m.out : xcalloc(1, 1);
	out->size = m.len;
	out->conflicts = count_conflicts(&m);
	free(m.base.line);
	free(m.ours.line);
	free(m.theirs.line);
	free(m.chunk);
	return out->conflicts;
}
