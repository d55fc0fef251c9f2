/*
 * diff-tree: show how two trees differ, in git's raw format (or as a
 * patch with -p), byte for byte what `git diff-tree` prints, so that
 * scripts written for either can read both.
 *
 * The two trees' entries are walked in parallel in git's tree order
 * (base_name_compare: a directory sorts as "name/"), and an entry whose
 * mode and id are the same on both sides is skipped without reading
 * it: the cost grows with the size of the change, not of the trees.
 * A blob and a tree of the same name are different entries in that
 * order, so one is reported deleted and the other added, where the
 * order puts them, as git does.  Without -r a changed subtree is one
 * line of mode 040000; -r descends and shows only files, symlinks and
 * gitlinks; -p prints a patch that git apply accepts and implies -r,
 * and --binary (binary content in the patch) implies -p, as in git.
 *
 * With --stdin the trees come from standard input, as git's
 * --stdin reads them, one diff a line, in one process: a commit id
 * (diffed against its one parent, or against the ids after it on the
 * line; a root or a merge shows nothing, as git without --root and
 * -m), or two tree ids.  A commit's changes follow its id on a line of
 * its own, and only when there are some; two trees' follow their ids
 * always; a line that does not start with an id is copied through.
 *
 * Arguments are tree-ishes: a commit stands for its tree.  Paths after
 * them limit the output as git's pathspecs do (path.c): a path names a
 * file or a directory and everything under it; "dir/" names only a
 * directory; "." names everything; "*", "?" and "[...]" are globs.  A
 * path below a subtree makes that subtree interesting, so without -r
 * it is shown as a whole.  The "--" that ends the options
 * may also come after the two tree-ishes, where git puts it.
 *
 * -M[<n>] (--find-renames[=<n>]) pairs deleted and added files into
 * renames as git's -M does (diff-rename.c; the paths limit the files
 * first): the changes are collected, then printed in git's order with
 * "R<score>" and both names, or a rename patch.  Without -M there is
 * no rename detection (--no-renames), as in git's plumbing;
 * --diff-renames detects them as git diff does, unless diff.renames is
 * false (for the porcelain).
 *
 * Every tree read is checked with check_tree(), and a hostile or
 * missing one stops the command (exit 128) naming the tree.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"
#include "log.h"

/*
 * Deeper trees are refused rather than recursed into: a hostile store
 * could otherwise nest trees until the stack overflows.  Newer git
 * has a limit of the same kind (core.maxTreeDepth).
 */
#define MAX_TREE_DEPTH 4096

static const char diff_tree_usage[] =
	"diff-tree [-r] [-z] [-p] [--binary] [--full-index] [--abbrev[=<n>]] "
	"[-M[<n>] | --find-renames[=<n>] | --no-renames | --diff-renames] "
	"[--] (<tree-ish> <tree-ish> | --stdin) [<path>...]";

static int recursive;
static int nul_terminate;
static int show_patch;
static struct diff_options patch_opts;
static int raw_abbrev = 40;	/* digits of raw ids (--abbrev) */
static int read_stdin;
/* --stdin: the commit whose id goes before its first change, or NULL */
static const unsigned char *pending_commit;

static struct pathspec pathspec;

/* -M: the changes of one diff, kept for rename detection */
static int detect_renames;
static struct rename_options rename_opts;
static struct file_changes queued;
static int rename_limit_needed;

/* The path of the tree being walked, with a trailing '/' unless root. */
struct path_buf {
	char *buf;
	size_t len;
	size_t alloc;
};

/* git knows the empty tree without storing it; so do we. */
static int is_missing_empty_tree(const unsigned char *sha1)
{
	static const unsigned char empty_tree[20] = {
		0x4b, 0x82, 0x5d, 0xc6, 0x42, 0xcb, 0x6e, 0xb9, 0xa0, 0x60,
		0xe5, 0x4b, 0xf8, 0xd6, 0x92, 0x88, 0xfb, 0xee, 0x49, 0x04,
	};

	return !memcmp(sha1, empty_tree, 20) && !has_sha1_file(sha1);
}

