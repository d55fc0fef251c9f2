/*
 * diff-slide.c: where a run of changed lines goes when it could go
 * elsewhere.
 *
 * A run of removed (or added) lines whose last line equals the line
 * just above it can move up a line: the file reads the same and the
 * diff is as long.  Such a run is a "slider".  git's default diff
 * places sliders so:
 *
 *  1. Each run is moved as far up as it goes and then as far down,
 *     taking in the runs it meets on the way (again, until its size
 *     stops changing).
 *  2. If somewhere on its way the other side had changes level with
 *     it (the two then read as one replacement), the run goes back up
 *     to the lowest such place.
 *  3. Otherwise the indent heuristic (when asked for: git diff's
 *     default, not git's merges') picks its place among the lowest
 *     few: a place makes two splits (above the run and below it), each
 *     split is scored from the blank lines and the indentation around
 *     it, and the place with the lowest total wins, the lower one on
 *     a tie.  Without it the run stays at its lowest.
 *
 * The weights are the ones published with the heuristic (Michael
 * Haggerty's diff-slider-tools study, made git's default in 2.14).
 */
#include <string.h>

#include "cache.h"
#include "diff-internal.h"

#define MAX_INDENT 200		/* indentation counts up to this */
#define MAX_BLANKS 20		/* blank lines looked through */
#define MAX_SLIDE 100		/* places tried above the lowest */

/* Penalties; a lower total is a better place. */
enum {
	START_OF_FILE = 1,
	END_OF_FILE = 21,
	PER_BLANK = -30,	/* each blank line next to the split */
	PER_BLANK_BELOW = 6,	/* ... taken back a little when below it */
	DEEPER = -4,		/* the line below indented more */
	DEEPER_AFTER_BLANK = 10,
	SHALLOWER_OPENING = 24,	/* less, and the next one more */
	SHALLOWER_OPENING_AFTER_BLANK = 17,
	SHALLOWER_CLOSING = 23,	/* less, and the next one not more */
	SHALLOWER_CLOSING_AFTER_BLANK = 17,
	INDENT_WEIGHT = 60	/* a lower total indent outweighs this */
};

/* A run of changed lines [start, end); empty where start == end. */
struct run {
	long start, end;
};

/* ---- moving runs ---- */

/* The run that starts at line `at` (empty when it is unchanged). */
static void run_at(const struct diff_seq *s, long at, struct run *r)
{
	r->start = r->end = at;
	while (s->changed[r->end])
		r->end++;
}

/*
 * The run after the next unchanged line; -1 at the end.  Runs of the
 * two sides correspond one to one, counted this way (empty ones too).
 */
static int next_run(const struct diff_seq *s, struct run *r)
{
	if (r->end == s->nr)
		return -1;
	r->start = r->end + 1;
	for (r->end = r->start; s->changed[r->end]; r->end++)
		;
	return 0;
}

/* The run before the previous unchanged line; -1 at the start. */
static int prev_run(const struct diff_seq *s, struct run *r)
{
	if (!r->start)
		return -1;
	r->end = r->start - 1;
	for (r->start = r->end; s->changed[r->start - 1]; r->start--)
		;
	return 0;
}

/* Move the run up a line, taking in the run it meets; -1 if it can't. */
static int slide_up(struct diff_seq *s, struct run *r)
{
	if (!r->start ||
	    !diff_same_line(&s->line[r->start - 1], &s->line[r->end - 1]))
		return -1;
	s->changed[--r->start] = 1;
	s->changed[--r->end] = 0;
	while (s->changed[r->start - 1])
		r->start--;
	return 0;
}

/* Move the run down a line, taking in the run it meets. */
static int slide_down(struct diff_seq *s, struct run *r)
{
	if (r->end == s->nr ||
	    !diff_same_line(&s->line[r->start], &s->line[r->end]))
		return -1;
	s->changed[r->start++] = 0;
	s->changed[r->end++] = 1;
	while (s->changed[r->end])
		r->end++;
	return 0;
}

/* ---- the indent heuristic ---- */

/*
 * A line's indentation, a tab reaching the next multiple of 8, capped
 * at MAX_INDENT; -1 for a line of white space only.
 */
static int indent_of(const struct diff_line *l)
{
	int n = 0;
	size_t i;

	for (i = 0; i < l->len; i++) {
		char c = l->start[i];

		if (c == ' ')
			n++;
		else if (c == '\t')
			n += 8 - n % 8;
		else if (c != '\n' && c != '\r')
			return n;
		if (n >= MAX_INDENT)
			return MAX_INDENT;
	}
	return -1;
}

/* What surrounds a split just above line `at`. */
struct split_view {
	int at_end;		/* no line below: the end of the file */
	int indent;		/* of the line below, -1 if blank */
	int blanks_above;	/* blank lines just above */
	int indent_above;	/* the first other line above; -1: none */
	int blanks_below;	/* blank lines after the line below */
	int indent_below;	/* the first other line after those; -1 */
};

/*
 * The first line that is not blank, from line i on by step (at most
 * MAX_BLANKS blank ones, else indentation 0): its indentation, or -1
 * past the file's edge.  *blanks gets the blank lines passed.
 */
