/*
 * diff.c: the line diff, placing changed lines where git places them.
 *
 * The diff is Myers' O(ND) algorithm ("An O(ND) Difference Algorithm
 * and Its Variations", 1986) in its linear-space form: search from
 * both corners of the edit graph at once until the two searches meet
 * in a middle snake, split the problem there and solve both halves.
 *
 * Where several shortest diffs exist, which one comes out depends on
 * every choice the search makes, so each choice is made the way git's
 * default diff makes it (its documented defaults: Myers, not minimal,
 * with the indent heuristic), as measured against git's output:
 *
 *  - Lines get integer classes (equal content, equal class).  The
 *    common head and tail are set aside.  A line with no match on the
 *    other side is changed whatever the search says, and so is a line
 *    with many matches (about the square root of its file's length)
 *    lost among unmatched ones (see lost_among_unmatched()).  The
 *    search sees the rest.
 *  - The search (diff-search.c) breaks its ties and takes its
 *    shortcuts on hard inputs as git's does.
 *  - Last, each run of changed lines that could be drawn elsewhere
 *    over equal lines (a "slider") is moved: next to a change on the
 *    other side when it can reach one, else to the place with the best
 *    score under the indent heuristic (diff-slide.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"
#include "diff-internal.h"

#define FIRST_FEW_BYTES 8000	/* git looks for a NUL this far */
#define MANY_MATCHES_CAP 1024	/* "many matches" never needs more */
#define LOST_WINDOW 100		/* lines looked at around such a line */

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

static void seq_init(struct diff_seq *s, const struct diff_line *line,
		     size_t nr)
{
	memset(s, 0, sizeof(*s));
	s->line = line;
	s->nr = nr;
	s->changed_buf = xcalloc(nr + 2, 1);
	s->changed = s->changed_buf + 1;
}

static void seq_release(struct diff_seq *s)
{
	free(s->changed_buf);
	free(s->id);
	free(s->key);
	free(s->pos);
}

/* ---- line classes ---- */

struct line_kind {
	uint64_t hash;
	const struct diff_line *line;	/* its first occurrence */
	long seen[2];			/* how often in a and in b */
};

#define LEN_BITS 4096	/* line lengths told apart (modulo this) */

struct kind_table {
	struct line_kind *kind;
	long nr;
	long *slot;		/* kind number + 1; 0 is an empty slot */
	size_t mask;
	unsigned char has_len[LEN_BITS / 8];	/* lengths of its classes */
};

/*
 * Eight bytes at a time, each word multiplied in and folded, so that
 * every byte reaches the low bits the table uses.  Most lines of both
 * files go through here: it must be fast.
 */
static uint64_t hash_line(const struct diff_line *l)
{
	const char *p = l->start;
	size_t n = l->len;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
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
	memset(t->has_len, 0, sizeof(t->has_len));
}

static int kind_may_have(const struct kind_table *t, size_t len)
{
	return t->has_len[len % LEN_BITS / 8] & (1 << (len % 8));
}

static void kind_table_release(struct kind_table *t)
{
	free(t->kind);
	free(t->slot);
}

/*
 * The slot of l's class (hash h) in t: its kind number + 1, or 0 for
 * the empty slot where it would go.
 */
static size_t find_slot(const struct kind_table *t,
			const struct diff_line *l, uint64_t h)
{
	size_t i;
	const struct line_kind *k;

	for (i = h & t->mask; t->slot[i]; i = (i + 1) & t->mask) {
		k = &t->kind[t->slot[i] - 1];
		if (k->hash == h && diff_same_line(k->line, l))
			break;
	}
	return i;
}

/* The class of l's content (a new one if unseen); count it for side. */
static long line_id(struct kind_table *t, const struct diff_line *l,
		    int side)
{
	uint64_t h = hash_line(l);
	size_t i = find_slot(t, l, h);
	struct line_kind *k;

	if (t->slot[i]) {
		t->kind[t->slot[i] - 1].seen[side]++;
		return t->slot[i] - 1;
	}
	k = &t->kind[t->nr];
	k->hash = h;
	k->line = l;
	k->seen[0] = k->seen[1] = 0;
	k->seen[side] = 1;
	t->has_len[l->len % LEN_BITS / 8] |= 1 << (l->len % 8);
	t->slot[i] = ++t->nr;
	return t->nr - 1;
}

/* Set the equal head and tail of a and b aside. */
static void cut_common_ends(struct diff_seq *a, struct diff_seq *b)
{
	long head = 0, tail = 0;

	while (head < a->nr && head < b->nr &&
	       diff_same_line(&a->line[head], &b->line[head]))
		head++;
	while (tail < a->nr - head && tail < b->nr - head &&
	       diff_same_line(&a->line[a->nr - 1 - tail],
			      &b->line[b->nr - 1 - tail]))
		tail++;
	a->head = b->head = head;
	a->end = a->nr - tail;
	b->end = b->nr - tail;
}

