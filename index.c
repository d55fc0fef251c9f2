/*
 * index.c: the index in memory.  active_cache holds the entries sorted
 * as git sorts them (bytes of the path, then stage); this file finds,
 * inserts and removes entries, keeps a file and a directory of the
 * same name from both entering, and compares an entry's stat data with
 * what lstat sees now.  Reading and writing the index file is
 * read-cache.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

/* ---- ordering and lookup ---- */

int cache_name_compare(const char *n1, size_t l1, unsigned int s1,
		       const char *n2, size_t l2, unsigned int s2)
{
	size_t len = l1 < l2 ? l1 : l2;
	int cmp = memcmp(n1, n2, len);

	if (cmp)
		return cmp;
	if (l1 != l2)
		return l1 < l2 ? -1 : 1;
	if (s1 != s2)
		return s1 < s2 ? -1 : 1;
	return 0;
}

static int cache_pos_stage(const char *name, size_t len, unsigned int stage)
{
	int first = 0, last = active_nr;

	while (first < last) {
		int next = first + (last - first) / 2;
		struct cache_entry *ce = active_cache[next];
		int cmp = cache_name_compare(name, len, stage, ce->name,
					     ce->ce_namelen, ce_stage(ce));

		if (!cmp)
			return next;
		if (cmp < 0)
			last = next;
		else
			first = next + 1;
	}
	return -first - 1;
}

int cache_name_pos(const char *name, size_t len)
{
	return cache_pos_stage(name, len, 0);
}

void remove_cache_entry_at(unsigned int pos)
{
	index_entry_removed(active_cache[pos]);
	free_cache_entry(active_cache[pos]);
	active_nr--;
	memmove(active_cache + pos, active_cache + pos + 1,
		(active_nr - pos) * sizeof(*active_cache));
}

int remove_file_from_cache(const char *path)
{
	size_t len = strlen(path);
	int pos = cache_name_pos(path, len), removed = 0;

	if (pos < 0)
		pos = -pos - 1;
	while ((unsigned int)pos < active_nr &&
	       active_cache[pos]->ce_namelen == len &&
	       !memcmp(active_cache[pos]->name, path, len)) {
		remove_cache_entry_at(pos);
		removed = 1;
	}
	return removed;
}

/* Is some entry below "name/"?  pos is where name would be inserted. */
static int has_entries_below(const char *name, size_t len, int pos)
{
	while ((unsigned int)pos < active_nr) {
		const struct cache_entry *o = active_cache[pos];

		if (o->ce_namelen <= len || memcmp(o->name, name, len))
			return 0;
		if (o->name[len] == '/')
			return 1;
		if (o->name[len] > '/')
			return 0;
		pos++;
	}
	return 0;
}

size_t index_has_file_above(const char *name)
{
	const char *slash = name;

	while ((slash = strchr(slash, '/')) != NULL) {
		if (cache_name_pos(name, slash - name) >= 0)
			return slash - name;
		slash++;
	}
	return 0;
}

static void drop_entries_below(const char *name, size_t len)
{
	int pos = cache_name_pos(name, len);

	pos = pos < 0 ? -pos - 1 : pos + 1;
	while (has_entries_below(name, len, pos)) {
		while (active_cache[pos]->name[len] != '/')
			pos++;
		remove_cache_entry_at(pos);
	}
}

static void drop_files_above(const char *name)
{
	const char *slash = name;

	while ((slash = strchr(slash, '/')) != NULL) {
		int pos = cache_name_pos(name, slash - name);

		if (pos >= 0)
			remove_cache_entry_at(pos);
		slash++;
	}
}

/* Is some stage-0 entry below "name/"? */
static int has_merged_below(const char *name, size_t len, int pos)
{
	while (has_entries_below(name, len, pos)) {
		while (active_cache[pos]->name[len] != '/')
			pos++;
		if (!ce_stage(active_cache[pos]))
			return 1;
		pos++;
	}
	return 0;
}

/*
 * The entry at pos (or where it would go) against the files above it
 * (unless above is 0: they are known to be none) and the entries
 * below it.
 */
