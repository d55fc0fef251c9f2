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
 * missing one stops the command (exit 128) naming the tree.  The
 * checks (each tree's and blob's hash against its id, and check_tree)
 * run on another core (check-later.c) while the walk goes on; what is
 * printed is held until the objects it came from have passed them,
 * and a diff whose objects fail is not printed at all.
 */
#include <ctype.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"
#include "log.h"
#include "pack.h"

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
static int raw_abbrev = HASH_MAX_HEXSZ;	/* digits of raw ids (--abbrev) */
static int read_stdin;
/* --stdin: the commit whose id goes before its first change, or NULL */
static const unsigned char *pending_commit;

static struct pathspec pathspec;

/* -M: the changes of one diff, kept for rename detection */
static int detect_renames;
static struct rename_options rename_opts;
static struct file_changes queued;
static int rename_limit_needed;

/* The checks of what is read, and the output held until they pass. */
static struct check_later *checker;
/*
 * With -r and no paths, a thread reads the trees from the diff's far
 * end (diff-ahead.c).  walk_ticket: the thread's ticket for the pair
 * being walked, 0 when the walk reads it; level_offered: the pairs of
 * the level walked were offered to the thread.
 */
static struct diff_ahead *ahead;
static uint64_t walk_ticket;
static int level_offered;
static FILE *out;
/* The output held: with --stdin, marked at each diff's end. */
static struct held_output held;

/* Held output past this is let go (after the checks) mid-diff. */
#define HELD_MAX ((size_t)4 << 20)

/* The path of the tree being walked, with a trailing '/' unless root. */
struct path_buf {
	char *buf;
	size_t len;
	size_t alloc;
};

/* git knows the empty tree without storing it; so do we. */
static int is_missing_empty_tree(const unsigned char *sha1)
{
	return hasheq(sha1, the_hash->empty_tree) && !has_sha1_file(sha1);
}

/* The end of a diff: what came before may go once its objects pass. */
static void note_diff_end(void)
{
	if (out != stdout)
		held_mark_end(&held);
}

/*
 * Let the output held go, once every object read so far has passed its
 * checks.  When one has not, only the diffs whose objects all came
 * before it go out, and the command dies.
 */
static void flush_held(void)
{
	int ret;

	if (out == stdout)
		return;
	held_mark_end(&held);
	ret = send_held(&held, 1);
	if (ret < 0)
		exit(128);
	if (ret > 0) {
		finish_stdout();
		exit(128);
	}
	out = held.out;
}

static void flush_held_if_big(void)
{
	if (out != stdout && held_unsent(&held) > HELD_MAX)
		flush_held();
}

/*
 * The trees read last, kept: with --stdin down a history each commit's
 * tree is read again as its parent's, and so are the directories above
 * each change.  A slot the walk holds (pinned) is not reused; when all
 * are, a tree is read into a slot of its own (kept < 0).
 */
#define TREE_SLOTS 64

struct tree_slot {
	unsigned char sha1[HASH_MAX_RAWSZ];
	struct later_obj t;
	unsigned int pins;
	int kept;		/* 1: in tree_slots, 0: empty, -1: its own */
};

static struct tree_slot tree_slots[TREE_SLOTS];
static unsigned int next_slot;

static struct tree_slot *find_slot(const unsigned char *sha1)
{
	unsigned int i;

	/* the first byte alone rules out nearly every slot */
	for (i = 0; i < TREE_SLOTS; i++)
		if (tree_slots[i].sha1[0] == sha1[0] && tree_slots[i].kept &&
		    hasheq(tree_slots[i].sha1, sha1))
			return &tree_slots[i];
	return NULL;
}

/* A slot to read into: an unpinned one emptied, or one of its own. */
static struct tree_slot *free_slot(void)
{
	struct tree_slot *s;
	unsigned int i;

	for (i = 0; i < TREE_SLOTS; i++) {
		s = &tree_slots[next_slot++ % TREE_SLOTS];
		if (!s->pins) {
			if (s->kept)
				release_later(checker, &s->t);
			s->kept = 1;
			return s;
		}
	}
	s = xcalloc(1, sizeof(*s));
	s->kept = -1;
	return s;
}

/* Hold the tree sha1 of path; die on a missing or hostile one. */
static struct tree_slot *hold_tree(const unsigned char *sha1, const char *path)
{
	struct tree_slot *s = find_slot(sha1);

