/*
 * diff-internal.h: what the line diff (diff.c) and the placing of its
 * changes (diff-slide.c) share.  Not for tools: they use diff.h.
 */
#ifndef DIFF_INTERNAL_H
#define DIFF_INTERNAL_H

#include <string.h>

#include "diff.h"

/* One side of a line diff. */
struct diff_seq {
	const struct diff_line *line;
	long nr;
	long *id;		/* classes of lines head... end - 1 */
	unsigned char *changed;	/* per line; changed[-1], changed[nr] are 0 */
	unsigned char *changed_buf;
	long head, end;		/* [head, end): not in the common ends */
	long *key;		/* classes of the lines the search sees... */
	long *pos;		/* ...and their line numbers */
	long nkey;
};

static inline int diff_same_line(const struct diff_line *x,
				 const struct diff_line *y)
{
	return x->len == y->len && !memcmp(x->start, y->start, x->len);
}

/*
 * A rough square root, as git takes it for its limits: the power of
 * two reached by doubling once for every two bits of n (1 for 0).
 */
static inline long rough_sqrt(long n)
{
	long r = 1;

	for (; n > 0; n >>= 2)
		r <<= 1;
	return r;
}

/*
 * Mark changed the lines of a and b (their keys, the lines the search
 * sees) that a shortest diff drops or adds, as git's search would,
 * shortcuts included (diff-search.c).
 */
void diff_search(struct diff_seq *a, struct diff_seq *b);

/*
 * Move each run of changed lines of s that can slide over equal lines
 * to where git puts it: level with a change in o (the other side, its
 * changes paired with s's in order) when it can reach one, else where
 * the indent heuristic scores best (with DIFF_INDENT_HEURISTIC in
 * flags) or as low as it goes.  The diff stays as long.
 */
void slide_changes(struct diff_seq *s, const struct diff_seq *o,
		   unsigned flags);

#endif
