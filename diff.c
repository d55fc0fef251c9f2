/*
 * diff.c: the line diff and git's patch format.
 *
 * The diff is Myers' O(ND) algorithm ("An O(ND) Difference Algorithm
 * and Its Variations", 1986) in its linear-space form: search from
 * both corners of the edit graph at once until the two searches meet
 * in a middle snake, split the problem there and solve both halves.
 * Before the search the common head and tail are set aside, the other
 * lines get integer ids (so the search compares integers, not bytes),
 * and lines that occur nowhere on the other side are marked changed
 * and left out: no common subsequence can use them.  Each split has a
 * budget of search steps; past it, the point that got furthest is
 * taken as the split, so that huge and very different inputs take
 * near-linear time for a diff that may be a little longer than
 * minimal.  Last, each run of changed lines is moved as far down as
 * equal lines allow, so that an ambiguous change always lands in the
 * same place.
 *
 * The patch format (headers, hunks, function names, binary patches)
 * is git's, byte for byte.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cache.h"
#include "diff.h"

#define CONTEXT_LINES 3
#define FIRST_FEW_BYTES 8000	/* git looks for a NUL this far */
#define MIN_BUDGET 256		/* search steps any split may take */
#define FUNC_LINE_MAX 80	/* git cuts function names here */

int buffer_is_binary(const char *buf, size_t size)
{
	if (!buf)
		return 0;
	return memchr(buf, 0, size < FIRST_FEW_BYTES ?
		      size : FIRST_FEW_BYTES) != NULL;
}

struct diff_line *split_lines(const char *buf, size_t size, size_t *nr)
{
	struct diff_line *lines = NULL;
	size_t n = 0, alloc = 0, pos = 0;

	*nr = 0;
	while (pos < size) {
		const char *nl = memchr(buf + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (buf + pos)) + 1 : size - pos;

		ALLOC_GROW(lines, n + 1, alloc);
		lines[n].start = buf + pos;
		lines[n].len = len;
		n++;
		pos += len;
	}
	*nr = n;
	return lines;
}

static int same_line(const struct diff_line *x, const struct diff_line *y)
{
	return x->len == y->len && !memcmp(x->start, y->start, x->len);
}

/* ---- one side of the comparison ---- */

struct seq {
	const struct diff_line *line;
	long nr;
	unsigned char *changed;	/* nr + 1 flags; changed[nr] stays 0 */
	long head, end;		/* [head, end): not in the common ends */
	long *id;		/* id of line head + i */
	long *key;		/* ids of the lines the search sees... */
	long *pos;		/* ...and their line numbers */
	long nkey;
};

static void seq_init(struct seq *s, const struct diff_line *line, size_t nr)
{
	memset(s, 0, sizeof(*s));
	s->line = line;
	s->nr = nr;
	s->changed = xcalloc(nr + 1, 1);
}

static void seq_release(struct seq *s)
{
	free(s->changed);
	free(s->id);
	free(s->key);
	free(s->pos);
}

/* Set the equal head and tail of a and b aside. */
static void cut_common_ends(struct seq *a, struct seq *b)
{
	long head = 0, tail = 0;

	while (head < a->nr && head < b->nr &&
	       same_line(&a->line[head], &b->line[head]))
		head++;
	while (tail < a->nr - head && tail < b->nr - head &&
	       same_line(&a->line[a->nr - 1 - tail],
			 &b->line[b->nr - 1 - tail]))
		tail++;
	a->head = b->head = head;
	a->end = a->nr - tail;
	b->end = b->nr - tail;
}

/* ---- line ids ---- */

struct line_kind {
	uint64_t hash;
	const struct diff_line *line;	/* its first occurrence */
	long seen[2];			/* how often in a and in b */
};

struct kind_table {
	struct line_kind *kind;
	long nr;
	long *slot;		/* kind number + 1; 0 is an empty slot */
	size_t mask;
};

