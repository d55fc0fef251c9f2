/*
 * wt-status: what "dircache status" shows, in one process that reads
 * the index once: the index against HEAD (staged), the work tree
 * against the index (changed), the files the index does not know
 * (untracked), and the paths left unmerged, printed as git status
 * prints them: the long form with git's headings and hints (in the
 * porcelain's words), -s (paths relative to --prefix, the directory the
 * command was run from), --porcelain (relative to the top), -b the
 * branch line, -z NUL-terminated and unquoted.  On a terminal (without
 * NO_COLOR) the paths are in git's default colours, as color.status
 * (else color.ui) or --color[=<when>] / --no-color decide; never in
 * --porcelain.
 *
 * Each step does the least it can.  A directory whose cache tree
 * (TREE) is valid and equal to HEAD's tree is not read at all; every
 * entry is lstat'ed on every core and only one whose stat data changed
 * (or that is racily clean, git's rule) is hashed; the untracked walk
 * enters no ignored directory and collapses a directory holding
 * nothing tracked to "dir/".  Entries found unchanged but with new stat
 * data are written back to the index when nobody holds its lock, as git
 * status does, so the next run hashes nothing.  Staged renames are
 * found as git status finds them (diff-rename.c, among the files HEAD
 * has and the index not, and the reverse; status.renames or
 * diff.renames, --no-renames, --find-renames[=<n>]) and shown as
 * "R  old -> new" or "renamed:    old -> new".
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"
#include "exclude.h"
#include "am-state.h"

static const char wt_status_usage[] =
	"wt-status [-s | --short | --porcelain] [-b] [-z] "
	"[--find-renames[=<n>] | --no-renames] [--color[=<when>] | --no-color] "
	"[--prefix=<dir>/]";

enum format { LONG, SHORT, PORCELAIN };

static enum format format = LONG;
static int show_branch, nul_term;
static int use_color = -1;	/* -1: as config and the terminal say */

/* git's default colours of color.status.*. */
#define COLOR_STAGED	"\033[32m"	/* added, updated; the branch */
#define COLOR_CHANGED	"\033[31m"	/* changed, untracked, unmerged */
#define COLOR_RESET	"\033[m"
static const char *prefix = "";

/* One path to show: XY as git status -s, or "??" untracked. */
struct change {
	const char *path;	/* an index entry's name, or owned */
	const char *from;	/* a rename's old path (owned), or NULL */
	char x, y;
	int owned;
};

static struct change *changes;
static size_t nr_changes, alloc_changes;
static char **untracked;
static size_t nr_untracked, alloc_untracked;

/* X per index position, ' ' when the entry is HEAD's. */
static char *staged;
/* Paths HEAD has that the index has not (in index order, owned). */
static char **deleted;
static size_t nr_deleted, alloc_deleted;
/* Their modes and ids, for rename detection. */
static struct rename_file *deleted_files;
static size_t alloc_deleted_files;
/* Per index position: the old path of a staged rename (owned), or NULL. */
static char **renamed_from;

static int detect_renames = -1;	/* -1: as status.renames says (on) */
static struct rename_options rename_opts;

static int is_initial, index_changed;

/* Test hook: DIRCACHE_TEST_HASH_LOG names a file each hashed path goes to. */
static FILE *hash_log;
static pthread_mutex_t hash_log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_hashed(const char *name)
{
	if (!hash_log)
		return;
	pthread_mutex_lock(&hash_log_lock);
	fprintf(hash_log, "%s\n", name);
	pthread_mutex_unlock(&hash_log_lock);
}

static struct timespec started;

static double seconds_since_start(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - started.tv_sec) +
	       (now.tv_nsec - started.tv_nsec) / 1e9;
}

/*
 * Progress on a terminal for work that is long (PROGRESS_MIN items),
 * or shorter when the run has taken a second already (git's delay).
 */
static struct progress *slow_progress(const char *title, size_t n)
{
	struct progress *p;

	if (n >= PROGRESS_MIN || n < 100 || !isatty(2) ||
	    seconds_since_start() < 1.0)
		return start_progress(title, n);
	set_progress_mode(1);
	p = start_progress(title, n);
	set_progress_mode(0);
	return p;
}

/* ---- staged: the index against HEAD's tree ---- */

static char type_change(unsigned int a, unsigned int b)
{
	return (a & S_IFMT) == (b & S_IFMT) ? 'M' : 'T';
}