/* Read the subtree at path; die on a missing or hostile one. */
static void *read_tree_checked(const unsigned char *sha1, size_t *size,
			       const char *path)
{
	void *buf;
	const char *bad;

	if (is_missing_empty_tree(sha1)) {
		*size = 0;
		return xmalloc(1);
	}
	buf = read_object_of_type(sha1, OBJ_TREE, size);
	if (!buf)
		die("unable to read tree %s of '%s'", sha1_to_hex(sha1), path);
	bad = check_tree(buf, *size);
	if (bad)
		die("refusing tree %s of '%s': %s", sha1_to_hex(sha1), path,
		    bad);
	return buf;
}

static void path_push(struct path_buf *pb, const char *name, size_t len)
{
	ALLOC_GROW(pb->buf, pb->len + len + 2, pb->alloc);
	memcpy(pb->buf + pb->len, name, len);
	pb->len += len;
	pb->buf[pb->len] = '\0';
}

/* mode as printf's "%06o" would write it, then a space; the end. */
static char *put_mode(char *p, unsigned int mode)
{
	char digits[12];
	int n = 0;

	do
		digits[n++] = '0' + (mode & 7);
	while ((mode >>= 3) != 0);
	while (n < 6)
		digits[n++] = '0';
	while (n)
		*p++ = digits[--n];
	*p++ = ' ';
	return p;
}

/* sha1 in raw_abbrev digits, then a space; the end. */
static char *put_id(char *p, const unsigned char *sha1)
{
	int len = raw_abbrev == 40 ? 40 : find_abbrev_len(sha1, raw_abbrev);

	memcpy(p, sha1_to_hex(sha1), len);
	p[len] = ' ';
	return p + len + 1;
}

/*
 * ":<mode> <mode> <id> <id> <status>" and the name, git's raw line,
 * formatted by hand: printf was a twentieth of a packed diff-tree -r.
 */
static void print_raw(const struct path_buf *pb, const struct name_entry *one,
		      const struct name_entry *two, char status)
{
	static const unsigned char null_sha1[20];
	char line[2 * 13 + 2 * 41 + 2], *p = line;

	*p++ = ':';
	p = put_mode(p, one ? one->mode : 0);
	p = put_mode(p, two ? two->mode : 0);
	p = put_id(p, one ? one->sha1 : null_sha1);
	p = put_id(p, two ? two->sha1 : null_sha1);
	*p++ = status;
	fwrite(line, 1, p - line, stdout);
	write_name_field(stdout, pb->buf, pb->len, nul_terminate);
}

/* The two ids of a rename's raw line, each followed by a space. */
static void print_raw_ids(const struct name_entry *one,
			  const struct name_entry *two)
{
	char line[2 * 41 + 1], *p = line;

	p = put_id(p, one->sha1);
	p = put_id(p, two->sha1);
	fwrite(line, 1, p - line, stdout);
}

/* A patch from path1 (side one) to path2 (side two). */
static void patch_rename(const char *path1, const struct name_entry *one,
			 const char *path2, const struct name_entry *two)
{
	struct diff_side a, b;

	if (fill_blob_side(&a, path1, one ? one->mode : 0,
			   one ? one->sha1 : NULL) < 0 ||
	    fill_blob_side(&b, path2, two ? two->mode : 0,
			   two ? two->sha1 : NULL) < 0)
		exit(128);
	if (print_patch_free(stdout, &a, &b, &patch_opts) < 0)
		die("cannot write the patch for '%s'", path2);
}

static void patch_pair(const char *path, const struct name_entry *one,
		       const struct name_entry *two)
{
	patch_rename(path, one, path, two);
}

/* --stdin: the commit's id before its first change. */
static void show_pending_commit(void)
{
	if (pending_commit) {
		fputs(sha1_to_hex(pending_commit), stdout);
		putchar(nul_terminate ? '\0' : '\n');
		pending_commit = NULL;
	}
}

/*
 * Show one changed non-tree pair (or a tree without -r).  A change of
 * type (file, symlink, gitlink) is one "T" line, but two patches, as
 * git prints it.
 */
static void show_pair(const struct path_buf *pb, const struct name_entry *one,
		      const struct name_entry *two)
{
	char status = !one ? 'A' : !two ? 'D' : 'M';

	show_pending_commit();
	if (one && two && (one->mode & S_IFMT) != (two->mode & S_IFMT))
		status = 'T';
	if (!show_patch) {
		print_raw(pb, one, two, status);
	} else if (status == 'T') {
		patch_pair(pb->buf, one, NULL);
		patch_pair(pb->buf, NULL, two);
	} else {
		patch_pair(pb->buf, one, two);
	}
}