static int look_past_blanks(const struct diff_seq *s, long i, long step,
			    int *blanks)
{
	int indent;

	for (*blanks = 0; i >= 0 && i < s->nr; i += step) {
		indent = indent_of(&s->line[i]);
		if (indent != -1)
			return indent;
		if (++*blanks == MAX_BLANKS)
			return 0;
	}
	return -1;
}

static void view_split(const struct diff_seq *s, long at,
		       struct split_view *v)
{
	v->at_end = at >= s->nr;
	v->indent = v->at_end ? -1 : indent_of(&s->line[at]);
	v->indent_above = look_past_blanks(s, at - 1, -1, &v->blanks_above);
	v->indent_below = look_past_blanks(s, at + 1, 1, &v->blanks_below);
}

struct place_score {
	int indent;		/* summed indentation at the splits */
	int penalty;
};

/* The penalty of a split from how the indentation changes at it. */
static int indent_penalty(const struct split_view *v, int indent,
			  int blanks)
{
	if (indent == -1 || v->indent_above == -1 ||
	    indent == v->indent_above)
		return 0;
	if (indent > v->indent_above)
		return blanks ? DEEPER_AFTER_BLANK : DEEPER;
	if (v->indent_below != -1 && v->indent_below > indent)
		return blanks ? SHALLOWER_OPENING_AFTER_BLANK :
			SHALLOWER_OPENING;
	return blanks ? SHALLOWER_CLOSING_AFTER_BLANK : SHALLOWER_CLOSING;
}

/*
 * Add the split above line `at` to sc.  The blank lines below a split
 * count from the line just below it; the end of the file counts as
 * one.
 */
static void score_split(const struct diff_seq *s, long at,
			struct place_score *sc)
{
	struct split_view v;
	int below, blanks, indent;

	view_split(s, at, &v);
	if (v.indent_above == -1 && !v.blanks_above)
		sc->penalty += START_OF_FILE;
	if (v.at_end)
		sc->penalty += END_OF_FILE;
	below = v.indent == -1 ? 1 + v.blanks_below : 0;
	blanks = v.blanks_above + below;
	sc->penalty += PER_BLANK * blanks + PER_BLANK_BELOW * below;
	indent = v.indent != -1 ? v.indent : v.indent_below;
	sc->indent += indent;
	sc->penalty += indent_penalty(&v, indent, blanks);
}

/* <= 0 when x is at least as good as y (only the sign of indents). */
static int compare_scores(const struct place_score *x,
			  const struct place_score *y)
{
	int by_indent = (x->indent > y->indent) - (x->indent < y->indent);

	return INDENT_WEIGHT * by_indent + (x->penalty - y->penalty);
}

/*
 * Where the run r (at its lowest, able to rise up to end at top_end)
 * should end: the best scored of the lowest places, at most one more
 * than its size and MAX_SLIDE.
 */
static long best_place(const struct diff_seq *s, const struct run *r,
		       long top_end)
{
	long size = r->end - r->start, end, best = -1;
	struct place_score sc, best_sc = { 0, 0 };

	end = top_end;
	if (r->end - size - 1 > end)
		end = r->end - size - 1;
	if (r->end - MAX_SLIDE > end)
		end = r->end - MAX_SLIDE;
	for (; end <= r->end; end++) {
		sc.indent = sc.penalty = 0;
		score_split(s, end, &sc);
		score_split(s, end - size, &sc);
		if (best == -1 || compare_scores(&sc, &best_sc) <= 0) {
			best_sc = sc;
			best = end;
		}
	}
	return best;
}

/* ---- placing each run ---- */

/*
 * Move r (and ro, the other side's run level with it) to r's place.
 * A run once at its lowest never takes in another run when rising.
 */
static void place_run(struct diff_seq *s, const struct diff_seq *o,
		      struct run *r, struct run *ro, unsigned flags)
{
	long size, top_end, level_end, end;

	do {
		size = r->end - r->start;
		level_end = -1;
		while (!slide_up(s, r))
			prev_run(o, ro);
		top_end = r->end;
		if (ro->end > ro->start)
			level_end = r->end;
		while (!slide_down(s, r)) {
			next_run(o, ro);
			if (ro->end > ro->start)
				level_end = r->end;
		}
	} while (size != r->end - r->start);

	if (r->end == top_end)
		return;
	if (level_end != -1)
		end = level_end;
	else if (flags & DIFF_INDENT_HEURISTIC)
		end = best_place(s, r, top_end);
	else
		return;
	while (r->end > end) {
		slide_up(s, r);
		prev_run(o, ro);
	}
}

/*
 * s has changes only between its common ends, o maybe also above them
 * (what slid there when o was placed).  When o has none above them
 * either, the walk starts at the common head, the runs there pairing
 * up; it ends below the last run of s.
 */
void slide_changes(struct diff_seq *s, const struct diff_seq *o,
		   unsigned flags)
{
	struct run r, ro;
	long top = memchr(o->changed, 1, o->head) ? 0 : s->head;

	run_at(s, top, &r);
	run_at(o, top, &ro);
	for (;;) {
		if (r.end > r.start)
			place_run(s, o, &r, &ro, flags);
		if (r.end >= s->end || next_run(s, &r) || next_run(o, &ro))
			break;
	}
}
