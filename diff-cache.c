/*
 * diff-cache: a tree against the index (--cached) or against the work
 * tree as the index sees it, printed as git diff-index prints it.
 *
 * Raw lines ":<old mode> <new mode> <old id> <new id> <status>\t<path>"
 * (M, A, D, T, or U for an unmerged path with --cached) for every file
 * at any depth (-r is accepted: the index is flat), or with -p git's
 * patches.  Without --cached the new side is the work tree: a file
 * whose stat data no longer matches the index has the all-zero id in
 * raw output, as in git (the content is not read), and a file gone
 * from the work tree is a deletion.  -z ends names with NULs, unquoted.
 *
 * -M[<n>] (--find-renames[=<n>]) pairs deleted and added files into
 * renames as git diff-index -M does (diff-rename.c): the changes are
 * collected first, an added work-tree file is hashed (its id then
 * shows in raw output, as git's), and a rename is one "R<score>" line
 * with both names, or a rename patch.  Without -M there is none;
 * --diff-renames detects them as git diff does, unless diff.renames is
 * false (for the porcelain).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"

static const char diff_cache_usage[] =
	"diff-cache [-r] [-z] [-p] [--binary] [--cached] [--full-index] "
	"[--abbrev[=<n>]] [-M[<n>] | --find-renames[=<n>] | --no-renames] "
	"<tree-ish> [<path>...]";

static int cached, nul_terminate, show_patch;
static struct diff_options patch_opts;
static struct pathspec pathspec;
static const unsigned char null_sha1[HASH_MAX_RAWSZ];
static int nr_queue_done;	/* -M: the queue is being shown */

/* ---- the tree, flattened in index order ---- */

struct tree_file {
	char *path;
	unsigned int mode;
	unsigned char sha1[HASH_MAX_RAWSZ];
};

static struct tree_file *tree_files;
static size_t nr_tree_files, alloc_tree_files;

static void flatten_tree(const unsigned char *sha1, const char *base,
			 size_t baselen)
{
	struct tree_desc desc;
	struct name_entry e;
	const char *bad;
	size_t size;
	void *buf = read_object_of_type(sha1, OBJ_TREE, &size);

	if (!buf)
		exit(128);
	bad = check_tree(buf, size);
	if (bad)
		die("tree %s is corrupt: %s", sha1_to_hex(sha1), bad);
	init_tree_desc(&desc, buf, size);
	while (tree_entry_next(&desc, &e) > 0) {
		size_t len = baselen + e.pathlen;
		char *path = xmalloc(len + 2);
		int is_tree = S_ISDIR(e.mode);

		memcpy(path, base, baselen);
		memcpy(path + baselen, e.path, e.pathlen);
		path[len] = '\0';
		if (pathspec_interest(&pathspec, path, len, is_tree) ==
		    NOT_INTERESTING) {
			free(path);
		} else if (is_tree) {
			path[len] = '/';
			flatten_tree(e.sha1, path, len + 1);
			free(path);
		} else {
			struct tree_file *f;

			ALLOC_GROW(tree_files, nr_tree_files + 1,
				   alloc_tree_files);
			f = &tree_files[nr_tree_files++];
			f->path = path;
			f->mode = e.mode;
			hashcpy(f->sha1, e.sha1);
		}
	}
	free(buf);
}

/* ---- output ---- */

struct side {
	unsigned int mode;		/* 0: missing */
	const unsigned char *sha1;	/* null_sha1: not known (work tree) */
	int work;			/* the content is the work-tree file */
};

static int raw_abbrev = HASH_MAX_HEXSZ;	/* digits of raw ids (--abbrev) */

/* The id of a side in raw_abbrev digits (--abbrev), as git's. */
static const char *raw_id(const struct side *s, char *buf)
{
	const unsigned char *sha1 = s->mode ? s->sha1 : null_sha1;
	int len = raw_abbrev >= (int)the_hash->hexsz ? (int)the_hash->hexsz :
		  find_abbrev_len(sha1, raw_abbrev);

	memcpy(buf, sha1_to_hex(sha1), len);
	buf[len] = '\0';
	return buf;
}

static void print_raw(const char *path, const struct side *one,
		      const struct side *two, char status)
{
	char a[HASH_MAX_HEXSZ + 1], b[HASH_MAX_HEXSZ + 1];

	printf(":%06o %06o %s %s %c", one->mode, two->mode, raw_id(one, a),
	       raw_id(two, b), status);
	write_name_field(stdout, path, strlen(path), nul_terminate);
}