static int df_clash_at(const struct cache_entry *ce, int pos, int option,
		       int above)
{
	int below;

	if (option & ADD_CACHE_STAGE_DF)
		below = has_merged_below(ce->name, ce->ce_namelen, pos);
	else
		below = has_entries_below(ce->name, ce->ce_namelen, pos);
	if (!below && !(above && index_has_file_above(ce->name)))
		return 0;
	if (!(option & ADD_CACHE_OK_TO_REPLACE))
		return error("'%s' appears as both a file and as a directory",
			     ce->name);
	drop_files_above(ce->name);
	drop_entries_below(ce->name, ce->ce_namelen);
	return 0;
}

static int check_df_clash(const struct cache_entry *ce, int option)
{
	int pos = cache_name_pos(ce->name, ce->ce_namelen);

	pos = pos < 0 ? -pos - 1 : pos + 1;
	return df_clash_at(ce, pos, option, 1);
}

unsigned int index_lower_bound(unsigned int lo, unsigned int hi,
			       const char *name, size_t len, size_t skip)
{
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const struct cache_entry *ce = active_cache[mid];

		if (cache_name_compare(ce->name + skip, ce->ce_namelen - skip,
				       ce_stage(ce), name + skip, len - skip,
				       0) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int index_has_path(const char *name, size_t len)
{
	unsigned int pos = index_lower_bound(0, active_nr, name, len, 0);

	return pos < active_nr && active_cache[pos]->ce_namelen == len &&
	       !memcmp(active_cache[pos]->name, name, len);
}

/*
 * A merged entry (stage 0) resolves its path: the stages of a merge
 * that sit after pos (where the stage-0 entry is) go, as in git.
 */
static void drop_stages_after(unsigned int pos)
{
	const struct cache_entry *ce = active_cache[pos];

	while (pos + 1 < active_nr &&
	       active_cache[pos + 1]->ce_namelen == ce->ce_namelen &&
	       !memcmp(active_cache[pos + 1]->name, ce->name, ce->ce_namelen))
		remove_cache_entry_at(pos + 1);
}

int add_cache_entry(struct cache_entry *ce, int option)
{
	int pos = cache_pos_stage(ce->name, ce->ce_namelen, ce_stage(ce));

	if (pos >= 0) {
		free_cache_entry(active_cache[pos]);
		active_cache[pos] = ce;
		if (!ce_stage(ce))
			drop_stages_after(pos);
		return 0;
	}
	if (!verify_path(ce->name, ce->ce_namelen))
		return error("invalid path '%s'", ce->name);
	if (!(option & ADD_CACHE_OK_TO_ADD) &&
	    !index_has_path(ce->name, ce->ce_namelen))
		return error("'%s' is not in the cache; use --add to add it",
			     ce->name);
	if (check_df_clash(ce, option) < 0)
		return -1;
	pos = cache_pos_stage(ce->name, ce->ce_namelen, ce_stage(ce));
	pos = -pos - 1;
	ALLOC_GROW(active_cache, active_nr + 1, active_alloc);
	memmove(active_cache + pos + 1, active_cache + pos,
		(active_nr - pos) * sizeof(*active_cache));
	active_cache[pos] = ce;
	active_nr++;
	if (!ce_stage(ce))
		drop_stages_after(pos);
	return 0;
}

static int compare_ce_ptr(const void *a, const void *b)
{
	const struct cache_entry *x = *(struct cache_entry *const *)a;
	const struct cache_entry *y = *(struct cache_entry *const *)b;

	return cache_name_compare(x->name, x->ce_namelen, ce_stage(x),
				  y->name, y->ce_namelen, ce_stage(y));
}

/* Entries that come in order (a sorted list of paths) are left so. */
void sort_cache_entries(struct cache_entry **ces, unsigned int nr)
{
	unsigned int i;

	for (i = 1; i < nr; i++)
		if (compare_ce_ptr(&ces[i - 1], &ces[i]) > 0)
			break;
	if (i < nr)
		qsort(ces, nr, sizeof(*ces), compare_ce_ptr);
}

/* Refuse, before anything changes, what add_cache_entry would refuse. */
static int check_new_entries(struct cache_entry **ces, unsigned int nr,
			     int option)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const struct cache_entry *ce = ces[i];

		if (i && compare_ce_ptr(&ces[i - 1], &ces[i]) >= 0)
			return error("internal error: unsorted entries");
		if (!verify_path(ce->name, ce->ce_namelen))
			return error("invalid path '%s'", ce->name);
		if (!(option & ADD_CACHE_OK_TO_ADD) &&
		    !index_has_path(ce->name, ce->ce_namelen))
			return error("'%s' is not in the cache; use --add to "
				     "add it", ce->name);
	}
	return 0;
}

