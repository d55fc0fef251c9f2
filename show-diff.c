/*
 * show-diff: what changed in the working tree since the index.
 *
 * Each index entry is lstat'ed first and its content looked at only
 * when the stat data differs (or the entry is racily clean), and then
 * a file counts as changed only when its content or mode does: a file
 * that was merely touched is not a change.  The output is git's: a
 * patch that git apply and patch -p1 apply to the indexed tree, or with
 * -s the lines of git diff-files --name-status (-z: NUL-terminated).
 * -z alone implies -s.  -q only answers, by the exit status, whether
 * anything changed.  An unmerged path shows as "U" (plus the work tree
 * against stage 2, as git), or "* Unmerged path p" in a patch: there is
 * no single pair to diff.  Paths name files or directories to compare.
 *
 * -M[<n>] (--find-renames[=<n>]) finds renames as git diff-files -M
 * does, and --diff-renames as git diff does (unless diff.renames is
 * false): here a file can only be renamed to an intent-to-add entry
 * ("git add -N"), so without one nothing changes.  With one, the
 * files gone from the work tree and the intent-to-add ones are paired
 * first (diff-rename.c); a rename shows at the new path ("R<score>",
 * or a rename patch) and its old path not at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"

static const char show_diff_usage[] =
	"show-diff [-q] [-s] [-z] [--binary] [--full-index] "
	"[--abbrev[=<n>]] [-M[<n>] | --find-renames[=<n>] | --no-renames | "
	"--diff-renames] [--] [<path>...]";

static int quiet, name_status, nul_terminate;
static struct diff_options diff_opts;

static struct pathspec pathspec;

/* For preload_index: is this index entry among the paths asked for? */
static int path_wanted(const char *name)
{
	return match_pathspec(&pathspec, name, strlen(name));
}

/* ---- reading both sides ---- */

/* The indexed blob; f: on a worker, print nothing (-1 with f). */
static int side_from_entry(struct diff_side *s, const struct cache_entry *ce,
			   struct fault *f)
{
	enum object_type type;

	s->path = ce->name;
	s->mode = ce->ce_mode;
	hashcpy(s->sha1, ce->sha1);
	if (S_ISGITLINK(ce->ce_mode))
		return 0;
	if (!f) {
		s->data = read_object_of_type(ce->sha1, OBJ_BLOB, &s->size);
		return s->data ? 0 : -1;
	}
	s->data = read_object(ce->sha1, &type, &s->size, f);
	if (s->data && type != OBJ_BLOB) {
		free((char *)s->data);
		s->data = NULL;
		return set_fault(f, FAULT_CORRUPT, "not a blob");
	}
	return s->data ? 0 : -1;
}

/* The work file; s->data may hold it already (compare_entry kept it). */
static int side_from_work(struct diff_side *s, const char *name,
			  const struct stat *st, struct fault *f)
{
	s->path = name;
	s->mode = ce_mode_from_stat(st->st_mode);
	if (s->data)
		return 0;
	s->data = f ? read_work_file_f(name, st, &s->size, f) :
		  read_work_file(name, st, &s->size);
	if (!s->data)
		return -1;
	hash_sha1_file(s->data, s->size, OBJ_BLOB, s->sha1);
	return 0;
}

/* ---- output ---- */

static void show_status(char status, const char *name)
{
	putchar(status);
	write_name_field(stdout, name, strlen(name), nul_terminate);
}

static int patch_pair(FILE *out, const struct diff_side *one,
		      const struct diff_side *two, struct fault *ahead)
{
	if (ahead)
		return print_patch_f(out, one, two, &diff_opts, ahead);
	return print_patch(out, one, two, &diff_opts);
}

/*
 * Print the patch for one changed entry to out: status 'M', 'A'
 * (intent to add), 'D' or 'T' (a type change is a deletion plus an
 * addition, as git prints it).  work is the work-tree side when
 * compare_entry read it already, else all zero; it is freed here.
 * What cannot be read or written is fatal, unless ahead (on a worker,
 * see below: f): then it is -1, with f, and nothing printed.
 */
static int show_patch(FILE *out, char status, const struct cache_entry *ce,
		      const struct stat *st, struct diff_side *work,
		      struct fault *ahead)
{
	struct diff_side one, two, none;
	int ret = 0;