/* 64-bit FNV-1a: cheap, and spreads short similar lines well. */
static uint64_t hash_line(const struct diff_line *l)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < l->len; i++) {
		h ^= (unsigned char)l->start[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void kind_table_init(struct kind_table *t, long lines)
{
	size_t size = 16;

	while (size < 2 * (size_t)lines)
		size *= 2;
	t->kind = xmalloc((lines ? lines : 1) * sizeof(*t->kind));
	t->nr = 0;
	t->slot = xcalloc(size, sizeof(*t->slot));
	t->mask = size - 1;
}

static void kind_table_release(struct kind_table *t)
{
	free(t->kind);
	free(t->slot);
}

/* The id of l's content (a new one if unseen); count it for side. */
static long line_id(struct kind_table *t, const struct diff_line *l,
		    int side)
{
	uint64_t h = hash_line(l);
	size_t i;
	struct line_kind *k;

	for (i = h & t->mask; t->slot[i]; i = (i + 1) & t->mask) {
		k = &t->kind[t->slot[i] - 1];
		if (k->hash == h && same_line(k->line, l)) {
			k->seen[side]++;
			return t->slot[i] - 1;
		}
	}
	k = &t->kind[t->nr];
	k->hash = h;
	k->line = l;
	k->seen[0] = k->seen[1] = 0;
	k->seen[side] = 1;
	t->slot[i] = ++t->nr;
	return t->nr - 1;
}

static void assign_ids(struct seq *s, struct kind_table *t, int side)
{
	long i, n = s->end - s->head;

	s->id = xmalloc((n ? n : 1) * sizeof(*s->id));
	for (i = 0; i < n; i++)
		s->id[i] = line_id(t, &s->line[s->head + i], side);
}

/*
 * Keep for the search only the lines that also occur on the other
 * side; the rest are changes whatever the search would say.
 */
static void pick_keys(struct seq *s, const struct kind_table *t, int other)
{
	long i, n = s->end - s->head;

	s->key = xmalloc((n ? n : 1) * sizeof(*s->key));
	s->pos = xmalloc((n ? n : 1) * sizeof(*s->pos));
	s->nkey = 0;
	for (i = 0; i < n; i++) {
		if (t->kind[s->id[i]].seen[other]) {
			s->key[s->nkey] = s->id[i];
			s->pos[s->nkey] = s->head + i;
			s->nkey++;
		} else {
			s->changed[s->head + i] = 1;
		}
	}
	free(s->id);
	s->id = NULL;
}

/* ---- Myers' search ---- */

/*
 * A sub-problem: keys [x0, x1) of a against keys [y0, y1) of b.  In
 * the edit graph a point (x, y) lies on diagonal x - y; a step right
 * drops a line of a, a step down adds a line of b, a diagonal step
 * (a "snake" when several) keeps an equal line.
 */
struct box {
	long x0, y0, x1, y1;
};

struct search {
	const long *a, *b;	/* the keys */
	long *fwd;		/* per diagonal: largest x the forward */
	long *bwd;		/* search reached, smallest x the backward */
	long budget;		/* steps before settling for any split */
};

#define NO_FWD LONG_MIN		/* diagonal not reached (yet) */
#define NO_BWD LONG_MAX

static long snake_down(const struct search *s, const struct box *bx,
		       long x, long k)
{
	while (x < bx->x1 && x - k < bx->y1 && s->a[x] == s->b[x - k])
		x++;
	return x;
}

static long snake_up(const struct search *s, const struct box *bx,
		     long x, long k)
{
	while (x > bx->x0 && x - k > bx->y0 &&
	       s->a[x - 1] == s->b[x - k - 1])
		x--;
	return x;
}

/*
 * Diagonals within d steps of diagonal c, of c + d's parity, clipped
 * to the box's [kmin, kmax].
 */
static void step_range(long c, long d, long kmin, long kmax,
		       long *lo, long *hi)
{
	*lo = c - d;
	if (*lo < kmin)
		*lo += (kmin - *lo + 1) / 2 * 2;
	*hi = c + d;
	if (*hi > kmax)
		*hi -= (*hi - kmax + 1) / 2 * 2;
}

/*
 * One more forward step onto diagonal k, from the points reached on
 * diagonals [lo, hi] (k - 1 and k + 1 among them): right from k - 1 or
 * down from k + 1, whichever gets further without leaving the box.
 */
static long step_fwd(const struct search *s, const struct box *bx, long k,
		     long lo, long hi)
{
	long x = NO_FWD, from;

	if (k - 1 >= lo && (from = s->fwd[k - 1]) != NO_FWD && from < bx->x1)
		x = from + 1;
	if (k + 1 <= hi && (from = s->fwd[k + 1]) != NO_FWD &&
	    from - (k + 1) < bx->y1 && from > x)
		x = from;
	return x == NO_FWD ? x : snake_down(s, bx, x, k);
}

/* The same backwards: left from k + 1 or up from k - 1. */
static long step_bwd(const struct search *s, const struct box *bx, long k,
		     long lo, long hi)
{
	long x = NO_BWD, from;

	if (k + 1 <= hi && (from = s->bwd[k + 1]) != NO_BWD && from > bx->x0)
		x = from - 1;
	if (k - 1 >= lo && (from = s->bwd[k - 1]) != NO_BWD &&
	    from - (k - 1) > bx->y0 && from < x)
		x = from;
	return x == NO_BWD ? x : snake_up(s, bx, x, k);
}

/*
 * Out of budget: the point either search pushed furthest from its
 * own corner.  It is not the far corner (the searches would have met
 * there), so both halves of the split are smaller than the box.
 */
static void furthest_point(const struct search *s, const struct box *bx,
			   long flo, long fhi, long blo, long bhi,
			   long *sx, long *sy)
{
	long k, x, best = -1, bestx = 0, bestk = 0;

	for (k = flo; k <= fhi; k += 2) {
		x = s->fwd[k];
		if (x != NO_FWD && (x - bx->x0) + (x - k - bx->y0) > best) {
			best = (x - bx->x0) + (x - k - bx->y0);
			bestx = x;
			bestk = k;
		}
	}
	for (k = blo; k <= bhi; k += 2) {
		x = s->bwd[k];
		if (x != NO_BWD && (bx->x1 - x) + (bx->y1 - x + k) > best) {
			best = (bx->x1 - x) + (bx->y1 - x + k);
			bestx = x;
			bestk = k;
		}
	}
	*sx = bestx;
	*sy = bestx - bestk;
}

/*
 * Find a point (*sx, *sy) on a shortest path through the box, by
 * Myers' middle snake: after d steps forward and d - 1 (or d) steps
 * backward, the searches overlap on a diagonal exactly when the edit
 * distance is 2d - 1 (or 2d), and the meeting point splits it.  The
 * box's first and last lines must differ (see solve()).
 */
static void find_split(struct search *s, const struct box *bx,
		       long *sx, long *sy)
{
	long kf = bx->x0 - bx->y0, kb = bx->x1 - bx->y1;
	long kmin = bx->x0 - bx->y1, kmax = bx->x1 - bx->y0;
	int odd = (kb - kf) % 2 != 0;
	long flo = kf, fhi = kf, blo = kb, bhi = kb;
	long d, k, x, lo, hi;

	s->fwd[kf] = snake_down(s, bx, bx->x0, kf);
	s->bwd[kb] = snake_up(s, bx, bx->x1, kb);
	for (d = 1;; d++) {
		step_range(kf, d, kmin, kmax, &lo, &hi);
		for (k = lo; k <= hi; k += 2) {
			x = step_fwd(s, bx, k, flo, fhi);
			s->fwd[k] = x;
			if (odd && k >= blo && k <= bhi && x != NO_FWD &&
			    s->bwd[k] <= x)
				goto found;
		}
		flo = lo;
		fhi = hi;

		step_range(kb, d, kmin, kmax, &lo, &hi);
		for (k = lo; k <= hi; k += 2) {
			x = step_bwd(s, bx, k, blo, bhi);
			s->bwd[k] = x;
			if (!odd && k >= flo && k <= fhi && x != NO_BWD &&
			    x <= s->fwd[k])
				goto found;
		}
		blo = lo;
		bhi = hi;

		if (d >= s->budget) {
			furthest_point(s, bx, flo, fhi, blo, bhi, sx, sy);
			return;
		}
	}
found:
	*sx = x;
	*sy = x - k;
}

static void mark_keys(struct seq *sq, long from, long to)
{
	for (; from < to; from++)
		sq->changed[sq->pos[from]] = 1;
}

static long isqrt(long n)
{
	long r = 0;

	while ((r + 1) * (r + 1) <= n)
		r++;
	return r;
}

/*
 * Mark the changed keys of a and b.  Boxes wait on a stack rather
 * than in recursion: splits past the budget may be lopsided, and a
 * deep recursion would then run out of stack.
 */
static void solve(struct seq *a, struct seq *b)
{
	struct search s;
	struct box *stack = NULL, bx;
	size_t nr = 0, alloc = 0;
	long *diag = xmalloc((a->nkey + b->nkey + 3) * 2 * sizeof(long));
	long sx, sy;

	s.a = a->key;
	s.b = b->key;
	s.fwd = diag + b->nkey + 1;
	s.bwd = s.fwd + a->nkey + b->nkey + 3;
	s.budget = isqrt(a->nkey + b->nkey);
	if (s.budget < MIN_BUDGET)
		s.budget = MIN_BUDGET;

	ALLOC_GROW(stack, 1, alloc);
	stack[nr++] = (struct box){ 0, 0, a->nkey, b->nkey };
	while (nr) {
		bx = stack[--nr];
		while (bx.x0 < bx.x1 && bx.y0 < bx.y1 &&
		       s.a[bx.x0] == s.b[bx.y0]) {
			bx.x0++;
			bx.y0++;
		}
		while (bx.x0 < bx.x1 && bx.y0 < bx.y1 &&
		       s.a[bx.x1 - 1] == s.b[bx.y1 - 1]) {
			bx.x1--;
			bx.y1--;
		}
		if (bx.x0 == bx.x1 || bx.y0 == bx.y1) {
			mark_keys(a, bx.x0, bx.x1);
			mark_keys(b, bx.y0, bx.y1);
			continue;
		}
		find_split(&s, &bx, &sx, &sy);
		ALLOC_GROW(stack, nr + 2, alloc);
		stack[nr++] = (struct box){ sx, sy, bx.x1, bx.y1 };
		stack[nr++] = (struct box){ bx.x0, bx.y0, sx, sy };
	}
	free(stack);
	free(diag);
}

/* ---- tidying up ---- */

/*
 * Move each run of changed lines down while the line after it equals
 * its first line (the file reads the same either way), taking in the
 * runs it meets.  The unchanged lines still pair up in order with the
 * other side's, so the edits stay correct and no longer.
 */
static void push_changes_down(struct seq *sq)
{
	unsigned char *chg = sq->changed;
	long first = 0, next;

	while (first < sq->nr) {
		if (!chg[first]) {
			first++;
			continue;
		}
		for (next = first; chg[next]; next++)
			;
		while (next < sq->nr &&
		       same_line(&sq->line[first], &sq->line[next])) {
			chg[first++] = 0;
			chg[next++] = 1;
			while (chg[next])
				next++;
		}
		first = next;
	}
}

/* Pair the two change maps into edits. */
static struct diff_edit *collect_edits(const struct seq *a,
				       const struct seq *b, size_t *nr)
{
	struct diff_edit *edits = NULL;
	size_t n = 0, alloc = 0;
	long i = 0, j = 0;

	while (i < a->nr || j < b->nr) {
		struct diff_edit e;

		if (!a->changed[i] && !b->changed[j]) {
			i++;
			j++;
			continue;
		}
		e.old_start = i;
		e.new_start = j;
		while (a->changed[i])
			i++;
		while (b->changed[j])
			j++;
		e.old_count = i - e.old_start;
		e.new_count = j - e.new_start;
		ALLOC_GROW(edits, n + 1, alloc);
		edits[n++] = e;
	}
	*nr = n;
	return edits;
}

struct diff_edit *diff_lines(const struct diff_line *a, size_t na,
			     const struct diff_line *b, size_t nb,
			     size_t *nr)
{
	struct seq sa, sb;
	struct kind_table t;
	struct diff_edit *edits;

	*nr = 0;
	seq_init(&sa, a, na);
	seq_init(&sb, b, nb);
	cut_common_ends(&sa, &sb);
	kind_table_init(&t, (sa.end - sa.head) + (sb.end - sb.head));
	assign_ids(&sa, &t, 0);
	assign_ids(&sb, &t, 1);
	pick_keys(&sa, &t, 1);
	pick_keys(&sb, &t, 0);
	kind_table_release(&t);
	solve(&sa, &sb);
	push_changes_down(&sa);
	push_changes_down(&sb);
	edits = collect_edits(&sa, &sb, nr);
	seq_release(&sa);
	seq_release(&sb);
	return edits;
}

/* ---- hunks ---- */

struct hunk_writer {
	FILE *out;
	const struct diff_line *a, *b;
	long na, nb;
	long scanned;		/* old lines below this were searched */
	char func[FUNC_LINE_MAX];
	size_t func_len;	/* 0: no function line found so far */
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void emit_line(FILE *out, char sign, const struct diff_line *l)
{
	putc(sign, out);
	fwrite(l->start, 1, l->len, out);
	if (!l->len || l->start[l->len - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* git's default function line: it starts with a letter, '_' or '$'. */
static int is_func_line(const struct diff_line *l)
{
	unsigned char c = l->len ? l->start[0] : 0;

	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		c == '_' || c == '$';
}

/*
 * Remember the function line nearest above old line `below`, cut to
 * git's 80 bytes and stripped of trailing white space.  Hunks come in
 * order, so only the lines added since the last call need a look: a
 * line found earlier stays the nearest when none of them matches.
 */
static void update_func_line(struct hunk_writer *w, long below)
{
	long l;
	size_t n;

	for (l = below - 1; l >= w->scanned; l--) {
		if (!is_func_line(&w->a[l]))
			continue;
		n = w->a[l].len < FUNC_LINE_MAX ? w->a[l].len : FUNC_LINE_MAX;
		while (n && is_space(w->a[l].start[n - 1]))
			n--;
		memcpy(w->func, w->a[l].start, n);
		w->func_len = n;
		break;
	}
	if (below > w->scanned)
		w->scanned = below;
}

/* " -start,count": start is 1-based, or the line before when empty. */
static void emit_range(FILE *out, char sign, long start, long count)
{
	fprintf(out, " %c%ld", sign, count ? start + 1 : start);
	if (count != 1)
		fprintf(out, ",%ld", count);
}

/* Lines b[from, to), unchanged, as context. */
static void emit_context(struct hunk_writer *w, long from, long to)
{
	for (; from < to; from++)
		emit_line(w->out, ' ', &w->b[from]);
}

/* One hunk: edits e[0] to e[n - 1] with context around them. */
static void emit_hunk(struct hunk_writer *w, const struct diff_edit *e,
		      size_t n)
{
	const struct diff_edit *last = &e[n - 1];
	long old_end = last->old_start + last->old_count;
	long new_end = last->new_start + last->new_count;
	long before = (long)e->old_start < CONTEXT_LINES ?
		(long)e->old_start : CONTEXT_LINES;
	long after = w->na - old_end < CONTEXT_LINES ?
		w->na - old_end : CONTEXT_LINES;
	long old_from = e->old_start - before, new_from = e->new_start - before;
	size_t i;
	long l;

	update_func_line(w, old_from);
	fputs("@@", w->out);
	emit_range(w->out, '-', old_from, old_end + after - old_from);
	emit_range(w->out, '+', new_from, new_end + after - new_from);
	fputs(" @@", w->out);
	if (w->func_len) {
		putc(' ', w->out);
		fwrite(w->func, 1, w->func_len, w->out);
	}
	putc('\n', w->out);

	emit_context(w, new_from, e->new_start);
	for (i = 0; i < n; i++) {
		if (i)
			emit_context(w, e[i - 1].new_start + e[i - 1].new_count,
				     e[i].new_start);
		for (l = 0; l < (long)e[i].old_count; l++)
			emit_line(w->out, '-', &w->a[e[i].old_start + l]);
		for (l = 0; l < (long)e[i].new_count; l++)
			emit_line(w->out, '+', &w->b[e[i].new_start + l]);
	}
	emit_context(w, new_end, new_end + after);
}

/*
 * Edits at most twice the context apart share a hunk: their contexts
 * would touch or overlap.
 */
static void emit_hunks(struct hunk_writer *w, const struct diff_edit *edits,
		       size_t nr)
{
	size_t first, n;

	for (first = 0; first < nr; first += n) {
		for (n = 1; first + n < nr; n++) {
			const struct diff_edit *prev = &edits[first + n - 1];

			if (edits[first + n].old_start -
			    (prev->old_start + prev->old_count) >
			    2 * CONTEXT_LINES)
				break;
		}
		emit_hunk(w, &edits[first], n);
	}
}
/* ---- the patch header ---- */

static const unsigned char null_sha1[20];

/*
 * "--- a/p" or "--- /dev/null" (and "+++"); git ends a name holding a
 * space with a tab, so that the name's end is clear, but not
 * /dev/null.
 */
static void emit_file_name(FILE *out, const char *sign, const char *prefix,
			   const struct diff_side *side)
{
	fputs(sign, out);
	if (!side->mode) {
		fputs("/dev/null\n", out);
		return;
	}
	write_quoted_path(out, prefix, side->path, strlen(side->path));
	fputs(strchr(side->path, ' ') ? "\t\n" : "\n", out);
}

static void emit_header(FILE *out, const struct diff_side *one,
			const struct diff_side *two, int full_index)
{
	int abbrev = full_index ? 40 : 7;

	fputs("diff --git ", out);
	write_quoted_path(out, "a/", one->path, strlen(one->path));
	putc(' ', out);
	write_quoted_path(out, "b/", two->path, strlen(two->path));
	putc('\n', out);
	if (!one->mode)
		fprintf(out, "new file mode %06o\n", two->mode);
	else if (!two->mode)
		fprintf(out, "deleted file mode %06o\n", one->mode);
	else if (one->mode != two->mode)
		fprintf(out, "old mode %06o\nnew mode %06o\n",
			one->mode, two->mode);
	if (one->mode && two->mode && !memcmp(one->sha1, two->sha1, 20))
		return;
	fprintf(out, "index %.*s..%.*s",
		abbrev, sha1_to_hex(one->mode ? one->sha1 : null_sha1),
		abbrev, sha1_to_hex(two->mode ? two->sha1 : null_sha1));
	if (one->mode == two->mode)
		fprintf(out, " %06o", one->mode);
	putc('\n', out);
}

/* ---- binary patches ---- */

/* git's base85 digits, in value order. */
static const char base85_digit[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	"abcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";

/*
 * One line of a binary patch: a letter for the byte count (A-Z for 1
 * to 26, a-z for 27 to 52), then each 4 bytes, big-endian, the last
 * ones zero-padded, as 5 base-85 digits, most significant first.
 */
static void emit_base85_line(FILE *out, const unsigned char *p, size_t n)
{
	char digits[5];
	size_t i;
	int j;

	putc(n <= 26 ? 'A' + (int)n - 1 : 'a' + (int)n - 27, out);
	for (i = 0; i < n; i += 4) {
		uint32_t v = 0;

		for (j = 0; j < 4; j++)
			v = v << 8 | (i + j < n ? p[i + j] : 0);
		for (j = 4; j >= 0; j--) {
			digits[j] = base85_digit[v % 85];
			v /= 85;
		}
		fwrite(digits, 1, 5, out);
	}
	putc('\n', out);
}

/* "literal <size>", then the deflated data, 52 bytes a line. */
static int emit_literal(FILE *out, const char *data, size_t size)
{
	uLongf zlen = compressBound(size);
	unsigned char *z = xmalloc(zlen);
	size_t done, n;

	if (compress2(z, &zlen, (const Bytef *)data, size,
		      Z_DEFAULT_COMPRESSION) != Z_OK) {
		free(z);
		return error("deflate binary patch data");
	}
	fprintf(out, "literal %zu\n", size);
	for (done = 0; done < zlen; done += n) {
		n = zlen - done > 52 ? 52 : zlen - done;
		emit_base85_line(out, z + done, n);
	}
	putc('\n', out);
	free(z);
	return 0;
}

/* git diff --binary: forward then reverse, so git apply -R works too. */
static int emit_binary_patch(FILE *out, const char *d1, size_t s1,
			     const char *d2, size_t s2)
{
	fputs("GIT binary patch\n", out);
	if (emit_literal(out, d2, s2) < 0 || emit_literal(out, d1, s1) < 0)
		return -1;
	return 0;
}

static void emit_binary_differ(FILE *out, const struct diff_side *one,
			       const struct diff_side *two)
{
	fputs("Binary files ", out);
	if (one->mode)
		write_quoted_path(out, "a/", one->path, strlen(one->path));
	else
		fputs("/dev/null", out);
	fputs(" and ", out);
	if (two->mode)
		write_quoted_path(out, "b/", two->path, strlen(two->path));
	else
		fputs("/dev/null", out);
	fputs(" differ\n", out);
}

/* ---- print_patch ---- */

/* A side's text: its data, or git's made-up text for a gitlink. */
static const char *side_data(const struct diff_side *s, size_t *size,
			     char *gitlink_buf)
{
	if (!s->mode) {
		*size = 0;
		return "";
	}
	if (S_ISGITLINK(s->mode) && !s->data) {
		*size = sprintf(gitlink_buf, "Subproject commit %s\n",
				sha1_to_hex(s->sha1));
		return gitlink_buf;
	}
	*size = s->data ? s->size : 0;
	return s->data ? s->data : "";
}

static void emit_text_patch(FILE *out, const struct diff_side *one,
			    const struct diff_side *two, const char *d1,
			    size_t s1, const char *d2, size_t s2)
{
	struct hunk_writer w;
	struct diff_line *a, *b;
	struct diff_edit *edits;
	size_t na, nb, nr;

	a = split_lines(d1, s1, &na);
	b = split_lines(d2, s2, &nb);
	edits = diff_lines(a, na, b, nb, &nr);
	if (nr) {
		emit_file_name(out, "--- ", "a/", one);
		emit_file_name(out, "+++ ", "b/", two);
		memset(&w, 0, sizeof(w));
		w.out = out;
		w.a = a;
		w.b = b;
		w.na = na;
		w.nb = nb;
		emit_hunks(&w, edits, nr);
	}
	free(edits);
	free(a);
	free(b);
}

int print_patch(FILE *out, const struct diff_side *one,
		const struct diff_side *two, const struct diff_options *opt)
{
	char buf1[64], buf2[64];
	const char *d1, *d2;
	size_t s1, s2;
	int binary, want_binary = opt && opt->binary, ret = 0;

	if (one->mode == two->mode && !memcmp(one->sha1, two->sha1, 20))
		return 0;
	d1 = side_data(one, &s1, buf1);
	d2 = side_data(two, &s2, buf2);
	binary = buffer_is_binary(d1, s1) || buffer_is_binary(d2, s2);
	emit_header(out, one, two, want_binary && binary);
	if (one->mode && two->mode && !memcmp(one->sha1, two->sha1, 20))
		; /* a mode change only */
	else if (binary && want_binary)
		ret = emit_binary_patch(out, d1, s1, d2, s2);
	else if (binary)
		emit_binary_differ(out, one, two);
	else
		emit_text_patch(out, one, two, d1, s1, d2, s2);
	if (ferror(out))
		return error_errno("write patch for '%s'", two->path);
	return ret;
}
