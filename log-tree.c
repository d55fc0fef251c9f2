/*
 * log-tree: the history as git log prints it, byte for byte, in one
 * process: the commits reachable from the ones given (HEAD when none)
 * and not from the excluded ones (^commit, a..b), in git rev-list's
 * order (revision.c), each in git's default ("medium") format or as
 * one line (--oneline), with its diffstat (--stat) and its patch (-p)
 * against its parent (a root commit against the empty tree; a merge
 * has none, as in git log).
 *
 * Paths after "--" limit the history as git's does by default: a
 * commit is shown when it changes them; a merge that has a parent with
 * the same content at those paths is not shown, and the walk goes on
 * through that parent only (git's history simplification).  When the
 * walk excludes commits, merges are only left out, not followed
 * through one parent.  The diffs are limited to the paths too.
 *
 * Renames are detected as git log detects them (diff-rename.c), unless
 * diff.renames is false or --no-renames is given; -M[<n>] and
 * --find-renames[=<n>] set the threshold (50% by default), and
 * diff.renameLimit bounds the inexact search as in git.  The paths
 * limit the files before renames are looked for, as in git (no
 * --follow).  The diffstat is as wide as $COLUMNS, else the
 * terminal on standard output, else 80 columns, as in git.  --color
 * colours as git does on a terminal: commit lines, patch headers,
 * hunks, added and removed lines, the diffstat's bars.
 * --color-patch colours a patch read from standard input the same
 * way, for the porcelain's diff.  --decorate writes the ref names
 * after each id as git does (decorate.c), by default on a terminal
 * or into the porcelain's pager only (git's log.decorate=auto).
 * --name=<name>, first, puts <name> before the messages instead of
 * "log-tree" (the porcelain's name).
 *
 * The trees and blobs of the diffs are read unverified and hashed
 * against their ids on another core (check-later.c), as diff-tree
 * reads them: a commit's output is held until the objects it was made
 * of have passed, and one that fails stops the command (128) after the
 * commits before it and the failing commit's header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"
#include "history.h"
#include "log.h"

static const char log_tree_usage[] =
	"log-tree [-n <n> | -<n> | --max-count=<n>] [--oneline] [-p] [--stat] "
	"[-M[<n>] | --find-renames[=<n>] | --no-renames] "
	"[--color[=<when>] | --no-color] [--decorate[=<style>] | --no-decorate] "
	"[--name=<name>] [<commit>...] "
	"[-- <path>...] | log-tree --color-patch";

/* Flags of our own on struct object (history.h has the low ones). */
#define LOG_SIMPLIFIED	(1u << 24)	/* simplify_commit looked at it */
#define TREESAME	(1u << 25)	/* changes nothing at the paths */


static int oneline;
static int show_patch;
static int show_stat;
static int use_color;
static long max_count = -1;
static struct pathspec pathspec;
static int has_paths;
static int prune_parents;	/* the walk is not limited: follow one parent */
static struct diff_options patch_opts;
static int stat_width;
static int shown_one;
static int decorate = -1;	/* DECORATE_*, 0 none, -1 auto */
static int detect_renames = -1;	/* -1: as diff.renames says (on) */
static struct rename_options rename_opts;
static int rename_limit_needed;

/*
 * With a diff, its trees and blobs are read unverified and checked on
 * another core (check-later.c); the output is held in memory (held,
 * behind out) and goes to stdout only once the objects it was made of
 * have passed, commit by commit.
 */
static struct check_later *checker;
static FILE *out;
static struct held_output held;

/* Held output past this waits for the checks. */
#define HELD_MAX ((size_t)4 << 20)

/* ---- the output held ---- */

/* The output so far may go once every object read by now passed. */
static void note_end(void)
{
	if (out != stdout)
		held_mark_end(&held);
}

/*
 * Send the output held whose objects have passed (wait: all of it,
 * after the checks).  A check failed: what came before the bad object
 * goes out, and the command exits 128.
 */
