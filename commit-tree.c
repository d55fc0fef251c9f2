/*
 * commit-tree: make a commit object from a tree, its parents and a
 * message read from standard input, and print its id.
 *
 * The tree and every parent must exist with the right type, so that a
 * typo cannot produce a commit that points at nothing.  A parent given
 * twice is dropped with a warning (a commit lists each parent once).
 * Author and committer come from GIT_AUTHOR_* and GIT_COMMITTER_*,
 * then from the 2005 names (AUTHOR_*, COMMITTER_*, COMMIT_AUTHOR_*) so
 * that old scripts keep working, then from the passwd entry, the host
 * name and the clock.  A variable that is set counts even when empty,
 * as in git: an empty email is kept ("<>"), an empty name is refused.
 * A date without a zone is local time in TZ.  A date or a name that
 * cannot be stored exactly is refused, not repaired.  The message is stored byte for byte
 * (git re-encodes what is not UTF-8; we do not), but a NUL byte is
 * refused, as git refuses it: fsck rejects a commit that holds one.
 */
#define _DEFAULT_SOURCE		/* gethostname */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

static const char commit_tree_usage[] =
	"commit-tree <tree> [-p <parent>]... < message";

struct ident {
	const char *name;
	const char *email;
	const char *date;	/* "<epoch> <+hhmm>" */
};

/*
 * The first of the variables (NULL-terminated) that is set, and with
 * want_value not empty: git keeps an empty email ("<>") and refuses an
 * empty name, but reads an empty date as "now".
 */
static const char *first_env(const char *const *vars, const char **which,
			     int want_value)
{
	for (; *vars; vars++) {
		const char *v = getenv(*vars);

		if (v && (*v || !want_value)) {
			*which = *vars;
			return v;
		}
	}
	return NULL;
}

static const struct passwd *passwd_entry(void)
{
	static const struct passwd *pw;

	if (!pw) {
		pw = getpwuid(getuid());
		if (!pw)
			die("no name for uid %lu in the passwd file; set "
			    "GIT_AUTHOR_NAME and GIT_COMMITTER_NAME",
			    (unsigned long)getuid());
	}
	return pw;
}

/* The gecos full name up to the first comma, else the login name. */
static char *default_name(void)
{
	const struct passwd *pw = passwd_entry();
	const char *gecos = pw->pw_gecos ? pw->pw_gecos : "";
	size_t len = strcspn(gecos, ",");
	char *name;

	if (!len)
		return xstrdup(pw->pw_name);
	name = xmalloc(len + 1);
	memcpy(name, gecos, len);
	name[len] = '\0';
	return name;
}

static char *default_email(void)
{
	const struct passwd *pw = passwd_entry();
	char host[256];
	size_t len;
	char *email;

	if (gethostname(host, sizeof(host)) < 0)
		die_errno("gethostname");
	host[sizeof(host) - 1] = '\0';
	len = strlen(pw->pw_name) + strlen(host) + 2;
	email = xmalloc(len);
	snprintf(email, len, "%s@%s", pw->pw_name, host);
	return email;
}

/* Bytes that git trims from both ends of a name or an email. */
static int is_crud(unsigned char c)
{
	return c <= 32 || c == '.' || c == ',' || c == ':' || c == ';' ||
	       c == '<' || c == '>' || c == '"' || c == '\\' || c == '\'';
}

/*
 * Refuse what would break the "name <email>" line; trim the crud at
 * the ends that git trims, so that ids match git's for the same input.
 */
static const char *clean_ident_part(const char *value, const char *var,
				    const char *what)
{
	size_t len;
	char *out;

	if (strpbrk(value, "<>\n"))
		die("%s '%s' in %s: '<', '>' and newlines are not allowed",
		    what, value, var);
	while (*value && is_crud(*value))
		value++;
	len = strlen(value);
	while (len && is_crud(value[len - 1]))
		len--;
	if (!len && !strcmp(what, "name"))
		die("empty name in %s (git refuses an empty ident name)", var);
	out = xmalloc(len + 1);
	memcpy(out, value, len);
	out[len] = '\0';
	return out;
}

static const char *ident_name(const char *const *vars)
{
	const char *var = "the passwd file", *v = first_env(vars, &var, 0);

	return clean_ident_part(v ? v : default_name(), var, "name");
}

static const char *ident_email(const char *const *vars)
{
	const char *var = "the default email", *v = first_env(vars, &var, 0);

	return clean_ident_part(v ? v : default_email(), var, "email");
}

static const char *ident_date(const char *const *vars)
{
	const char *var, *v = first_env(vars, &var, 1), *date;

	if (!v)
		return xstrdup(now_date());
	date = parse_date(v);
	if (!date)
		die("invalid date in %s: '%s' (use '<epoch> <+hhmm>', RFC 2822, "
		    "ISO 8601 or YYYY.MM.DD hh:mm[:ss])", var, v);
	return xstrdup(date);
}

