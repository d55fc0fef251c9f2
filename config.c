/*
 * config.c: reading git's config files for the few settings the tools
 * follow (core.abbrev, a promisor remote).  The files are git's: the
 * user's ~/.gitconfig (or $GIT_CONFIG_GLOBAL), then $GIT_DIR/config, a
 * later value winning.
 * Keys come out as git names them: "section.key" or
 * "section.subsection.key", section and key lowercased, a subsection
 * as written.  Values are unquoted and unescaped as git does; a key
 * with no "=" has a NULL value (true).  Include directives and the
 * system file are not read.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"

/* A config file larger than this is not read (git's are a few KB). */
#define CONFIG_MAX_SIZE (16 << 20)

struct config_parser {
	const char *p, *end;
	char *section;		/* "core" or "remote.origin", malloc'd */
};

static int config_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void skip_to_eol(struct config_parser *cp)
{
	while (cp->p < cp->end && *cp->p != '\n')
		cp->p++;
}

/* "[name]", "[name \"sub\"]" or "[name.sub]": -1 when malformed. */
static int parse_section(struct config_parser *cp)
{
	struct mbuf sb = MBUF_INIT;
	const char *p = cp->p + 1;

	while (p < cp->end && (isalnum((unsigned char)*p) || *p == '-' ||
			       *p == '.'))
		mbuf_addch(&sb, tolower((unsigned char)*p++));
	while (p < cp->end && config_is_space(*p))
		p++;
	if (p < cp->end && *p == '"') {
		mbuf_addch(&sb, '.');
		for (p++; p < cp->end && *p != '"' && *p != '\n'; p++) {
			if (*p == '\\' && p + 1 < cp->end && p[1] != '\n')
				p++;
			mbuf_addch(&sb, *p);
		}
		if (p >= cp->end || *p != '"')
			goto bad;
		p++;
	}
	if (p >= cp->end || *p != ']' || !sb.len)
		goto bad;
	free(cp->section);
	cp->section = mbuf_detach(&sb, NULL);
	cp->p = p + 1;
	return 0;
bad:
	mbuf_release(&sb);
	return -1;
}

/* The value after "=": quotes removed, escapes and comments handled. */
static char *parse_value(struct config_parser *cp)
{
	struct mbuf sb = MBUF_INIT;
	int quoted = 0;
	size_t keep = 0;	/* length without trailing blanks */

	while (cp->p < cp->end && config_is_space(*cp->p))
		cp->p++;
	for (; cp->p < cp->end && *cp->p != '\n'; cp->p++) {
		char c = *cp->p;

		if (!quoted && (c == '#' || c == ';')) {
			skip_to_eol(cp);
			break;
		}
		if (c == '"') {
			quoted = !quoted;
			keep = sb.len;
			continue;
		}
		if (c == '\\' && cp->p + 1 < cp->end) {
			c = *++cp->p;
			if (c == '\n')
				continue;	/* a continued line */
			c = c == 'n' ? '\n' : c == 't' ? '\t' :
			    c == 'b' ? '\b' : c;
			mbuf_addch(&sb, c);
			keep = sb.len;
			continue;
		}
		mbuf_addch(&sb, c);
		if (quoted || !config_is_space(c))
			keep = sb.len;
	}
	mbuf_setlen(&sb, keep);
	return mbuf_detach(&sb, NULL);
}

/* One "key = value" line: fn's return, or -1 when malformed. */
static int parse_entry(struct config_parser *cp, config_fn fn, void *data)
{
	struct mbuf key = MBUF_INIT;
	char *value = NULL;
	int ret;

	if (!cp->section)
		return -1;
	mbuf_addstr(&key, cp->section);
	mbuf_addch(&key, '.');
	while (cp->p < cp->end && (isalnum((unsigned char)*cp->p) ||
				   *cp->p == '-'))
		mbuf_addch(&key, tolower((unsigned char)*cp->p++));
	while (cp->p < cp->end && config_is_space(*cp->p))
		cp->p++;
	if (cp->p < cp->end && *cp->p == '=') {
		cp->p++;
		value = parse_value(cp);
	} else if (cp->p < cp->end && *cp->p != '\n' && *cp->p != '#' &&
		   *cp->p != ';') {
		mbuf_release(&key);
		return -1;
	}
	ret = fn(key.buf, value, data);
	mbuf_release(&key);
	free(value);
	return ret;
}

static int parse_config(const char *buf, size_t size, config_fn fn,
			void *data)
{
	struct config_parser cp = { buf, buf + size, NULL };
	int ret = 0;

	while (!ret && cp.p < cp.end) {
		while (cp.p < cp.end && (config_is_space(*cp.p) ||
					 *cp.p == '\n'))
			cp.p++;
		if (cp.p >= cp.end)
			break;
		if (*cp.p == '#' || *cp.p == ';')
			skip_to_eol(&cp);
		else if (*cp.p == '[')
			ret = parse_section(&cp);
		else if (isalpha((unsigned char)*cp.p))
			ret = parse_entry(&cp, fn, data);
		else
			ret = -1;
	}
	free(cp.section);
	return ret;
}

/* The file's bytes (malloc'd), or NULL when it cannot be read. */
static char *slurp_file(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	ssize_t n;
	char *buf;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > CONFIG_MAX_SIZE) {
		close(fd);
		return NULL;
	}
	buf = xmalloc(st.st_size + 1);
	n = read_in_full(fd, buf, st.st_size);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	*size = n;
	return buf;
}

/* One file; a missing one is empty.  -1 after error() when malformed. */
static int read_config_file(const char *path, config_fn fn, void *data)
{
	size_t size;
	char *buf = slurp_file(path, &size);
	int ret;

	if (!buf)
		return 0;
	ret = parse_config(buf, size, fn, data);
	free(buf);
	if (ret < 0)
		return error("bad config file '%s'", path);
	return ret;
}

int for_each_config(config_fn fn, void *data)
{
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	const char *home = getenv("HOME");
	char *path;
	int ret = 0;

	if (global)
		ret = read_config_file(global, fn, data);
	else if (home && *home) {
		path = path_join(home, ".gitconfig");
		ret = read_config_file(path, fn, data);
		free(path);
	}
	if (ret)
		return ret;
	path = path_join(get_git_dir(), "config");
	ret = read_config_file(path, fn, data);
	free(path);
	return ret;
}

struct config_lookup {
	const char *key;
	char *value;
	int found;
};

static int note_value(const char *key, const char *value, void *data)
{
	struct config_lookup *l = data;

	if (strcmp(key, l->key))
		return 0;
	free(l->value);
	l->value = value ? xstrdup(value) : NULL;
	l->found = 1;
	return 0;
}

int config_get(const char *key, char **value)
{
	struct config_lookup l = { key, NULL, 0 };

	*value = NULL;
	if (for_each_config(note_value, &l) < 0) {
		free(l.value);
		return -1;
	}
	*value = l.value;
	return l.found;
}