/*
 * Entries [lo, hi) that HEAD does not have are added (stage 0 only);
 * any such entry makes the directory differ from HEAD's (*clean 0).
 */
static void mark_added(unsigned int lo, unsigned int hi, int *clean)
{
	if (lo < hi)
		*clean = 0;
	for (; lo < hi; lo++)
		if (!ce_stage(active_cache[lo]) &&
		    !(active_cache[lo]->ce_ext_flags & CE_INTENT_TO_ADD))
			staged[lo] = 'A';
}

static void add_deleted(const char *path, size_t len,
			const struct name_entry *e)
{
	char *p = xmalloc(len + 1);

	memcpy(p, path, len);
	p[len] = '\0';
	ALLOC_GROW(deleted, nr_deleted + 1, alloc_deleted);
	ALLOC_GROW(deleted_files, nr_deleted + 1, alloc_deleted_files);
	deleted_files[nr_deleted].path = p;
	deleted_files[nr_deleted].mode = e->mode;
	hashcpy(deleted_files[nr_deleted].sha1, e->sha1);
	deleted[nr_deleted++] = p;
}

static int diff_tree_range(const unsigned char *tree, struct mbuf *base,
			   unsigned int lo, unsigned int hi);

/* A file of HEAD's tree (its path in base) against the index. */
static void tree_entry_file(const struct name_entry *e, struct mbuf *base,
			    unsigned int *pos, unsigned int hi, int *clean)
{
	size_t len = base->len, skip = len - e->pathlen;
	unsigned int at, end;
	const struct cache_entry *ce;

	at = index_lower_bound(*pos, hi, base->buf, len, skip);
	mark_added(*pos, at, clean);
	*pos = at;
	if (at >= hi || active_cache[at]->ce_namelen != len ||
	    memcmp(active_cache[at]->name + skip, base->buf + skip,
		   len - skip)) {
		add_deleted(base->buf, len, e);
		*clean = 0;
		return;
	}
	for (end = at; end < hi && active_cache[end]->ce_namelen == len &&
	     !memcmp(active_cache[end]->name, base->buf, len); end++)
		;
	*pos = end;
	ce = active_cache[at];
	if (end != at + 1 || ce_stage(ce)) {
		*clean = 0;	/* unmerged */
	} else if (ce->ce_ext_flags & CE_INTENT_TO_ADD) {
		add_deleted(base->buf, len, e);
		*clean = 0;
	} else if (ce->ce_mode != e->mode || !hasheq(ce->sha1, e->sha1)) {
		staged[at] = type_change(ce->ce_mode, e->mode);
		*clean = 0;
	}
}

/* A directory of HEAD's tree against the index entries below it. */
static int tree_entry_dir(const struct name_entry *e, struct mbuf *base,
			  unsigned int *pos, unsigned int hi, int *clean)
{
	size_t len = base->len, skip = len - e->pathlen;
	unsigned int dlo, dhi;
	int ret;

	mbuf_addch(base, '/');
	dlo = index_lower_bound(*pos, hi, base->buf, len + 1, skip);
	base->buf[len] = '0';	/* just past "dir/" */
	dhi = index_lower_bound(dlo, hi, base->buf, len + 1, skip);
	base->buf[len] = '/';
	mark_added(*pos, dlo, clean);
	ret = diff_tree_range(e->sha1, base, dlo, dhi);
	*pos = dhi;
	if (ret <= 0)
		*clean = 0;
	return ret < 0 ? -1 : 0;
}

static int cache_tree_filled;

/*
 * The index entries [lo, hi), all below base (which ends in '/', or
 * is empty), against tree: 1 when they are the tree's, 0 when not, -1
 * after error().  A valid cache tree equal to tree says 1 without
 * reading anything; a directory found equal is recorded in the cache
 * tree, so that the next run need not read it.
 */