static void send_passed(int wait)
{
	int ret = send_held(&held, wait);

	if (ret < 0)
		exit(128);
	if (ret > 0) {
		finish_stdout();
		exit(128);
	}
	out = held.out;
}

/* A commit's output is whole: send what passed. */
static void end_commit(void)
{
	if (out == stdout)
		return;
	note_end();
	send_passed(held_unsent(&held) > HELD_MAX);
}

/*
 * A read failed (after its error()): what passed of the commits
 * before goes out, then exit 128.
 */
static __attribute__((noreturn)) void fail_held(void)
{
	if (out != stdout && send_held(&held, 1) < 0)
		exit(128);	/* a write failed: said once */
	finish_stdout();
	exit(128);
}

/* The last of the output; the checks stopped. */
static void finish_held(void)
{
	if (out != stdout) {
		int ret;

		out = stdout;
		ret = stop_holding(&held);
		if (ret < 0)
			exit(128);	/* a write failed: said once */
		if (ret > 0) {
			finish_stdout();
			exit(128);
		}
	}
	tree_diff_check_later(NULL);
	stop_check_later(checker);
}

/* ---- the walk ---- */

static int differ_from(const unsigned char *old, const struct commit *c)
{
	int r = trees_differ(old, c->tree, &pathspec);

	if (r < 0)
		die("cannot compare the trees of commit %s",
		    sha1_to_hex(c->object.sha1));
	return r;
}

/*
 * git's try_to_simplify_commit: TREESAME when c changes nothing at
 * the paths against a parent that is part of the walk (a root: when
 * it has nothing there); a merge like that keeps that parent only.
 */
static void simplify_commit(struct commit *c)
{
	int relevant_parents = 0, irrelevant_change = 0;
	size_t i;

	if (c->object.flags & LOG_SIMPLIFIED)
		return;
	c->object.flags |= LOG_SIMPLIFIED;
	if (!c->nr_parents) {
		if (!differ_from(NULL, c))
			c->object.flags |= TREESAME;
		return;
	}
	for (i = 0; i < c->nr_parents; i++) {
		struct commit *p = c->parents[i];
		int relevant = !(p->object.flags & UNINTERESTING);

		relevant_parents += relevant;
		if (parse_commit(p) < 0)
			die("cannot read commit %s", sha1_to_hex(p->object.sha1));
		if (differ_from(p->tree, c)) {
			irrelevant_change |= !relevant;
			continue;
		}
		if (!relevant)
			continue;
		if (prune_parents) {
			c->parents[0] = p;
			c->nr_parents = 1;
		}
		c->object.flags |= TREESAME;
		return;
	}
	if (!relevant_parents && !irrelevant_change)
		c->object.flags |= TREESAME;
}

/* ---- the commit's text ---- */

/* git's default date format, in the zone the commit gives. */
static void show_date(FILE *out, const char *p)
{
	static const char days[] = "SunMonTueWedThuFriSat";
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char *end;
	long long epoch = strtoll(p, &end, 10);
	long tz = strtol(end, NULL, 10);
	long off = (tz / 100) * 3600 + (tz % 100) * 60;
	time_t t = (time_t)(epoch + off);
	struct tm tm;

	if (!gmtime_r(&t, &tm)) {
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = 70;
		tm.tm_mday = 1;
		tz = 0;
	}
	fprintf(out, "%.3s %.3s %d %02d:%02d:%02d %d %+05ld\n",
		days + 3 * tm.tm_wday, months + 3 * tm.tm_mon, tm.tm_mday,
		tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year + 1900, tz);
}

/* "Author:" and "Date:" from an author line's text (after "author "). */
static void show_author(const char *line, size_t len)
{
	const char *gt = NULL, *p;
	char date[64];
	size_t n;

	for (p = line; p < line + len; p++)
		if (*p == '>')
			gt = p;
	if (!gt)
		gt = line - 1;
	fprintf(out, "Author: %.*s\n", (int)(gt + 1 - line), line);
	n = line + len - (gt + 1);
	if (n >= sizeof(date))
		n = sizeof(date) - 1;
	memcpy(date, gt + 1, n);
	date[n] = '\0';
	fputs("Date:   ", out);
	show_date(out, date);
}

