/*
 * patch-apply.c: text hunks onto a file's content, in memory, placed
 * where git apply places them.  Each hunk's old lines (context and
 * removed) must be found byte for byte; the search starts at the line
 * the hunk names for the new file (earlier hunks have moved it) and
 * goes outward, one line down, one line up, in turn.  A hunk with no
 * context before it that starts at line 0 or 1 must match at the top;
 * one with no context after it must match at the bottom.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "patch-internal.h"

struct line {
	const char *p;
	size_t len;		/* with the '\n', when the line has one */
};

struct image {
	struct line *lines;
	size_t nr, alloc;
};

static void add_line(struct image *img, const char *p, size_t len)
{
	ALLOC_GROW(img->lines, img->nr + 1, img->alloc);
	img->lines[img->nr].p = p;
	img->lines[img->nr].len = len;
	img->nr++;
}

static void split_image(struct image *img, const char *buf, size_t size)
{
	const char *end = buf + size;

	memset(img, 0, sizeof(*img));
	while (buf < end) {
		size_t len = patch_line_len(buf, end);

		add_line(img, buf, len);
		buf += len;
	}
}

static int same_line(const struct line *a, const struct line *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/* The hunk's old lines (pre) and new lines (post), and its context. */
struct hunk_lines {
	struct image pre, post;
	size_t leading, trailing;
};

static void read_hunk(const struct patch_hunk *h, int reversed,
		      struct hunk_lines *hl)
{
	const char *p = h->text, *end = h->text + h->size;
	int changed = 0;

	memset(hl, 0, sizeof(*hl));
	while (p < end) {
		size_t len = patch_line_len(p, end);
		const char *next = p + len;
		char c = *p;
		const char *body = c == '\n' ? p : p + 1;
		size_t blen = c == '\n' ? len : len - 1;

		/* "\ No newline at end of file" takes the '\n' away. */
		if (next < end && *next == '\\' && blen &&
		    body[blen - 1] == '\n')
			blen--;
		if (reversed && (c == '+' || c == '-'))
			c = c == '+' ? '-' : '+';
		if (c == ' ' || c == '\n') {
			add_line(&hl->pre, body, blen);
			add_line(&hl->post, body, blen);
			if (changed)
				hl->trailing++;
			else
				hl->leading++;
		} else if (c == '-' || c == '+') {
			add_line(c == '-' ? &hl->pre : &hl->post, body, blen);
			changed = 1;
			hl->trailing = 0;
		}
		p = next;
	}
}

static int matches_at(const struct image *img, const struct image *pre,
		      size_t at, int match_beginning, int match_end)
{
	size_t i;

	if (pre->nr + at > img->nr)
		return 0;
	if (match_end && pre->nr + at != img->nr)
		return 0;
	if (match_beginning && at)
		return 0;
	for (i = 0; i < pre->nr; i++)
		if (!same_line(&img->lines[at + i], &pre->lines[i]))
			return 0;
	return 1;
}

/* Where pre is in img, searched outward from line; -1 when nowhere. */
static long find_pos(const struct image *img, const struct image *pre,
		     size_t line, int match_beginning, int match_end)
{
	size_t back, fwd, try;
	int i;

	if (pre->nr > img->nr)
		return -1;
	if (match_beginning)
		line = 0;
	else if (match_end)
		line = img->nr - pre->nr;
	if (line > img->nr)
		line = img->nr;
	back = fwd = try = line;
	for (i = 0;; i++) {
		if (matches_at(img, pre, try, match_beginning, match_end))
			return try;
		if (back == 0 && fwd == img->nr)
			return -1;
		if (((i & 1) && back) || fwd == img->nr)
			try = --back;
		else
			try = ++fwd;
	}
}

/* Put post where pre was found, at line at. */
static void replace_lines(struct image *img, size_t at, const struct image *pre,
			  const struct image *post)
{
	size_t tail = img->nr - at - pre->nr;

	if (post->nr > pre->nr)
		ALLOC_GROW(img->lines, img->nr + post->nr - pre->nr,
			   img->alloc);
	memmove(img->lines + at + post->nr, img->lines + at + pre->nr,
		tail * sizeof(*img->lines));
	if (post->nr)
		memcpy(img->lines + at, post->lines,
		       post->nr * sizeof(*img->lines));
	img->nr = img->nr - pre->nr + post->nr;
}

static int hunk_failed(struct fault *f, const char *name, unsigned int nth,
		       const struct patch_hunk *h)
{
	return set_fault_at(f, FAULT_CONFLICT, name, h->oldpos, "%s: hunk #%u "
			    "(line %lu) does not apply", name, nth, h->oldpos);
}

int report_patch_fault(const struct fault *f)
{
	if (f->code == FAULT_CONFLICT && f->path && f->line)
		error("patch failed: %s:%lu", f->path, f->line);
	return error("%s", f->msg);
}

void patch_note(const struct patch_set *notes, int is_error,
		const struct mbuf *text)
{
	if (notes && notes->note && !text->failed)
		notes->note(is_error, mbuf_str(text), text->len,
			    notes->note_data);
}

/* git apply -v on a hunk placed away from its line. */
static void note_offset(const struct patch_set *notes, unsigned int nth,
			size_t at, size_t start)
{
	struct mbuf text = MBUF_INIT;
	long offset = (long)at - (long)start;

	mbuf_addf(&text, "Hunk #%u succeeded at %zu (offset %ld line%s).\n",
		  nth, at + 1, offset, offset == 1 || offset == -1 ? "" : "s");
	patch_note(notes, 0, &text);
	mbuf_release(&text);
}

/* git apply -v on a hunk that does not apply: the lines it looked for. */
static void note_search(const struct patch_set *notes, const struct image *pre)
{
	struct mbuf text = MBUF_INIT;
	size_t i;

	mbuf_addstr(&text, "while searching for:");
	patch_note(notes, 1, &text);
	mbuf_reset(&text);
	for (i = 0; i < pre->nr; i++)
		mbuf_add(&text, pre->lines[i].p, pre->lines[i].len);
	mbuf_addch(&text, '\n');
	patch_note(notes, 0, &text);
	mbuf_release(&text);
}

/* Apply one hunk to img: 0, or -1 when its old lines are not there. */
static int apply_hunk(struct image *img, const struct patch_hunk *h,
		      int reversed, unsigned int nth,
		      const struct patch_set *notes)
{
	struct hunk_lines hl;
	size_t start = h->newpos ? h->newpos - 1 : 0;
	int match_beginning = !h->oldpos || h->oldpos == 1;
	int match_end;
	long at;

	read_hunk(h, reversed, &hl);
	match_end = !hl.trailing;
	at = find_pos(img, &hl.pre, start, match_beginning, match_end);
	if (at >= 0) {
		replace_lines(img, at, &hl.pre, &hl.post);
		if (notes && (size_t)at != start)
			note_offset(notes, nth, at, start);
	} else if (notes) {
		note_search(notes, &hl.pre);
	}
	free(hl.pre.lines);
	free(hl.post.lines);
	return at >= 0 ? 0 : -1;
}

static char *join_image(const struct image *img, size_t *size)
{
	size_t i, n = 0;
	char *out, *o;

	for (i = 0; i < img->nr; i++)
		n += img->lines[i].len;
	out = o = xmalloc(n + 1);
	for (i = 0; i < img->nr; i++) {
		memcpy(o, img->lines[i].p, img->lines[i].len);
		o += img->lines[i].len;
	}
	*o = '\0';
	*size = n;
	return out;
}

int apply_text_hunks(struct patch *patch, const char *name, const char *old,
		     size_t old_size, int reject, const struct patch_set *notes,
		     char **out, size_t *out_size, struct fault *f)
{
	struct patch_hunk *h;
	struct image img;
	unsigned int nth = 0;
	int rejected = 0;

	*out = NULL;
	split_image(&img, old, old_size);
	for (h = patch->hunks; h; h = h->next) {
		nth++;
		h->rejected = 0;
		if (!apply_hunk(&img, h, patch->reversed, nth, notes))
			continue;
		if (!rejected)
			hunk_failed(f, name, nth, h);
		rejected++;
		h->rejected = 1;
		if (!reject) {
			free(img.lines);
			return -1;
		}
	}
	*out = join_image(&img, out_size);
	free(img.lines);
	return rejected;
}
