/*
 * log-diff.c: what log-tree shows of a commit's changes beside its
 * patch: the changed files collected from two trees, git's diffstat
 * of them (names and bars fitted into the width as git's show_stats
 * does, binary files as "Bin <old> -> <new> bytes"), and patches
 * coloured as git colours them on a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cache.h"
#include "diff.h"
#include "log.h"

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl + 1 : end;
}

static void add_change(struct file_changes *l, const char *path,
		       const struct name_entry *one,
		       const struct name_entry *two)
{
	struct file_change *ch;

	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	ch = &l->items[l->nr++];
	memset(ch, 0, sizeof(*ch));
	ch->path = xstrdup(path);
	if (one) {
		ch->mode[0] = one->mode;
		hashcpy(ch->sha1[0], one->sha1);
	}
	if (two) {
		ch->mode[1] = two->mode;
		hashcpy(ch->sha1[1], two->sha1);
	}
}

static int collect_change(const char *path, size_t len,
			  const struct name_entry *one,
			  const struct name_entry *two, void *data)
{
	(void)len;
	add_change(data, path, one, two);
	return 0;
}

int collect_file_changes(struct file_changes *l, const unsigned char *old,
			 const unsigned char *new, const struct pathspec *ps)
{
	memset(l, 0, sizeof(*l));
	if (diff_trees(old, new, ps, collect_change, l) < 0) {
		free_file_changes(l);
		return -1;
	}
	return 0;
}

void free_file_changes(struct file_changes *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->items[i].path);
		free(l->items[i].old_path);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* The work-tree file at path, the side a raw line gives the null id. */
static int read_work_side(struct diff_side *s, const char *path)
{
	struct stat st;

	if (lstat_work_path(path, &st) < 0)
		return error_errno("lstat '%s'", path);
	s->data = read_work_file(path, &st, &s->size);
	return s->data ? 0 : -1;
}

/* The deletions (side 0) or the additions (side 1) of l, by index. */
static struct rename_file *rename_files(const struct file_changes *l,
					int side, size_t **index, size_t *nr)
{
	struct rename_file *f = xmalloc((l->nr + 1) * sizeof(*f));
	size_t i, n = 0;

	*index = xmalloc((l->nr + 1) * sizeof(**index));
	for (i = 0; i < l->nr; i++) {
		const struct file_change *ch = &l->items[i];

		if (!ch->mode[side] || ch->mode[!side])
			continue;
		f[n].path = ch->path;
		f[n].mode = ch->mode[side];
		hashcpy(f[n].sha1, ch->sha1[side]);
		(*index)[n++] = i;
	}
	*nr = n;
	return f;
}

/* Make l's addition d the rename of its deletion s (which goes). */
static void make_rename(struct file_changes *l, size_t d, size_t s,
			int score)
{
	struct file_change *add = &l->items[d], *del = &l->items[s];

	add->old_path = del->path;
	del->path = NULL;
	add->mode[0] = del->mode[0];
	hashcpy(add->sha1[0], del->sha1[0]);
	add->score = score;
}

int detect_file_renames(struct file_changes *l,
			const struct rename_options *opt)
{
	size_t *si, *di, nr_s, nr_d, i, j;
	struct rename_file *src = rename_files(l, 0, &si, &nr_s);
	struct rename_file *dst = rename_files(l, 1, &di, &nr_d);
	int *from = xmalloc((nr_d + 1) * sizeof(*from));
	int *score = xmalloc((nr_d + 1) * sizeof(*score));
	int needed = 0, renamed = 0;

	if (nr_s && nr_d) {
		needed = find_renames(src, nr_s, dst, nr_d, opt, from, score);
		for (i = 0; i < nr_d; i++)
			if (from[i] >= 0) {
				make_rename(l, di[i], si[from[i]], score[i]);
				renamed = 1;
			}
	}
	for (i = j = 0; renamed && i < l->nr; i++) {
		if (l->items[i].path)
			l->items[j++] = l->items[i];
	}
	if (renamed)
		l->nr = j;
	free(src);
	free(dst);
	free(si);
	free(di);
	free(from);
	free(score);
	return needed;
}

