/*
 * ls-files: the index and the work tree, listed as git ls-files lists
 * them.
 *
 * -c the indexed files (the default), -d those deleted from the work
 * tree, -m those modified there (deleted ones too), -o the files the
 * index does not know, -k the work-tree files that checking out the
 * index would remove (a file where the index has a directory, or a
 * file below an indexed file), -u the unmerged entries.  -s shows
 * "<mode> <id> <stage>\t" before each index path; -t a tag: H cached,
 * M unmerged, R removed, C changed, ? other, K killed, S skip-worktree.
 * -i shows only what the exclude patterns (--exclude,
 * --exclude-from, --exclude-per-directory, git's rules) exclude, with
 * -o or -c.  The others and killed files come first, then the index in
 * its order (a path once per option that selects it, as git).  Paths
 * are git pathspecs; names are quoted as git quotes them, or
 * NUL-terminated with -z.  The repository's own directory is never
 * listed (git, not knowing it, would list what is inside).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"
#include "exclude.h"

static const char ls_files_usage[] =
	"ls-files [-z] [-t] [-c] [-d] [-m] [-o] [-i] [-s] [-u] [-k] [--sparse] "
	"[--exclude=<pattern>] [--exclude-from=<file>] "
	"[--exclude-per-directory=<file>] [--] [<path>...]";

static int show_cached, show_deleted, show_modified, show_others;
static int show_sparse_dirs;	/* --sparse: a sparse index as it is */
static int show_ignored, show_stage, show_unmerged, show_killed;
static int nul_terminate, exclude_given;

static const char *tag_cached = "", *tag_unmerged = "", *tag_removed = "";
static const char *tag_modified = "", *tag_other = "", *tag_killed = "";
static const char *tag_skip_worktree = "";

static struct pathspec pathspec;
static struct exclude_set excludes;

/*
 * Output goes through this buffer to stdio in big pieces: one stdio
 * call per field (each taking stdio's lock) was most of the time
 * -s takes on a big index.  out_flush() before writing to stdout
 * directly.
 */
static char out_buf[64 * 1024];
static size_t out_len;

static void out_flush(void)
{
	if (out_len)
		fwrite(out_buf, 1, out_len, stdout);
	out_len = 0;
}

static void out_add(const void *p, size_t len)
{
	if (len > sizeof(out_buf) - out_len) {
		out_flush();
		if (len > sizeof(out_buf)) {
			fwrite(p, 1, len, stdout);
			return;
		}
	}
	memcpy(out_buf + out_len, p, len);
	out_len += len;
}

static void write_name(const char *name, size_t len)
{
	if (nul_terminate || !path_needs_quoting(name, len)) {
		out_add(name, len);
		out_add(nul_terminate ? "" : "\n", 1);
		return;
	}
	out_flush();
	write_quoted_path(stdout, "", name, len);
	putchar('\n');
}

static void show_dir_entry(const char *tag, const char *name)
{
	out_add(tag, strlen(tag));
	write_name(name, strlen(name));
}

/*
 * "<mode> <id> <stage>\t" into buf (at least 52 bytes); returns its
 * length.  By hand: printf is most of the time -s takes on a big index.
 */
static size_t format_stage(char *buf, const struct cache_entry *ce)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int mode = ce->ce_mode;
	char *p = buf;
	int i;

	for (i = 5; i >= 0; i--) {
		p[i] = '0' + (mode & 7);
		mode >>= 3;
	}
	p += 6;
	*p++ = ' ';
	for (i = 0; i < (int)the_hash->rawsz; i++) {
		*p++ = hex[ce->sha1[i] >> 4];
		*p++ = hex[ce->sha1[i] & 15];
	}
	*p++ = ' ';
	*p++ = '0' + ce_stage(ce);
	*p++ = '\t';
	return p - buf;
}

static void show_ce(const struct cache_entry *ce, const char *tag)
{
	char buf[HASH_MAX_HEXSZ + 16];	/* "<mode> <id> <stage>\t" */

	if (!pathspec.match_all &&
	    pathspec_interest(&pathspec, ce->name, ce->ce_namelen,
			      S_ISGITLINK(ce->ce_mode)) != ALL_INTERESTING)
		return;
	out_add(tag, strlen(tag));
	if (show_stage)
		out_add(buf, format_stage(buf, ce));
	write_name(ce->name, ce->ce_namelen);
}

/* ---- the work tree's own files ---- */

/*
 * Would checking out the index remove name?  It would when a leading
 * directory of it is an indexed file, or when it is a file where the
 * index has a directory.
 */
static int is_killed(const char *name)
{
	const char *cp, *sp;
	size_t len = strlen(name);
	int pos;

	for (cp = name; (size_t)(cp - name) < len; cp = sp + 1) {
		sp = strchr(cp, '/');
		if (sp) {
			if (cache_name_pos(name, sp - name) >= 0)
				return 1;
			continue;
		}
		pos = cache_name_pos(name, len);
		if (pos >= 0)
			return 0;
		pos = -pos - 1;
		while ((unsigned int)pos < active_nr &&
		       ce_stage(active_cache[pos]))
			pos++;
		if ((unsigned int)pos >= active_nr)
			return 0;
		return active_cache[pos]->ce_namelen > len &&
		       !memcmp(active_cache[pos]->name, name, len) &&
		       active_cache[pos]->name[len] == '/';
	}
	return 0;
}