/* The length of the line at p (to end), trailing whitespace cut. */
static size_t trimmed_len(const char *p, const char *eol)
{
	while (eol > p && (eol[-1] == ' ' || eol[-1] == '\t' ||
			   eol[-1] == '\n' || eol[-1] == '\r' ||
			   eol[-1] == '\v' || eol[-1] == '\f'))
		eol--;
	return eol - p;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl + 1 : end;
}

/*
 * A line of the message with its tabs expanded to every 8th column, as
 * git's medium format does (a UTF-8 character is one column).
 */
static void put_expanded(const char *p, size_t len)
{
	const char *tab;
	size_t col = 0, i;

	while ((tab = memchr(p, '\t', len)) != NULL) {
		for (i = 0; p + i < tab; i++)
			col += ((unsigned char)p[i] & 0xc0) != 0x80;
		fwrite(p, 1, tab - p, out);
		do
			putc(' ', out);
		while (++col % 8);
		len -= tab + 1 - p;
		p = tab + 1;
	}
	fwrite(p, 1, len, out);
}

/* The message indented by four spaces, blank lines at both ends cut. */
static void show_message(const char *msg, const char *end)
{
	const char *p, *last = msg;

	for (p = msg; p < end; p = line_end(p, end))
		if (trimmed_len(p, line_end(p, end)))
			last = line_end(p, end);
	for (p = msg; p < last && !trimmed_len(p, line_end(p, last));)
		p = line_end(p, last);
	for (; p < last; p = line_end(p, last)) {
		fputs("    ", out);
		put_expanded(p, trimmed_len(p, line_end(p, last)));
		putc('\n', out);
	}
}

/* git's subject: the first paragraph's lines joined by spaces. */
static void show_subject(const char *msg, const char *end)
{
	const char *p = msg;
	int first = 1;

	while (p < end && !trimmed_len(p, line_end(p, end)))
		p = line_end(p, end);
	for (; p < end; p = line_end(p, end)) {
		size_t len = trimmed_len(p, line_end(p, end));

		if (!len)
			break;
		if (!first)
			putc(' ', out);
		fwrite(p, 1, len, out);
		first = 0;
	}
	putc('\n', out);
}

static const char *short_id(const unsigned char *sha1)
{
	static char hex[HASH_MAX_HEXSZ + 1];

	memcpy(hex, sha1_to_hex(sha1), the_hash->hexsz + 1);
	hex[find_abbrev_len(sha1, ABBREV_DEFAULT)] = '\0';
	return hex;
}

static void show_header(const struct commit *c, const char *buf, size_t size)
{
	const char *end = buf + size, *p, *msg = end;
	size_t i;

	for (p = buf; p < end; p = line_end(p, end))
		if (*p == '\n') {
			msg = p + 1;
			break;
		}
	if (oneline) {
		fprintf(out, "%s%s%s", use_color ? COLOR_COMMIT : "",
		       short_id(c->object.sha1), use_color ? COLOR_RESET : "");
		if (decorate)
			show_decorations(out, c->object.sha1, use_color);
		putc(' ', out);
		show_subject(msg, end);
		return;
	}
	if (shown_one)
		putc('\n', out);
	fprintf(out, "%scommit %s%s", use_color ? COLOR_COMMIT : "",
	       sha1_to_hex(c->object.sha1), use_color ? COLOR_RESET : "");
	if (decorate)
		show_decorations(out, c->object.sha1, use_color);
	putc('\n', out);
	if (c->nr_parents > 1) {
		fputs("Merge:", out);
		for (i = 0; i < c->nr_parents; i++)
			fprintf(out, " %s",
				short_id(c->parents[i]->object.sha1));
		putc('\n', out);
	}
	for (p = buf; p < msg; p = line_end(p, msg))
		if (!strncmp(p, "author ", 7)) {
			show_author(p + 7, line_end(p, msg) - 1 - (p + 7));
			break;
		}
	/* git trims the blank line of an empty message too */
	for (p = msg; p < end; p = line_end(p, end))
		if (trimmed_len(p, line_end(p, end))) {
			putc('\n', out);
			break;
		}
	show_message(msg, end);
}

