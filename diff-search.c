/*
 * diff-search.c: Myers' search for a shortest path through the edit
 * graph, linear-space form ("An O(ND) Difference Algorithm and Its
 * Variations", 1986, section 4b), with git's choices:
 *
 *  - Each step scans diagonals from the highest to the lowest, forward
 *    preferring a step right on a tie, backward a step left, and takes
 *    the first overlap of the two searches it finds.
 *  - The search is not run to the end on hard inputs: past 256 steps
 *    a long snake far out on a diagonal is taken as a split, and past
 *    a budget (about the square root of the lines searched) the point
 *    that got furthest is.  The half of such a split that was fully
 *    searched is then solved exactly, the other half by the same
 *    rules.
 *
 * Both matter for which shortest diff comes out; they were checked
 * against git's output on random and real files (t4103).
 */
#include <limits.h>
#include <stdlib.h>

#include "cache.h"
#include "diff-internal.h"

#define MIN_BUDGET 256		/* search steps any split may take */
#define HEURISTIC_STEPS 256	/* steps before long snakes are split at */
#define LONG_SNAKE 20		/* lines of a snake worth splitting at */
#define SNAKE_FACTOR 4		/* how far out such a snake must be */

/*
 * A sub-problem: keys [x0, x1) of a against keys [y0, y1) of b.  In
 * the edit graph a point (x, y) lies on diagonal x - y; a step right
 * drops a line of a, a step down adds a line of b, a diagonal step
 * (a "snake" when several) keeps an equal line.  exact: solve it
 * without the shortcuts for hard inputs.
 */
struct box {
	long x0, y0, x1, y1;
	int exact;
};

/* Where a box is split, and which halves must be solved exactly. */
struct split {
	long x, y;
	int exact_lo, exact_hi;
};

struct search {
	const long *a, *b;	/* the keys */
	long *fwd;		/* per diagonal: largest x the forward */
	long *bwd;		/* search reached, smallest x the backward */
	long budget;		/* steps before settling for any split */
	/* the current box and the diagonals each search covers */
	struct box bx;
	long kf, kb;		/* the diagonals of the two corners */
	long flo, fhi, blo, bhi;
	int long_snake;		/* this step followed a LONG_SNAKE */
};

/*
 * Grow the range [*lo, *hi] of diagonals one step, within the box's
 * [kmin, kmax]: an end that cannot move out moves in instead, so the
 * range keeps the parity of the step.  The diagonal just beyond a new
 * end gets `unreached`, so that no step comes from it.
 */
static void widen(long *v, long *lo, long *hi, long kmin, long kmax,
		  long unreached)
{
	if (*lo > kmin)
		v[--*lo - 1] = unreached;
	else
		++*lo;
	if (*hi < kmax)
		v[++*hi + 1] = unreached;
	else
		--*hi;
}

/*
 * One forward step onto each diagonal, highest first: right from
 * k - 1 when it got as far as down from k + 1 would, then along the
 * snake.  Returns 1 with the split when it overlaps the backward
 * search (checked on odd boxes only: see find_split()).
 */
static int forward_step(struct search *s, int odd, struct split *sp)
{
	const struct box *bx = &s->bx;
	long k, x, y, from;

	widen(s->fwd, &s->flo, &s->fhi, bx->x0 - bx->y1, bx->x1 - bx->y0, -1);
	for (k = s->fhi; k >= s->flo; k -= 2) {
		if (s->fwd[k - 1] >= s->fwd[k + 1])
			x = s->fwd[k - 1] + 1;
		else
			x = s->fwd[k + 1];
		from = x;
		for (y = x - k; x < bx->x1 && y < bx->y1 &&
		     s->a[x] == s->b[y]; x++, y++)
			;
		if (x - from > LONG_SNAKE)
			s->long_snake = 1;
		s->fwd[k] = x;
		if (odd && k >= s->blo && k <= s->bhi && s->bwd[k] <= x) {
			*sp = (struct split){ x, y, 1, 1 };
			return 1;
		}
	}
	return 0;
}