/* Is ce a stage of a merge whose path prev (stage 0) resolved? */
static int resolved_by(const struct cache_entry *ce,
		       const struct cache_entry *prev)
{
	return prev && ce_stage(ce) && !ce_stage(prev) &&
	       prev->ce_namelen == ce->ce_namelen &&
	       !memcmp(prev->name, ce->name, ce->ce_namelen);
}

/* The length of the directory part of ce's name ("a/b" of "a/b/c"). */
static size_t dir_len(const struct cache_entry *ce)
{
	size_t len = ce->ce_namelen;

	while (len && ce->name[len - 1] != '/')
		len--;
	return len ? len - 1 : 0;
}

/* Do a and b name entries of the same directory? */
static int same_dir(const struct cache_entry *a, const struct cache_entry *b)
{
	size_t len = dir_len(a);

	return len == dir_len(b) && !memcmp(a->name, b->name, len);
}

/*
 * The D/F check of the entries merged in (ces, sorted; at[j] where
 * ces[j] went), which refuses (no ADD_CACHE_OK_TO_REPLACE here) and so
 * changes nothing: the files above a stage-0 entry are looked up once
 * a directory, not once an entry (each is a binary search a level),
 * and where it is is known.  A stage of a merge is checked as
 * add_cache_entry checks it.
 */
static int check_merged_df(struct cache_entry **ces, const unsigned int *at,
			   unsigned int nr, int option)
{
	unsigned int j;

	for (j = 0; j < nr; j++) {
		int ret = ce_stage(ces[j]) ? check_df_clash(ces[j], option) :
			  df_clash_at(ces[j], at[j] + 1, option,
				      !j || !same_dir(ces[j - 1], ces[j]));

		if (ret < 0)
			return -1;
	}
	return 0;
}

/*
 * One merge of two sorted lists instead of nr insertions, each of
 * which would move half the index: adding 75,000 files stays linear.
 */
int add_cache_entries(struct cache_entry **ces, unsigned int nr, int option)
{
	unsigned int i = 0, j = 0, n = 0, total = active_nr + nr, *at;
	struct cache_entry **merged;
	int ret;

	if (option & ADD_CACHE_OK_TO_REPLACE) {
		for (i = 0; i < nr; i++)
			if (add_cache_entry(ces[i], option) < 0)
				return -1;
		return 0;
	}
	if (check_new_entries(ces, nr, option) < 0)
		return -1;
	merged = xmalloc(total * sizeof(*merged));
	at = xmalloc(nr * sizeof(*at));
	while (i < active_nr || j < nr) {
		int cmp = i == active_nr ? 1 : j == nr ? -1 :
			  compare_ce_ptr(&active_cache[i], &ces[j]);

		if (!cmp)
			free_cache_entry(active_cache[i++]);
		else if (cmp < 0 && resolved_by(active_cache[i],
						n ? merged[n - 1] : NULL)) {
			free_cache_entry(active_cache[i++]);
			continue;
		}
		if (cmp >= 0)
			at[j] = n;
		merged[n++] = cmp < 0 ? active_cache[i++] : ces[j++];
	}
	free(active_cache);
	active_cache = merged;
	active_nr = n;
	active_alloc = total;
	ret = check_merged_df(ces, at, nr, option);
	free(at);
	return ret;
}

/* ---- preloading stat data ---- */

static int (*preload_wanted)(const char *name);