static void show_pair_patch(const struct file_change *ch, unsigned int mode1,
			    unsigned int mode2)
{
	struct diff_side a, b;
	struct later_obj oa, ob;
	char *text = NULL;
	size_t size = 0;
	FILE *mem;
	enum patch_part part = PATCH_OUTSIDE;

	if (fill_later_side(&a, &oa, checker,
			    ch->old_path ? ch->old_path : ch->path, mode1,
			    ch->sha1[0]) < 0)
		fail_held();
	if (fill_later_side(&b, &ob, checker, ch->path, mode2,
			    ch->sha1[1]) < 0)
		fail_held();
	patch_opts.rename_score = ch->score;
	if (!use_color) {
		if (print_patch(out, &a, &b, &patch_opts) < 0)
			die("cannot write the patch for '%s'", ch->path);
	} else {
		mem = open_memstream(&text, &size);
		if (!mem)
			die_errno("open_memstream");
		if (print_patch(mem, &a, &b, &patch_opts) < 0 || fclose(mem))
			die("cannot write the patch for '%s'", ch->path);
		color_patch(out, text, size, &part);
		free(text);
	}
	release_later(checker, &oa);
	release_later(checker, &ob);
}

/*
 * One change's patch: a change of type as a deletion and an addition,
 * as git shows it (its diffstat is one line).
 */
static void show_one_patch(const struct file_change *ch)
{
	if (ch->mode[0] && ch->mode[1] &&
	    (ch->mode[0] & S_IFMT) != (ch->mode[1] & S_IFMT)) {
		show_pair_patch(ch, ch->mode[0], 0);
		show_pair_patch(ch, 0, ch->mode[1]);
	} else {
		show_pair_patch(ch, ch->mode[0], ch->mode[1]);
	}
}

static void show_diff(const struct commit *c)
{
	struct file_changes l;
	const unsigned char *old = NULL;
	size_t i;

	if (c->nr_parents)
		old = c->parents[0]->tree;
	if (collect_file_changes(&l, old, c->tree,
				 has_paths ? &pathspec : NULL) < 0)
		fail_held();
	l.checker = checker;
	if (detect_renames) {
		int needed = detect_file_renames(&l, &rename_opts);

		if (needed > rename_limit_needed)
			rename_limit_needed = needed;
	}
	if (!l.nr)
		return;
	if (!oneline)
		fputs(show_stat && show_patch ? "---\n" : "\n", out);
	if (show_stat && print_diffstat(out, &l, stat_width, use_color) < 0)
		fail_held();
	if (show_stat && show_patch)
		putc('\n', out);
	for (i = 0; show_patch && i < l.nr; i++)
		show_one_patch(&l.items[i]);
	free_file_changes(&l);
}

static void show_commit(struct commit *c)
{
	size_t size;
	char *buf = read_object_of_type(c->object.sha1, OBJ_COMMIT, &size);

	if (!buf)
		fail_held();
	show_header(c, buf, size);
	free(buf);
	note_end();
	if ((show_patch || show_stat) && c->nr_parents <= 1)
		show_diff(c);
	end_commit();
	shown_one = 1;
}

/* ---- options ---- */

static long parse_count(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end)
		usage(log_tree_usage);
	return n < 0 ? -1 : n;
}

static int parse_color(const char *when)
{
	if (!strcmp(when, "always"))
		return 1;
	if (!strcmp(when, "never"))
		return 0;
	if (!strcmp(when, "auto"))
		return isatty(1) && !getenv("NO_COLOR");
	usage(log_tree_usage);
}

/*
 * git's log.decorate values: short, full, auto (-1: on a terminal, or
 * into the porcelain's pager), no; a boolean as short or no.  -2 when
 * none of these.
 */