static void get_idents(struct ident *author, struct ident *committer)
{
	static const char *const author_name[] = {
		"GIT_AUTHOR_NAME", "AUTHOR_NAME", NULL };
	static const char *const author_email[] = {
		"GIT_AUTHOR_EMAIL", "AUTHOR_EMAIL", NULL };
	static const char *const author_date[] = {
		"GIT_AUTHOR_DATE", "AUTHOR_DATE", NULL };
	static const char *const committer_name[] = {
		"GIT_COMMITTER_NAME", "COMMITTER_NAME", "COMMIT_AUTHOR_NAME",
		NULL };
	static const char *const committer_email[] = {
		"GIT_COMMITTER_EMAIL", "COMMITTER_EMAIL",
		"COMMIT_AUTHOR_EMAIL", NULL };
	static const char *const committer_date[] = {
		"GIT_COMMITTER_DATE", "COMMITTER_DATE", NULL };

	author->name = ident_name(author_name);
	author->email = ident_email(author_email);
	author->date = ident_date(author_date);
	committer->name = ident_name(committer_name);
	committer->email = ident_email(committer_email);
	committer->date = ident_date(committer_date);
}

/* Resolve an id and make sure it is a good object of the wanted type. */
static void get_object(const char *arg, enum object_type want,
		       unsigned char *sha1)
{
	void *buf;
	size_t size;
	const char *bad;

	if (get_sha1(arg, sha1) < 0)
		die("not a valid %s: '%s'", type_name(want), arg);
	buf = read_object_of_type(sha1, want, &size);
	if (!buf)
		die("bad %s '%s'", type_name(want), arg);
	if (want == OBJ_TREE && (bad = check_tree(buf, size)) != NULL)
		die("tree %s is corrupt: %s", sha1_to_hex(sha1), bad);
	free(buf);
}

struct parents {
	unsigned char (*sha1)[20];
	size_t nr, alloc;
};

static void add_parent(struct parents *p, const char *arg)
{
	unsigned char sha1[20];
	size_t i;

	get_object(arg, OBJ_COMMIT, sha1);
	for (i = 0; i < p->nr; i++) {
		if (!memcmp(p->sha1[i], sha1, 20)) {
			warning("duplicate parent %s ignored",
				sha1_to_hex(sha1));
			return;
		}
	}
	ALLOC_GROW(p->sha1, p->nr + 1, p->alloc);
	memcpy(p->sha1[p->nr++], sha1, 20);
}

static char *read_message(size_t *len)
{
	size_t alloc = 0;
	char *buf = NULL;
	ssize_t n;

	*len = 0;
	do {
		ALLOC_GROW(buf, *len + 8192, alloc);
		n = read_in_full(0, buf + *len, alloc - *len);
		if (n < 0)
			die_errno("read the message from standard input");
		*len += n;
	} while (*len == alloc);
	if (memchr(buf, '\0', *len))
		die("the message contains a NUL byte, which a commit cannot "
		    "hold (git fsck rejects it)");
	return buf;
}

static void add_text(char **buf, size_t *len, size_t *alloc,
		     const char *text, size_t n)
{
	ALLOC_GROW(*buf, *len + n, *alloc);
	memcpy(*buf + *len, text, n);
	*len += n;
}

static void add_line(char **buf, size_t *len, size_t *alloc,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_line(char **buf, size_t *len, size_t *alloc,
		     const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	ALLOC_GROW(*buf, *len + n + 1, *alloc);
	va_start(ap, fmt);
	vsnprintf(*buf + *len, n + 1, fmt, ap);
	va_end(ap);
	*len += n;
}

static void write_commit(const unsigned char *tree,
			 const struct parents *parents,
			 const struct ident *author,
			 const struct ident *committer, unsigned char *sha1)
{
	size_t msg_len, len = 0, alloc = 0, i;
	char *msg = read_message(&msg_len), *buf = NULL;

	add_line(&buf, &len, &alloc, "tree %s\n", sha1_to_hex(tree));
	for (i = 0; i < parents->nr; i++)
		add_line(&buf, &len, &alloc, "parent %s\n",
			 sha1_to_hex(parents->sha1[i]));
	add_line(&buf, &len, &alloc, "author %s <%s> %s\n", author->name,
		 author->email, author->date);
	add_line(&buf, &len, &alloc, "committer %s <%s> %s\n\n",
		 committer->name, committer->email, committer->date);
	add_text(&buf, &len, &alloc, msg, msg_len);
	if (write_sha1_file(buf, len, OBJ_COMMIT, sha1) < 0)
		die("unable to write the commit");
	free(buf);
	free(msg);
}

int main(int argc, char **argv)
{
	struct parents parents = { NULL, 0, 0 };
	struct ident author, committer;
	unsigned char tree[20], sha1[20];
	int i;

	setup_tool(argv[0]);
	handle_help(argc, argv, commit_tree_usage);
	if (argc < 2 || argv[1][0] == '-' || argc % 2)
		usage(commit_tree_usage);
	for (i = 2; i < argc; i += 2)
		if (strcmp(argv[i], "-p"))
			usage(commit_tree_usage);

	if (setup_repository() < 0)
		exit(128);
	get_idents(&author, &committer);
	get_object(argv[1], OBJ_TREE, tree);
	for (i = 2; i < argc; i += 2)
		add_parent(&parents, argv[i + 1]);
	write_commit(tree, &parents, &author, &committer, sha1);
	if (flush_to_disk(-1) < 0)
		die("unable to make the commit durable");
	printf("%s\n", sha1_to_hex(sha1));
	finish_stdout();
	free(parents.sha1);
	return 0;
}