/* A side from the work tree, or from the store (fill_blob_side). */
static void fill_side(struct diff_side *d, const char *path,
		      const struct side *s)
{
	struct stat st;

	if (!s || !s->mode || !s->work) {
		if (fill_blob_side(d, path, s ? s->mode : 0,
				   s ? s->sha1 : NULL) < 0)
			exit(128);
		return;
	}
	memset(d, 0, sizeof(*d));
	d->path = path;
	if (lstat(path, &st) < 0)
		die_errno("lstat '%s'", path);
	d->mode = ce_mode_from_stat(st.st_mode);
	d->data = read_work_file(path, &st, &d->size);
	if (!d->data)
		exit(128);
	hash_sha1_file(d->data, d->size, OBJ_BLOB, d->sha1);
}

static void patch_pair(const char *path, const struct side *one,
		       const struct side *two)
{
	struct diff_side a, b;

	fill_side(&a, path, one);
	fill_side(&b, path, two);
	if (print_patch_free(stdout, &a, &b, &patch_opts) < 0)
		die("cannot write the patch for '%s'", path);
}

/* ---- -M: the changes kept for rename detection ---- */

struct queued {
	char *path;
	struct side one, two;
	unsigned char sha1[2][HASH_MAX_RAWSZ];	/* one.sha1 and two.sha1 point here */
	char *from;			/* a rename's old path, or NULL */
	int score;
	int gone;			/* the source of a rename */
};

static int detect_renames;
static struct rename_options rename_opts;
static struct queued *queue;
static size_t nr_queue, alloc_queue;

static void queue_pair(const char *path, const struct side *one,
		       const struct side *two)
{
	struct queued *q;

	ALLOC_GROW(queue, nr_queue + 1, alloc_queue);
	q = &queue[nr_queue++];
	memset(q, 0, sizeof(*q));
	q->path = xstrdup(path);
	q->one = *one;
	q->two = *two;
	hashcpy(q->sha1[0], one->sha1);
	hashcpy(q->sha1[1], two->sha1);
	q->one.sha1 = q->sha1[0];
	q->two.sha1 = q->sha1[1];
}

/* A work-tree file's id, as git hashes it for rename detection. */
static void hash_queued_file(struct queued *q)
{
	struct stat st;
	size_t size;
	char *data;

	if (lstat(q->path, &st) < 0)
		die_errno("lstat '%s'", q->path);
	data = read_work_file(q->path, &st, &size);
	if (!data)
		exit(128);
	hash_sha1_file(data, size, OBJ_BLOB, q->sha1[1]);
	free(data);
}

static const struct rename_file *work_files;
static size_t nr_work_files;

/* Content for diff-rename.c: a work-tree file, or the blob. */
static void *read_rename_file(const struct rename_file *f, size_t *size,
			      void *data)
{
	const int *is_work = data;
	struct stat st;

	if (f >= work_files && f < work_files + nr_work_files &&
	    is_work[f - work_files]) {
		if (lstat(f->path, &st) < 0)
			return NULL;
		return read_work_file(f->path, &st, size);
	}
	return read_object_of_type(f->sha1, OBJ_BLOB, size);
}

static struct rename_file *side_files(int side, size_t **index, size_t *nr)
{
	struct rename_file *f = xmalloc((nr_queue + 1) * sizeof(*f));
	size_t i, n = 0;

	*index = xmalloc((nr_queue + 1) * sizeof(**index));
	for (i = 0; i < nr_queue; i++) {
		const struct side *s = side ? &queue[i].two : &queue[i].one;
		const struct side *o = side ? &queue[i].one : &queue[i].two;

		if (!s->mode || o->mode)
			continue;
		f[n].path = queue[i].path;
		f[n].mode = s->mode;
		hashcpy(f[n].sha1, queue[i].sha1[side]);
		(*index)[n++] = i;
	}
	*nr = n;
	return f;
}

