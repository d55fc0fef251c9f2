/*
 * config.c: git's config files read, by the rules of git's own parser
 * (sections, "subsections", quoting, escapes, continued lines,
 * comments), so that a file git accepts is read as git reads it and
 * one git refuses is refused.  No tool is configured by it; setup.c
 * reads the repository's format from it.  Includes are not followed:
 * git does not follow them for the format either.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cache.h"

struct config_parse {
	const char *p, *end;
	int eof;
	unsigned long line;	/* counted as git counts, for its messages */
	struct mbuf section;	/* "section" or "section.subsection" */
	struct mbuf key, value;
};

/*
 * The next byte, CRLF read as LF; at the end a '\n' with eof set.
 * Lines are counted as git counts them, the end being one more, so
 * that "bad config line N" names git's N.
 */
static int next_char(struct config_parse *c)
{
	int ch;

	if (c->p >= c->end) {
		c->eof = 1;
		c->line++;
		return '\n';
	}
	ch = (unsigned char)*c->p++;
	if (ch == '\r' && c->p < c->end && *c->p == '\n')
		ch = *c->p++;
	if (ch == '\n')
		c->line++;
	return ch;
}

/* A line ended too soon: git names the line, not the next one. */
static int incomplete_line(struct config_parse *c)
{
	c->line--;
	return -1;
}

static int is_key_char(int ch)
{
	return isalnum(ch) || ch == '-';
}

/* The rest of [section "subsection"], after the space: 0, or -1. */
static int parse_subsection(struct config_parse *c)
{
	int ch;

	do
		ch = next_char(c);
	while (ch == ' ' || ch == '\t');
	if (ch == '\n')
		return incomplete_line(c);
	if (ch != '"')
		return -1;
	mbuf_addch(&c->section, '.');
	while ((ch = next_char(c)) != '"') {
		if (ch == '\n')
			return incomplete_line(c);
		if (ch == '\\' && (ch = next_char(c)) == '\n')
			return incomplete_line(c);
		mbuf_addch(&c->section, ch);
	}
	return next_char(c) == ']' ? 0 : -1;
}

/* A section header, after its '[': 0, or -1. */
static int parse_section(struct config_parse *c)
{
	int ch;

	mbuf_reset(&c->section);
	for (;;) {
		ch = next_char(c);
		if (c->eof)
			return -1;
		if (ch == '\n')
			return incomplete_line(c);
		if (ch == ']')
			return c->section.failed ? -1 : 0;
		if (isspace(ch))
			return parse_subsection(c) < 0 || c->section.failed ?
			       -1 : 0;
		if (!is_key_char(ch) && ch != '.')
			return -1;
		mbuf_addch(&c->section, tolower(ch));
	}
}

/* The value after '=', up to its line's end: 0, or -1. */
static int parse_value(struct config_parse *c)
{
	int quote = 0, comment = 0, ch;
	size_t space = 0;

	mbuf_reset(&c->value);
	mbuf_addstr(&c->value, "");
	for (;;) {
		ch = next_char(c);
		if (ch == '\n' && quote)
			return incomplete_line(c);
		if (ch == '\n')
			return c->value.failed ? -1 : 0;
		if (comment)
			continue;
		if (isspace(ch) && !quote) {
			if (c->value.len)
				space++;
			continue;
		}
		if (!quote && (ch == ';' || ch == '#')) {
			comment = 1;
			continue;
		}
		for (; space; space--)
			mbuf_addch(&c->value, ' ');
		if (ch == '"') {
			quote = !quote;
			continue;
		}
		if (ch == '\\') {
			ch = next_char(c);
			if (ch == '\n')
				continue;	/* a continued line */
			if (ch == 't' || ch == 'b' || ch == 'n')
				ch = ch == 't' ? '\t' : ch == 'b' ? '\b' : '\n';
			else if (ch != '\\' && ch != '"')
				return -1;
		}
		mbuf_addch(&c->value, ch);
	}
}

