/*
 * decorate.c: the names git log writes after a commit's id, " (HEAD ->
 * main, tag: v1, origin/main)": every ref of refs/heads/, refs/remotes/,
 * refs/tags/ and refs/stash (git's default decoration filter) peeled to
 * the object it names, then HEAD, each name shown in the reverse of that
 * order as git's list shows them, HEAD joined to the branch it names,
 * in git's colours when asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "log.h"

enum decoration_kind { DECO_HEAD, DECO_BRANCH, DECO_REMOTE, DECO_TAG,
		       DECO_STASH };

/* git's default color.decorate.* of each kind. */
static const char *const kind_color[] = {
	"\033[1;36m", "\033[1;32m", "\033[1;31m", "\033[1;33m", "\033[1;35m",
};

struct decoration {
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *name;		/* as shown (without "tag: ") */
	enum decoration_kind kind;
	size_t pos;		/* order of loading */
};

static struct decoration *decos;
static size_t nr_decos, alloc_decos;
static int deco_style;
static char *head_branch;	/* the refs/heads/ ref HEAD names, or NULL */

/* sha1 followed through tags to an object that is none: 0, or -1. */
static int peel_tags(unsigned char *sha1)
{
	enum object_type type;
	size_t size;
	struct fault f;
	void *buf;
	int depth;

	for (depth = 0; depth < 64; depth++) {
		if (object_info(sha1, &type, &size, &f) < 0)
			return -1;
		if (type != OBJ_TAG)
			return 0;
		buf = read_object(sha1, &type, &size, &f);
		if (!buf)
			return -1;
		if (parse_tag_buffer(buf, size, sha1, &type) < 0) {
			free(buf);
			return -1;
		}
		free(buf);
	}
	return -1;
}

static void add_decoration(const unsigned char *sha1, const char *name,
			   enum decoration_kind kind)
{
	struct decoration *d;

	ALLOC_GROW(decos, nr_decos + 1, alloc_decos);
	d = &decos[nr_decos];
	hashcpy(d->sha1, sha1);
	d->name = xstrdup(name);
	d->kind = kind;
	d->pos = nr_decos++;
}

static int add_ref(const char *name, const unsigned char *sha1, void *data)
{
	static const struct { const char *prefix; enum decoration_kind k; }
	kinds[] = {
		{ "refs/heads/", DECO_BRANCH }, { "refs/remotes/", DECO_REMOTE },
		{ "refs/tags/", DECO_TAG },
	};
	unsigned char peeled[HASH_MAX_RAWSZ];
	size_t i;

	(void)data;
	hashcpy(peeled, sha1);
	if (peel_tags(peeled) < 0)
		return 0;	/* git shows no name for what it cannot read */
	if (!strcmp(name, "refs/stash")) {
		add_decoration(peeled, name, DECO_STASH);
		return 0;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (strncmp(name, kinds[i].prefix, n))
			continue;
		add_decoration(peeled, deco_style == DECORATE_FULL ?
			       name : name + n, kinds[i].k);
		return 0;
	}
	return 0;
}

/* By id, then the last loaded first (git's list is newest first). */
static int compare_decorations(const void *a, const void *b)
{
	const struct decoration *x = a, *y = b;
	int c = hashcmp(x->sha1, y->sha1);

	if (c)
		return c;
	return x->pos < y->pos ? 1 : -1;
}

int load_decorations(int style)
{
	unsigned char head[HASH_MAX_RAWSZ];
	char *resolved = NULL;

	deco_style = style;
	if (for_each_ref(add_ref, NULL) < 0)
		return -1;
	if (!resolve_ref("HEAD", head, &resolved)) {
		add_decoration(head, "HEAD", DECO_HEAD);
		if (resolved && !strncmp(resolved, "refs/heads/", 11))
			head_branch = xstrdup(style == DECORATE_FULL ?
					      resolved : resolved + 11);
	}
	free(resolved);
	qsort(decos, nr_decos, sizeof(*decos), compare_decorations);
	return 0;
}

/* The first decoration of sha1 (they follow it), or NULL. */
static const struct decoration *first_decoration(const unsigned char *sha1)
{
	size_t lo = 0, hi = nr_decos;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (hashcmp(decos[mid].sha1, sha1) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr_decos && !hashcmp(decos[lo].sha1, sha1) ?
	       &decos[lo] : NULL;
}

static void put_part(FILE *out, const char *color, const char *text,
		     int use_color)
{
	if (use_color)
		fprintf(out, "%s%s%s", color, text, COLOR_RESET);
	else
		fputs(text, out);
}

/* Is the branch HEAD names among d..end (so "HEAD -> branch")? */
static int head_joins(const struct decoration *d,
		      const struct decoration *end)
{
	if (!head_branch)
		return 0;
	for (; d < end; d++)
		if (d->kind == DECO_BRANCH && !strcmp(d->name, head_branch))
			return 1;
	return 0;
}

void show_decorations(FILE *out, const unsigned char *sha1, int use_color)
{
	const struct decoration *d = first_decoration(sha1), *end = d, *p;
	int joined, first = 1;

	if (!d)
		return;
	while (end < decos + nr_decos && !hashcmp(end->sha1, sha1))
		end++;
	joined = 0;
	for (p = d; p < end; p++)
		if (p->kind == DECO_HEAD)
			joined = head_joins(d, end);
	put_part(out, COLOR_COMMIT, " (", use_color);
	for (p = d; p < end; p++) {
		if (joined && p->kind == DECO_BRANCH &&
		    !strcmp(p->name, head_branch))
			continue;
		if (!first)
			put_part(out, COLOR_COMMIT, ", ", use_color);
		first = 0;
		if (p->kind == DECO_HEAD && joined) {
			put_part(out, kind_color[DECO_HEAD], "HEAD -> ",
				 use_color);
			put_part(out, kind_color[DECO_BRANCH], head_branch,
				 use_color);
			continue;
		}
		if (p->kind == DECO_TAG) {
			if (use_color)
				fputs(kind_color[DECO_TAG], out);
			fprintf(out, "tag: %s", p->name);
			if (use_color)
				fputs(COLOR_RESET, out);
			continue;
		}
		put_part(out, kind_color[p->kind], p->name, use_color);
	}
	put_part(out, COLOR_COMMIT, ")", use_color);
}