int fill_later_side(struct diff_side *s, struct later_obj *o,
		    struct check_later *cl, const char *path,
		    unsigned int mode, const unsigned char *sha1)
{
	memset(o, 0, sizeof(*o));
	if (!cl || !mode || S_ISGITLINK(mode)) {
		if (fill_blob_side(s, path, mode, sha1) < 0)
			return -1;
		o->buf = (void *)s->data;
		return 0;
	}
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->mode = mode;
	hashcpy(s->sha1, sha1);
	if (read_later(cl, sha1, OBJ_BLOB, NULL, o) < 0)
		return error("cannot read blob %s for '%s'", sha1_to_hex(sha1),
			     path);
	s->data = o->buf;
	s->size = o->size;
	return 0;
}

/*
 * A side's text into s, its buffer in o (release_later it): a
 * gitlink's is "Subproject commit <id>", as git's.
 */
static int read_side(struct diff_side *s, struct later_obj *o,
		     struct check_later *cl, const struct file_change *ch,
		     int i)
{
	struct mbuf gitlink;

	if (ch->mode[i] && !S_ISGITLINK(ch->mode[i]) &&
	    is_null_hash(ch->sha1[i])) {
		memset(s, 0, sizeof(*s));
		memset(o, 0, sizeof(*o));
		s->path = ch->path;
		s->mode = ch->mode[i];
		if (read_work_side(s, ch->path) < 0)
			return -1;
		o->buf = (void *)s->data;
		return 0;
	}
	if (fill_later_side(s, o, cl, ch->path, ch->mode[i], ch->sha1[i]) < 0)
		return -1;
	if (S_ISGITLINK(ch->mode[i])) {
		mbuf_init(&gitlink);
		if (mbuf_addf(&gitlink, "Subproject commit %s\n",
			      sha1_to_hex(ch->sha1[i])) < 0)
			return error("out of memory");
		s->data = mbuf_detach(&gitlink, &s->size);
		o->buf = (void *)s->data;
	}
	return 0;
}

static unsigned long count_lines(const struct diff_edit *e, size_t nr,
				 int added)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < nr; i++)
		n += added ? e[i].new_count : e[i].old_count;
	return n;
}

/* The lines of size bytes at p (a last one without '\n' counts). */
static unsigned long lines_in(const char *p, size_t size)
{
	const char *end = p + size, *nl;
	unsigned long n = 0;

	while (p < end && (nl = memchr(p, '\n', end - p)) != NULL) {
		n++;
		p = nl + 1;
	}
	return n + (p < end);
}

/* How many of the first max bytes of a and b are equal. */
static size_t same_head(const char *a, const char *b, size_t max)
{
	size_t n = 0;

	while (max - n >= 256 && !memcmp(a + n, b + n, 256))
		n += 256;
	while (n < max && a[n] == b[n])
		n++;
	return n;
}

/* How many of the last max bytes before a_end and b_end are equal. */
static size_t same_tail(const char *a_end, const char *b_end, size_t max)
{
	size_t n = 0;

	while (max - n >= 256 && !memcmp(a_end - n - 256, b_end - n - 256, 256))
		n += 256;
	while (n < max && a_end[-1 - (long)n] == b_end[-1 - (long)n])
		n++;
	return n;
}

/*
 * The counts when the texts differ by lines only added or only
 * removed in one place: their equal head and tail of whole lines set
 * aside (as the diff sets them aside first), one side has nothing
 * left.  0 when both have something left: the diff must count.
 */
