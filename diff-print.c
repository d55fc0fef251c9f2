/*
 * diff-print.c: git's patch format, byte for byte: the header lines,
 * hunks with 3 lines of context and a function line, and "GIT binary
 * patch" hunks.  The line diff itself is diff.c's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cache.h"
#include "diff.h"

#define CONTEXT_LINES 3
#define FUNC_LINE_MAX 80	/* git cuts function names here */

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
 * The length of the part of s that is one UTF-8 character: 0 when it
 * is not one as git counts them (overlong forms, surrogates, past
 * U+10FFFF, and the noncharacters U+FDD0..U+FDEF, U+FFFE and U+FFFF are
 * not).
 */
static size_t utf8_char_len(const unsigned char *s, size_t len)
{
	static const uint32_t min_code[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n, i;
	uint32_t code;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, code = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, code = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, code = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		code = code << 6 | (s[i] & 0x3f);
	}
	if (code < min_code[n] || code > 0x10ffff ||
	    (code >= 0xd800 && code <= 0xdfff) ||
	    (code >= 0xfdd0 && code <= 0xfdef) || (code & 0x1ffffe) == 0xfffe)
		return 0;
	return n;
}

/*
 * git keeps of a function line only what is valid UTF-8 from its
 * start: the line is cut before the first byte that is not, such as
 * the first half of a character cut at 80 bytes.
 */
static size_t valid_utf8_prefix(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len && (n = utf8_char_len(u + i, len - i)) != 0)
		i += n;
	return i;
}

/*
 * Remember the function line nearest above old line `below`, cut to
 * git's 80 bytes, stripped of trailing white space, then cut to its
 * valid UTF-8.  Hunks come in order, so only the lines added since the
 * last call need a look: a line found earlier stays the nearest when
 * none of them matches.
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
		n = valid_utf8_prefix(w->a[l].start, n);
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

static const unsigned char null_sha1[HASH_MAX_RAWSZ];

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

int parse_diff_option(struct diff_options *opt, const char *arg)
{
	if (!strcmp(arg, "--full-index"))
		opt->full_index = 1;
	else if (!strcmp(arg, "--abbrev"))
		opt->abbrev = ABBREV_DEFAULT;
	else if (!strncmp(arg, "--abbrev=", 9)) {
		unsigned long n = strtoul(arg + 9, NULL, 10);

		/* tools parse before setup: the ids' size is not known */
		opt->abbrev = n < 4 ? 4 : n > HASH_MAX_HEXSZ ?
			      HASH_MAX_HEXSZ : (int)n;
	} else {
		return 0;
	}
	return 1;
}

/*
 * An id on the "index" line: full, or abbreviated as git does (len
 * digits, see find_abbrev_len, more where another object shares them).
 */
static void emit_index_id(FILE *out, const struct diff_side *s, int len)
{
	const unsigned char *sha1 = s->mode ? s->sha1 : null_sha1;

	if (len < (int)the_hash->hexsz)
		len = find_abbrev_len(sha1, len);
	fprintf(out, "%.*s", len, sha1_to_hex(sha1));
}

static int is_rename(const struct diff_side *one, const struct diff_side *two)
{
	return one->mode && two->mode && strcmp(one->path, two->path);
}

static void emit_rename(FILE *out, const struct diff_side *one,
			const struct diff_side *two, int score)
{
	fprintf(out, "similarity index %d%%\n", RENAME_PERCENT(score));
	fputs("rename from ", out);
	write_quoted_path(out, "", one->path, strlen(one->path));
	fputs("\nrename to ", out);
	write_quoted_path(out, "", two->path, strlen(two->path));
	putc('\n', out);
}

/*
 * abbrev: the digits of the ids on the "index" line (find_abbrev_len);
 * score: a rename's similarity.
 */
static void emit_header(FILE *out, const struct diff_side *one,
			const struct diff_side *two, int abbrev, int score)
{

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
	if (is_rename(one, two))
		emit_rename(out, one, two, score);
	if (one->mode && two->mode && hasheq(one->sha1, two->sha1))
		return;
	fputs("index ", out);
	emit_index_id(out, one, abbrev);
	fputs("..", out);
	emit_index_id(out, two, abbrev);
	if (one->mode == two->mode)
		fprintf(out, " %06o", one->mode);
	putc('\n', out);
}

/* ---- binary patches ---- */

/*
 * One line of a binary patch: a letter for the byte count (A-Z for 1
 * to 26, a-z for 27 to 52), then the bytes in base-85.
 */
static void emit_base85_line(FILE *out, const unsigned char *p, size_t n)
{
	char digits[65];

	putc(n <= 26 ? 'A' + (int)n - 1 : 'a' + (int)n - 27, out);
	encode_85(digits, p, n);
	fwrite(digits, 1, (n + 3) / 4 * 5, out);
	putc('\n', out);
}

/*
 * data deflated at git's level for patches (its core.compression
 * default, best speed), so that our literals are git's; NULL if zlib
 * fails.
 */
static unsigned char *deflate_data(const void *data, size_t size,
				   size_t *zlen)
{
	uLongf n = compressBound(size);
	unsigned char *z = xmalloc(n);

	if (compress2(z, &n, data, size, Z_BEST_SPEED) != Z_OK) {
		free(z);
		return NULL;
	}
	*zlen = n;
	return z;
}