static void diff_tree_bufs(struct path_buf *pb, const void *buf1,
			   size_t size1, const void *buf2, size_t size2,
			   int all);

/* ---- -M: renames ---- */

static void queue_pair(const struct path_buf *pb, const struct name_entry *one,
		       const struct name_entry *two)
{
	struct file_change *ch;

	ALLOC_GROW(queued.items, queued.nr + 1, queued.alloc);
	ch = &queued.items[queued.nr++];
	memset(ch, 0, sizeof(*ch));
	ch->path = xstrdup(pb->buf);
	if (one) {
		ch->mode[0] = one->mode;
		memcpy(ch->sha1[0], one->sha1, 20);
	}
	if (two) {
		ch->mode[1] = two->mode;
		memcpy(ch->sha1[1], two->sha1, 20);
	}
}

/* A rename's raw line: "R<score>", the old name, the new. */
static void print_raw_rename(const struct file_change *ch)
{
	struct name_entry one = { NULL, 0, ch->mode[0], ch->sha1[0] };
	struct name_entry two = { NULL, 0, ch->mode[1], ch->sha1[1] };
	struct path_buf pb = { ch->old_path, strlen(ch->old_path), 0 };
	size_t len = strlen(ch->path);

	printf(":%06o %06o ", one.mode, two.mode);
	print_raw_ids(&one, &two);
	printf("R%03d", RENAME_PERCENT(ch->score));
	if (nul_terminate) {
		putchar('\0');
		fwrite(pb.buf, 1, pb.len + 1, stdout);
		fwrite(ch->path, 1, len + 1, stdout);
		return;
	}
	putchar('\t');
	write_quoted_path(stdout, "", pb.buf, pb.len);
	write_name_field(stdout, ch->path, len, 0);
}

static void show_pair(const struct path_buf *pb, const struct name_entry *one,
		      const struct name_entry *two);

/* Find the renames among the changes queued, then show them all. */
static void flush_renames(void)
{
	size_t i;
	int needed = detect_file_renames(&queued, &rename_opts);

	if (needed > rename_limit_needed)
		rename_limit_needed = needed;
	for (i = 0; i < queued.nr; i++) {
		struct file_change *ch = &queued.items[i];
		struct name_entry one = { NULL, 0, ch->mode[0], ch->sha1[0] };
		struct name_entry two = { NULL, 0, ch->mode[1], ch->sha1[1] };
		struct path_buf pb = { ch->path, strlen(ch->path), 0 };

		if (!ch->old_path) {
			show_pair(&pb, ch->mode[0] ? &one : NULL,
				  ch->mode[1] ? &two : NULL);
			continue;
		}
		show_pending_commit();
		if (!show_patch) {
			print_raw_rename(ch);
			continue;
		}
		patch_opts.rename_score = ch->score;
		patch_rename(ch->old_path, &one, ch->path, &two);
	}
	free_file_changes(&queued);
}

/* Recurse into a subtree present on one side or both. */
static void diff_subtrees(struct path_buf *pb, const struct name_entry *one,
			  const struct name_entry *two, int all)
{
	static unsigned int depth;
	void *buf1 = NULL, *buf2 = NULL;
	size_t size1 = 0, size2 = 0;

	/* The top tree is level 1, so this subtree is level depth + 1. */
	if (++depth >= MAX_TREE_DEPTH)
		die("refusing trees nested deeper than %d levels at '%.64s...'",
		    MAX_TREE_DEPTH, pb->buf);

	if (one)
		buf1 = read_tree_checked(one->sha1, &size1, pb->buf);
	if (two)
		buf2 = read_tree_checked(two->sha1, &size2, pb->buf);
	pb->buf[pb->len++] = '/';
	pb->buf[pb->len] = '\0';
	diff_tree_bufs(pb, buf1, size1, buf2, size2, all);
	free(buf1);
	free(buf2);
	depth--;
}

/*
 * One entry of the merged walk: one or two may be NULL (only on the
 * other side), never both.  Both given means same name and kind.
 */
