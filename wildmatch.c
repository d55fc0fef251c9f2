/*
 * wildmatch.c: git's glob matching, as its exclude patterns use it.
 *
 * "?" is any one byte, "*" any run of bytes, "[...]" a set (with "!"
 * or "^" to negate it, ranges, POSIX classes and backslash escapes),
 * "\" makes the next byte literal.  With WM_PATHNAME "?", "*" and
 * sets never match "/", and two stars between slashes (or at either
 * end) match any number of whole directories: "a/" + two stars is
 * everything below a, two stars + "/b" a b at any depth, and "a/", two
 * stars, "/b" also matches a/b.
 * fnmatch(3) has no "**", hence this file.
 */
#include <ctype.h>
#include <string.h>

#include "exclude.h"

enum {
	WM_NOMATCH = 1,
	WM_ABORT_ALL = -1,		/* no later start can match either */
	WM_ABORT_TO_STARSTAR = -2,	/* only a "**" further out can help */
};

static int class_matches(const char *name, size_t len, unsigned char c)
{
	static const struct {
		const char *name;
		int (*fn)(int);
	} classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank },
		{ "cntrl", iscntrl }, { "digit", isdigit }, { "graph", isgraph },
		{ "lower", islower }, { "print", isprint }, { "punct", ispunct },
		{ "space", isspace }, { "upper", isupper },
		{ "xdigit", isxdigit },
	};
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i].name) == len &&
		    !memcmp(classes[i].name, name, len))
			return classes[i].fn(c) ? 1 : 0;
	return -1;
}

/*
 * Match the set at *pp (just after "[") against t; *pp is left on the
 * closing "]".  1 matched, 0 not, WM_ABORT_ALL for a broken set.
 */
static int match_set(const unsigned char **pp, unsigned char t)
{
	const unsigned char *p = *pp;
	int negated = 0, matched = 0;
	unsigned char prev = 0, c;

	if (*p == '!' || *p == '^') {
		negated = 1;
		p++;
	}
	c = *p;
	do {
		if (!c)
			return WM_ABORT_ALL;
		if (c == '\\') {
			c = *++p;
			if (!c)
				return WM_ABORT_ALL;
			if (t == c)
				matched = 1;
		} else if (c == '-' && prev && p[1] && p[1] != ']') {
			c = *++p;
			if (c == '\\') {
				c = *++p;
				if (!c)
					return WM_ABORT_ALL;
			}
			if (t <= c && t >= prev)
				matched = 1;
			c = 0;		/* no range may start here */
		} else if (c == '[' && p[1] == ':') {
			const unsigned char *s = p + 2;
			int in;

			while (*p && *p != ']')
				p++;
			if (!*p)
				return WM_ABORT_ALL;
			if (p - s < 1 || p[-1] != ':') {
				/* no ":]": a plain "[" in the set */
				p = s - 2;
				c = '[';
				if (t == c)
					matched = 1;
				prev = c;
				c = *++p;
				continue;
			}
			in = class_matches((const char *)s, p - 1 - s, t);
			if (in < 0)
				return WM_ABORT_ALL;
			if (in)
				matched = 1;
			c = 0;
		} else if (t == c) {
			matched = 1;
		}
		prev = c;
		c = *++p;
	} while (c != ']');
	*pp = p;
	return matched != negated;
}

static int dowild(const unsigned char *start, const unsigned char *p,
		  const unsigned char *t, unsigned flags);

/*
 * p is on the first "*" of a run (start: the whole pattern's first
 * byte); the rest of the match from here.
 */
static int match_star(const unsigned char *start, const unsigned char *p,
		      const unsigned char *t, unsigned flags)
{
	int match_slash, matched;

	if (p[1] == '*') {
		const unsigned char *prev = p;

		while (p[1] == '*')
			p++;
		if (!(flags & WM_PATHNAME)) {
			match_slash = 1;
		} else if ((prev == start || prev[-1] == '/') &&
			   (!p[1] || p[1] == '/' ||
			    (p[1] == '\\' && p[2] == '/'))) {
			/* "**" + "/" may also match no directory at all */
			if (p[1] == '/' && dowild(start, p + 2, t, flags) == 0)
				return 0;
			match_slash = 1;
		} else {
			match_slash = 0;	/* "**" inside a name is "*" */
		}
	} else {
		match_slash = !(flags & WM_PATHNAME);
	}
	p++;
	if (!*p) {
		if (!match_slash && strchr((const char *)t, '/'))
			return WM_NOMATCH;
		return 0;
	}
	if (!match_slash && *p == '/') {
		const char *slash = strchr((const char *)t, '/');

		if (!slash)
			return WM_NOMATCH;
		return dowild(start, p + 1, (const unsigned char *)slash + 1,
			      flags);
	}
	for (; *t; t++) {
		matched = dowild(start, p, t, flags);
		if (matched != WM_NOMATCH) {
			if (!match_slash || matched != WM_ABORT_TO_STARSTAR)
				return matched;
		} else if (!match_slash && *t == '/') {
			return WM_ABORT_TO_STARSTAR;
		}
	}
	return WM_ABORT_ALL;
}

static int dowild(const unsigned char *start, const unsigned char *p,
		  const unsigned char *t, unsigned flags)
{
	int in;

	for (; *p; p++, t++) {
		if (!*t && *p != '*')
			return WM_ABORT_ALL;
		switch (*p) {
		case '\\':
			p++;
			if (*t != *p)	/* a trailing "\" matches nothing */
				return WM_NOMATCH;
			break;
		case '?':
			if ((flags & WM_PATHNAME) && *t == '/')
				return WM_NOMATCH;
			break;
		case '*':
			return match_star(start, p, t, flags);
		case '[':
			p++;
			in = match_set(&p, *t);
			if (in < 0)
				return in;
			if (!in || ((flags & WM_PATHNAME) && *t == '/'))
				return WM_NOMATCH;
			break;
		default:
			if (*t != *p)
				return WM_NOMATCH;
			break;
		}
	}
	return *t ? WM_NOMATCH : 0;
}

int wildmatch(const char *pattern, const char *text, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)pattern;

	return dowild(p, p, (const unsigned char *)text, flags) == 0;
}