static int diff_tree_range(const unsigned char *tree, struct mbuf *base,
			   unsigned int lo, unsigned int hi)
{
	size_t baselen = base->len, dirlen = baselen ? baselen - 1 : 0, size;
	unsigned char ct_sha1[HASH_MAX_RAWSZ];
	unsigned int nr, pos = lo;
	struct tree_desc desc;
	struct name_entry e;
	void *buf;
	int r, ret = 0, clean = 1;

	if (cache_tree_lookup(active_cache_tree, base->buf, dirlen, ct_sha1,
			      &nr) &&
	    hasheq(ct_sha1, tree) && nr == hi - lo)
		return 1;
	buf = read_object_of_type(tree, OBJ_TREE, &size);
	if (!buf)
		return -1;
	init_tree_desc(&desc, buf, size);
	while (!ret && (r = tree_entry_next(&desc, &e)) > 0) {
		base->len = baselen;
		if (mbuf_add(base, e.path, e.pathlen) < 0)
			die("out of memory");
		if (S_ISDIR(e.mode))
			ret = tree_entry_dir(&e, base, &pos, hi, &clean);
		else
			tree_entry_file(&e, base, &pos, hi, &clean);
	}
	if (!ret && r < 0)
		ret = error("tree %s is malformed", sha1_to_hex(tree));
	base->len = baselen;
	base->buf[baselen] = '\0';
	mark_added(pos, hi, &clean);
	free(buf);
	if (ret < 0)
		return -1;
	if (clean && lo < hi) {
		cache_tree_set(active_cache_tree, base->buf, dirlen, tree,
			       hi - lo);
		cache_tree_filled = 1;
	}
	return clean;
}

static void find_staged(const unsigned char *head)
{
	struct mbuf base = MBUF_INIT;
	unsigned char tree[HASH_MAX_RAWSZ];
	size_t size;
	void *buf;

	staged = xmalloc(active_nr + 1);
	memset(staged, ' ', active_nr + 1);
	if (is_initial) {
		int clean;

		mark_added(0, active_nr, &clean);
		return;
	}
	buf = read_tree_ish(head, &size, tree);
	if (!buf)
		die("HEAD names no tree");
	free(buf);
	if (mbuf_grow(&base, 256) < 0)
		die("out of memory");
	index_cache_tree_or_new();
	if (diff_tree_range(tree, &base, 0, active_nr) < 0)
		die("cannot compare the index with HEAD");
	mbuf_release(&base);
}

/* ---- staged renames ---- */

/*
 * Pair the files added to the index with those it lost from HEAD as
 * git status does (diff-rename.c): a pair becomes an 'R' at the added
 * entry, with the old path in renamed_from, and leaves deleted[].
 */
static void find_staged_renames(void)
{
	struct rename_file *dst;
	unsigned int *pos, i;
	size_t nr = 0, j, k;
	int *from, *score;

	renamed_from = xcalloc(active_nr + 1, sizeof(*renamed_from));
	if (!detect_renames || !nr_deleted)
		return;
	dst = xmalloc((active_nr + 1) * sizeof(*dst));
	pos = xmalloc((active_nr + 1) * sizeof(*pos));
	for (i = 0; i < active_nr; i++) {
		if (staged[i] != 'A')
			continue;
		dst[nr].path = active_cache[i]->name;
		dst[nr].mode = active_cache[i]->ce_mode;
		hashcpy(dst[nr].sha1, active_cache[i]->sha1);
		pos[nr++] = i;
	}
	from = xmalloc((nr + 1) * sizeof(*from));
	score = xmalloc((nr + 1) * sizeof(*score));
	/* git status gives no warning when the limit stops the search */
	if (nr)
		find_renames(deleted_files, nr_deleted, dst, nr, &rename_opts,
			     from, score);
	for (j = 0; nr && j < nr; j++) {
		if (from[j] < 0)
			continue;
		staged[pos[j]] = 'R';
		renamed_from[pos[j]] = deleted[from[j]];
		deleted[from[j]] = NULL;
	}
	for (j = k = 0; j < nr_deleted; j++)
		if (deleted[j])
			deleted[k++] = deleted[j];
	nr_deleted = k;
	free(dst);
	free(pos);
	free(from);
	free(score);
}

/* ---- changed: the work tree against the index ---- */

/* What the work tree holds at ce: ' ', 'M', 'D' or 'T'. */
static char work_change(struct cache_entry *ce)
{
	unsigned int changed;
	struct stat st;
	int same;

	if (lstat_work_path(ce->name, &st) < 0)
		return 'D';
	if (S_ISGITLINK(ce->ce_mode))
		return ce_match_stat(ce, &st) ? 'M' : ' ';
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return S_ISDIR(st.st_mode) ? 'D' : 'T';
	changed = ce_match_stat_basic(ce, &st);
	if (changed & TYPE_CHANGED)
		return 'T';
	if (changed & MODE_CHANGED)
		return 'M';
	if (!changed && !ce_is_racy(ce))
		return ' ';
	if ((changed & DATA_CHANGED) && ce->ce_size)
		return 'M';
	log_hashed(ce->name);
	same = path_matches_sha1(ce->name, &st, ce->sha1);
	if (same != 1)
		return 'M';
	if (changed) {
		fill_stat_cache_info(ce, &st);
		__atomic_store_n(&index_changed, 1, __ATOMIC_RELAXED);
	}
	return ' ';
}