static void diff_entry(struct path_buf *pb, const struct name_entry *one,
		       const struct name_entry *two, int all)
{
	const struct name_entry *e = one ? one : two;
	size_t base = pb->len;
	int is_dir = S_ISDIR(e->mode);
	enum interest in = ALL_INTERESTING;

	if (one && two && one->mode == two->mode &&
	    !memcmp(one->sha1, two->sha1, 20))
		return;
	path_push(pb, e->path, e->pathlen);
	if (!all)
		in = pathspec_interest(&pathspec, pb->buf, pb->len, is_dir);
	if (in != NOT_INTERESTING) {
		if (is_dir && recursive)
			diff_subtrees(pb, one, two, in == ALL_INTERESTING);
		else if (detect_renames)
			queue_pair(pb, one, two);
		else
			show_pair(pb, one, two);
	}
	pb->len = base;
	pb->buf[base] = '\0';
}

struct walk {
	struct path_buf *pb;
	int all;
};

static int diff_step(int n, const struct name_entry **e, void *data)
{
	struct walk *w = data;

	(void)n;
	diff_entry(w->pb, e[0], e[1], w->all);
	return 0;
}

/* Walk two checked trees (either may be empty) in parallel. */
static void diff_tree_bufs(struct path_buf *pb, const void *buf1,
			   size_t size1, const void *buf2, size_t size2,
			   int all)
{
	struct tree_desc t[2];
	struct walk w = { pb, all };

	init_tree_desc(&t[0], buf1, size1);
	init_tree_desc(&t[1], buf2, size2);
	if (traverse_trees(2, t, diff_step, &w) < 0)
		die("malformed tree entry");	/* check_tree passed it */
}

/* The tree of a tree-ish, checked (the empty tree even if not stored). */
static void *read_tree_of(const unsigned char *sha1, size_t *size)
{
	unsigned char tree_sha1[20];
	void *buf;
	const char *bad;

	if (is_missing_empty_tree(sha1)) {
		*size = 0;
		return xmalloc(1);
	}
	buf = read_tree_ish(sha1, size, tree_sha1);
	if (!buf)
		exit(128);
	bad = check_tree(buf, *size);
	if (bad)
		die("refusing tree %s: %s", sha1_to_hex(tree_sha1), bad);
	return buf;
}

static void diff_tree_ishes(const unsigned char *sha1,
			    const unsigned char *sha2)
{
	struct path_buf pb = { NULL, 0, 0 };
	size_t size1, size2;
	void *buf1 = read_tree_of(sha1, &size1);
	void *buf2 = read_tree_of(sha2, &size2);

	ALLOC_GROW(pb.buf, 1, pb.alloc);
	pb.buf[0] = '\0';
	diff_tree_bufs(&pb, buf1, size1, buf2, size2, pathspec.match_all);
	if (detect_renames)
		flush_renames();
	free(buf1);
	free(buf2);
	free(pb.buf);
}

/*
 * A commit read from --stdin, rest the line after its id: diffed
 * against its parent, or the ids on the rest of the line.
 */
static void stdin_commit(const unsigned char *sha1, const char *rest)
{
	struct commit_info ci;
	unsigned char parent[20];
	size_t nr = 0, size;
	void *buf;

	for (; isspace((unsigned char)*rest); rest += 41) {
		if (get_sha1_hex(rest + 1, parent))
			break;
		nr++;
	}
	buf = read_object_of_type(sha1, OBJ_COMMIT, &size);
	if (!buf)
		return;
	if (parse_commit_buffer(buf, size, &ci) < 0) {
		error("commit %s is malformed", sha1_to_hex(sha1));
		free(buf);
		return;
	}
	free(buf);
	if (!nr) {
		nr = is_shallow_commit(sha1) ? 0 : ci.nr_parents;
		if (nr)
			memcpy(parent, ci.parents[0], 20);
	}
	if (nr == 1) {
		pending_commit = sha1;
		diff_tree_ishes(parent, ci.tree);
		pending_commit = NULL;
	}
	free_commit_info(&ci);
}

/* One line of --stdin, its newline cut: a commit, or two trees. */
static void stdin_line(const char *line)
{
	unsigned char sha1[20], sha2[20];
	enum object_type type;
	size_t size;

	get_sha1_hex(line, sha1);
	if (sha1_object_info(sha1, &type, &size) < 0)
		return;
	if (type == OBJ_COMMIT) {
		stdin_commit(sha1, line + 40);
		return;
	}
	if (type != OBJ_TREE) {
		error("object %s is a %s, not a commit or tree",
		      sha1_to_hex(sha1), type_name(type));
		return;
	}
	if (!isspace((unsigned char)line[40]) ||
	    get_sha1_hex(line + 41, sha2) || line[81]) {
		error("need exactly two trees, separated by a space");
		return;
	}
	printf("%s ", sha1_to_hex(sha1));
	printf("%s\n", sha1_to_hex(sha2));
	diff_tree_ishes(sha1, sha2);
}