	memset(&one, 0, sizeof(one));
	two = *work;
	memset(&none, 0, sizeof(none));
	none.path = ce->name;
	one.path = ce->name;
	if (status != 'A' && side_from_entry(&one, ce, ahead) < 0) {
		free((char *)two.data);
		if (ahead)
			return -1;
		die("cannot read the indexed content of '%s'", ce->name);
	}
	if (status != 'D' && side_from_work(&two, ce->name, st, ahead) < 0) {
		free((char *)one.data);
		if (ahead)
			return -1;
		exit(128);
	}
	if (status == 'M' || status == 'A') {
		ret = patch_pair(out, &one, &two, ahead);
	} else {
		ret = patch_pair(out, &one, &none, ahead);
		if (status == 'T' && !ret)
			ret = patch_pair(out, &none, &two, ahead);
	}
	free((char *)one.data);
	free((char *)two.data);
	if (ret < 0 && !ahead)
		die("cannot write the patch for '%s'", ce->name);
	return ret;
}

/* ---- comparing ---- */

/* What compare_entry says of an entry it could not look at, ahead. */
#define REDO 'R'

/*
 * lstat name; 0 when it exists, 1 when it is gone (or beyond a
 * symlink, as git sees it); other errors are fatal, or -1 when ahead.
 */
static int lstat_work(const char *name, struct stat *st, struct fault *ahead)
{
	if (!lstat_work_path(name, st))
		return 0;
	if (errno == ENOENT || errno == ENOTDIR)
		return 1;
	if (ahead)
		return set_fault_errno(ahead, "lstat '%s'", name);
	die_errno("lstat '%s'", name);
}

/*
 * How the work tree differs from ce: 0 (not at all), 'M', 'D' or 'T'.
 * Content is hashed only when the stat data says it may have changed;
 * the bytes hashed are kept in work (all zero on entry) for the patch.
 * Failures are fatal, or REDO when ahead (with the fault in ahead).
 * A racily clean entry is hashed as a changed one is: the hash decides.
 */
static char compare_entry(const struct cache_entry *ce, struct stat *st,
			  struct diff_side *work, struct fault *ahead)
{
	unsigned int changed;
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *data;
	int gone;

	if (ce->ce_state & CE_UPTODATE)
		return 0;	/* preload_index saw it unchanged */
	if (ce->ce_ext_flags & CE_SKIP_WORKTREE)
		return 0;	/* sparse: its absence is no change */
	gone = lstat_work(ce->name, st, ahead);
	if (gone)
		return gone > 0 ? 'D' : REDO;
	if (ce->ce_ext_flags & CE_INTENT_TO_ADD)
		return 'A';	/* "git add -N": a new file, as git shows it */
	if (S_ISGITLINK(ce->ce_mode))
		return S_ISDIR(st->st_mode) ? 0 : 'T';
	if (S_ISDIR(st->st_mode))
		return 'D';	/* git: a directory where a file was */
	if (!S_ISREG(st->st_mode) && !S_ISLNK(st->st_mode))
		return 'M';	/* git: a FIFO is a change it cannot hash */
	changed = ce_match_stat_basic(ce, st);
	if (!changed && ce_is_racy(ce))
		changed = DATA_CHANGED;
	if (!changed)
		return 0;
	if (changed & TYPE_CHANGED)
		return 'T';
	if (changed & MODE_CHANGED)
		return 'M';
	if (ahead ? hash_work_file(ce->name, st, sha1, &data, &work->size,
				   ahead) < 0 :
		    index_path_keep(ce->name, st, 0, sha1, &data,
				    &work->size) < 0) {
		if (ahead)
			return REDO;
		die("cannot hash '%s'", ce->name);
	}
	if (hasheq(sha1, ce->sha1)) {
		free(data);
		return 0;
	}
	work->data = data;
	hashcpy(work->sha1, sha1);
	return 'M';
}

/*
 * An unmerged path (entries i.. with stages): "U", then the work tree
 * against "our" side (stage 2) as git diff-files does, whose missing
 * stat data always reads as a modification.  In a patch that is
 * "* Unmerged path p" and the patch against stage 2; git shows a path
 * with both stages 2 and 3 as a combined diff instead, which we do not
 * write (the line alone stands for it).
 */