	if (s) {
		s->pins++;
		return s;
	}
	s = free_slot();
	hashcpy(s->sha1, sha1);
	s->pins = 1;
	if (walk_ticket && !ahead_take(ahead, walk_ticket, sha1, &s->t))
		return s;
	if (is_missing_empty_tree(sha1)) {
		s->t.buf = xmalloc(1);
		s->t.size = 0;
		s->t.job = NULL;
		return s;
	}
	if (read_later(checker, sha1, OBJ_TREE, path, &s->t) < 0)
		die("unable to read tree %s of '%s'", sha1_to_hex(sha1), path);
	return s;
}

static void drop_tree(struct tree_slot *s)
{
	if (!s)
		return;
	if (s->kept < 0) {
		release_later(checker, &s->t);
		free(s);
		return;
	}
	s->pins--;
}

static void clear_tree_slots(void)
{
	unsigned int i;

	for (i = 0; i < TREE_SLOTS; i++)
		if (tree_slots[i].kept)
			release_later(checker, &tree_slots[i].t);
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
	int len = raw_abbrev >= (int)the_hash->hexsz ? (int)the_hash->hexsz :
		  find_abbrev_len(sha1, raw_abbrev);

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
	static const unsigned char null_sha1[HASH_MAX_RAWSZ];
	char line[2 * 13 + 2 * (HASH_MAX_HEXSZ + 1) + 2], *p = line;

	*p++ = ':';
	p = put_mode(p, one ? one->mode : 0);
	p = put_mode(p, two ? two->mode : 0);
	p = put_id(p, one ? one->sha1 : null_sha1);
	p = put_id(p, two ? two->sha1 : null_sha1);
	*p++ = status;
	fwrite(line, 1, p - line, out);
	write_name_field(out, pb->buf, pb->len, nul_terminate);
}

/* One side of a patch: its blob read into o (checked later). */
static void blob_side(struct diff_side *side, struct later_obj *o,
		      const char *path, const struct name_entry *e)
{
	memset(side, 0, sizeof(*side));
	memset(o, 0, sizeof(*o));
	side->path = path;
	if (!e)
		return;
	side->mode = e->mode;
	hashcpy(side->sha1, e->sha1);
	if (S_ISGITLINK(e->mode))
		return;
	if (read_later(checker, e->sha1, OBJ_BLOB, NULL, o) < 0)
		die("cannot read blob %s for '%s'", sha1_to_hex(e->sha1),
		    path);
	side->data = o->buf;
	side->size = o->size;
}

/* The two ids of a rename's raw line, each followed by a space. */
static void print_raw_ids(const struct name_entry *one,
			  const struct name_entry *two)
{
	char line[2 * (HASH_MAX_HEXSZ + 1) + 1], *p = line;

	p = put_id(p, one->sha1);
	p = put_id(p, two->sha1);
	fwrite(line, 1, p - line, out);
}

/* A patch from path1 (side one) to path2 (side two). */
static void patch_rename(const char *path1, const struct name_entry *one,
			 const char *path2, const struct name_entry *two)
{
	struct diff_side a, b;
	struct later_obj oa, ob;

	blob_side(&a, &oa, path1, one);
	blob_side(&b, &ob, path2, two);
	if (print_patch(out, &a, &b, &patch_opts) < 0)
		die("cannot write the patch for '%s'", path2);
	release_later(checker, &oa);
	release_later(checker, &ob);
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
		fputs(sha1_to_hex(pending_commit), out);
		putc(nul_terminate ? '\0' : '\n', out);
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
	flush_held_if_big();
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
		hashcpy(ch->sha1[0], one->sha1);
	}
	if (two) {
		ch->mode[1] = two->mode;
		hashcpy(ch->sha1[1], two->sha1);
	}
}