static int count_one_sided(struct file_change *ch, const char *a, size_t na,
			   const char *b, size_t nb)
{
	size_t head, tail, min = na < nb ? na : nb;

	head = same_head(a, b, min);
	while (head && a[head - 1] != '\n')	/* whole lines only */
		head--;
	tail = same_tail(a + na, b + nb, min - head);
	/* the tail starts a line on both sides, or after its first '\n' */
	if (tail && !((na - tail == head || a[na - tail - 1] == '\n') &&
		      (nb - tail == head || b[nb - tail - 1] == '\n'))) {
		const char *nl = memchr(a + na - tail, '\n', tail);

		tail = nl ? (size_t)(a + na - (nl + 1)) : 0;
	}
	if (head + tail < na && head + tail < nb)
		return 0;
	ch->deleted = lines_in(a + head, na - head - tail);
	ch->added = lines_in(b + head, nb - head - tail);
	return 1;
}

/* Are both sides the same blob (a work-tree side never is)? */
static int same_blob(const struct file_change *ch)
{
	return hasheq(ch->sha1[0], ch->sha1[1]) &&
	       !is_null_hash(ch->sha1[1]);
}

/* The counts of one change for the diffstat, as git counts them. */
static int count_change(struct file_change *ch, struct check_later *cl)
{
	struct diff_side s[2];
	struct later_obj o[2];
	struct diff_line *a, *b;
	struct diff_edit *e;
	size_t na, nb, ne;

	if (read_side(&s[0], &o[0], cl, ch, 0) < 0)
		return -1;
	if (read_side(&s[1], &o[1], cl, ch, 1) < 0) {
		release_later(cl, &o[0]);
		return -1;
	}
	if ((s[0].data && buffer_is_binary(s[0].data, s[0].size)) ||
	    (s[1].data && buffer_is_binary(s[1].data, s[1].size))) {
		ch->binary = 1;
		if (!same_blob(ch)) {
			ch->deleted = s[0].size;
			ch->added = s[1].size;
		}
	} else if (!same_blob(ch) &&
		   !count_one_sided(ch, s[0].data ? s[0].data : "", s[0].size,
				    s[1].data ? s[1].data : "", s[1].size)) {
		a = split_lines(s[0].data ? s[0].data : "", s[0].size, &na);
		b = split_lines(s[1].data ? s[1].data : "", s[1].size, &nb);
		e = diff_lines(a, na, b, nb, DIFF_INDENT_HEURISTIC, &ne);
		ch->added = count_lines(e, ne, 1);
		ch->deleted = count_lines(e, ne, 0);
		free(e);
		free(a);
		free(b);
	}
	release_later(cl, &o[0]);
	release_later(cl, &o[1]);
	return 0;
}

static int decimal_width(unsigned long n)
{
	int w = 1;

	while (n >= 10) {
		n /= 10;
		w++;
	}
	return w;
}

static unsigned long scale(unsigned long it, int width, unsigned long max)
{
	return it ? 1 + it * (width - 1) / max : 0;
}

static void show_bar(FILE *out, int color, const char *set, int c,
		     unsigned long n)
{
	if (!n)
		return;
	if (color)
		fputs(set, out);
	while (n--)
		putc(c, out);
	if (color)
		fputs(COLOR_RESET, out);
}

struct stat_layout {
	int name_width, number_width, graph_width;
	unsigned long max_change;
};

/* git's show_stats widths: names and bars fitted into width. */
static void stat_layout(struct stat_layout *lay, const struct file_changes *l,
			char **names, int width)
{
	int max_len = 0, bin_width = 0;
	size_t i;

	lay->max_change = 0;
	lay->number_width = 0;
	for (i = 0; i < l->nr; i++) {
		const struct file_change *ch = &l->items[i];
		int len = strlen(names[i]);

		if (len > max_len)
			max_len = len;
		if (ch->binary) {
			int w = 14 + decimal_width(ch->added) +
				decimal_width(ch->deleted);

			if (w > bin_width)
				bin_width = w;
			lay->number_width = 3;
			continue;
		}
		if (ch->added + ch->deleted > lay->max_change)
			lay->max_change = ch->added + ch->deleted;
	}
	if (decimal_width(lay->max_change) > lay->number_width)
		lay->number_width = decimal_width(lay->max_change);
	if (width < 16 + 6 + lay->number_width)
		width = 16 + 6 + lay->number_width;
	lay->graph_width = (long)lay->max_change + 4 > bin_width ?
			   (int)lay->max_change : bin_width - 4;
	lay->name_width = max_len;
	if (lay->name_width + lay->number_width + 6 + lay->graph_width <= width)
		return;
	if (lay->graph_width > width * 3 / 8 - lay->number_width - 6) {
		lay->graph_width = width * 3 / 8 - lay->number_width - 6;
		if (lay->graph_width < 6)
			lay->graph_width = 6;
	}
	if (lay->name_width > width - lay->number_width - 6 - lay->graph_width)
		lay->name_width = width - lay->number_width - 6 -
				  lay->graph_width;
	else
		lay->graph_width = width - lay->number_width - 6 -
				   lay->name_width;
}