struct work_job {
	unsigned int *pos;
	char *y;
};

static size_t work_one(void *data, size_t i)
{
	struct work_job *job = data;

	job->y[job->pos[i]] = work_change(active_cache[job->pos[i]]);
	return 1;
}

/* Y per index position; racy entries seen set index_changed too. */
static char *find_changed(void)
{
	struct work_job job;
	struct progress *progress;
	unsigned int i, n = 0;

	job.y = xmalloc(active_nr + 1);
	memset(job.y, ' ', active_nr + 1);
	job.pos = xmalloc((active_nr + 1) * sizeof(*job.pos));
	preload_index(NULL);
	for (i = 0; i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];

		if (ce_stage(ce) || (ce->ce_ext_flags & CE_SKIP_WORKTREE))
			continue;
		if (ce->ce_ext_flags & CE_INTENT_TO_ADD) {
			job.y[i] = 'A';
			continue;
		}
		if (ce->ce_state & CE_UPTODATE)
			continue;
		if (ce_is_racy(ce))
			index_changed = 1;
		job.pos[n++] = i;
	}
	progress = slow_progress("Refreshing index", n);
	run_parallel(0, n, work_one, &job, progress, 0);
	stop_progress(&progress);
	free(job.pos);
	return job.y;
}

/* ---- untracked ---- */

/* Is some index entry below dir (len bytes, ending in '/')? */
static int dir_tracked(const char *dir, size_t len)
{
	unsigned int pos = index_lower_bound(0, active_nr, dir, len, 0);

	return pos < active_nr && active_cache[pos]->ce_namelen > len &&
	       !memcmp(active_cache[pos]->name, dir, len);
}

/*
 * name, or its first directory that holds nothing tracked, as "dir/"
 * (which git does not list when a file of that name is tracked).
 */