/* 1 when it marked ce up to date. */
static int preload_entry(struct work_dirs *wd, struct cache_entry *ce)
{
	struct stat st;

	if (ce_stage(ce) || S_ISGITLINK(ce->ce_mode) || ce->ce_ext_flags ||
	    (preload_wanted && !preload_wanted(ce->name)))
		return 0;
	if (lstat_in_work_dirs(wd, ce->name, ce->ce_namelen, &st) ||
	    ce_match_stat_basic(ce, &st) || ce_is_racy(ce))
		return 0;
	ce->ce_state |= CE_UPTODATE;
	return 1;
}

/*
 * Entries go to the threads in runs, in index order, taken from a
 * counter once a run, not once an entry: runs of at most 256 entries,
 * and enough of them to keep every core busy to the end.  Each thread
 * keeps its directories open (work_dirs) from one run to the next, so
 * that a run opens only the directories its first path does not share
 * with the last path of the thread's previous run.  The threads are new
 * ones, each with its own file table (run_parallel_own_fds), so that
 * fstatat on their directory fds takes no reference on the fd.
 */
#define PRELOAD_RUN_MAX 256
#define PRELOAD_RUNS_MIN 128
/* Threads at most, as parallel.c's pool. */
#define PRELOAD_THREADS_MAX 8

static struct {
	size_t run_len, nr_runs;
	size_t next_run;	/* taken atomically */
	unsigned int marked;	/* added to once a run */
} preload;

static size_t preload_thread(void *data, size_t thread)
{
	struct cache_entry **ces = data;
	struct work_dirs wd;
	size_t run;

	(void)thread;
	init_work_dirs(&wd);
	while ((run = __atomic_fetch_add(&preload.next_run, 1,
					 __ATOMIC_RELAXED)) < preload.nr_runs) {
		size_t i = run * preload.run_len, end = i + preload.run_len;
		unsigned int marked = 0;

		if (end > active_nr)
			end = active_nr;
		for (; i < end; i++)
			marked += preload_entry(&wd, ces[i]);
		__atomic_fetch_add(&preload.marked, marked, __ATOMIC_RELAXED);
	}
	close_work_dirs(&wd);
	return 1;
}

/* Worth threads only past a few thousand entries, as git's preload. */
#define PRELOAD_MIN 1000

unsigned int preload_index(int (*wanted)(const char *name))
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (active_nr < PRELOAD_MIN)
		return active_nr;
	if (cores < 1)
		cores = 1;
	if (cores > PRELOAD_THREADS_MAX)
		cores = PRELOAD_THREADS_MAX;
	preload_wanted = wanted;
	preload.marked = 0;
	preload.next_run = 0;
	preload.run_len = active_nr / PRELOAD_RUNS_MIN;
	if (preload.run_len > PRELOAD_RUN_MAX)
		preload.run_len = PRELOAD_RUN_MAX;
	preload.nr_runs = (active_nr + preload.run_len - 1) / preload.run_len;
	run_parallel_own_fds(cores, 0, cores, preload_thread, active_cache);
	preload_wanted = NULL;
	return active_nr - preload.marked;
}

/* ---- refreshing an entry from its work-tree file ---- */

/*
 * A gitlink is never hashed: it is stale when its directory is gone, or
 * holds a repository whose HEAD is another commit (as git: a directory
 * that is no repository, or whose HEAD names nothing, is up to date).
 */
static int refresh_gitlink(struct cache_entry *ce, const struct stat *st)
{
	unsigned char head[HASH_MAX_RAWSZ];

	if (!S_ISDIR(st->st_mode))
		return 1;
	if (!resolve_gitlink_head(ce->name, head) &&
	    !hasheq(head, ce->sha1))
		return 1;
	ce->ce_state |= CE_UPTODATE;
	return 0;
}