static void show_work_tree_files(void)
{
	struct dir_walk w;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.exclude = &excludes;
	w.pathspec = &pathspec;
	w.show_ignored = show_ignored;
	if (read_directory(&w) < 0)
		exit(128);
	if (show_others)
		for (i = 0; i < w.nr; i++)
			show_dir_entry(tag_other, w.names[i]);
	if (show_killed)
		for (i = 0; i < w.nr; i++)
			if (is_killed(w.names[i]))
				show_dir_entry(tag_killed, w.names[i]);
	clear_dir_walk(&w);
}

/* ---- the index ---- */

static int ce_dtype(const struct cache_entry *ce)
{
	if (S_ISLNK(ce->ce_mode))
		return DT_LNK;
	if (S_ISGITLINK(ce->ce_mode) || S_ISDIR(ce->ce_mode))
		return DT_DIR;
	return DT_REG;
}

/* git's ie_modified: stat data first, the content only when it may help. */
static int is_modified(const struct cache_entry *ce, const struct stat *st)
{
	unsigned int changed = ce_match_stat(ce, st);
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (!changed)
		return 0;
	if (changed & (MODE_CHANGED | TYPE_CHANGED))
		return 1;
	if ((changed & DATA_CHANGED) &&
	    (S_ISGITLINK(ce->ce_mode) || ce->ce_size))
		return 1;
	if (S_ISGITLINK(ce->ce_mode))
		return !S_ISDIR(st->st_mode);
	if ((!S_ISREG(st->st_mode) && !S_ISLNK(st->st_mode)) ||
	    index_path(ce->name, st, 0, sha1) < 0)
		return 1;
	return !hasheq(sha1, ce->sha1);
}

static void show_work_state(const struct cache_entry *ce)
{
	struct stat st;
	int gone;

	if (ce->ce_ext_flags & CE_SKIP_WORKTREE)
		return;
	gone = lstat(ce->name, &st) < 0;
	if (gone && errno != ENOENT && errno != ENOTDIR)
		error_errno("cannot lstat '%s'", ce->name);
	if (gone && show_deleted)
		show_ce(ce, tag_removed);
	if (show_modified && (gone || is_modified(ce, &st)))
		show_ce(ce, tag_modified);
}

static void show_index(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		if (show_ignored && !is_excluded(&excludes, ce->name,
						 ce_dtype(ce)))
			continue;
		if ((show_cached || show_stage) &&
		    (!show_unmerged || ce_stage(ce)))
			show_ce(ce, ce_stage(ce) ? tag_unmerged :
				ce->ce_ext_flags & CE_SKIP_WORKTREE ?
				tag_skip_worktree : tag_cached);
		if (show_deleted || show_modified)
			show_work_state(ce);
	}
}

/* ---- options ---- */

static int parse_option(const char *arg)
{
	if (!strcmp(arg, "-z"))
		nul_terminate = 1;
	else if (!strcmp(arg, "-t"))
		tag_cached = "H ", tag_unmerged = "M ", tag_removed = "R ",
		tag_modified = "C ", tag_other = "? ", tag_killed = "K ",
		tag_skip_worktree = "S ";
	else if (!strcmp(arg, "-c") || !strcmp(arg, "--cached"))
		show_cached = 1;
	else if (!strcmp(arg, "-d") || !strcmp(arg, "--deleted"))
		show_deleted = 1;
	else if (!strcmp(arg, "-m") || !strcmp(arg, "--modified"))
		show_modified = 1;
	else if (!strcmp(arg, "-o") || !strcmp(arg, "--others"))
		show_others = 1;
	else if (!strcmp(arg, "-i") || !strcmp(arg, "--ignored"))
		show_ignored = 1;
	else if (!strcmp(arg, "-s") || !strcmp(arg, "--stage"))
		show_stage = 1;
	else if (!strcmp(arg, "-u") || !strcmp(arg, "--unmerged"))
		show_unmerged = 1;
	else if (!strcmp(arg, "-k") || !strcmp(arg, "--killed"))
		show_killed = 1;
	else if (!strcmp(arg, "--sparse"))
		show_sparse_dirs = 1;
	else if (!strncmp(arg, "--exclude=", 10))
		add_exclude(&excludes.cmdline, arg + 10), exclude_given = 1;
	else if (!strncmp(arg, "--exclude-from=", 15)) {
		if (add_excludes_from_file(&excludes, arg + 15) < 0)
			exit(128);
		exclude_given = 1;
	} else if (!strncmp(arg, "--exclude-per-directory=", 24))
		excludes.per_dir = arg + 24, exclude_given = 1;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	setup_tool(argv[0]);
	handle_help(argc, argv, ls_files_usage);
	init_exclude_set(&excludes);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (parse_option(argv[i]) < 0)
			usage(ls_files_usage);
	}
	if (show_unmerged)
		show_stage = 1;	/* no point in stages without their numbers */
	if (show_ignored && !show_others && !show_cached)
		die("ls-files -i must be used with either -o or -c");
	if (show_ignored && !exclude_given)
		die("ls-files --ignored needs some exclude pattern");
	if (!(show_stage || show_deleted || show_others || show_unmerged ||
	      show_killed || show_modified))
		show_cached = 1;
	if (parse_pathspec(&pathspec, argv + i, argc - i) < 0)
		exit(128);
	if (setup_repository() < 0)
		exit(128);
	if (read_cache() < 0)
		die("cannot read the index");
	if (!show_sparse_dirs && expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	if (show_others || show_killed)
		show_work_tree_files();
	if (show_cached || show_stage || show_deleted || show_modified)
		show_index();
	out_flush();
	clear_pathspec(&pathspec);
	clear_exclude_set(&excludes);
	finish_stdout();
	return 0;
}