/* Pair the queued deletions and additions that are renames. */
static void find_queued_renames(void)
{
	size_t *si, *di, nr_s, nr_d, i;
	struct rename_file *src = side_files(0, &si, &nr_s);
	struct rename_file *dst = side_files(1, &di, &nr_d);
	int *from = xmalloc((nr_d + 1) * sizeof(*from));
	int *score = xmalloc((nr_d + 1) * sizeof(*score));
	int *is_work = xcalloc(nr_d + 1, sizeof(*is_work));
	int needed = 0;

	for (i = 0; nr_s && i < nr_d; i++) {
		struct queued *q = &queue[di[i]];

		if (!q->two.work)
			continue;
		hash_queued_file(q);
		hashcpy(dst[i].sha1, q->sha1[1]);
		is_work[i] = 1;
	}
	work_files = dst;
	nr_work_files = nr_d;
	rename_opts.read = read_rename_file;
	rename_opts.read_data = is_work;
	if (nr_s && nr_d)
		needed = find_renames(src, nr_s, dst, nr_d, &rename_opts, from,
				      score);
	if (needed)
		warn_rename_limit("diff.renameLimit", needed);
	for (i = 0; nr_s && i < nr_d; i++) {
		struct queued *d = &queue[di[i]], *s;

		if (from[i] < 0)
			continue;
		s = &queue[si[from[i]]];
		s->gone = 1;
		d->from = s->path;
		d->one = s->one;
		hashcpy(d->sha1[0], s->sha1[0]);
		d->one.sha1 = d->sha1[0];
		d->score = score[i];
	}
	free(src);
	free(dst);
	free(si);
	free(di);
	free(from);
	free(score);
	free(is_work);
}

static void show_pair(const char *path, const struct side *one,
		      const struct side *two);

static void show_rename(const struct queued *q)
{
	char a[HASH_MAX_HEXSZ + 1], b[HASH_MAX_HEXSZ + 1];
	struct diff_side x, y;

	if (show_patch) {
		fill_side(&x, q->from, &q->one);
		fill_side(&y, q->path, &q->two);
		patch_opts.rename_score = q->score;
		if (print_patch_free(stdout, &x, &y, &patch_opts) < 0)
			die("cannot write the patch for '%s'", q->path);
		return;
	}
	printf(":%06o %06o %s %s R%03d", q->one.mode, q->two.mode,
	       raw_id(&q->one, a), raw_id(&q->two, b),
	       RENAME_PERCENT(q->score));
	if (nul_terminate) {
		printf("%c%s%c%s%c", 0, q->from, 0, q->path, 0);
		return;
	}
	putchar('\t');
	write_quoted_path(stdout, "", q->from, strlen(q->from));
	write_name_field(stdout, q->path, strlen(q->path), 0);
}

static void flush_queue(void)
{
	size_t i;

	find_queued_renames();
	for (i = 0; i < nr_queue; i++) {
		struct queued *q = &queue[i];

		if (q->gone)
			continue;
		if (q->from)
			show_rename(q);
		else
			show_pair(q->path, &q->one, &q->two);
	}
	for (i = 0; i < nr_queue; i++)
		free(queue[i].path);
	free(queue);
}

static void show_pair(const char *path, const struct side *one,
		      const struct side *two)
{
	char status = !one->mode ? 'A' : !two->mode ? 'D' : 'M';

	if (one->mode && two->mode &&
	    (one->mode & S_IFMT) != (two->mode & S_IFMT))
		status = 'T';
	if (status == 'M' && one->mode == two->mode &&
	    hasheq(one->sha1, two->sha1))
		return;
	if (detect_renames && !nr_queue_done) {
		queue_pair(path, one, two);
		return;
	}
	if (!show_patch) {
		print_raw(path, one, two, status);
	} else if (status == 'T') {
		patch_pair(path, one, NULL);
		patch_pair(path, NULL, two);
	} else {
		patch_pair(path, one, two);
	}
}

static void show_unmerged(const char *path, const struct tree_file *t)
{
	struct side one = { 0, null_sha1, 0 }, two = { 0, null_sha1, 0 };

	if (show_patch) {
		/* git writes this name as it is, unquoted */
		printf("* Unmerged path %s\n", path);
		return;
	}
	if (t) {
		one.mode = t->mode;
		one.sha1 = t->sha1;
	}
	print_raw(path, &one, &two, 'U');
}

/* ---- the index side ---- */

/*
 * The index entry as the new side: itself with --cached, else the
 * work tree through it.  0 when the work-tree file is gone.
 */