static char *untracked_name(char *name)
{
	const char *slash = name;

	while ((slash = strchr(slash, '/')) != NULL && slash[1]) {
		size_t len = slash - name + 1;

		if (!dir_tracked(name, len)) {
			name[len] = '\0';
			return name;
		}
		slash++;
	}
	return name;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_untracked(void)
{
	struct exclude_set ex;
	struct dir_walk w;
	size_t i;

	init_exclude_set(&ex);
	if (add_standard_excludes(&ex) < 0)
		exit(128);
	memset(&w, 0, sizeof(w));
	w.exclude = &ex;
	if (read_directory(&w) < 0)
		exit(128);
	for (i = 0; i < w.nr; i++) {
		char *name = untracked_name(w.names[i]);
		size_t len = strlen(name);

		if ((nr_untracked &&
		     !strcmp(untracked[nr_untracked - 1], name)) ||
		    (name[len - 1] == '/' && index_has_path(name, len - 1))) {
			free(name);
			continue;
		}
		ALLOC_GROW(untracked, nr_untracked + 1, alloc_untracked);
		untracked[nr_untracked++] = name;
	}
	free(w.names);
	if (nr_untracked)
		qsort(untracked, nr_untracked, sizeof(*untracked),
		      compare_strings);
	clear_exclude_set(&ex);
}

/* ---- the changes, in path order ---- */

static void add_change(const char *path, char x, char y, int owned)
{
	ALLOC_GROW(changes, nr_changes + 1, alloc_changes);
	changes[nr_changes].path = path;
	changes[nr_changes].from = NULL;
	changes[nr_changes].x = x;
	changes[nr_changes].y = y;
	changes[nr_changes++].owned = owned;
}

/* git's two letters for the stages a path has (bit 1: stage 1, ...). */
static const char *unmerged_code(unsigned int stages)
{
	static const char *const codes[8] = {
		"  ", "DD", "AU", "UD", "UA", "DU", "AA", "UU"
	};

	return codes[stages & 7];
}

static unsigned int add_unmerged(unsigned int i)
{
	const struct cache_entry *ce = active_cache[i];
	unsigned int stages = 0;
	const char *code;

	while (i < active_nr && active_cache[i]->ce_namelen == ce->ce_namelen &&
	       !memcmp(active_cache[i]->name, ce->name, ce->ce_namelen)) {
		if (ce_stage(active_cache[i]))
			stages |= 1 << (ce_stage(active_cache[i]) - 1);
		i++;
	}
	code = unmerged_code(stages);
	add_change(ce->name, code[0], code[1], 0);
	return i;
}

static void gather_changes(const char *y)
{
	unsigned int i = 0;
	size_t d = 0;

	while (i < active_nr || d < nr_deleted) {
		const struct cache_entry *ce = i < active_nr ?
			active_cache[i] : NULL;

		if (d < nr_deleted &&
		    (!ce || strcmp(deleted[d], ce->name) < 0)) {
			add_change(deleted[d++], 'D', ' ', 1);
			continue;
		}
		if (ce_stage(ce)) {
			i = add_unmerged(i);
			continue;
		}
		if (staged[i] != ' ' || y[i] != ' ') {
			add_change(ce->name, staged[i], y[i], 0);
			changes[nr_changes - 1].from = renamed_from[i];
		}
		i++;
	}
}

/* ---- output ---- */

/* path relative to the prefix directory, as git's relative_path. */
static void relative_path(struct mbuf *b, const char *path)
{
	const char *p = prefix, *slash;
	size_t common = 0, i;

	for (i = 0; p[i] && p[i] == path[i]; i++)
		if (p[i] == '/')
			common = i + 1;
	if (!p[i])
		common = i;
	for (slash = p + common; (slash = strchr(slash, '/')) != NULL; slash++)
		mbuf_addstr(b, "../");
	mbuf_addstr(b, path + common);
	if (!b->len)
		mbuf_addstr(b, "./");
}

/* A path as git quotes it (quote_sp: a space makes quotes too, as -s). */
static void put_path(const char *path, int relative, int quote_sp)
{
	struct mbuf b = MBUF_INIT;

	if (relative)
		relative_path(&b, path);
	else
		mbuf_addstr(&b, path);
	if (b.failed)
		die("out of memory");
	if (nul_term)
		fwrite(b.buf, 1, b.len + 1, stdout);
	else if (path_needs_quoting(b.buf, b.len))
		write_quoted_path(stdout, "", b.buf, b.len);
	else if (quote_sp && strchr(b.buf, ' '))
		printf("\"%s\"", b.buf);
	else
		fputs(b.buf, stdout);
	mbuf_release(&b);
}

static char *branch;		/* HEAD's branch (no refs/heads/), or NULL */
static int merging;		/* MERGE_HEAD: a merge to conclude */

/* text, in color when colouring (and color is not ""). */
static void put_colored(const char *color, const char *text)
{
	if (use_color && *color)
		printf("%s%s%s", color, text, COLOR_RESET);
	else
		fputs(text, stdout);
}

static int is_unmerged(const struct change *c);

/* "XY ", coloured as git: X green, Y red, an unmerged pair red. */
static void put_xy(const struct change *c)
{
	char xy[3] = { c->x, c->y, '\0' };

	if (is_unmerged(c)) {
		put_colored(COLOR_CHANGED, xy);
	} else {
		xy[1] = '\0';
		if (c->x == ' ')
			putchar(' ');
		else
			put_colored(COLOR_STAGED, xy);
		xy[0] = c->y;
		if (c->y == ' ')
			putchar(' ');
		else
			put_colored(COLOR_CHANGED, xy);
	}
	putchar(' ');
}

static void print_short(void)
{
	/* -s paths are relative, with -z (as git) from the top */
	int relative = format == SHORT && !nul_term;
	size_t i;

	if (show_branch) {
		fputs("## ", stdout);
		if (!branch)
			put_colored(COLOR_CHANGED, "HEAD (no branch)");
		else if (is_initial)
			fputs("No commits yet on ", stdout);
		if (branch)
			put_colored(COLOR_STAGED, branch);
		putchar(nul_term ? '\0' : '\n');
	}
	for (i = 0; i < nr_changes; i++) {
		put_xy(&changes[i]);
		if (changes[i].from && !nul_term) {
			put_path(changes[i].from, relative, 1);
			fputs(" -> ", stdout);
		}
		put_path(changes[i].path, relative, 1);
		if (changes[i].from && nul_term)
			put_path(changes[i].from, relative, 1);
		if (!nul_term)
			putchar('\n');
	}
	for (i = 0; i < nr_untracked; i++) {
		/* git leaves "??" plain in -z */
		put_colored(nul_term ? "" : COLOR_CHANGED, "??");
		putchar(' ');
		put_path(untracked[i], relative, 1);
		if (!nul_term)
			putchar('\n');
	}
}

static const char *change_label(char c)
{
	switch (c) {
	case 'A': return "new file:   ";
	case 'D': return "deleted:    ";
	case 'R': return "renamed:    ";
	case 'T': return "typechange: ";
	default: return "modified:   ";
	}
}

static const char *unmerged_label(const struct change *c)
{
	static const char *const labels[][2] = {
		{ "DD", "both deleted:    " }, { "AU", "added by us:     " },
		{ "UD", "deleted by them: " }, { "UA", "added by them:   " },
		{ "DU", "deleted by us:   " }, { "AA", "both added:      " },
		{ "UU", "both modified:   " },
	};
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(*labels); i++)
		if (labels[i][0][0] == c->x && labels[i][0][1] == c->y)
			return labels[i][1];
	return "unmerged:        ";
}