/* "literal <size>" or "delta <size>", then z, 52 bytes a line. */
static void emit_hunk_data(FILE *out, const char *kind, size_t size,
			   const unsigned char *z, size_t zlen)
{
	size_t done, n;

	fprintf(out, "%s %zu\n", kind, size);
	for (done = 0; done < zlen; done += n) {
		n = zlen - done > 52 ? 52 : zlen - done;
		emit_base85_line(out, z + done, n);
	}
	putc('\n', out);
}

/*
 * The hunk that makes `to` from `from`: a delta when, deflated, it is
 * smaller than the deflated literal, as git chooses (no delta from or
 * to an empty file; a delta past the literal's size is not made).
 */
static int emit_binary_hunk(FILE *out, const char *from, size_t from_size,
			    const char *to, size_t to_size, struct fault *f)
{
	size_t lit_len, delta_size, zdelta_len = 0;
	unsigned char *lit = deflate_data(to, to_size, &lit_len);
	unsigned char *delta = NULL, *zdelta = NULL;

	if (!lit)
		return set_fault(f, FAULT_IO, "deflate binary patch data");
	if (from_size && to_size)
		delta = create_delta(from, from_size, to, to_size, lit_len,
				     &delta_size);
	if (delta)
		zdelta = deflate_data(delta, delta_size, &zdelta_len);
	if (zdelta && zdelta_len < lit_len)
		emit_hunk_data(out, "delta", delta_size, zdelta, zdelta_len);
	else
		emit_hunk_data(out, "literal", to_size, lit, lit_len);
	free(lit);
	free(delta);
	free(zdelta);
	return 0;
}

/* git diff --binary: forward then reverse, so git apply -R works too. */
static int emit_binary_patch(FILE *out, const char *d1, size_t s1,
			     const char *d2, size_t s2, struct fault *f)
{
	fputs("GIT binary patch\n", out);
	if (emit_binary_hunk(out, d1, s1, d2, s2, f) < 0 ||
	    emit_binary_hunk(out, d2, s2, d1, s1, f) < 0)
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

/* git's made-up text for a gitlink, with the longest id. */
#define GITLINK_TEXT_MAX (sizeof("Subproject commit \n") + HASH_MAX_HEXSZ)

/*
 * A side's text: its data, or git's made-up text for a gitlink (into
 * gitlink_buf, GITLINK_TEXT_MAX bytes).
 */
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
	edits = diff_lines(a, na, b, nb, DIFF_INDENT_HEURISTIC, &nr);
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
	struct fault f;

	if (print_patch_f(out, one, two, opt, &f) < 0)
		return error("%s", f.msg);
	return 0;
}

int print_patch_f(FILE *out, const struct diff_side *one,
		  const struct diff_side *two, const struct diff_options *opt,
		  struct fault *f)
{
	char buf1[GITLINK_TEXT_MAX], buf2[GITLINK_TEXT_MAX];
	const char *d1, *d2;
	size_t s1, s2;
	int binary, want_binary = opt && opt->binary, ret = 0, abbrev;

	if (one->mode == two->mode && hasheq(one->sha1, two->sha1) &&
	    !is_rename(one, two))
		return 0;
	d1 = side_data(one, &s1, buf1);
	d2 = side_data(two, &s2, buf2);
	binary = buffer_is_binary(d1, s1) || buffer_is_binary(d2, s2);
	abbrev = !opt ? ABBREV_DEFAULT :
		 opt->full_index ? (int)the_hash->hexsz : opt->abbrev;
	if (want_binary && binary)
		abbrev = the_hash->hexsz;	/* git apply needs the whole ids */
	emit_header(out, one, two, abbrev, opt ? opt->rename_score : 0);
	if (one->mode && two->mode && hasheq(one->sha1, two->sha1))
		; /* a mode change only */
	else if (binary && want_binary)
		ret = emit_binary_patch(out, d1, s1, d2, s2, f);
	else if (binary)
		emit_binary_differ(out, one, two);
	else
		emit_text_patch(out, one, two, d1, s1, d2, s2);
	if (ferror(out))
		return set_fault_errno(f, "write patch for '%s'", two->path);
	return ret;
}

int fill_blob_side(struct diff_side *side, const char *path,
		   unsigned int mode, const unsigned char *sha1)
{
	memset(side, 0, sizeof(*side));
	side->path = path;
	if (!mode)
		return 0;
	side->mode = mode;
	hashcpy(side->sha1, sha1);
	if (S_ISGITLINK(mode))
		return 0;
	side->data = read_object_of_type(sha1, OBJ_BLOB, &side->size);
	if (!side->data)
		return error("cannot read blob %s for '%s'", sha1_to_hex(sha1),
			     path);
	return 0;
}

int print_patch_free(FILE *out, struct diff_side *one, struct diff_side *two,
		     const struct diff_options *opt)
{
	int ret = print_patch(out, one, two, opt);

	free((void *)one->data);
	free((void *)two->data);
	one->data = two->data = NULL;
	return ret;
}