static unsigned int show_unmerged(unsigned int i, int *differs)
{
	const char *name = active_cache[i]->name;
	const struct cache_entry *ours = NULL;
	struct diff_side work;
	int theirs = 0;
	struct stat st;
	char status;

	for (; i < active_nr && !strcmp(active_cache[i]->name, name); i++) {
		if (ce_stage(active_cache[i]) == 2)
			ours = active_cache[i];
		if (ce_stage(active_cache[i]) == 3)
			theirs = 1;
	}
	*differs = 1;
	if (quiet)
		return i;
	if (!name_status) {
		/* git writes this name as it is, unquoted */
		printf("* Unmerged path %s\n", name);
	} else {
		show_status('U', name);
	}
	if (!ours || (!name_status && theirs))
		return i;
	memset(&work, 0, sizeof(work));
	if (lstat_work(name, &st, NULL) || S_ISDIR(st.st_mode))
		status = 'D';
	else if ((ce_mode_from_stat(st.st_mode) & S_IFMT) !=
		 (ours->ce_mode & S_IFMT))
		status = 'T';
	else
		status = 'M';
	if (name_status)
		show_status(status, name);
	else
		show_patch(stdout, status, ours, &st, &work, NULL);
	return i;
}

/* ---- -M: renames to intent-to-add entries ---- */

static int detect_renames;
static struct rename_options rename_opts;
static int *rename_from;	/* per index position: the old entry, or -1 */
static int *rename_score;
static char *rename_gone;	/* per index position: an old entry */
static const struct rename_file *rename_dsts;
static size_t nr_rename_dsts;

/* Content for diff-rename.c: a destination's work file, or the blob. */
static void *read_rename_file(const struct rename_file *f, size_t *size,
			      void *data)
{
	struct stat st;

	(void)data;
	if (f >= rename_dsts && f < rename_dsts + nr_rename_dsts) {
		if (lstat(f->path, &st) < 0)
			return NULL;
		return read_work_file(f->path, &st, size);
	}
	return read_object_of_type(f->sha1, OBJ_BLOB, size);
}

static int has_intent_to_add(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++)
		if (active_cache[i]->ce_ext_flags & CE_INTENT_TO_ADD)
			return 1;
	return 0;
}

/* The entry's side as a rename source ('D') or destination ('A'). */
static int rename_side(unsigned int i, struct rename_file *f)
{
	const struct cache_entry *ce = active_cache[i];
	struct diff_side work;
	struct stat st;
	char status;

	if (ce_stage(ce) || !path_wanted(ce->name))
		return 0;
	memset(&work, 0, sizeof(work));
	status = compare_entry(ce, &st, &work, NULL);
	free((char *)work.data);
	if (status != 'A' && status != 'D')
		return 0;
	memset(&work, 0, sizeof(work));
	f->path = ce->name;
	f->mode = ce->ce_mode;
	hashcpy(f->sha1, ce->sha1);
	if (status == 'A') {
		if (side_from_work(&work, ce->name, &st, NULL) < 0)
			exit(128);
		f->mode = work.mode;
		hashcpy(f->sha1, work.sha1);
		free((char *)work.data);
	}
	return status;
}

/* Pair the deleted files with the intent-to-add ones; 1 if any. */
static int find_work_renames(void)
{
	struct rename_file *src, *dst, f;
	unsigned int *si, *di, i;
	size_t nr_s = 0, nr_d = 0, j;
	int found = 0, needed = 0;

	if (!detect_renames || !has_intent_to_add())
		return 0;
	src = xmalloc((active_nr + 1) * sizeof(*src));
	dst = xmalloc((active_nr + 1) * sizeof(*dst));
	si = xmalloc((active_nr + 1) * sizeof(*si));
	di = xmalloc((active_nr + 1) * sizeof(*di));
	rename_from = xmalloc((active_nr + 1) * sizeof(*rename_from));
	rename_score = xmalloc((active_nr + 1) * sizeof(*rename_score));
	rename_gone = xcalloc(active_nr + 1, 1);
	for (i = 0; i < active_nr; i++) {
		int side = rename_side(i, &f);

		rename_from[i] = -1;
		if (side == 'D') {
			si[nr_s] = i;
			src[nr_s++] = f;
		} else if (side == 'A') {
			di[nr_d] = i;
			dst[nr_d++] = f;
		}
	}
	rename_dsts = dst;
	nr_rename_dsts = nr_d;
	rename_opts.read = read_rename_file;
	if (nr_s && nr_d) {
		int *from = xmalloc(nr_d * sizeof(*from));
		int *score = xmalloc(nr_d * sizeof(*score));

		needed = find_renames(src, nr_s, dst, nr_d, &rename_opts, from,
				      score);
		for (j = 0; j < nr_d; j++) {
			if (from[j] < 0)
				continue;
			rename_from[di[j]] = si[from[j]];
			rename_score[di[j]] = score[j];
			rename_gone[si[from[j]]] = 1;
			found = 1;
		}
		free(from);
		free(score);
	}
	if (needed)
		warn_rename_limit("diff.renameLimit", needed);
	free(src);
	free(dst);
	free(si);
	free(di);
	return found;
}