static int decorate_value(const char *v)
{
	int b;

	if (!v || !strcmp(v, "short"))
		return DECORATE_SHORT;
	if (!strcmp(v, "full"))
		return DECORATE_FULL;
	if (!strcmp(v, "auto"))
		return -1;
	if (!strcmp(v, "no"))
		return 0;
	b = config_bool(v);
	return b < 0 ? -2 : b ? DECORATE_SHORT : 0;
}

static int parse_decorate(const char *v)
{
	int d = decorate_value(v);

	if (d == -2)
		usage(log_tree_usage);
	return d;
}

/* Decorate or not: the option, else log.decorate, else auto. */
static void decide_decorate(void)
{
	char *v = NULL;

	if (decorate < 0 && config_get("log.decorate", &v) > 0) {
		decorate = decorate_value(v);
		if (decorate == -2)
			decorate = -1;
	}
	free(v);
	if (decorate < 0)
		decorate = isatty(1) || getenv("DIRCACHE_PAGER_IN_USE") ?
			   DECORATE_SHORT : 0;
	if (decorate && load_decorations(decorate) < 0)
		exit(128);
}

/* One option at argv[*i] (the next one taken too for "-n <n>"). */
static int parse_option(int argc, char **argv, int *i)
{
	const char *arg = argv[*i];

	if (!strcmp(arg, "-n") || !strcmp(arg, "--max-count")) {
		if (*i + 1 >= argc)
			usage(log_tree_usage);
		max_count = parse_count(argv[++*i]);
	} else if (!strncmp(arg, "-n", 2)) {
		max_count = parse_count(arg + 2);
	} else if (!strncmp(arg, "--max-count=", 12)) {
		max_count = parse_count(arg + 12);
	} else if (arg[1] >= '0' && arg[1] <= '9') {
		max_count = parse_count(arg + 1);
	} else if (!strcmp(arg, "-p") || !strcmp(arg, "-u") ||
		   !strcmp(arg, "--patch")) {
		show_patch = 1;
	} else if (!strcmp(arg, "--stat")) {
		show_stat = 1;
	} else if (!strcmp(arg, "--oneline")) {
		oneline = 1;
	} else if (!strcmp(arg, "--color")) {
		use_color = 1;
	} else if (!strncmp(arg, "--color=", 8)) {
		use_color = parse_color(arg + 8);
	} else if (!strcmp(arg, "--no-color")) {
		use_color = 0;
	} else if (!strcmp(arg, "--decorate")) {
		decorate = DECORATE_SHORT;
	} else if (!strncmp(arg, "--decorate=", 11)) {
		decorate = parse_decorate(arg + 11);
	} else if (!strcmp(arg, "--no-decorate")) {
		decorate = 0;
	} else if (!strcmp(arg, "--no-renames")) {
		detect_renames = 0;
	} else if (!strncmp(arg, "-M", 2) ||
		   !strcmp(arg, "--find-renames") ||
		   !strncmp(arg, "--find-renames=", 15)) {
		const char *n = arg[1] == 'M' ? arg + 2 :
				arg[14] ? arg + 15 : "";

		rename_opts.min_score = parse_rename_score(n);
		if (rename_opts.min_score < 0)
			die("invalid argument to -M: %s", n);
		detect_renames = 1;
	} else {
		return -1;
	}
	return 0;
}

static void add_arg(struct rev_info *revs, const char *arg, int excluded)
{
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (get_sha1(arg, sha1) < 0 || add_revision(revs, sha1, excluded) < 0)
		die("bad revision '%s'", arg);
	if (excluded)
		prune_parents = 0;
}

/* HEAD, or git's words for a branch with no commit yet. */
static void add_head(struct rev_info *revs)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *ref = NULL;

	if (resolve_ref("HEAD", sha1, &ref) < 0 && ref &&
	    !strncmp(ref, "refs/heads/", 11))
		die("your current branch '%s' does not have any commits yet",
		    ref + 11);
	free(ref);
	add_arg(revs, "HEAD", 0);
}

