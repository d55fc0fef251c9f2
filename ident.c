/*
 * ident.c: the author and the committer of a commit, as git reads them
 * (environment, then the config's author.* or committer.* and user.*,
 * then $EMAIL for the email, then the passwd entry, the host name and
 * the clock), so that ids match git's for the same environment; a date
 * or a name that cannot be stored exactly is refused, not repaired.
 */
#define _GNU_SOURCE		/* gethostname */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "commit-write.h"

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
			error("no name for uid %lu in the passwd file; set "
			      "GIT_AUTHOR_NAME and GIT_COMMITTER_NAME",
			      (unsigned long)getuid());
	}
	return pw;
}

/* The gecos full name up to the first comma, else the login name. */
static char *default_name(void)
{
	const struct passwd *pw = passwd_entry();
	const char *gecos;
	size_t len;
	char *name;

	if (!pw)
		return NULL;
	gecos = pw->pw_gecos ? pw->pw_gecos : "";
	len = strcspn(gecos, ",");
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

	if (!pw)
		return NULL;
	if (gethostname(host, sizeof(host)) < 0) {
		error_errno("gethostname");
		return NULL;
	}
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
static char *clean_ident_part(const char *value, const char *var,
			      const char *what)
{
	size_t len;
	char *out;

	if (strpbrk(value, "<>\n")) {
		error("%s '%s' in %s: '<', '>' and newlines are not allowed",
		      what, value, var);
		return NULL;
	}
	while (*value && is_crud(*value))
		value++;
	len = strlen(value);
	while (len && is_crud(value[len - 1]))
		len--;
	if (!len && !strcmp(what, "name")) {
		error("empty name in %s (git refuses an empty ident name)",
		      var);
		return NULL;
	}
	out = xmalloc(len + 1);
	memcpy(out, value, len);
	out[len] = '\0';
	return out;
}

static char *ident_date(const char *v, const char *var)
{
	const char *date;

	if (!v)
		return xstrdup(now_date());
	date = parse_date(v);
	if (!date) {
		error("invalid date in %s: '%s' (use '<epoch> <+hhmm>', "
		      "RFC 2822, ISO 8601 or YYYY.MM.DD hh:mm[:ss])", var, v);
		return NULL;
	}
	return xstrdup(date);
}

void ident_release(struct ident *id)
{
	free(id->name);
	free(id->email);
	free(id->date);
	id->name = id->email = id->date = NULL;
}

static const char *const env_names[2][3][4] = {
	{
		{ "GIT_AUTHOR_NAME", "AUTHOR_NAME", NULL },
		{ "GIT_AUTHOR_EMAIL", "AUTHOR_EMAIL", NULL },
		{ "GIT_AUTHOR_DATE", "AUTHOR_DATE", NULL },
	}, {
		{ "GIT_COMMITTER_NAME", "COMMITTER_NAME",
		  "COMMIT_AUTHOR_NAME", NULL },
		{ "GIT_COMMITTER_EMAIL", "COMMITTER_EMAIL",
		  "COMMIT_AUTHOR_EMAIL", NULL },
		{ "GIT_COMMITTER_DATE", "COMMITTER_DATE", NULL },
	},
};

/*
 * What the config says of who commits: user.name and user.email, and
 * author.* or committer.* (the role's, which win over user.*), the
 * last setting of each winning, as in git.
 */
struct ident_config {
	const char *role;	/* "author" or "committer" */
	char *name, *email, *role_name, *role_email;
};

static void set_value(char **slot, const char *value)
{
	if (!value)
		return;
	free(*slot);
	*slot = xstrdup(value);
}

static int note_ident(const char *key, const char *value, void *data)
{
	struct ident_config *c = data;
	size_t rlen = strlen(c->role);

	if (!strcmp(key, "user.name"))
		set_value(&c->name, value);
	else if (!strcmp(key, "user.email"))
		set_value(&c->email, value);
	else if (!strncmp(key, c->role, rlen) && key[rlen] == '.') {
		if (!strcmp(key + rlen + 1, "name"))
			set_value(&c->role_name, value);
		else if (!strcmp(key + rlen + 1, "email"))
			set_value(&c->role_email, value);
	}
	return 0;
}

static void release_ident_config(struct ident_config *c)
{
	free(c->name);
	free(c->email);
	free(c->role_name);
	free(c->role_email);
}

/* The config's value for a part: the role's, else user.*; var names it. */
static const char *config_part(const char *role_value, const char *value,
			       const char *role_var, const char *var,
			       const char **which)
{
	if (role_value) {
		*which = role_var;
		return role_value;
	}
	if (value)
		*which = var;
	return value;
}

/*
 * Name and email, git's order: the environment, then the config, then
 * (for the email) $EMAIL, then the passwd entry and the host name.
 */
static int ident_who(struct ident *id, const char *const (*vars)[4],
		     int committer)
{
	struct ident_config c = { committer ? "committer" : "author",
				  NULL, NULL, NULL, NULL };
	const char *var = "the passwd file", *v;
	char *fallback = NULL;

	if (for_each_config(note_ident, &c) < 0) {
		release_ident_config(&c);
		return -1;
	}
	v = first_env(vars[0], &var, 0);
	if (!v)
		v = config_part(c.role_name, c.name, committer ?
				"the config's committer.name" :
				"the config's author.name",
				"the config's user.name", &var);
	if (v || (v = fallback = default_name()))
		id->name = clean_ident_part(v, var, "name");
	free(fallback);
	fallback = NULL;
	var = "the default email";
	v = first_env(vars[1], &var, 0);
	if (!v)
		v = config_part(c.role_email, c.email, committer ?
				"the config's committer.email" :
				"the config's author.email",
				"the config's user.email", &var);
	if (!v && getenv("EMAIL") && *getenv("EMAIL")) {
		v = getenv("EMAIL");
		var = "EMAIL";
	}
	if (id->name && (v || (v = fallback = default_email())))
		id->email = clean_ident_part(v, var, "email");
	free(fallback);
	release_ident_config(&c);
	return id->email ? 0 : -1;
}

int ident_from_env(struct ident *id, int committer)
{
	const char *const (*vars)[4] = env_names[committer ? 1 : 0];
	const char *var, *v;

	id->name = id->email = id->date = NULL;
	if (ident_who(id, vars, committer) < 0) {
		ident_release(id);
		return -1;
	}
	var = NULL;
	v = first_env(vars[2], &var, 1);
	if (id->email)
		id->date = ident_date(v, var);
	if (!id->date) {
		ident_release(id);
		return -1;
	}
	return 0;
}

int ident_from_parts(struct ident *id, const char *name, const char *email,
		     const char *date, const char *what)
{
	id->name = clean_ident_part(name, what, "name");
	id->email = id->name ? clean_ident_part(email, what, "email") : NULL;
	id->date = id->email ? ident_date(date, what) : NULL;
	if (!id->date) {
		ident_release(id);
		return -1;
	}
	return 0;
}