/* " name |": cut to the name width with "..." and a whole last part. */
static void show_stat_name(FILE *out, const char *name, int width)
{
	const char *prefix = "";
	int len = strlen(name), room = width;

	if (width < len) {
		const char *slash;

		prefix = "...";
		room = width - 3 < 0 ? 0 : width - 3;
		name += len - room;
		slash = strchr(name, '/');
		if (slash)
			name = slash;
		len = strlen(name);
	}
	fprintf(out, " %s%s%*s |", prefix, name,
		room - len > 0 ? room - len : 0, "");
}

static void show_stat_line(FILE *out, int color, const struct file_change *ch,
			   const char *name, const struct stat_layout *lay)
{
	unsigned long add = ch->added, del = ch->deleted, total;

	show_stat_name(out, name, lay->name_width);
	if (ch->binary) {
		fprintf(out, " %*s", lay->number_width, "Bin");
		if ((add || del) && color)
			fprintf(out, " %s%lu%s -> %s%lu%s bytes", COLOR_OLD, del,
				COLOR_RESET, COLOR_NEW, add, COLOR_RESET);
		else if (add || del)
			fprintf(out, " %lu -> %lu bytes", del, add);
		putc('\n', out);
		return;
	}
	if (lay->graph_width <= (long)lay->max_change) {
		total = scale(add + del, lay->graph_width, lay->max_change);
		if (total < 2 && add && del)
			total = 2;
		if (add < del) {
			add = scale(add, lay->graph_width, lay->max_change);
			del = total - add;
		} else {
			del = scale(del, lay->graph_width, lay->max_change);
			add = total - del;
		}
	}
	fprintf(out, " %*lu%s", lay->number_width, ch->added + ch->deleted,
		ch->added + ch->deleted ? " " : "");
	show_bar(out, color, COLOR_NEW, '+', add);
	show_bar(out, color, COLOR_OLD, '-', del);
	putc('\n', out);
}

/*
 * "a => b" as git's diffstat writes a rename: the leading directories
 * and the trailing part (from a '/') they share written once, around
 * "{a => b}"; both whole and quoted when either needs quoting.
 */
static void add_rename_name(struct mbuf *q, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), pfx = 0, sfx = 0, i, ma, mb;
	const char *pa, *pb;

	if (path_needs_quoting(a, la) || path_needs_quoting(b, lb)) {
		add_quoted_path(q, "", a, la);
		mbuf_addstr(q, " => ");
		add_quoted_path(q, "", b, lb);
		return;
	}
	for (i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			pfx = i + 1;
	/* the suffix may reach back into the prefix's '/', no further */
	pa = a + la;
	pb = b + lb;
	while (pa >= a + pfx - (pfx ? 1 : 0) && pb >= b + pfx - (pfx ? 1 : 0) &&
	       *pa == *pb) {
		if (*pa == '/')
			sfx = la - (pa - a);
		if (pa == a || pb == b)
			break;
		pa--;
		pb--;
	}
	ma = la >= pfx + sfx ? la - pfx - sfx : 0;
	mb = lb >= pfx + sfx ? lb - pfx - sfx : 0;
	if (pfx + sfx) {
		mbuf_add(q, a, pfx);
		mbuf_addch(q, '{');
	}
	mbuf_add(q, a + pfx, ma);
	mbuf_addstr(q, " => ");
	mbuf_add(q, b + pfx, mb);
	if (pfx + sfx) {
		mbuf_addch(q, '}');
		mbuf_add(q, a + la - sfx, sfx);
	}
}

