/*
 * exclude.c: git's exclude patterns (.gitignore rules) for ls-files
 * -o, -i and the porcelain.  The rules and their precedence are git's,
 * so that a tree ignored by git is ignored here the same way: see
 * exclude.h for the groups, and match_one for how one pattern matches.
 */
#define _GNU_SOURCE		/* memrchr */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "exclude.h"

#define EXC_NODIR	1	/* no "/": matches the last component */
#define EXC_ENDSWITH	2	/* "*literal" */
#define EXC_MUSTBEDIR	4	/* trailing "/" */
#define EXC_NEGATIVE	8	/* leading "!" */

void init_exclude_set(struct exclude_set *set)
{
	memset(set, 0, sizeof(*set));
	set->cmdline.base = xstrdup("");
}

static void clear_list(struct exclude_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->items[i].pattern);
	free(list->items);
	free(list->base);
	memset(list, 0, sizeof(*list));
}

void clear_exclude_set(struct exclude_set *set)
{
	size_t i;

	clear_list(&set->cmdline);
	for (i = 0; i < set->nr_files; i++)
		clear_list(&set->files[i]);
	free(set->files);
	for (i = 0; i < set->nr_stack; i++)
		clear_list(&set->stack[i].list);
	free(set->stack);
	free(set->base);
	memset(set, 0, sizeof(*set));
}

void fork_exclude_set(struct exclude_set *fork,
		      const struct exclude_set *set)
{
	*fork = *set;
	fork->stack = NULL;
	fork->nr_stack = fork->alloc_stack = 0;
	fork->base = NULL;
	fork->base_alloc = 0;
	fork->dir_excluded = 0;
}

void clear_exclude_fork(struct exclude_set *fork)
{
	size_t i;

	for (i = 0; i < fork->nr_stack; i++)
		clear_list(&fork->stack[i].list);
	free(fork->stack);
	free(fork->base);
	memset(fork, 0, sizeof(*fork));
}

int exclude_set_empty(const struct exclude_set *set)
{
	size_t i;

	if (set->cmdline.nr || set->per_dir)
		return 0;
	for (i = 0; i < set->nr_files; i++)
		if (set->files[i].nr)
			return 0;
	return 1;
}

/* Bytes before the first glob character, as git counts them. */
static size_t simple_length(const char *s)
{
	return strcspn(s, "*?[\\");
}

static void add_pattern(struct exclude_list *list, const char *p)
{
	struct exclude *x;
	size_t len;
	unsigned flags = 0;

	if (*p == '!') {
		flags |= EXC_NEGATIVE;
		p++;
	}
	len = strlen(p);
	if (len && p[len - 1] == '/') {
		len--;
		flags |= EXC_MUSTBEDIR;
	}
	if (!memchr(p, '/', len))
		flags |= EXC_NODIR;
	if (*p == '*' && !p[1 + simple_length(p + 1)])
		flags |= EXC_ENDSWITH;
	ALLOC_GROW(list->items, list->nr + 1, list->alloc);
	x = &list->items[list->nr++];
	x->pattern = xmalloc(len + 1);
	memcpy(x->pattern, p, len);
	x->pattern[len] = '\0';
	x->len = len;
	x->nowild = simple_length(p);
	if (x->nowild > len)
		x->nowild = len;
	x->flags = flags;
	x->base = list->base;
	x->baselen = strlen(list->base);
}

void add_exclude(struct exclude_list *list, const char *pattern)
{
	if (!list->base)
		list->base = xstrdup("");
	add_pattern(list, pattern);
}

/* Drop trailing spaces, but not one escaped by a backslash. */
static void trim_trailing_spaces(char *s)
{
	char *last_space = NULL;

	for (; *s; s++) {
		if (*s == ' ') {
			if (!last_space)
				last_space = s;
			continue;
		}
		if (*s == '\\' && !*++s)
			return;
		last_space = NULL;
	}
	if (last_space)
		*last_space = '\0';
}