/* A revision argument: <commit>, ^<commit>, <a>..<b>. */
static void add_rev_arg(struct rev_info *revs, const char *arg)
{
	const char *dots = strstr(arg, "..");
	char *left;

	if (arg[0] == '^') {
		add_arg(revs, arg + 1, 1);
		return;
	}
	if (!dots || dots[2] == '.') {
		add_arg(revs, arg, 0);
		return;
	}
	left = xstrdup(arg);
	left[dots - arg] = '\0';
	add_arg(revs, *left ? left : "HEAD", 1);
	add_arg(revs, dots[2] ? dots + 2 : "HEAD", 0);
	free(left);
}

/* Read a patch on standard input, write it in colour. */
static int color_stdin(void)
{
	char *line = NULL;
	size_t alloc = 0;
	ssize_t len;
	enum patch_part part = PATCH_OUTSIDE;

	while ((len = getline(&line, &alloc, stdin)) > 0)
		color_patch(stdout, line, len, &part);
	if (ferror(stdin))
		die_errno("read standard input");
	free(line);
	finish_stdout();
	return 0;
}

static void walk(struct rev_info *revs)
{
	struct commit *c;
	long shown = 0;
	size_t i;

	if (has_paths)
		for (i = 0; i < revs->nr_starts; i++)
			simplify_commit(revs->starts[i]);
	if (prepare_revision_walk(revs) < 0)
		exit(128);
	while ((c = get_revision(revs)) != NULL) {
		if (has_paths) {
			simplify_commit(c);
			for (i = 0; prune_parents && i < c->nr_parents; i++)
				simplify_commit(c->parents[i]);
			if (c->object.flags & TREESAME)
				continue;
		}
		if (max_count >= 0 && shown >= max_count)
			break;
		show_commit(c);
		shown++;
	}
	if (revs->failed)
		fail_held();
}

int main(int argc, char **argv)
{
	struct rev_info revs;
	int i, dashdash = argc, nr_revs = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, log_tree_usage);
	/* --name=<name> first: messages in the porcelain's name */
	if (argc > 1 && !strncmp(argv[1], "--name=", 7)) {
		set_progname(argv[1] + 7);
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	if (argc == 2 && !strcmp(argv[1], "--color-patch")) {
		use_color = 1;
		return color_stdin();
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
		if (argv[i][0] == '-' && argv[i][1] &&
		    parse_option(argc, argv, &i) < 0)
			usage(log_tree_usage);
	}
	if (setup_repository() < 0)
		exit(128);
	init_revisions(&revs);
	prune_parents = 1;
	for (i = 1; i < dashdash; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if (!strcmp(argv[i], "-n") ||
			    !strcmp(argv[i], "--max-count"))
				i++;
			continue;
		}
		add_rev_arg(&revs, argv[i]);
		nr_revs++;
	}
	if (!nr_revs)
		add_head(&revs);
	if (dashdash + 1 < argc) {
		if (parse_pathspec(&pathspec, argv + dashdash + 1,
				   argc - dashdash - 1) < 0)
			exit(128);
		has_paths = !pathspec.match_all;
	}
	if (!has_paths)
		revs.max_count = max_count;
	if (show_stat)
		stat_width = term_columns();
	decide_decorate();
	rename_opts.limit = RENAME_DEFAULT_LIMIT;
	if (rename_config(NULL, detect_renames < 0 ? &detect_renames : NULL,
			  &rename_opts.limit) < 0)
		exit(128);
	if (detect_renames < 0)
		detect_renames = 1;
	out = stdout;
	if (show_patch || show_stat)
		checker = start_check_later();
	if (checker) {
		tree_diff_check_later(checker);
		if (hold_output(&held, checker) < 0)
			exit(128);
		out = held.out;
	}
	walk(&revs);
	finish_held();
	if (rename_limit_needed)
		warn_rename_limit("diff.renameLimit", rename_limit_needed);
	release_revisions(&revs);
	clear_pathspec(&pathspec);
	finish_stdout();
	return 0;
}