static int is_unmerged(const struct change *c)
{
	return c->x == 'U' || c->y == 'U' || (c->x == 'A' && c->y == 'A') ||
	       (c->x == 'D' && c->y == 'D');
}

/* What the long form needs to know of the changes. */
struct summary {
	int staged, changed, unmerged, changed_deleted;
	int both_deleted, del_mod;
};

static void summarize(struct summary *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < nr_changes; i++) {
		const struct change *c = &changes[i];

		if (is_unmerged(c)) {
			s->unmerged = 1;
			if (c->x == 'D' && c->y == 'D')
				s->both_deleted = 1;
			else if (c->x == 'D' || c->y == 'D')
				s->del_mod = 1;
			continue;
		}
		if (c->x != ' ')
			s->staged = 1;
		if (c->y != ' ')
			s->changed = 1;
		if (c->y == 'D')
			s->changed_deleted = 1;
	}
}

static void print_entry(const char *color, const char *label,
			const char *path)
{
	printf("\t%s%s", use_color ? color : "", label);
	put_path(path, 1, 0);
	printf("%s\n", use_color ? COLOR_RESET : "");
}

/* A staged rename's line: "renamed:    old -> new". */
static void print_rename_entry(const char *color, const char *label,
			       const struct change *c)
{
	printf("\t%s%s", use_color ? color : "", label);
	put_path(c->from, 1, 0);
	fputs(" -> ", stdout);
	put_path(c->path, 1, 0);
	printf("%s\n", use_color ? COLOR_RESET : "");
}

static void print_staged(void)
{
	size_t i;

	printf("Changes to be committed:\n");
	if (merging)
		;	/* as git: no way back but merge --abort */
	else if (is_initial)
		printf("  (use \"dircache rm --cached <file>...\" to unstage)\n");
	else
		printf("  (use \"dircache restore --staged <file>...\" to unstage)\n");
	for (i = 0; i < nr_changes; i++)
		if (!is_unmerged(&changes[i]) && changes[i].from)
			print_rename_entry(COLOR_STAGED,
					   change_label(changes[i].x), &changes[i]);
		else if (!is_unmerged(&changes[i]) && changes[i].x != ' ')
			print_entry(COLOR_STAGED, change_label(changes[i].x),
				    changes[i].path);
	putchar('\n');
}

static void print_unmerged(const struct summary *s)
{
	size_t i;

	printf("Unmerged paths:\n");
	if (merging)
		;	/* git names no way back here but merge --abort */
	else if (is_initial)
		printf("  (use \"dircache rm --cached <file>...\" to unstage)\n");
	else
		printf("  (use \"dircache restore --staged <file>...\" to unstage)\n");
	if (s->del_mod)
		printf("  (use \"dircache add/rm <file>...\" as appropriate to mark resolution)\n");
	else if (s->both_deleted)
		printf("  (use \"dircache rm <file>...\" to mark resolution)\n");
	else
		printf("  (use \"dircache add <file>...\" to mark resolution)\n");
	for (i = 0; i < nr_changes; i++)
		if (is_unmerged(&changes[i]))
			print_entry(COLOR_CHANGED, unmerged_label(&changes[i]),
				    changes[i].path);
	putchar('\n');
}

