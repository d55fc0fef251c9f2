/*
 * diff-stat: git's diffstat (or --shortstat, --numstat) of the changes
 * another tool listed, for the porcelain's "diff --stat".
 *
 * Standard input is what diff-tree -z, diff-cache -z or show-diff -z
 * print: raw lines (":<mode> <mode> <id> <id> <status>" then the path,
 * each field ending in a NUL) or show-diff's status lines ("<status>"
 * then the path).  A raw side with the null id is the work-tree file,
 * as git's raw format means it; a status line compares the index entry
 * (stage 2 of an unmerged path, as show-diff does) with the work-tree
 * file.  A work-tree file whose content and mode are the other side's
 * (a file only touched) is no change, as in git diff.  The counts, the
 * widths and the words are log-tree's diffstat (log-diff.c): as wide as
 * $COLUMNS, else the terminal on standard output, else 80 columns;
 * --color colours its bars as git does on a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"
#include "log.h"

static const char diff_stat_usage[] =
	"diff-stat [--stat | --shortstat | --numstat] [--color] < <changes>";

enum stat_form { FORM_STAT, FORM_SHORTSTAT, FORM_NUMSTAT };

/* The next NUL-terminated field at *p (before end), or NULL. */
static const char *next_field(const char **p, const char *end)
{
	const char *f = *p, *nul;

	if (f >= end)
		return NULL;
	nul = memchr(f, '\0', end - f);
	if (!nul)
		die("truncated input: a field without its NUL");
	*p = nul + 1;
	return f;
}

/* All of standard input into in. */
static void read_stdin(struct mbuf *in)
{
	ssize_t n;

	do {
		if (mbuf_grow(in, 65536) < 0)
			die("out of memory");
		n = read_in_full(0, in->buf + in->len, 65536);
		if (n < 0)
			die_errno("read standard input");
		in->len += n;
	} while (n > 0);
}

static struct file_change *new_change(struct file_changes *l,
				      const char *path)
{
	struct file_change *ch;

	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	ch = &l->items[l->nr++];
	memset(ch, 0, sizeof(*ch));
	ch->path = xstrdup(path);
	return ch;
}

static void drop_last(struct file_changes *l)
{
	l->nr--;
	free(l->items[l->nr].path);
	free(l->items[l->nr].old_path);
}

/*
 * Is the work-tree side of ch (side 1, the null id) the same file as
 * side 0?  Then it was only touched: no change.
 */
static int only_touched(const struct file_change *ch)
{
	struct stat st;

	if (!ch->mode[0] || ch->mode[0] != ch->mode[1] ||
	    S_ISGITLINK(ch->mode[0]))
		return 0;
	if (lstat_work_path(ch->path, &st) < 0)
		return 0;
	return path_matches_sha1(ch->path, &st, ch->sha1[0]) == 1;
}

static unsigned int parse_mode(const char *s, const char **end)
{
	char *e;
	unsigned long m = strtoul(s, &e, 8);

	if (e == s || *e != ' ')
		die("bad mode in '%s'", s);
	*end = e + 1;
	return m;
}