static int new_side(const struct cache_entry *ce, struct side *s)
{
	struct stat st;

	s->mode = ce->ce_mode;
	s->sha1 = ce->sha1;
	s->work = 0;
	if (cached || ce->ce_state & CE_UPTODATE ||
	    ce->ce_ext_flags & CE_SKIP_WORKTREE)
		return 1;
	if (lstat_work_path(ce->name, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			die_errno("lstat '%s'", ce->name);
		return 0;
	}
	if (S_ISDIR(st.st_mode) && !S_ISGITLINK(ce->ce_mode))
		return 0;	/* git: a directory is no file */
	if (S_ISGITLINK(ce->ce_mode) || !ce_match_stat(ce, &st))
		return 1;
	s->mode = ce_mode_from_stat(st.st_mode);
	s->sha1 = null_sha1;
	s->work = 1;
	return 1;
}

static void compare(const struct tree_file *t, const struct cache_entry *ce,
		    unsigned int nr_stages)
{
	const char *path = t ? t->path : ce->name;
	struct side one = { 0, null_sha1, 0 }, two = { 0, null_sha1, 0 };

	if (ce && nr_stages && cached) {
		show_unmerged(path, t);
		return;
	}
	if (t) {
		one.mode = t->mode;
		one.sha1 = t->sha1;
	}
	if (ce && !new_side(ce, &two)) {
		if (!t)
			return;	/* git shows no added file that is gone */
		two.mode = 0;
		two.sha1 = null_sha1;
	}
	show_pair(path, &one, &two);
}

static int entry_wanted(const char *name)
{
	return match_pathspec(&pathspec, name, strlen(name));
}

static void diff_index(void)
{
	unsigned int i = 0;
	size_t j = 0;

	while (i < active_nr || j < nr_tree_files) {
		const struct cache_entry *ce = i < active_nr ?
					       active_cache[i] : NULL;
		const struct tree_file *t = j < nr_tree_files ?
					    &tree_files[j] : NULL;
		unsigned int next = i, stages = 0;
		int cmp;

		if (ce && !entry_wanted(ce->name)) {
			i++;
			continue;
		}
		if (!ce)
			cmp = 1;
		else if (!t)
			cmp = -1;
		else
			cmp = cache_name_compare(ce->name, ce->ce_namelen, 0,
						 t->path, strlen(t->path), 0);
		if (ce)
			while (next < active_nr &&
			       !strcmp(active_cache[next]->name, ce->name)) {
				if (ce_stage(active_cache[next]))
					stages++;
				next++;
			}
		if (cmp < 0) {
			compare(NULL, ce, stages);
			i = next;
		} else if (cmp > 0) {
			compare(t, NULL, 0);
			j++;
		} else {
			compare(t, ce, stages);
			i = next;
			j++;
		}
	}
}

int main(int argc, char **argv)
{
	unsigned char sha1[HASH_MAX_RAWSZ], tree[HASH_MAX_RAWSZ];
	size_t size;
	void *buf;
	int i, r;

	setup_tool(argv[0]);
	handle_help(argc, argv, diff_cache_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "-r"))
			;	/* the index is flat: always recursive */
		else if (!strcmp(arg, "-z"))
			nul_terminate = 1;
		else if (!strcmp(arg, "-p"))
			show_patch = 1;
		else if (!strcmp(arg, "--cached"))
			cached = 1;
		else if (!strcmp(arg, "--binary"))
			patch_opts.binary = show_patch = 1;
		else if (parse_diff_option(&patch_opts, arg))
			raw_abbrev = strncmp(arg, "--abbrev", 8) ?
				     raw_abbrev : patch_opts.abbrev;
		else if (!strcmp(arg, "--no-renames"))
			detect_renames = 0;
		else if (!strcmp(arg, "--diff-renames"))
			detect_renames = -1;
		else if ((r = parse_rename_option(arg, &rename_opts)) > 0)
			detect_renames = 1;
		else if (r < 0)
			exit(128);
		else
			usage(diff_cache_usage);
	}
	if (i >= argc)
		usage(diff_cache_usage);
	if (parse_pathspec(&pathspec, argv + i + 1, argc - i - 1) < 0)
		exit(128);
	if (setup_repository() < 0)
		exit(128);
	if (setup_diff_renames(&detect_renames, &rename_opts) < 0)
		exit(128);
	if (get_sha1(argv[i], sha1) < 0)
		exit(128);
	buf = read_object_peeled(sha1, OBJ_TREE, &size, tree);
	if (!buf)
		die("not a tree-ish: %s", argv[i]);
	free(buf);
	flatten_tree(tree, "", 0);
	if (read_cache() < 0)
		die("cannot read the index");
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	if (!cached)
		preload_index(pathspec.match_all ? NULL : entry_wanted);
	diff_index();
	if (detect_renames) {
		nr_queue_done = 1;
		flush_queue();
	}
	finish_stdout();
	return 0;
}