/* A rename's raw line: "R<score>", the old name, the new. */
static void print_raw_rename(const struct file_change *ch)
{
	struct name_entry one = { NULL, 0, ch->mode[0], ch->sha1[0] };
	struct name_entry two = { NULL, 0, ch->mode[1], ch->sha1[1] };
	struct path_buf pb = { ch->old_path, strlen(ch->old_path), 0 };
	size_t len = strlen(ch->path);

	fprintf(out, ":%06o %06o ", one.mode, two.mode);
	print_raw_ids(&one, &two);
	fprintf(out, "R%03d", RENAME_PERCENT(ch->score));
	if (nul_terminate) {
		putc('\0', out);
		fwrite(pb.buf, 1, pb.len + 1, out);
		fwrite(ch->path, 1, len + 1, out);
		return;
	}
	putc('\t', out);
	write_quoted_path(out, "", pb.buf, pb.len);
	write_name_field(out, ch->path, len, 0);
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
	struct tree_slot *t1 = NULL, *t2 = NULL;
	uint64_t ticket = walk_ticket;

	/* The top tree is level 1, so this subtree is level depth + 1. */
	if (++depth >= MAX_TREE_DEPTH)
		die("refusing trees nested deeper than %d levels at '%.64s...'",
		    MAX_TREE_DEPTH, pb->buf);
	if (level_offered)
		walk_ticket = ahead_claim(ahead);

	if (one)
		t1 = hold_tree(one->sha1, pb->buf);
	if (two)
		t2 = hold_tree(two->sha1, pb->buf);
	pb->buf[pb->len++] = '/';
	pb->buf[pb->len] = '\0';
	diff_tree_bufs(pb, t1 ? t1->t.buf : NULL, t1 ? t1->t.size : 0,
		       t2 ? t2->t.buf : NULL, t2 ? t2->t.size : 0, all);
	drop_tree(t1);
	drop_tree(t2);
	walk_ticket = ticket;
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
	    hasheq(one->sha1, two->sha1))
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
	int offered = level_offered;

	level_offered = 0;
	if (ahead && all && !walk_ticket) {
		struct ahead_pair *pairs;
		size_t nr;

		if (diff_tree_pairs(buf1, size1, buf2, size2, &pairs, &nr) < 0
		    || nr < 2)
			free(pairs);
		else
			level_offered = 1;
		if (level_offered)
			ahead_push_level(ahead, pairs, nr);
	}
	init_tree_desc(&t[0], buf1, size1);
	init_tree_desc(&t[1], buf2, size2);
	/* check_tree passes it, or will fail it: the output is held */
	if (traverse_tree_changes(t, diff_step, &w) < 0) {
		if (wait_check_later(checker) < 0)
			exit(128);
		die("malformed tree entry");
	}
	if (level_offered)
		ahead_pop_level(ahead);
	level_offered = offered;
}

/*
 * The id of the tree of a tree-ish: a tree, a commit's, or what
 * read_tree_ish finds under tags (and says when there is none).
 */
static void tree_id_of(const unsigned char *sha1, unsigned char *tree_sha1)
{
	struct commit_info ci;
	enum object_type type;
	size_t size;
	void *buf;

	if (sha1_object_info(sha1, &type, &size) < 0)
		exit(128);
	if (type == OBJ_TREE) {
		hashcpy(tree_sha1, sha1);
		return;
	}
	if (type != OBJ_COMMIT) {
		buf = read_tree_ish(sha1, &size, tree_sha1);
		if (!buf)
			exit(128);
		free(buf);
		return;
	}
	buf = read_object_of_type(sha1, OBJ_COMMIT, &size);
	if (!buf)
		exit(128);
	if (parse_commit_buffer(buf, size, &ci) < 0)
		die("commit %s is corrupt", sha1_to_hex(sha1));
	free(buf);
	hashcpy(tree_sha1, ci.tree);
	free_commit_info(&ci);
}

/* The tree of a tree-ish (the empty tree even if not stored), held. */
static struct tree_slot *hold_tree_of(const unsigned char *sha1)
{
	unsigned char tree_sha1[HASH_MAX_RAWSZ];
	struct tree_slot *s;

	if (is_missing_empty_tree(sha1))
		return hold_tree(sha1, "");
	tree_id_of(sha1, tree_sha1);
	s = find_slot(tree_sha1);
	if (s) {
		s->pins++;
		return s;
	}
	s = free_slot();
	hashcpy(s->sha1, tree_sha1);
	s->pins = 1;
	if (read_later(checker, tree_sha1, OBJ_TREE, NULL, &s->t) < 0)
		exit(128);
	return s;
}

static void diff_tree_ishes(const unsigned char *sha1,
			    const unsigned char *sha2)
{
	struct path_buf pb = { NULL, 0, 0 };
	struct tree_slot *t1 = hold_tree_of(sha1);
	struct tree_slot *t2 = hold_tree_of(sha2);

	ALLOC_GROW(pb.buf, 1, pb.alloc);
	pb.buf[0] = '\0';
	diff_tree_bufs(&pb, t1->t.buf, t1->t.size, t2->t.buf, t2->t.size,
		       pathspec.match_all);
	if (detect_renames)
		flush_renames();
	drop_tree(t1);
	drop_tree(t2);
	free(pb.buf);
}