/* A rename to entry i: "R<score>" and both names, or its patch. */
static void show_rename(unsigned int i)
{
	const struct cache_entry *old = active_cache[rename_from[i]];
	const struct cache_entry *ce = active_cache[i];
	struct diff_side one, two;
	struct stat st;

	if (name_status) {
		printf("R%03d", RENAME_PERCENT(rename_score[i]));
		if (nul_terminate) {
			printf("%c%s%c%s%c", 0, old->name, 0, ce->name, 0);
			return;
		}
		putchar('\t');
		write_quoted_path(stdout, "", old->name, strlen(old->name));
		write_name_field(stdout, ce->name, strlen(ce->name), 0);
		return;
	}
	memset(&one, 0, sizeof(one));
	memset(&two, 0, sizeof(two));
	if (side_from_entry(&one, old, NULL) < 0)
		die("cannot read the indexed content of '%s'", old->name);
	if (lstat(ce->name, &st) < 0)
		die_errno("lstat '%s'", ce->name);
	if (side_from_work(&two, ce->name, &st, NULL) < 0)
		exit(128);
	diff_opts.rename_score = rename_score[i];
	if (print_patch(stdout, &one, &two, &diff_opts) < 0)
		die("cannot write the patch for '%s'", ce->name);
	free((char *)one.data);
	free((char *)two.data);
}

/* Compare entry i (of stage 0) and show how it differs; 1 if it does. */
static int show_entry(unsigned int i)
{
	const struct cache_entry *ce = active_cache[i];
	struct diff_side work;
	struct stat st;
	char status;

	if (rename_gone && rename_gone[i])
		return 1;
	if (rename_from && rename_from[i] >= 0) {
		if (!quiet)
			show_rename(i);
		return 1;
	}
	memset(&work, 0, sizeof(work));
	status = compare_entry(ce, &st, &work, NULL);
	if (status && !quiet && !name_status)
		show_patch(stdout, status, ce, &st, &work, NULL);
	else
		free((char *)work.data);
	if (status && !quiet && name_status)
		show_status(status, ce->name);
	return status != 0;
}

/* ---- working ahead, on every core ---- */

/*
 * With many entries whose stat data changed (a checkout of another
 * tree, a sed over the sources), comparing them, reading both sides
 * and making the patches is most of the work: it is done on every
 * core, a batch of entries at a time, each patch into memory, and
 * printed in index order.  A worker prints nothing: what fails there
 * is a struct fault (the library's silent readers), and the entry is
 * done again, in order, by the main thread, which reports it exactly
 * as it would have without workers (and dies at the same place in the
 * output).
 */
#define AHEAD_BATCH 256
/*
 * A batch's patches wait in memory to be printed: it ends early once
 * its entries' indexed sizes add up to this, so that big files changed
 * together hold a few MiB of patches, not hundreds.
 */
#define AHEAD_BYTES (4 * 1024 * 1024)

struct ahead {
	unsigned int pos;	/* in the index */
	char status;		/* compare_entry's, or REDO */
	char *patch;		/* malloc'd, or NULL */
	size_t len;
};

static size_t work_ahead(void *data, size_t k)
{
	struct ahead *a = (struct ahead *)data + k;
	const struct cache_entry *ce = active_cache[a->pos];
	struct diff_side work;
	struct stat st;
	FILE *out = NULL;
	struct fault f;

	memset(&work, 0, sizeof(work));
	a->status = compare_entry(ce, &st, &work, &f);
	if (a->status && a->status != REDO && !name_status &&
	    !(out = open_memstream(&a->patch, &a->len)))
		a->status = REDO;
	if (out) {
		if (show_patch(out, a->status, ce, &st, &work, &f) < 0)
			a->status = REDO;
		if (fclose(out))
			a->status = REDO;
	} else {
		free((char *)work.data);
	}
	return 1;
}

/*
 * The entries to compare from *i on, at most max; *i moves on past the
 * last (so never into an unmerged path).
 */
static size_t gather_batch(struct ahead *batch, size_t max, unsigned int *i)
{
	size_t n = 0, bytes = 0;

	for (; *i < active_nr && n < max && bytes < AHEAD_BYTES; ++*i) {
		const struct cache_entry *ce = active_cache[*i];

		if (ce_stage(ce) || (ce->ce_state & CE_UPTODATE) ||
		    (ce->ce_ext_flags & CE_SKIP_WORKTREE) ||
		    !path_wanted(ce->name))
			continue;
		batch[n].pos = *i;
		batch[n].patch = NULL;
		bytes += ce->ce_size;
		n++;
	}
	return n;
}

