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

/* A hunk's old or new lines. */
struct lines {
	struct line *lines;
	size_t nr, alloc;
};

/*
 * The file's lines as the hunks change it, with a gap where the last
 * hunk went: lines [0, gs) and [ge, alloc) are the image, in order.
 * A hunk replaces lines next to the gap, which moves from one hunk to
 * the next (and the hunks come in order), so a file's lines are moved
 * once, not once per hunk.
 */
struct image {
	struct line *lines;
	size_t gs, ge, alloc;
};

static void add_line(struct lines *l, const char *p, size_t len)
{
	ALLOC_GROW(l->lines, l->nr + 1, l->alloc);
	l->lines[l->nr].p = p;
	l->lines[l->nr].len = len;
	l->nr++;
}

static size_t image_nr(const struct image *img)
{
	return img->gs + img->alloc - img->ge;
}

static const struct line *image_line(const struct image *img, size_t i)
{
	return &img->lines[i < img->gs ? i : i + img->ge - img->gs];
}

/* The gap moved to line pos of the image. */
static void move_gap(struct image *img, size_t pos)
{
	size_t n;

	if (pos > img->gs) {
		n = pos - img->gs;
		memmove(img->lines + img->gs, img->lines + img->ge,
			n * sizeof(*img->lines));
		img->gs += n;
		img->ge += n;
	} else if (pos < img->gs) {
		n = img->gs - pos;
		memmove(img->lines + img->ge - n, img->lines + pos,
			n * sizeof(*img->lines));
		img->gs -= n;
		img->ge -= n;
	}
}

/* A gap of at least n lines. */
static void grow_gap(struct image *img, size_t n)
{
	size_t tail = img->alloc - img->ge, alloc;
	struct line *lines;

	if (img->ge - img->gs >= n)
		return;
	alloc = (img->gs + n + tail) * 3 / 2 + 16;
	lines = xcalloc(alloc, sizeof(*lines));
	memcpy(lines, img->lines, img->gs * sizeof(*lines));
	memcpy(lines + alloc - tail, img->lines + img->ge,
	       tail * sizeof(*lines));
	free(img->lines);
	img->lines = lines;
	img->ge = alloc - tail;
	img->alloc = alloc;
}

/*
 * The lines of buf, with room for spare more after them: the array is
 * sized for lines of 16 bytes (source lines are longer), so that one
 * pass fills it and it seldom grows.
 */
static void split_image(struct image *img, const char *buf, size_t size,
			size_t spare)
{
	const char *end = buf + size, *p = buf;
	size_t nr = 0;

	img->alloc = size / 16 + spare + 16;
	img->lines = xmalloc(img->alloc * sizeof(*img->lines));
	while (p < end) {
		size_t len = patch_line_len(p, end);

		if (nr == img->alloc) {
			img->alloc = img->alloc * 3 / 2 + 16;
			img->lines = xrealloc(img->lines, img->alloc *
					      sizeof(*img->lines));
		}
		img->lines[nr].p = p;
		img->lines[nr].len = len;
		nr++;
		p += len;
	}
	img->gs = nr;
	img->ge = img->alloc;
	grow_gap(img, spare);
}

static int same_line(const struct line *a, const struct line *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/* The hunk's old lines (pre) and new lines (post), and its context. */
struct hunk_lines {
	struct lines pre, post;
	size_t leading, trailing;
};

static void read_hunk(const struct patch_hunk *h, int reversed,
		      struct hunk_lines *hl)
{
	const char *p = h->text, *end = h->text + h->size;
	int changed = 0;

	memset(hl, 0, sizeof(*hl));
	/* Sized as the @@ line says: checked as they are added. */
	ALLOC_GROW(hl->pre.lines, reversed ? h->newlines : h->oldlines,
		   hl->pre.alloc);
	ALLOC_GROW(hl->post.lines, reversed ? h->oldlines : h->newlines,
		   hl->post.alloc);
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

static int matches_at(const struct image *img, const struct lines *pre,
		      size_t at, int match_beginning, int match_end)
{
	size_t i, nr = image_nr(img);

	if (pre->nr + at > nr)
		return 0;
	if (match_end && pre->nr + at != nr)
		return 0;
	if (match_beginning && at)
		return 0;
	for (i = 0; i < pre->nr; i++)
		if (!same_line(image_line(img, at + i), &pre->lines[i]))
			return 0;
	return 1;
}

/* Where pre is in img, searched outward from line; -1 when nowhere. */
static long find_pos(const struct image *img, const struct lines *pre,
		     size_t line, int match_beginning, int match_end)
{
	size_t back, fwd, try, nr = image_nr(img);
	int i;

	if (pre->nr > nr)
		return -1;
	if (match_beginning)
		line = 0;
	else if (match_end)
		line = nr - pre->nr;
	if (line > nr)
		line = nr;
	back = fwd = try = line;
	for (i = 0;; i++) {
		if (matches_at(img, pre, try, match_beginning, match_end))
			return try;
		if (back == 0 && fwd == nr)
			return -1;
		if (((i & 1) && back) || fwd == nr)
			try = --back;
		else
			try = ++fwd;
	}
}

/* Put post where pre was found, at line at: the gap goes there. */
static void replace_lines(struct image *img, size_t at,
			  const struct lines *pre, const struct lines *post)
{
	move_gap(img, at + pre->nr);
	img->gs -= pre->nr;
	grow_gap(img, post->nr);
	if (post->nr)
		memcpy(img->lines + img->gs, post->lines,
		       post->nr * sizeof(*img->lines));
	img->gs += post->nr;
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
static void note_search(const struct patch_set *notes, const struct lines *pre)
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

/*
 * Lines [from, to) of the array, which follow each other in memory
 * from p while they come from the same buffer: copied a run at a
 * time, not a line at a time (most of a file is its old lines, in one
 * piece), to o when it is not NULL.  Returns the bytes.
 */
static size_t copy_lines(char *o, const struct line *l, size_t from,
			 size_t to)
{
	size_t i = from, n = 0;

	while (i < to) {
		const char *p = l[i].p;
		size_t len = l[i].len;

		for (i++; i < to && l[i].p == p + len; i++)
			len += l[i].len;
		if (o)
			memcpy(o + n, p, len);
		n += len;
	}
	return n;
}

static char *join_image(const struct image *img, size_t *size)
{
	size_t head = copy_lines(NULL, img->lines, 0, img->gs);
	size_t tail = copy_lines(NULL, img->lines, img->ge, img->alloc);
	char *out = xmalloc(head + tail + 1);

	copy_lines(out, img->lines, 0, img->gs);
	copy_lines(out + head, img->lines, img->ge, img->alloc);
	out[head + tail] = '\0';
	*size = head + tail;
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
	split_image(&img, old, old_size, patch->added + patch->deleted);
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