int refresh_cache_entry(struct cache_entry *ce, unsigned int flags)
{
	unsigned int changed;
	struct stat st;

	if ((ce->ce_ext_flags & CE_SKIP_WORKTREE) &&
	    !(flags & REFRESH_IGNORE_SKIP_WORKTREE))
		return 0;	/* sparse: not in the work tree by design */
	if (ce->ce_state & CE_UPTODATE)
		return 0;
	if (ce->ce_ext_flags & CE_INTENT_TO_ADD)
		return 1;	/* "add -N": not added yet */
	if (lstat_work_path(ce->name, &st) < 0)
		return 1;
	if (S_ISGITLINK(ce->ce_mode))
		return refresh_gitlink(ce, &st);
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return 1;
	changed = ce_match_stat(ce, &st);
	if (changed & (TYPE_CHANGED | MODE_CHANGED))
		return 1;
	if (changed) {
		if (path_matches_sha1(ce->name, &st, ce->sha1) != 1)
			return 1;
		fill_stat_cache_info(ce, &st);
	}
	ce->ce_state |= CE_UPTODATE;
	return 0;
}

/* ---- the sparse index ---- */

struct expansion {
	struct cache_entry **out;
	size_t nr, alloc;
	struct mbuf path;
};

static void push_entry(struct expansion *x, struct cache_entry *ce)
{
	ALLOC_GROW(x->out, x->nr + 1, x->alloc);
	x->out[x->nr++] = ce;
}

/* The entries of tree sha1, below x->path (which ends in '/'). */
static int expand_tree(struct expansion *x, const unsigned char *sha1)
{
	size_t size, len = x->path.len;
	void *buf = read_object_peeled(sha1, OBJ_TREE, &size, NULL);
	struct tree_desc d;
	struct name_entry e;
	int r, ret = 0;

	if (!buf)
		return -1;
	init_tree_desc(&d, buf, size);
	while (!ret && (r = tree_entry_next(&d, &e)) > 0) {
		x->path.len = len;
		if (mbuf_add(&x->path, e.path, e.pathlen) < 0) {
			ret = error("out of memory expanding '%s'",
				    x->path.buf);
		} else if (S_ISDIR(e.mode)) {
			mbuf_addch(&x->path, '/');
			ret = expand_tree(x, e.sha1);
		} else {
			struct cache_entry *ce =
				make_cache_entry(x->path.buf, x->path.len);

			ce->ce_mode = e.mode;
			hashcpy(ce->sha1, e.sha1);
			ce->ce_ext_flags = CE_SKIP_WORKTREE;
			push_entry(x, ce);
		}
	}
	if (!ret && r < 0)
		ret = error("tree %s is malformed", sha1_to_hex(sha1));
	x->path.len = len;
	free(buf);
	return ret;
}

/* After a failure: free the new entries, not the index's own. */
static void drop_expansion(struct expansion *x)
{
	unsigned int j = 0;
	size_t k;

	for (k = 0; k < x->nr; k++) {
		while (j < active_nr && ce_sparse_dir(active_cache[j]))
			j++;
		if (j < active_nr && x->out[k] == active_cache[j])
			j++;
		else
			free_cache_entry(x->out[k]);
	}
	free(x->out);
	free(x->path.buf);
}

int expand_sparse_index(void)
{
	struct expansion x = { NULL, 0, 0, MBUF_INIT };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < active_nr; i++)
		if (ce_sparse_dir(active_cache[i]))
			break;
	if (i == active_nr)
		return 0;
	for (i = 0; !ret && i < active_nr; i++) {
		struct cache_entry *ce = active_cache[i];

		if (!ce_sparse_dir(ce)) {
			push_entry(&x, ce);
			continue;
		}
		x.path.len = 0;
		mbuf_add(&x.path, ce->name, ce->ce_namelen);
		ret = expand_tree(&x, ce->sha1);
	}
	if (ret) {
		drop_expansion(&x);
		return ret;
	}
	for (i = 0; i < active_nr; i++)
		if (ce_sparse_dir(active_cache[i]))
			free_cache_entry(active_cache[i]);
	free(active_cache);
	active_cache = x.out;
	active_nr = x.nr;
	active_alloc = x.alloc;
	free(x.path.buf);
	return 0;
}

int path_in_sparse_dir(const char *path, size_t len)
{
	int pos = cache_name_pos(path, len);
	const struct cache_entry *ce;

	if (pos >= 0)
		return 0;
	pos = -pos - 1;
	if (!pos)
		return 0;
	ce = active_cache[pos - 1];
	return ce_sparse_dir(ce) && ce->ce_namelen < len &&
	       !memcmp(ce->name, path, ce->ce_namelen);
}