/* The same backwards: left from k + 1 unless up from k - 1 gets further. */
static int backward_step(struct search *s, int odd, struct split *sp)
{
	const struct box *bx = &s->bx;
	long k, x, y, from;

	widen(s->bwd, &s->blo, &s->bhi, bx->x0 - bx->y1, bx->x1 - bx->y0,
	      LONG_MAX);
	for (k = s->bhi; k >= s->blo; k -= 2) {
		if (s->bwd[k - 1] < s->bwd[k + 1])
			x = s->bwd[k - 1];
		else
			x = s->bwd[k + 1] - 1;
		from = x;
		for (y = x - k; x > bx->x0 && y > bx->y0 &&
		     s->a[x - 1] == s->b[y - 1]; x--, y--)
			;
		if (from - x > LONG_SNAKE)
			s->long_snake = 1;
		s->bwd[k] = x;
		if (!odd && k >= s->flo && k <= s->fhi && x <= s->fwd[k]) {
			*sp = (struct split){ x, y, 1, 1 };
			return 1;
		}
	}
	return 0;
}

/* Do the LONG_SNAKE keys before (x, y) match? */
static int snake_ends_at(const struct search *s, long x, long y)
{
	long i;

	for (i = 1; i <= LONG_SNAKE; i++)
		if (s->a[x - i] != s->b[y - i])
			return 0;
	return 1;
}

/* Do the LONG_SNAKE keys from (x, y) on match? */
static int snake_starts_at(const struct search *s, long x, long y)
{
	long i;

	for (i = 0; i < LONG_SNAKE; i++)
		if (s->a[x + i] != s->b[y + i])
			return 0;
	return 1;
}

/*
 * After d steps: a long snake that one search reached far from its
 * corner (its lines gained, less its drift from the corner's diagonal,
 * above SNAKE_FACTOR * d), the forward search's first.  The searched
 * half of such a split is solved exactly.
 */
static int long_snake_split(const struct search *s, long d,
			    struct split *sp)
{
	const struct box *bx = &s->bx;
	long k, x, y, v, best = 0;

	for (k = s->fhi; k >= s->flo; k -= 2) {
		x = s->fwd[k];
		y = x - k;
		v = (x - bx->x0) + (y - bx->y0) - labs(k - s->kf);
		if (v > SNAKE_FACTOR * d && v > best &&
		    x >= bx->x0 + LONG_SNAKE && x < bx->x1 &&
		    y >= bx->y0 + LONG_SNAKE && y < bx->y1 &&
		    snake_ends_at(s, x, y)) {
			best = v;
			*sp = (struct split){ x, y, 1, 0 };
		}
	}
	if (best)
		return 1;
	for (k = s->bhi; k >= s->blo; k -= 2) {
		x = s->bwd[k];
		y = x - k;
		v = (bx->x1 - x) + (bx->y1 - y) - labs(k - s->kb);
		if (v > SNAKE_FACTOR * d && v > best &&
		    x > bx->x0 && x <= bx->x1 - LONG_SNAKE &&
		    y > bx->y0 && y <= bx->y1 - LONG_SNAKE &&
		    snake_starts_at(s, x, y)) {
			best = v;
			*sp = (struct split){ x, y, 0, 1 };
		}
	}
	return best != 0;
}

/*
 * Out of budget: the point either search pushed furthest from its own
 * corner (clipped to the box), the forward one unless the backward
 * one got strictly further.
 */
static void furthest_split(const struct search *s, struct split *sp)
{
	const struct box *bx = &s->bx;
	long k, x, y, fbest = -1, fx = 0, bbest = LONG_MAX, bx1 = 0;

	for (k = s->fhi; k >= s->flo; k -= 2) {
		x = s->fwd[k] < bx->x1 ? s->fwd[k] : bx->x1;
		y = x - k;
		if (y > bx->y1) {
			x = bx->y1 + k;
			y = bx->y1;
		}
		if (x + y > fbest) {
			fbest = x + y;
			fx = x;
		}
	}
	for (k = s->bhi; k >= s->blo; k -= 2) {
		x = s->bwd[k] > bx->x0 ? s->bwd[k] : bx->x0;
		y = x - k;
		if (y < bx->y0) {
			x = bx->y0 + k;
			y = bx->y0;
		}
		if (x + y < bbest) {
			bbest = x + y;
			bx1 = x;
		}
	}
	if ((bx->x1 + bx->y1) - bbest < fbest - (bx->x0 + bx->y0))
		*sp = (struct split){ fx, fbest - fx, 1, 0 };
	else
		*sp = (struct split){ bx1, bbest - bx1, 0, 1 };
}