/*
 * A commit read from --stdin, rest the line after its id: diffed
 * against its parent, or the ids on the rest of the line.
 */
static void stdin_commit(const unsigned char *sha1, const char *rest)
{
	struct commit_info ci;
	unsigned char parent[HASH_MAX_RAWSZ];
	size_t nr = 0, size;
	void *buf;

	for (; isspace((unsigned char)*rest); rest += the_hash->hexsz + 1) {
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
			hashcpy(parent, ci.parents[0]);
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
	unsigned char sha1[HASH_MAX_RAWSZ], sha2[HASH_MAX_RAWSZ];
	const size_t hexsz = the_hash->hexsz;
	enum object_type type;
	size_t size;

	get_sha1_hex(line, sha1);
	if (sha1_object_info(sha1, &type, &size) < 0)
		return;
	if (type == OBJ_COMMIT) {
		stdin_commit(sha1, line + hexsz);
		return;
	}
	if (type != OBJ_TREE) {
		error("object %s is a %s, not a commit or tree",
		      sha1_to_hex(sha1), type_name(type));
		return;
	}
	if (!isspace((unsigned char)line[hexsz]) ||
	    get_sha1_hex(line + hexsz + 1, sha2) || line[2 * hexsz + 1]) {
		error("need exactly two trees, separated by a space");
		return;
	}
	fprintf(out, "%s ", sha1_to_hex(sha1));
	fprintf(out, "%s\n", sha1_to_hex(sha2));
	diff_tree_ishes(sha1, sha2);
}

/*
 * --stdin: a line that does not start with an id is copied; one that
 * does but has no newline (the last) is dropped, as git drops it.
 */
static void diff_stdin(void)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *line = NULL;
	size_t alloc = 0;
	ssize_t len;

	while ((len = getline(&line, &alloc, stdin)) > 0) {
		if (get_sha1_hex(line, sha1))
			fwrite(line, 1, len, out);
		else if (line[len - 1] == '\n') {
			line[len - 1] = '\0';
			stdin_line(line);
			note_diff_end();
			flush_held_if_big();
		}
	}
	if (ferror(stdin))
		die_errno("read standard input");
	free(line);
}

/*
 * The memory a diff reads through.  git packs trees among the blobs of
 * their commit, so the trees of a diff lie all over a big pack and
 * each maps the 64 KiB around it: the kernel trees' diff maps some
 * 70 MB of a 245 MB pack.  Trimmed at every 32 MiB (pack-map.c's
 * default, for the readers of whole packs), the pack's pages were
 * dropped twice a run and mapped again, at a cost of about a tenth of
 * the run; git keeps its whole pack mapped.  Up to 256 MiB is kept
 * here.  And the trees, inflated and freed by the thousand, made
 * malloc give back and take again the top of its heap at each one
 * (some 90 brk calls a run, each new page cleared by the kernel): the
 * heap's top is kept up to 64 MiB and buffers are not mapped apart
 * below 32 MiB.
 */
static void keep_read_memory(void)
{
	set_pack_trim_bytes((size_t)256 << 20);
#ifdef M_TRIM_THRESHOLD
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

/* Take the options; returns the index of the first tree-ish. */
static int parse_options(int argc, char **argv)
{
	int i, r;

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
		else if ((r = parse_rename_option(argv[i], &rename_opts)) > 0)
			detect_renames = 1;
		else if (r < 0)
			exit(128);
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
	keep_read_memory();
	if (setup_diff_renames(&detect_renames, &rename_opts) < 0)
		exit(128);
	out = stdout;
	checker = start_check_later();
	if (checker) {
		if (hold_output(&held, checker) < 0)
			exit(128);
		out = held.out;
	}
	if (checker && recursive)
		ahead = start_diff_ahead();
	if (read_stdin) {
		if (parse_pathspec(&pathspec, argv + i, argc - i) < 0)
			exit(128);
		diff_stdin();
	} else {
		unsigned char sha1[HASH_MAX_RAWSZ], sha2[HASH_MAX_RAWSZ];

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
	stop_diff_ahead(ahead);
	clear_tree_slots();
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
	stop_check_later(checker);
	clear_pathspec(&pathspec);
	finish_stdout();
	return 0;
}