/* A variable starting with ch, then fn: fn's return, or -1 (bad line). */
static int parse_variable(struct config_parse *c, int ch, config_fn fn,
			  void *data, int *bad)
{
	int has_value = 0;

	mbuf_reset(&c->key);
	mbuf_addbuf(&c->key, &c->section);
	mbuf_addch(&c->key, '.');
	while (is_key_char(ch)) {
		mbuf_addch(&c->key, tolower(ch));
		ch = next_char(c);
	}
	while (ch == ' ' || ch == '\t')
		ch = next_char(c);
	if (ch != '\n') {
		if (ch != '=' || parse_value(c) < 0)
			return *bad = -1;
		has_value = 1;
	}
	if (!c->section.len || c->key.failed)
		return *bad = -1;
	return fn(mbuf_str(&c->key), has_value ? mbuf_str(&c->value) : NULL,
		  data);
}

static int parse_config(struct config_parse *c, config_fn fn, void *data,
			int *bad)
{
	int comment = 0, ret;

	if (c->end - c->p >= 3 && !memcmp(c->p, "\xef\xbb\xbf", 3))
		c->p += 3;
	for (;;) {
		int ch = next_char(c);

		if (c->eof)
			return 0;
		if (ch == '\n') {
			comment = 0;
			continue;
		}
		if (comment || isspace(ch))
			continue;
		if (ch == '#' || ch == ';') {
			comment = 1;
			continue;
		}
		if (ch == '[') {
			if (parse_section(c) < 0)
				return *bad = -1;
			continue;
		}
		if (!isalpha(ch))
			return *bad = -1;
		ret = parse_variable(c, ch, fn, data, bad);
		if (ret)
			return ret;
	}
}

/*
 * After read_small_file failed: 1 when the file is simply not there, or
 * is a device such as /dev/null (GIT_CONFIG_GLOBAL=/dev/null, as git's
 * test suites set it, means no settings).
 */
static int no_config_file(const char *path)
{
	struct stat st;
	int saved = errno;

	if (saved == ENOENT)
		return 1;
	if (saved == EINVAL && !stat(path, &st) && S_ISCHR(st.st_mode))
		return 1;
	errno = saved;
	return 0;
}

int config_from_file(const char *path, config_fn fn, void *data)
{
	struct config_parse c = { NULL, NULL, 0, 1, MBUF_INIT, MBUF_INIT,
				  MBUF_INIT };
	size_t len = 0;
	char *buf = read_small_file(path, SIZE_MAX, &len);
	int ret, bad = 0;

	if (!buf)
		return no_config_file(path) ? 0 : error_errno("read '%s'", path);
	c.p = buf;
	c.end = buf + len;
	ret = parse_config(&c, fn, data, &bad);
	if (c.section.failed || c.key.failed || c.value.failed)
		ret = error("read '%s': out of memory", path);
	else if (bad)
		ret = error("bad config line %lu in file %s", c.line, path);
	mbuf_release(&c.section);
	mbuf_release(&c.key);
	mbuf_release(&c.value);
	free(buf);
	return ret;
}

int config_int(const char *value, long *v)
{
	long scale = 1, n;
	char *end;

	if (!value || !*value)
		return -1;
	errno = 0;
	n = strtol(value, &end, 0);
	if (errno || end == value)
		return -1;
	if (*end) {
		if (end[1])
			return -1;
		switch (tolower((unsigned char)*end)) {
		case 'k': scale = 1024; break;
		case 'm': scale = 1024 * 1024; break;
		case 'g': scale = 1024L * 1024 * 1024; break;
		default: return -1;
		}
	}
	if ((n > 0 && n > LONG_MAX / scale) || (n < 0 && n < LONG_MIN / scale))
		return -1;
	*v = n * scale;
	return 0;
}

int config_bool(const char *value)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off", "" };
	long n;
	size_t i;

	if (!value)
		return 1;
	for (i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!strcasecmp(value, yes[i]))
			return 1;
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(value, no[i]))
			return 0;
	if (config_int(value, &n) < 0)
		return -1;
	return n != 0;
}
