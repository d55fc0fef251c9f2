/*
 * patch-name.c: the file names of a patch, as git apply reads them: C
 * quotes undone, the -p leading components stripped, /dev/null for no
 * file, and the one name of a "diff --git a/x b/x" line, whose unquoted
 * names may hold spaces.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "patch-internal.h"

static char *xstrndup(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);

	memcpy(out, s, len);
	out[len] = '\0';
	return out;
}

/* name without its first p components (malloc'd), or NULL: too few. */
static char *strip_components(const char *name, size_t len, int p)
{
	const char *s = name, *end = name + len;

	while (p-- > 0) {
		const char *slash = memchr(s, '/', end - s);

		if (!slash)
			return NULL;
		s = slash + 1;
		while (s < end && *s == '/')
			s++;
	}
	if (s == end)
		return NULL;
	return xstrndup(s, end - s);
}

static int is_dev_null(const char *p, size_t len)
{
	return len == 9 && !memcmp(p, "/dev/null", 9);
}

/*
 * The name at p of a "---"/"+++"/"rename from" line (len bytes, no
 * '\n'): quoted, or up to a tab (git adds one after a name holding a
 * space; diff -u puts its date there).  *null is set for /dev/null.
 */
char *line_name(const char *p, size_t len, int p_value, int *null)
{
	const char *end = p + len, *tab;
	size_t taken;
	char *name, *stripped;

	*null = 0;
	if (len && *p == '"') {
		name = unquote_c(p, end, &taken);
		if (!name)
			return NULL;
		stripped = strip_components(name, strlen(name), p_value);
		free(name);
		return stripped;
	}
	tab = memchr(p, '\t', len);
	if (tab)
		end = tab;
	while (end > p && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	if (is_dev_null(p, end - p)) {
		*null = 1;
		return NULL;
	}
	return strip_components(p, end - p, p_value);
}

/*
 * a (alen bytes) and b (blen) with p_value components stripped: the
 * name (malloc'd) when they are the same, else NULL.
 */
static char *same_name(const char *a, size_t alen, const char *b,
		       size_t blen, int p_value)
{
	char *x = strip_components(a, alen, p_value);
	char *y = strip_components(b, blen, p_value);

	if (x && y && !strcmp(x, y)) {
		free(y);
		return x;
	}
	free(x);
	free(y);
	return NULL;
}

/*
 * The one name of "diff --git a/x b/x" when both sides name the same
 * file (a rename's two names come from its own lines), else NULL.
 * Unquoted names may hold spaces: every space is tried as the split.
 */
char *git_header_name(const char *p, size_t len, int p_value)
{
	const char *end = p + len, *s;
	char *a, *b, *name = NULL;
	size_t taken;

	if (!len || *p != '"') {
		for (s = p; s < end && !name; s++)
			if (*s == ' ')
				name = same_name(p, s - p, s + 1, end - s - 1,
						 p_value);
		return name;
	}
	a = unquote_c(p, end, &taken);
	if (!a || taken >= len || p[taken] != ' ') {
		free(a);
		return NULL;
	}
	s = p + taken + 1;
	b = *s == '"' ? unquote_c(s, end, &taken) : xstrndup(s, end - s);
	if (b)
		name = same_name(a, strlen(a), b, strlen(b), p_value);
	free(a);
	free(b);
	return name;
}