/*
 * --stdin: a line that does not start with an id is copied; one that
 * does but has no newline (the last) is dropped, as git drops it.
 */
static void diff_stdin(void)
{
	unsigned char sha1[20];
	char *line = NULL;
	size_t alloc = 0;
	ssize_t len;

	while ((len = getline(&line, &alloc, stdin)) > 0) {
		if (get_sha1_hex(line, sha1))
			fwrite(line, 1, len, stdout);
		else if (line[len - 1] == '\n') {
			line[len - 1] = '\0';
			stdin_line(line);
		}
	}
	if (ferror(stdin))
		die_errno("read standard input");
	free(line);
}

/* -M[<n>], --find-renames[=<n>]: 1 when arg is one, else 0. */
static int parse_rename_option(const char *arg)
{
	const char *n;

	if (!strncmp(arg, "-M", 2))
		n = arg + 2;
	else if (!strcmp(arg, "--find-renames"))
		n = "";
	else if (!strncmp(arg, "--find-renames=", 15))
		n = arg + 15;
	else
		return 0;
	rename_opts.min_score = parse_rename_score(n);
	if (rename_opts.min_score < 0)
		die("invalid argument to -M: %s", n);
	return 1;
}

/* Take the options; returns the index of the first tree-ish. */
static int parse_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--"))
			return i + 1;
		if (!strcmp(argv[i], "-r"))
			recursive = 1;
		else if (!strcmp(argv[i], "-z"))
			nul_terminate = 1;
		else if (!strcmp(argv[i], "-p"))
			show_patch = recursive = 1;
		else if (!strcmp(argv[i], "--stdin"))
			read_stdin = 1;
		else if (!strcmp(argv[i], "--binary"))
			patch_opts.binary = show_patch = recursive = 1;
		else if (!strcmp(argv[i], "--no-renames"))
			detect_renames = 0;
		else if (!strcmp(argv[i], "--diff-renames"))
			detect_renames = -1;
		else if (parse_rename_option(argv[i]))
			detect_renames = 1;
		else if (parse_diff_option(&patch_opts, argv[i]))
			raw_abbrev = strncmp(argv[i], "--abbrev", 8) ?
				     raw_abbrev : patch_opts.abbrev;
		else
			usage(diff_tree_usage);
	}
	return i;
}

int main(int argc, char **argv)
{
	int i;

	setup_tool(argv[0]);
	handle_help(argc, argv, diff_tree_usage);
	i = parse_options(argc, argv);
	if (!read_stdin && argc - i < 2)
		usage(diff_tree_usage);
	if (setup_repository() < 0)
		exit(128);
	rename_opts.limit = RENAME_DEFAULT_LIMIT;
	if (detect_renames &&
	    rename_config(NULL, detect_renames < 0 ? &detect_renames : NULL,
			  &rename_opts.limit) < 0)
		exit(128);
	if (detect_renames < 0)
		detect_renames = 1;	/* git diff's default */
	if (read_stdin) {
		if (parse_pathspec(&pathspec, argv + i, argc - i) < 0)
			exit(128);
		diff_stdin();
	} else {
		unsigned char sha1[20], sha2[20];

		if (get_sha1(argv[i], sha1) < 0 ||
		    get_sha1(argv[i + 1], sha2) < 0)
			exit(128);
		/* git's place for "--" is after the trees: "A B -- paths" */
		if (i + 2 < argc && !strcmp(argv[i + 2], "--") &&
		    strcmp(argv[i - 1], "--"))
			i++;
		if (parse_pathspec(&pathspec, argv + i + 2, argc - i - 2) < 0)
			exit(128);
		diff_tree_ishes(sha1, sha2);
	}
	if (rename_limit_needed)
		warn_rename_limit("diff.renameLimit", rename_limit_needed);
	clear_pathspec(&pathspec);
	finish_stdout();
	return 0;
}