/* The patterns of a file's bytes, one a line, into list. */
static void add_patterns_from_buffer(struct exclude_list *list, char *buf,
				     size_t size)
{
	char *line = buf, *end = buf + size;

	if (size >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		line += 3;	/* a UTF-8 byte order mark */
	while (line < end) {
		char *nl = memchr(line, '\n', end - line);
		char *next;

		if (!nl)
			nl = end;
		next = nl + 1;
		if (nl > line && *line != '#') {
			if (nl[-1] == '\r')
				nl--;
			*nl = '\0';
			trim_trailing_spaces(line);
			add_pattern(list, line);
		}
		line = next;
	}
}

/*
 * Read the patterns of path into list (base set).  0, also when the
 * file does not exist; -1 with errno on other errors.  With nofollow
 * a symlink is not followed (ELOOP), as git reads .gitignore files.
 */
static int read_exclude_file(struct exclude_list *list, const char *path,
			     int nofollow)
{
	struct stat st;
	char *buf;
	ssize_t got;
	int fd = open(path, O_RDONLY | (nofollow ? O_NOFOLLOW : 0));

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	buf = xmalloc(st.st_size + 2);
	got = read_in_full(fd, buf, st.st_size);
	close(fd);
	if (got < 0) {
		free(buf);
		return -1;
	}
	buf[got] = '\n';
	add_patterns_from_buffer(list, buf, got + 1);
	free(buf);
	return 0;
}

int add_excludes_from_file(struct exclude_set *set, const char *path)
{
	struct exclude_list *list;

	ALLOC_GROW(set->files, set->nr_files + 1, set->alloc_files);
	list = &set->files[set->nr_files++];
	memset(list, 0, sizeof(*list));
	list->base = xstrdup("");
	if (access(path, R_OK) < 0 || read_exclude_file(list, path, 0) < 0)
		return error_errno("cannot use %s as an exclude file", path);
	return 0;
}

/*
 * core.excludesFile as git reads it: a leading "~/" is $HOME; unset,
 * $XDG_CONFIG_HOME/git/ignore (or ~/.config/git/ignore).  NULL when
 * there is none to read (malloc'd).
 */
static char *user_exclude_file(void)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	struct mbuf b = MBUF_INIT;
	char *value = NULL;

	if (config_get("core.excludesfile", &value) > 0 && value) {
		if (!strncmp(value, "~/", 2) && home)
			mbuf_addf(&b, "%s/%s", home, value + 2);
		else
			mbuf_addstr(&b, value);
	} else if (xdg && *xdg) {
		mbuf_addf(&b, "%s/git/ignore", xdg);
	} else if (home) {
		mbuf_addf(&b, "%s/.config/git/ignore", home);
	}
	free(value);
	if (!b.len || access(b.buf, R_OK) < 0) {
		mbuf_release(&b);
		return NULL;
	}
	return mbuf_detach(&b, NULL);
}

int add_standard_excludes(struct exclude_set *set)
{
	char *user = user_exclude_file(), *info;
	int ret = 0;

	set->per_dir = ".gitignore";
	if (user)
		ret = add_excludes_from_file(set, user);
	free(user);
	info = path_join(get_git_dir(), "info/exclude");
	if (!ret && !access(info, R_OK))
		ret = add_excludes_from_file(set, info);
	free(info);
	return ret;
}

/* ---- matching ---- */

static int match_basename(const struct exclude *x, const char *basename,
			  size_t len)
{
	if (x->nowild == x->len)
		return len == x->len && !memcmp(x->pattern, basename, len);
	if (x->flags & EXC_ENDSWITH)
		return x->len - 1 <= len &&
		       !memcmp(x->pattern + 1, basename + len - (x->len - 1),
			       x->len - 1);
	return wildmatch(x->pattern, basename, 0);
}

/* An anchored pattern, relative to its base directory. */
static int match_pathname(const struct exclude *x, const char *path,
			  size_t pathlen)
{
	const char *pattern = x->pattern, *name;
	size_t prefix = x->nowild, baselen = x->baselen ? x->baselen - 1 : 0;
	size_t namelen;

	if (*pattern == '/') {
		pattern++;
		prefix--;
	}
	if (pathlen < baselen + 1 || (baselen && path[baselen] != '/') ||
	    memcmp(path, x->base, baselen))
		return 0;
	namelen = baselen ? pathlen - baselen - 1 : pathlen;
	name = path + pathlen - namelen;
	if (prefix) {
		if (prefix > namelen || memcmp(pattern, name, prefix))
			return 0;
		pattern += prefix;
		name += prefix;
		namelen -= prefix;
		if (!*pattern && !namelen)
			return 1;
	}
	return wildmatch(pattern, name, WM_PATHNAME);
}