/*
 * Split the box, by Myers' middle snake: after d steps forward and
 * d - 1 (or d) steps backward, the searches overlap on a diagonal
 * exactly when the edit distance is 2d - 1 (or 2d), and the meeting
 * point splits it.  The box's first and last lines must differ (see
 * diff_search()).
 */
static void find_split(struct search *s, const struct box *bx,
		       struct split *sp)
{
	long d;
	int odd;

	s->bx = *bx;
	s->kf = bx->x0 - bx->y0;
	s->kb = bx->x1 - bx->y1;
	odd = (s->kb - s->kf) & 1;
	s->flo = s->fhi = s->kf;
	s->blo = s->bhi = s->kb;
	s->fwd[s->kf] = bx->x0;
	s->bwd[s->kb] = bx->x1;
	for (d = 1;; d++) {
		s->long_snake = 0;
		if (forward_step(s, odd, sp) || backward_step(s, odd, sp))
			return;
		if (bx->exact)
			continue;
		if (s->long_snake && d > HEURISTIC_STEPS &&
		    long_snake_split(s, d, sp))
			return;
		if (d >= s->budget) {
			furthest_split(s, sp);
			return;
		}
	}
}

static void mark_keys(struct diff_seq *sq, long from, long to)
{
	for (; from < to; from++)
		sq->changed[sq->pos[from]] = 1;
}

/* The budget of a search over n keys (and the 3 edge diagonals). */
static long search_budget(long n)
{
	long m = rough_sqrt(n + 3);

	return m < MIN_BUDGET ? MIN_BUDGET : m;
}

/* Shrink the box past the snakes at its two corners. */
static void trim_box(const struct search *s, struct box *bx)
{
	while (bx->x0 < bx->x1 && bx->y0 < bx->y1 &&
	       s->a[bx->x0] == s->b[bx->y0]) {
		bx->x0++;
		bx->y0++;
	}
	while (bx->x0 < bx->x1 && bx->y0 < bx->y1 &&
	       s->a[bx->x1 - 1] == s->b[bx->y1 - 1]) {
		bx->x1--;
		bx->y1--;
	}
}

/*
 * Is sp inside the box and not one of its corners, so that both halves
 * are smaller?  A middle snake always is; a shortcut should be, and is
 * not trusted with hostile input.
 */
static int splits(const struct box *bx, const struct split *sp)
{
	return sp->x >= bx->x0 && sp->x <= bx->x1 &&
		sp->y >= bx->y0 && sp->y <= bx->y1 &&
		(sp->x != bx->x0 || sp->y != bx->y0) &&
		(sp->x != bx->x1 || sp->y != bx->y1);
}

/*
 * Mark the changed keys of a and b.  Boxes wait on a stack rather
 * than in recursion: splits past the budget may be lopsided, and a
 * deep recursion would then run out of stack.
 */
void diff_search(struct diff_seq *a, struct diff_seq *b)
{
	struct search s;
	struct box *stack = NULL, bx;
	struct split sp;
	size_t nr = 0, alloc = 0;
	long *diag = xmalloc((a->nkey + b->nkey + 3) * 2 * sizeof(long));

	s.a = a->key;
	s.b = b->key;
	s.fwd = diag + b->nkey + 1;
	s.bwd = s.fwd + a->nkey + b->nkey + 3;
	s.budget = search_budget(a->nkey + b->nkey);

	ALLOC_GROW(stack, 1, alloc);
	stack[nr++] = (struct box){ 0, 0, a->nkey, b->nkey, 0 };
	while (nr) {
		bx = stack[--nr];
		trim_box(&s, &bx);
		if (bx.x0 == bx.x1 || bx.y0 == bx.y1) {
			mark_keys(a, bx.x0, bx.x1);
			mark_keys(b, bx.y0, bx.y1);
			continue;
		}
		find_split(&s, &bx, &sp);
		if (!splits(&bx, &sp)) {
			bx.exact = 1;
			find_split(&s, &bx, &sp);
		}
		ALLOC_GROW(stack, nr + 2, alloc);
		stack[nr++] = (struct box){ sp.x, sp.y, bx.x1, bx.y1,
					    sp.exact_hi };
		stack[nr++] = (struct box){ bx.x0, bx.y0, sp.x, sp.y,
					    sp.exact_lo };
	}
	free(stack);
	free(diag);
}