static void print_changed(const struct summary *s)
{
	size_t i;

	printf("Changes not staged for commit:\n");
	printf("  (use \"dircache %s <file>...\" to update what will be committed)\n",
	       s->changed_deleted ? "add/rm" : "add");
	printf("  (use \"dircache restore <file>...\" to discard changes in working directory)\n");
	for (i = 0; i < nr_changes; i++)
		if (!is_unmerged(&changes[i]) && changes[i].y != ' ')
			print_entry(COLOR_CHANGED, change_label(changes[i].y),
				    changes[i].path);
	putchar('\n');
}

static void print_untracked(void)
{
	size_t i;

	printf("Untracked files:\n");
	printf("  (use \"dircache add <file>...\" to include in what will be committed)\n");
	for (i = 0; i < nr_untracked; i++)
		print_entry(COLOR_CHANGED, "", untracked[i]);
	putchar('\n');
}

/* A merge or an applymbox run under way, and what to run next. */
static void print_state(const struct summary *s)
{
	if (merging) {
		if (s->unmerged) {
			printf("You have unmerged paths.\n");
			printf("  (fix conflicts and run \"dircache commit\")\n");
			printf("  (use \"dircache merge --abort\" to abort the merge)\n");
		} else {
			printf("All conflicts fixed but you are still merging.\n");
			printf("  (use \"dircache commit\" to conclude merge)\n");
		}
		putchar('\n');
	}
	if (am_state_begun()) {
		char *stopped = am_state_path("stopped");

		printf("You are in the middle of an applymbox run.\n");
		if (!access(stopped, F_OK)) {
			printf("  (fix conflicts and then run \"applymbox --continue\")\n");
			printf("  (use \"applymbox --skip\" to skip this patch)\n");
		} else {
			printf("  (use \"applymbox --continue\" to take it up again)\n");
		}
		printf("  (use \"applymbox --abort\" to restore the original branch)\n");
		putchar('\n');
		free(stopped);
	}
}

static void print_long(void)
{
	struct summary s;

	char *merge_head = path_join(get_git_dir(), "MERGE_HEAD");

	merging = !access(merge_head, F_OK);
	free(merge_head);
	summarize(&s);
	if (branch)
		printf("On branch %s\n", branch);
	else
		put_colored(COLOR_CHANGED, "Not currently on any branch.");
	if (!branch)
		putchar('\n');
	print_state(&s);
	if (is_initial)
		printf("\nNo commits yet\n\n");
	if (s.staged)
		print_staged();
	if (s.unmerged)
		print_unmerged(&s);
	if (s.changed)
		print_changed(&s);
	if (nr_untracked)
		print_untracked();
	if (s.staged)
		return;
	if (s.changed || s.unmerged)
		printf("no changes added to commit (use \"dircache add\" and/or \"dircache commit -a\")\n");
	else if (nr_untracked)
		printf("nothing added to commit but untracked files present (use \"dircache add\" to track)\n");
	else if (is_initial)
		printf("nothing to commit (create/copy files and use \"dircache add\" to track)\n");
	else
		printf("nothing to commit, working tree clean\n");
}

/* ---- the index written back ---- */

/*
 * New stat data (and racy entries) go back to the index when nobody
 * holds its lock and it is still the file read (as git status does):
 * quietly, for a status is no writer.
 */
static void update_index_if_able(const struct stat *read_st)
{
	char *lock = xmalloc(strlen(get_index_file()) + 6);
	struct stat st;

	sprintf(lock, "%s.lock", get_index_file());
	if (!access(lock, F_OK) || hold_index_lock() < 0) {
		free(lock);
		return;
	}
	free(lock);
	if (stat(get_index_file(), &st) < 0 || st.st_size != read_st->st_size ||
	    st.st_ino != read_st->st_ino ||
	    st.st_mtim.tv_sec != read_st->st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != read_st->st_mtim.tv_nsec) {
		rollback_index_lock();
		return;
	}
	if (commit_index() < 0)
		rollback_index_lock();
}

/* ---- main ---- */

/* Colour when always, none when never, auto: on a terminal. */
static int parse_color(const char *when)
{
	if (!strcmp(when, "always"))
		return 1;
	if (!strcmp(when, "never"))
		return 0;
	if (!strcmp(when, "auto"))
		return -1;
	usage(wt_status_usage);
}

static void find_renames_option(const char *n)
{
	rename_opts.min_score = parse_rename_score(n);
	if (rename_opts.min_score < 0)
		die("invalid argument to --find-renames: %s", n);
	detect_renames = 1;
}