/* The last pattern of list that matches path, or NULL. */
static const struct exclude *match_list(const struct exclude_list *list,
					const char *path, size_t len,
					const char *basename, int dtype)
{
	size_t i = list->nr;

	while (i--) {
		const struct exclude *x = &list->items[i];

		if ((x->flags & EXC_MUSTBEDIR) && dtype != DT_DIR)
			continue;
		if (x->flags & EXC_NODIR) {
			if (match_basename(x, basename,
					   len - (basename - path)))
				return x;
			continue;
		}
		if (match_pathname(x, path, len))
			return x;
	}
	return NULL;
}

static const struct exclude *match_all_lists(struct exclude_set *set,
					     const char *path, size_t len,
					     int dtype)
{
	const char *slash = memrchr(path, '/', len);
	const char *basename = slash ? slash + 1 : path;
	const struct exclude *x;
	size_t i;

	x = match_list(&set->cmdline, path, len, basename, dtype);
	for (i = set->nr_stack; !x && i--; )
		x = match_list(&set->stack[i].list, path, len, basename,
			       dtype);
	for (i = set->nr_files; !x && i--; )
		x = match_list(&set->files[i], path, len, basename, dtype);
	return x;
}

/* ---- the directories of a path ---- */

static void pop_frame(struct exclude_set *set)
{
	clear_list(&set->stack[--set->nr_stack].list);
	set->dir_excluded = 0;
}

/* Enter base[0..len): is it excluded?  Else read its per-dir file. */
static void push_frame(struct exclude_set *set, const char *base,
		       size_t len)
{
	struct exclude_frame *f;
	char *file;

	ALLOC_GROW(set->stack, set->nr_stack + 1, set->alloc_stack);
	f = &set->stack[set->nr_stack++];
	memset(f, 0, sizeof(*f));
	f->baselen = len;
	f->list.base = xmalloc(len + 1);
	memcpy(f->list.base, base, len);
	f->list.base[len] = '\0';
	ALLOC_GROW(set->base, len + 1, set->base_alloc);
	memcpy(set->base, base, len);
	set->base[len] = '\0';
	if (len) {
		const struct exclude *x;

		set->base[len - 1] = '\0';
		x = match_all_lists(set, set->base, len - 1, DT_DIR);
		set->base[len - 1] = '/';
		if (x && !(x->flags & EXC_NEGATIVE)) {
			set->dir_excluded = 1;
			return;
		}
	}
	if (!set->per_dir)
		return;
	file = xmalloc(len + strlen(set->per_dir) + 1);
	memcpy(file, base, len);
	strcpy(file + len, set->per_dir);
	if (read_exclude_file(&f->list, file, 1) < 0)
		warning("unable to access '%s': %s", file, strerror(errno));
	free(file);
}

/* Make the stack that of the directory base (len bytes, "" or "a/b/"). */
static void prepare_base(struct exclude_set *set, const char *base,
			 size_t len)
{
	size_t cur;

	while (set->nr_stack) {
		size_t top = set->stack[set->nr_stack - 1].baselen;

		if (top <= len && !memcmp(set->base, base, top))
			break;
		pop_frame(set);
	}
	if (set->dir_excluded)
		return;
	if (!set->nr_stack) {
		push_frame(set, base, 0);
		if (set->dir_excluded)
			return;
	}
	cur = set->stack[set->nr_stack - 1].baselen;
	while (cur < len) {
		const char *slash = memchr(base + cur + 1, '/', len - cur - 1);
		size_t next = slash ? (size_t)(slash - base) + 1 : len;

		push_frame(set, base, next);
		if (set->dir_excluded)
			return;
		cur = next;
	}
}

int is_excluded(struct exclude_set *set, const char *path, int dtype)
{
	size_t len = strlen(path);
	const char *slash = memrchr(path, '/', len);
	const struct exclude *x;

	if (exclude_set_empty(set))
		return 0;
	if (dtype == DT_UNKNOWN) {
		struct stat st;

		if (!lstat(path, &st))
			dtype = S_ISDIR(st.st_mode) ? DT_DIR :
				S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
	}
	prepare_base(set, path, slash ? (size_t)(slash - path) + 1 : 0);
	if (set->dir_excluded)
		return 1;
	x = match_all_lists(set, path, len, dtype);
	return x && !(x->flags & EXC_NEGATIVE);
}