/* Class the lines between the common ends of s. */
static void assign_ids(struct diff_seq *s, struct kind_table *t, int side)
{
	long i, n = s->end - s->head;

	s->id = xmalloc((n ? n : 1) * sizeof(*s->id));
	for (i = 0; i < n; i++)
		s->id[i] = line_id(t, &s->line[s->head + i], side);
}

/*
 * Count the lines of the common ends (a's, the same on both sides)
 * whose content also occurs between them: git counts a line's
 * occurrences over the whole files.  Others need no class, and most
 * are told apart by their length alone.
 */
static void count_common_ends(const struct diff_seq *a, struct kind_table *t)
{
	const struct diff_line *l;
	long i;
	size_t slot;

	for (i = 0; i < a->nr; i++) {
		if (i == a->head)
			i = a->end;
		if (i >= a->nr)
			break;
		l = &a->line[i];
		if (!kind_may_have(t, l->len))
			continue;
		slot = find_slot(t, l, hash_line(l));
		if (t->slot[slot]) {
			t->kind[t->slot[slot] - 1].seen[0]++;
			t->kind[t->slot[slot] - 1].seen[1]++;
		}
	}
}

/* ---- which lines the search sees ---- */

enum match { NO_MATCH, SOME_MATCHES, MANY_MATCHES };

/* How many matches are "many" for a line of a file of nr lines. */
static long many_matches(long nr)
{
	long m = rough_sqrt(nr);

	return m < MANY_MATCHES_CAP ? m : MANY_MATCHES_CAP;
}

/*
 * Count the unmatched and the many-matched lines in the run of such
 * lines that leads away from line i by step, up to line stop
 * (excluded).
 */
static void count_run(const unsigned char *match, long i, long step,
		      long stop, long *none, long *many)
{
	*none = *many = 0;
	for (i += step; i != stop; i += step) {
		if (match[i] == NO_MATCH)
			(*none)++;
		else if (match[i] == MANY_MATCHES)
			(*many)++;
		else
			break;
	}
}

/*
 * A many-matched line i is of no use to the search when unmatched
 * lines surround it: the runs of unmatched and many-matched lines just
 * above and below it (up to LOST_WINDOW lines each way, inside
 * [head, end)) both hold unmatched lines, and more than three times as
 * many as many-matched ones, the line itself counting twice.
 */
static int lost_among_unmatched(const unsigned char *match, long i,
				long head, long end)
{
	long top = i - head > LOST_WINDOW ? i - LOST_WINDOW : head;
	long bottom = end - 1 - i > LOST_WINDOW ? i + LOST_WINDOW : end - 1;
	long none_up, many_up, none_down, many_down;

	count_run(match, i, -1, top - 1, &none_up, &many_up);
	if (!none_up)
		return 0;
	count_run(match, i, 1, bottom + 1, &none_down, &many_down);
	if (!none_down)
		return 0;
	return 3 * (many_up + many_down + 2) < none_up + none_down;
}

/*
 * Keep for the search only the lines of s that may pair with a line of
 * the other side (t counts each class on each side); mark the rest
 * changed.
 */
static void pick_keys(struct diff_seq *s, const struct kind_table *t,
		      int other)
{
	long i, n = s->end - s->head, many = many_matches(s->nr);
	unsigned char *match = xmalloc(s->nr ? s->nr : 1);

	for (i = s->head; i < s->end; i++) {
		long seen = t->kind[s->id[i - s->head]].seen[other];

		match[i] = !seen ? NO_MATCH :
			seen >= many ? MANY_MATCHES : SOME_MATCHES;
	}
	s->key = xmalloc((n ? n : 1) * sizeof(*s->key));
	s->pos = xmalloc((n ? n : 1) * sizeof(*s->pos));
	s->nkey = 0;
	for (i = s->head; i < s->end; i++) {
		if (match[i] == SOME_MATCHES ||
		    (match[i] == MANY_MATCHES &&
		     !lost_among_unmatched(match, i, s->head, s->end))) {
			s->key[s->nkey] = s->id[i - s->head];
			s->pos[s->nkey] = i;
			s->nkey++;
		} else {
			s->changed[i] = 1;
		}
	}
	free(match);
}

/* ---- edits ---- */

/* Pair the two change maps into edits. */
static struct diff_edit *collect_edits(const struct diff_seq *a,
				       const struct diff_seq *b, size_t *nr)
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
			     unsigned flags, size_t *nr)
{
	struct diff_seq sa, sb;
	struct kind_table t;
	struct diff_edit *edits;

	*nr = 0;
	seq_init(&sa, a, na);
	seq_init(&sb, b, nb);
	cut_common_ends(&sa, &sb);
	kind_table_init(&t, (sa.end - sa.head) + (sb.end - sb.head));
	assign_ids(&sa, &t, 0);
	assign_ids(&sb, &t, 1);
	count_common_ends(&sa, &t);
	pick_keys(&sa, &t, 1);
	pick_keys(&sb, &t, 0);
	kind_table_release(&t);
	diff_search(&sa, &sb);
	slide_changes(&sa, &sb, flags);
	slide_changes(&sb, &sa, flags);
	edits = collect_edits(&sa, &sb, nr);
	seq_release(&sa);
	seq_release(&sb);
	return edits;
}