static void parse_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "-s") || !strcmp(arg, "--short"))
			format = SHORT;
		else if (!strcmp(arg, "--porcelain"))
			format = PORCELAIN;
		else if (!strcmp(arg, "-b") || !strcmp(arg, "--branch"))
			show_branch = 1;
		else if (!strcmp(arg, "-sb") || !strcmp(arg, "-bs"))
			format = SHORT, show_branch = 1;
		else if (!strcmp(arg, "-z"))
			nul_term = 1;
		else if (!strncmp(arg, "--prefix=", 9))
			prefix = arg + 9;
		else if (!strcmp(arg, "--color"))
			use_color = 1;
		else if (!strncmp(arg, "--color=", 8))
			use_color = parse_color(arg + 8);
		else if (!strcmp(arg, "--no-color"))
			use_color = 0;
		else if (!strcmp(arg, "--no-renames"))
			detect_renames = 0;
		else if (!strcmp(arg, "--find-renames") ||
			 !strncmp(arg, "--find-renames=", 15))
			find_renames_option(arg[14] ? arg + 15 : "");
		else
			usage(wt_status_usage);
	}
	if (nul_term && format == LONG)
		format = PORCELAIN;
}

/*
 * Colour or not, as git decides: the option, else color.status, else
 * color.ui ("always", "never", "auto" or a boolean, true meaning
 * auto), else auto: on a terminal without NO_COLOR.  Never in
 * --porcelain.
 */
static void decide_color(void)
{
	char *value = NULL;
	int b;

	if (format == PORCELAIN) {
		use_color = 0;
		return;
	}
	if (use_color < 0 && (config_get("color.status", &value) > 0 ||
			      config_get("color.ui", &value) > 0)) {
		if (!value || !strcmp(value, "auto"))
			use_color = -1;
		else if (!strcmp(value, "always"))
			use_color = 1;
		else if (!strcmp(value, "never"))
			use_color = 0;
		else if ((b = config_bool(value)) >= 0)
			use_color = b ? -1 : 0;
		free(value);
	}
	if (use_color < 0)
		use_color = isatty(1) && !getenv("NO_COLOR");
}

/* A sparse index is not written back (expanded, it would stop being one). */
static int index_is_sparse(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++)
		if (ce_sparse_dir(active_cache[i]))
			return 1;
	return 0;
}

static void read_head(unsigned char *head)
{
	char *resolved = NULL;

	is_initial = resolve_ref("HEAD", head, &resolved) < 0;
	if (resolved && !strncmp(resolved, "refs/heads/", 11))
		branch = xstrdup(resolved + 11);
	free(resolved);
}

int main(int argc, char **argv)
{
	unsigned char head[HASH_MAX_RAWSZ];
	struct stat index_st;
	const char *log;
	int sparse;
	char *y;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &started);
	setup_tool(argv[0]);
	handle_help(argc, argv, wt_status_usage);
	parse_options(argc, argv);
	if (setup_repository() < 0)
		exit(128);
	log = getenv("DIRCACHE_TEST_HASH_LOG");
	if (log && !(hash_log = fopen(log, "a")))
		die_errno("open '%s'", log);
	if (stat(get_index_file(), &index_st) < 0)
		memset(&index_st, 0, sizeof(index_st));
	if (read_cache() < 0)
		die("unable to read the index");
	sparse = index_is_sparse();
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	read_head(head);
	rename_opts.limit = RENAME_DEFAULT_LIMIT;
	if (rename_config("status", detect_renames < 0 ? &detect_renames : NULL,
			  &rename_opts.limit) < 0)
		exit(128);
	if (detect_renames < 0)
		detect_renames = 1;
	find_staged(head);
	find_staged_renames();
	y = find_changed();
	find_untracked();
	gather_changes(y);
	if ((index_changed || cache_tree_filled) && index_st.st_size && !sparse)
		update_index_if_able(&index_st);
	decide_color();
	if (format == LONG)
		print_long();
	else
		print_short();
	if (hash_log && fclose(hash_log))
		die_errno("close '%s'", log);
	finish_stdout();
	free(y);
	free(staged);
	for (i = 0; i < nr_changes; i++)
		if (changes[i].owned)
			free((char *)changes[i].path);
	free(changes);
	free(deleted);
	free(deleted_files);
	for (i = 0; i < active_nr; i++)
		free(renamed_from[i]);
	free(renamed_from);
	for (i = 0; i < nr_untracked; i++)
		free(untracked[i]);
	free(untracked);
	free(branch);
	return 0;
}