/* ":<m1> <m2> <id1> <id2> <status>" and its path(s). */
static void add_raw(struct file_changes *l, const char *head,
		    const char **p, const char *end)
{
	unsigned int mode[2];
	unsigned char sha1[2][HASH_MAX_RAWSZ];
	const char *s = head + 1, *path, *old = NULL;
	const size_t hexsz = the_hash->hexsz;
	struct file_change *ch;
	char status;

	mode[0] = parse_mode(s, &s);
	mode[1] = parse_mode(s, &s);
	if (get_sha1_hex(s, sha1[0]) || s[hexsz] != ' ' ||
	    get_sha1_hex(s + hexsz + 1, sha1[1]) || s[2 * hexsz + 1] != ' ')
		die("bad raw line '%s'", head);
	status = s[2 * hexsz + 2];
	path = next_field(p, end);
	if (!path)
		die("raw line '%s' without a path", head);
	if (status == 'R' || status == 'C') {
		old = path;
		path = next_field(p, end);	/* the new name */
		if (!path)
			die("raw line '%s' without its new path", head);
	}
	if (status == 'U')
		return;		/* the stage-2 line after it says it */
	/*
	 * Under -M, diff-cache names an added work-tree file by the id it
	 * hashed, as git does; that blob is not stored: read the file.
	 */
	if (mode[1] && !is_null_hash(sha1[1]) && !has_sha1_file(sha1[1]))
		hashclr(sha1[1]);
	ch = new_change(l, path);
	ch->mode[0] = mode[0];
	ch->mode[1] = mode[1];
	hashcpy(ch->sha1[0], sha1[0]);
	hashcpy(ch->sha1[1], sha1[1]);
	if (old) {
		/* "old => new", as git's --stat shows a rename */
		ch->old_path = xstrdup(old);
		ch->score = atoi(s + 2 * hexsz + 3);
	}
	if (mode[1] && is_null_hash(sha1[1]) && only_touched(ch))
		drop_last(l);
}

/* The index entry of path: stage 0, else stage 2 (ours), or NULL. */
static const struct cache_entry *index_side(const char *path)
{
	int pos = cache_name_pos(path, strlen(path));
	unsigned int i;

	if (pos >= 0)
		return active_cache[pos];
	for (i = -pos - 1; i < active_nr &&
	     !strcmp(active_cache[i]->name, path); i++)
		if (ce_stage(active_cache[i]) == 2)
			return active_cache[i];
	return NULL;
}

/* show-diff's "<status>" and path: the index against the work tree. */
static void add_status(struct file_changes *l, const char *head,
		       const char **p, const char *end)
{
	const struct cache_entry *ce;
	const char *path = next_field(p, end);
	struct file_change *ch;
	struct stat st;

	if (!path)
		die("status '%s' without a path", head);
	if (*head == 'U')
		return;
	ce = index_side(path);
	ch = new_change(l, path);
	if (ce && *head != 'A') {
		ch->mode[0] = ce->ce_mode;
		hashcpy(ch->sha1[0], ce->sha1);
	}
	if (*head != 'D') {
		if (lstat_work_path(path, &st) < 0)
			die_errno("lstat '%s'", path);
		ch->mode[1] = ce_mode_from_stat(st.st_mode);
	}
}

static void read_changes(struct file_changes *l, const struct mbuf *in)
{
	const char *p = in->buf, *end = in->buf + in->len, *head;

	memset(l, 0, sizeof(*l));
	while ((head = next_field(&p, end))) {
		if (*head == ':')
			add_raw(l, head, &p, end);
		else if (*head && strchr("MADTU", *head) && !head[1])
			add_status(l, head, &p, end);
		else
			die("bad input line '%s'", head);
	}
}

int main(int argc, char **argv)
{
	enum stat_form form = FORM_STAT;
	struct file_changes l;
	struct mbuf in;
	int i, ret, color = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, diff_stat_usage);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--stat"))
			form = FORM_STAT;
		else if (!strcmp(argv[i], "--shortstat"))
			form = FORM_SHORTSTAT;
		else if (!strcmp(argv[i], "--numstat"))
			form = FORM_NUMSTAT;
		else if (!strcmp(argv[i], "--color"))
			color = 1;
		else
			usage(diff_stat_usage);
	}
	if (setup_repository() < 0)
		exit(128);
	if (read_cache() < 0)
		die("cannot read the index");
	mbuf_init(&in);
	read_stdin(&in);
	read_changes(&l, &in);
	mbuf_release(&in);
	if (!l.nr)
		ret = 0;
	else if (form == FORM_SHORTSTAT)
		ret = print_shortstat(stdout, &l);
	else if (form == FORM_NUMSTAT)
		ret = print_numstat(stdout, &l);
	else
		ret = print_diffstat(stdout, &l, term_columns(), color);
	if (ret < 0)
		exit(128);
	free_file_changes(&l);
	finish_stdout();
	return 0;
}