/* Show entries from..to, with what the workers found for batch. */
static int show_batch(unsigned int from, unsigned int to,
		      struct ahead *batch, size_t n)
{
	struct ahead *end = batch + n;
	unsigned int i = from;
	int differs = 0;

	while (i < to) {
		const struct cache_entry *ce = active_cache[i];

		if (!path_wanted(ce->name)) {
			i++;
		} else if (ce_stage(ce)) {
			i = show_unmerged(i, &differs);
		} else if (batch == end || batch->pos != i) {
			i++;		/* unchanged, as preload_index saw */
		} else {
			if (batch->status == REDO)
				differs |= show_entry(i);
			else if (batch->status && name_status)
				show_status(batch->status, ce->name);
			else if (batch->status)
				fwrite(batch->patch, 1, batch->len, stdout);
			if (batch->status && batch->status != REDO)
				differs = 1;
			free(batch->patch);
			batch++;
			i++;
		}
	}
	return differs;
}

/* Worth the workers from this many entries to compare. */
#define AHEAD_MIN 64

static int enough_to_work_ahead(void)
{
	unsigned int i = 0;
	struct ahead probe[AHEAD_MIN];
	size_t n = 0;

	while (i < active_nr && n < AHEAD_MIN)
		n += gather_batch(probe + n, AHEAD_MIN - n, &i);
	return n >= AHEAD_MIN;
}

static int show_changes_ahead(void)
{
	struct ahead *batch = xmalloc(AHEAD_BATCH * sizeof(*batch));
	unsigned int i = 0, from;
	int differs = 0;

	if (!name_status)
		list_loose_objects();	/* for the abbreviated ids */
	while (i < active_nr) {
		size_t n;

		from = i;
		n = gather_batch(batch, AHEAD_BATCH, &i);
		run_parallel(0, n, work_ahead, batch, NULL, 0);
		differs |= show_batch(from, i, batch, n);
	}
	free(batch);
	return differs;
}

/* Compare every wanted entry; returns 1 when something differs. */
static int show_changes(void)
{
	unsigned int i = 0;
	int differs = 0;

	if (!quiet && !find_work_renames() && enough_to_work_ahead())
		return show_changes_ahead();
	while (i < active_nr && !(differs && quiet)) {
		const struct cache_entry *ce = active_cache[i];

		if (!path_wanted(ce->name))
			i++;
		else if (ce_stage(ce))
			i = show_unmerged(i, &differs);
		else
			differs |= show_entry(i++);
	}
	return differs;
}

int main(int argc, char **argv)
{
	unsigned int left;
	int i, r, differs;

	setup_tool(argv[0]);
	handle_help(argc, argv, show_diff_usage);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-q"))
			quiet = 1;
		else if (!strcmp(arg, "-s"))
			name_status = 1;
		else if (!strcmp(arg, "-z"))
			nul_terminate = 1;
		else if (!strcmp(arg, "--binary"))
			diff_opts.binary = 1;
		else if (parse_diff_option(&diff_opts, arg))
			;
		else if (!strcmp(arg, "--no-renames"))
			detect_renames = 0;
		else if (!strcmp(arg, "--diff-renames"))
			detect_renames = -1;
		else if ((r = parse_rename_option(arg, &rename_opts)) > 0)
			detect_renames = 1;
		else if (r < 0)
			exit(128);
		else if (arg[0] == '-')
			usage(show_diff_usage);
		else
			break;
	}
	if (nul_terminate)
		name_status = 1;	/* -z is --name-status -z */
	if (parse_pathspec(&pathspec, argv + i, argc - i) < 0)
		exit(128);
	if (setup_repository() < 0)
		exit(128);
	/* it writes no index: no cache tree, no digest of the entries */
	index_read_only();
	if (setup_diff_renames(&detect_renames, &rename_opts) < 0)
		exit(128);
	/* the index checksum is computed while the paths are lstat'ed */
	if (read_cache_overlapped() < 0)
		die("cannot read the index");
	left = preload_index(pathspec.match_all ? NULL : path_wanted);
	if (finish_index_check() < 0)
		exit(128);
	/* every entry matched its file: nothing to show, no walk to do */
	differs = left ? show_changes() : 0;
	clear_pathspec(&pathspec);
	finish_stdout();
	return quiet && differs ? 1 : 0;
}
