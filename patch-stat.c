/*
 * patch-stat.c: what git apply --stat, --numstat and --summary print
 * for a patch set, byte for byte: the diffstat with names scaled to 50
 * columns and bars to 70, the counts with tabs, and the creations,
 * deletions, renames, copies and mode changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"
#include "patch.h"

static const char *shown_name(const struct patch *p)
{
	return p->new_name ? p->new_name : p->old_name;
}

/* A name as git quotes it in C style, in q (emptied first): 0, or -1. */
static int quote_name(struct mbuf *q, const char *name)
{
	mbuf_reset(q);
	return add_quoted_path(q, "", name, strlen(name));
}

static int output_status(FILE *out)
{
	return ferror(out) ? -1 : 0;
}

static int stat_widths(const struct patch_set *set, struct mbuf *q,
		       int *max_len, unsigned long *max_change)
{
	const struct patch *p;

	*max_len = 0;
	*max_change = 0;
	for (p = set->first; p; p = p->next) {
		const char *names[2] = { p->old_name, p->new_name };
		int i;

		if (p->added + p->deleted > *max_change)
			*max_change = p->added + p->deleted;
		for (i = 0; i < 2; i++) {
			if (!names[i])
				continue;
			if (quote_name(q, names[i]) < 0)
				return -1;
			if ((int)q->len > *max_len)
				*max_len = q->len;
		}
	}
	return 0;
}

/* The quoted name in q cut to max columns, "..." and a whole last part. */
static int shorten_name(struct mbuf *q, int max)
{
	const char *cut;

	if ((int)q->len <= max)
		return 0;
	cut = strchr(q->buf + q->len + 3 - max, '/');
	if (!cut)
		cut = q->buf + q->len + 3 - max;
	mbuf_remove(q, 0, cut - q->buf);
	return mbuf_insert(q, 0, "...", 3);
}

static int show_stat_line(FILE *out, const struct patch *p, struct mbuf *q,
			  int max, unsigned long max_change)
{
	static const char pluses[] =
		"++++++++++++++++++++++++++++++++++++++++++++++++++"
		"++++++++++++++++++++";
	static const char minuses[] =
		"--------------------------------------------------"
		"--------------------";
	unsigned long add = p->added, del = p->deleted, width;

	if (quote_name(q, shown_name(p)) < 0 || shorten_name(q, max) < 0)
		return -1;
	if (p->is_binary) {
		fprintf(out, " %-*s |  Bin\n", max, q->buf);
		return 0;
	}
	fprintf(out, " %-*s |", max, q->buf);
	width = max + max_change > 70 ? 70 - (unsigned long)max : max_change;
	if (max_change > 0) {
		unsigned long total = ((add + del) * width + max_change / 2) /
				      max_change;

		add = (add * width + max_change / 2) / max_change;
		del = total - add;
	}
	fprintf(out, "%5lu %.*s%.*s\n", p->added + p->deleted, (int)add,
		pluses, (int)del, minuses);
	return 0;
}

int print_patch_stat(FILE *out, const struct patch_set *set)
{
	unsigned long max_change, adds = 0, dels = 0;
	struct mbuf q = MBUF_INIT;
	const struct patch *p;
	int max_len, files = 0;

	if (stat_widths(set, &q, &max_len, &max_change) < 0)
		goto nomem;
	if (max_len > 50)
		max_len = 50;
	for (p = set->first; p; p = p->next) {
		files++;
		adds += p->added;
		dels += p->deleted;
		if (show_stat_line(out, p, &q, max_len, max_change) < 0)
			goto nomem;
	}
	mbuf_release(&q);
	fprintf(out, " %d file%s changed", files, files == 1 ? "" : "s");
	if (adds || !dels)
		fprintf(out, ", %lu insertion%s(+)", adds,
			adds == 1 ? "" : "s");
	if (dels || !adds)
		fprintf(out, ", %lu deletion%s(-)", dels,
			dels == 1 ? "" : "s");
	putc('\n', out);
	return output_status(out);
nomem:
	mbuf_release(&q);
	errno = ENOMEM;
	return -1;
}

int print_patch_numstat(FILE *out, const struct patch_set *set)
{
	const struct patch *p;

	for (p = set->first; p; p = p->next) {
		const char *name = shown_name(p);

		if (p->is_binary)
			fputs("-\t-\t", out);
		else
			fprintf(out, "%lu\t%lu\t", p->added, p->deleted);
		write_quoted_path(out, "", name, strlen(name));
		putc('\n', out);
	}
	return output_status(out);
}

static void show_mode_change(FILE *out, const struct patch *p, int name)
{
	if (!p->old_mode || !p->new_mode || p->old_mode == p->new_mode)
		return;
	fprintf(out, " mode change %06o => %06o", p->old_mode, p->new_mode);
	if (name)
		fprintf(out, " %s", p->new_name);
	putc('\n', out);
}

/* "rename dir/{a => b} (90%)": the common leading directories once. */
static void show_rename_copy(FILE *out, const struct patch *p)
{
	const char *what = p->is_rename ? "rename" : "copy";
	const char *o = p->old_name, *n = p->new_name;

	for (;;) {
		const char *so = strchr(o, '/'), *sn = strchr(n, '/');

		if (!so || !sn || so - o != sn - n || memcmp(o, n, sn - n))
			break;
		o = so + 1;
		n = sn + 1;
	}
	if (o != p->old_name)
		fprintf(out, " %s %.*s{%s => %s} (%d%%)\n", what,
			(int)(o - p->old_name), p->old_name, o, n, p->score);
	else
		fprintf(out, " %s %s => %s (%d%%)\n", what, p->old_name,
			p->new_name, p->score);
	show_mode_change(out, p, 0);
}

static void show_mode_name(FILE *out, const char *what, unsigned int mode,
			   const char *name)
{
	if (mode)
		fprintf(out, " %s mode %06o %s\n", what, mode, name);
	else
		fprintf(out, " %s %s\n", what, name);
}

int print_patch_summary(FILE *out, const struct patch_set *set)
{
	const struct patch *p;

	for (p = set->first; p; p = p->next) {
		if (p->is_new)
			show_mode_name(out, "create", p->new_mode, p->new_name);
		else if (p->is_delete)
			show_mode_name(out, "delete", p->old_mode, p->old_name);
		else if (p->is_rename || p->is_copy)
			show_rename_copy(out, p);
		else if (p->score)
			fprintf(out, " rewrite %s (%d%%)\n", p->new_name,
				p->score);
		else
			show_mode_change(out, p, 1);
	}
	return output_status(out);
}