/* The names as the diffstat shows them (quoted), in names (caller frees). */
static int stat_names(const struct file_changes *l, char **names)
{
	struct mbuf q;
	size_t i;

	mbuf_init(&q);
	for (i = 0; i < l->nr; i++) {
		mbuf_reset(&q);
		if (l->items[i].old_path)
			add_rename_name(&q, l->items[i].old_path,
					l->items[i].path);
		else
			add_quoted_path(&q, "", l->items[i].path,
					strlen(l->items[i].path));
		if (q.failed) {
			mbuf_release(&q);
			return error("out of memory");
		}
		names[i] = xstrdup(mbuf_str(&q));
	}
	mbuf_release(&q);
	return 0;
}

int count_file_changes(struct file_changes *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (count_change(&l->items[i], l->checker) < 0)
			return -1;
	return 0;
}

/* " N files changed, I insertions(+), D deletions(-)", as git. */
static void show_summary(FILE *out, const struct file_changes *l)
{
	unsigned long ins = 0, del = 0;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (!l->items[i].binary) {
			ins += l->items[i].added;
			del += l->items[i].deleted;
		}
	}
	fprintf(out, " %zu file%s changed", l->nr, l->nr == 1 ? "" : "s");
	if (ins || !del)
		fprintf(out, ", %lu insertion%s(+)", ins, ins == 1 ? "" : "s");
	if (del || !ins)
		fprintf(out, ", %lu deletion%s(-)", del, del == 1 ? "" : "s");
	putc('\n', out);
}

int print_shortstat(FILE *out, struct file_changes *l)
{
	if (count_file_changes(l) < 0)
		return -1;
	if (l->nr)
		show_summary(out, l);
	return ferror(out) ? -1 : 0;
}

int print_numstat(FILE *out, struct file_changes *l)
{
	size_t i;

	if (count_file_changes(l) < 0)
		return -1;
	for (i = 0; i < l->nr; i++) {
		const struct file_change *ch = &l->items[i];

		if (ch->binary)
			fputs("-\t-", out);
		else
			fprintf(out, "%lu\t%lu", ch->added, ch->deleted);
		if (ch->old_path) {
			/* a rename: "old => new", as in the diffstat */
			struct mbuf q = MBUF_INIT;

			add_rename_name(&q, ch->old_path, ch->path);
			if (q.failed)
				return error("out of memory");
			fprintf(out, "\t%s\n", mbuf_str(&q));
			mbuf_release(&q);
		} else {
			write_name_field(out, ch->path, strlen(ch->path), 0);
		}
	}
	return ferror(out) ? -1 : 0;
}

int print_diffstat(FILE *out, struct file_changes *l, int width, int color)
{
	struct stat_layout lay;
	char **names = xcalloc(l->nr, sizeof(*names));
	size_t i;
	int ret = -1;

	if (count_file_changes(l) < 0)
		goto out;
	if (stat_names(l, names) < 0)
		goto out;
	stat_layout(&lay, l, names, width);
	for (i = 0; i < l->nr; i++)
		show_stat_line(out, color, &l->items[i], names[i], &lay);
	show_summary(out, l);
	ret = ferror(out) ? -1 : 0;
out:
	for (i = 0; i < l->nr; i++)
		free(names[i]);
	free(names);
	return ret;
}

static void color_line(FILE *out, const char *color, const char *p,
		       size_t len)
{
	int nl = len && p[len - 1] == '\n';

	fputs(color, out);
	fwrite(p, 1, len - nl, out);
	fputs(COLOR_RESET, out);
	if (nl)
		putc('\n', out);
}

/* The "@@ -a,b +c,d @@" part in colour, then the function name, as git. */
static void color_frag(FILE *out, const char *p, size_t len)
{
	int nl = len && p[len - 1] == '\n';
	size_t head;

	for (head = 2; head + 1 < len; head++)
		if (p[head] == '@' && p[head + 1] == '@')
			break;
	head = head + 1 < len ? head + 2 : len;
	color_line(out, COLOR_FRAG, p, head);
	if (head + 1 < len - nl && p[head] == ' ') {
		fputs(" " COLOR_RESET, out);
		fwrite(p + head + 1, 1, len - nl - head - 1, out);
		fputs(COLOR_RESET, out);
	} else {
		fwrite(p + head, 1, len - nl - head, out);
	}
	if (nl)
		putc('\n', out);
}

/* A header line; a tab after a name ("--- a/x y\t") after the reset. */
static void color_meta(FILE *out, const char *p, size_t len)
{
	int nl = len && p[len - 1] == '\n';
	int tab = len - nl > 4 && p[len - nl - 1] == '\t' &&
		  (!strncmp(p, "--- ", 4) || !strncmp(p, "+++ ", 4));

	color_line(out, COLOR_META, p, len - nl - tab);
	if (tab)
		putc('\t', out);
	if (nl)
		putc('\n', out);
}

/* An added line: the sign, the text, its trailing blanks marked. */
static void color_added(FILE *out, const char *p, size_t len)
{
	int nl = len && p[len - 1] == '\n';
	size_t text = len - nl, body = text;

	while (body > 1 && (p[body - 1] == ' ' || p[body - 1] == '\t'))
		body--;
	fputs(COLOR_NEW "+" COLOR_RESET, out);
	if (body > 1)
		color_line(out, COLOR_NEW, p + 1, body - 1);
	if (body < text)
		color_line(out, COLOR_WS, p + body, text - body);
	if (nl)
		putc('\n', out);
}

/* A context line: as it is, then a reset, as git writes it. */
static void color_context(FILE *out, const char *p, size_t len)
{
	int nl = len && p[len - 1] == '\n';

	fwrite(p, 1, len - nl, out);
	fputs(COLOR_RESET, out);
	if (nl)
		putc('\n', out);
}

/*
 * Colour a patch's text as git does: headers bold, hunk headers cyan,
 * removed lines red, added lines green, anything else (a diffstat,
 * a line that is no patch's) as it is.  *part keeps the state from
 * one call to the next.
 */
void color_patch(FILE *out, const char *buf, size_t size,
		 enum patch_part *part)
{
	const char *end = buf + size, *p, *eol;

	for (p = buf; p < end; p = eol) {
		size_t len;

		eol = line_end(p, end);
		len = eol - p;
		if (len > 11 && !strncmp(p, "diff --git ", 11))
			*part = PATCH_HEADER;
		else if (*part == PATCH_HUNK && !strchr(" +-\\@", *p))
			*part = PATCH_OUTSIDE;
		if (*part != PATCH_OUTSIDE && len >= 2 && !strncmp(p, "@@", 2)) {
			*part = PATCH_HUNK;
			color_frag(out, p, len);
		} else if (*part == PATCH_HEADER) {
			if (len > 13 && !strncmp(p, "Binary files ", 13))
				fwrite(p, 1, len, out);
			else
				color_meta(out, p, len);
		} else if (*part == PATCH_HUNK && *p == '+') {
			color_added(out, p, len);
		} else if (*part == PATCH_HUNK && *p == '-') {
			color_line(out, COLOR_OLD, p, len);
		} else if (*part == PATCH_HUNK) {
			color_context(out, p, len);
		} else {
			fwrite(p, 1, len, out);
		}
	}
}

int term_columns(void)
{
	const char *s = getenv("COLUMNS");
	struct winsize ws;
	int n;

	if (s && (n = atoi(s)) > 0)
		return n;
	if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}
