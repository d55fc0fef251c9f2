/*
 * gen-history: write a `git fast-import` stream of a history shaped
 * like git.git's, for the bench's history rows (bench/ops/history.sh):
 *
 *   gen-history <commits> <files> | git fast-import --quiet
 *
 * The same arguments give the same stream, byte for byte (one fixed
 * pseudo-random sequence, fixed names and dates), so the same object
 * ids on every machine.  What it makes, for <commits> = 200,000 and
 * <files> = 4,000 (git.git: 203,352 commits, 56,356 merges, ~4,300
 * files, 1,006 tags):
 * - text files of source-like lines, from a few lines to ~55 KB (mean
 *   ~7 KB), in <files>/14 directories up to three deep, 30% of them at
 *   the top; a quarter exist in the first commit, the rest are added
 *   over the history;
 * - topic branches forked from master, a few commits each, merged back
 *   by a merge commit on master (its first-parent mainline is the
 *   merges and a few direct commits), about a quarter of all commits
 *   merges; now and then a topic merged once merges master back and
 *   goes on (a criss-cross: its next merge has two merge bases);
 * - every commit but a merge changes 1-5 files by small line edits
 *   (replace, insert or delete a few lines), so the versions delta
 *   well; hot files (the older ones) change more often;
 * - an annotated tag every <mainline>/1000 mainline commits (~1,000).
 * Refs at the end: master, topic-0 ... topic-7 (the last topics, some
 * unmerged) and the tags.  A merge's tree is master's with the topic's
 * files in the topic's version (no content merge: git does not check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define SLOTS 8			/* topics in flight, refs topic-0 ... */
#define TOPIC_FILES 64		/* files one topic may touch */
#define VOCAB 400

struct file {
	char **lines;		/* the lines, each ending in '\n' */
	int nr;
	int alloc;
	unsigned long mark;	/* blob mark of this version, 0 if none */
	int dir;
};

struct topic {
	int active;
	int id;
	unsigned long fork;	/* master's commit mark it starts from */
	unsigned long tip;	/* its last commit's mark, 0 if none yet */
	int nfiles;
	int idx[TOPIC_FILES];	/* file numbers it changed or added */
	struct file f[TOPIC_FILES];
	int nr_commits;
};

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;
static char *vocab[VOCAB];
static char **dir_names;
static int ndirs;
static struct file *master;	/* master's version of every file */
static int nfiles_total;	/* files the history ends with */
static int nfiles_made;		/* files created so far (numbered) */
static char *in_master;		/* file n exists on master */
static unsigned long next_mark = 1;
static unsigned long master_tip;
static long long now_time = 1112911993;
static unsigned long commits_made;
static unsigned long mainline;
static unsigned long tag_every;
static unsigned long ntags;
static struct topic topics[SLOTS];
static int topic_ids;

static unsigned long long rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int below(unsigned int n)
{
	return n ? (unsigned int)(rng() % n) : 0;
}

static double unit(void)
{
	return (rng() >> 11) * (1.0 / 9007199254740992.0);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "gen-history: out of memory\n");
		exit(1);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "gen-history: out of memory\n");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* Pronounceable words of two to four syllables: the identifiers. */
static void make_vocab(void)
{
	static const char *syl[] = { "ba", "co", "de", "fi", "gu", "ha",
		"ke", "li", "mo", "nu", "pa", "re", "si", "to", "va", "we",
		"xy", "zo", "str", "buf", "len", "obj", "tree", "ref", "pack",
		"idx", "hash", "diff", "path", "name" };
	char w[64];
	int i, k, n;

	for (i = 0; i < VOCAB; i++) {
		w[0] = '\0';
		n = 2 + below(3);
		for (k = 0; k < n; k++)
			strcat(w, syl[below(sizeof(syl) / sizeof(*syl))]);
		vocab[i] = xstrdup(w);
	}
}

/* One source-like line: indent, words and punctuation, a newline. */
static char *make_line(void)
{
	static const char *sep[] = { " ", "_", "(", ", ", " = ", "->",
		" + ", "." };
	static const char *end[] = { ";", "", " {", ");", "}", ",",
		" */" };
	char buf[512];
	int i, n = 1 + below(8), tabs = below(4);
	size_t len = 0;

	for (i = 0; i < tabs; i++)
		buf[len++] = '\t';
	buf[len] = '\0';
	for (i = 0; i < n; i++) {
		/* Zipf-like: a few words are most of the text. */
		int w = (int)(VOCAB * unit() * unit());

		if (i)
			strcat(buf, sep[below(sizeof(sep) / sizeof(*sep))]);
		strcat(buf, vocab[w]);
	}
	strcat(buf, end[below(sizeof(end) / sizeof(*end))]);
	strcat(buf, "\n");
	return xstrdup(buf);
}

static void file_insert(struct file *f, int at, char *line)
{
	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 16;
		f->lines = xrealloc(f->lines, f->alloc * sizeof(*f->lines));
	}
	memmove(f->lines + at + 1, f->lines + at,
		(f->nr - at) * sizeof(*f->lines));
	f->lines[at] = line;
	f->nr++;
}

/* A copy of f's line array; the lines themselves are shared. */
static void file_copy(struct file *dst, const struct file *src)
{
	dst->nr = src->nr;
	dst->alloc = src->nr ? src->nr : 1;
	dst->lines = xmalloc(dst->alloc * sizeof(*dst->lines));
	memcpy(dst->lines, src->lines, src->nr * sizeof(*src->lines));
	dst->mark = src->mark;
	dst->dir = src->dir;
}

/*
 * A new file of 5 to ~1,500 lines (mean ~200), file n: files are
 * placed 14 at a time, so that neighbours share a directory, 30% of
 * them at the top.
 */
static void file_new(struct file *f, int n)
{
	unsigned long long h = (unsigned long long)(n / 14 + 1) *
		0x9e3779b97f4a7c15ULL;
	int i, lines = 5 + (int)exp(unit() * log(1500.0));

	memset(f, 0, sizeof(*f));
	for (i = 0; i < lines; i++)
		file_insert(f, f->nr, make_line());
	h ^= h >> 29;
	f->dir = h % 10 < 3 ? 0 : 1 + (int)((h >> 8) % (ndirs - 1));
}

/* A small edit: replace, insert or delete a few lines at one place. */
static void file_edit(struct file *f)
{
	int at = below(f->nr + 1), k, n = 1 + below(3);

	switch (below(3)) {
	case 0:			/* replace; at the end, append */
		if (at + n <= f->nr) {
			for (k = 0; k < n; k++)
				f->lines[at + k] = make_line();
			break;
		}
		for (k = 0; k < n; k++)
			file_insert(f, f->nr, make_line());
		break;
	case 1:			/* insert */
		for (k = 0; k < n + 1; k++)
			file_insert(f, at, make_line());
		break;
	default:		/* delete, never the last lines */
		for (k = 0; k < n && f->nr > 3 && at < f->nr; k++) {
			memmove(f->lines + at, f->lines + at + 1,
				(f->nr - at - 1) * sizeof(*f->lines));
			f->nr--;
		}
	}
}

/* Directories: each under an earlier one, the top (0) most often. */
static void make_dirs(int n)
{
	char buf[1024];
	int i, depth[4096];

	if (n > 4096)
		n = 4096;
	ndirs = n;
	dir_names = xmalloc(n * sizeof(*dir_names));
	dir_names[0] = xstrdup("");
	depth[0] = 0;
	for (i = 1; i < n; i++) {
		int parent = unit() < 0.6 ? 0 : below(i);

		if (depth[parent] >= 2)
			parent = 0;
		snprintf(buf, sizeof(buf), "%s%s%d/", dir_names[parent],
			 vocab[below(VOCAB)], i);
		dir_names[i] = xstrdup(buf);
		depth[i] = depth[parent] + 1;
	}
}

static void path_of(char *buf, size_t size, int n, int dir)
{
	static const char *ext[] = { ".c", ".h", ".sh", ".txt", ".c", ".pl" };

	snprintf(buf, size, "%s%s-%d%s", dir_names[dir], vocab[n % VOCAB], n,
		 ext[n % 6]);
}

static void emit_blob(struct file *f)
{
	size_t len = 0;
	int i;

	for (i = 0; i < f->nr; i++)
		len += strlen(f->lines[i]);
	f->mark = next_mark++;
	printf("blob\nmark :%lu\ndata %zu\n", f->mark, len);
	for (i = 0; i < f->nr; i++)
		fputs(f->lines[i], stdout);
	putchar('\n');
}

static void emit_modify(int n, const struct file *f)
{
	char path[2048];

	path_of(path, sizeof(path), n, f->dir);
	printf("M 100644 :%lu %s\n", f->mark, path);
}

/* The commit header: ref, mark, author, committer, message, parents. */
static unsigned long emit_commit(const char *ref, const char *msg,
				 unsigned long from, unsigned long merge)
{
	unsigned long mark = next_mark++;
	int who = below(60);

	now_time += 60 + below(3000);
	printf("commit %s\nmark :%lu\n", ref, mark);
	printf("author Dev%d Eloper <dev%d@example.com> %lld +0000\n", who,
	       who, now_time - below(86400));
	printf("committer Main Tainer <maint@example.com> %lld +0000\n",
	       now_time);
	printf("data %zu\n%s\n", strlen(msg), msg);
	if (from)
		printf("from :%lu\n", from);
	if (merge)
		printf("merge :%lu\n", merge);
	commits_made++;
	return mark;
}

static int files_per_commit(void)
{
	double u = unit();

	return u < 0.55 ? 1 : u < 0.80 ? 2 : u < 0.90 ? 3 : u < 0.96 ? 4 : 5;
}

/*
 * A file of master's to change: the older ones more often; after the
 * first of a commit (near >= 0), most often one of its neighbours, in
 * the same directory.
 */
static int pick_master_file(int near)
{
	int n, tries = 0;

	do {
		if (near >= 0 && tries < 8 && unit() < 0.7)
			n = near - near % 14 + below(14);
		else
			n = (int)(nfiles_made * unit() * unit());
		tries++;
	} while (n >= nfiles_made || !in_master[n]);
	return n;
}

/* Should this commit add a new file, so that all exist at the end? */
static int want_new_file(unsigned long commits_total)
{
	unsigned long left = commits_total > commits_made ?
		commits_total - commits_made : 1;

	return nfiles_made < nfiles_total &&
		unit() < 1.6 * (nfiles_total - nfiles_made) / (double)left;
}

static struct file *topic_file(struct topic *t, int n)
{
	int i;

	for (i = 0; i < t->nfiles; i++)
		if (t->idx[i] == n)
			return &t->f[i];
	if (t->nfiles == TOPIC_FILES)
		return NULL;
	t->idx[t->nfiles] = n;
	file_copy(&t->f[t->nfiles], &master[n]);
	return &t->f[t->nfiles++];
}

static void topic_free(struct topic *t)
{
	int i;

	for (i = 0; i < t->nfiles; i++)
		free(t->f[i].lines);
	memset(t, 0, sizeof(*t));
}

static void maybe_tag(void)
{
	char name[64], msg[128];

	if (mainline % tag_every)
		return;
	snprintf(name, sizeof(name), "v0.%lu", ++ntags);
	snprintf(msg, sizeof(msg), "Release %s\n", name);
	printf("tag %s\nfrom :%lu\n", name, master_tip);
	printf("tagger Main Tainer <maint@example.com> %lld +0000\n",
	       now_time);
	printf("data %zu\n%s\n", strlen(msg), msg);
}

/* A commit on slot s's topic: 1-5 files edited, maybe one added. */
static void topic_commit(int s, unsigned long commits_total)
{
	struct topic *t = &topics[s];
	struct file *changed[6];
	int idx[6], i, n = files_per_commit(), k = 0;
	char ref[32], msg[128];

	for (i = 0; i < n; i++) {
		int f = pick_master_file(k ? idx[0] : -1), j;
		struct file *tf;

		for (j = 0; j < k && idx[j] != f; j++)
			;
		if (j < k || !(tf = topic_file(t, f)))
			continue;
		file_edit(tf);
		idx[k] = f;
		changed[k++] = tf;
	}
	if (want_new_file(commits_total) && t->nfiles < TOPIC_FILES) {
		int f = nfiles_made++;

		t->idx[t->nfiles] = f;
		file_new(&t->f[t->nfiles], f);
		idx[k] = f;
		changed[k++] = &t->f[t->nfiles++];
	}
	for (i = 0; i < k; i++)
		emit_blob(changed[i]);
	snprintf(ref, sizeof(ref), "refs/heads/topic-%d", s);
	snprintf(msg, sizeof(msg), "topic %d: change %d\n\nEdit %d files.\n",
		 t->id, ++t->nr_commits, k);
	t->tip = emit_commit(ref, msg, t->tip ? 0 : t->fork, 0);
	for (i = 0; i < k; i++)
		emit_modify(idx[i], changed[i]);
	putchar('\n');
}

/* A commit straight on master. */
static void master_commit(unsigned long commits_total)
{
	int idx[6], i, n = files_per_commit(), k = 0;

	for (i = 0; i < n; i++) {
		int f = pick_master_file(k ? idx[0] : -1), j;

		for (j = 0; j < k && idx[j] != f; j++)
			;
		if (j < k)
			continue;
		file_edit(&master[f]);
		idx[k++] = f;
	}
	if (want_new_file(commits_total)) {
		int f = nfiles_made++;

		file_new(&master[f], f);
		in_master[f] = 1;
		idx[k++] = f;
	}
	for (i = 0; i < k; i++)
		emit_blob(&master[idx[i]]);
	master_tip = emit_commit("refs/heads/master", "Fix a thing\n",
				 master_tip, 0);
	for (i = 0; i < k; i++)
		emit_modify(idx[i], &master[idx[i]]);
	putchar('\n');
	mainline++;
	maybe_tag();
}

/*
 * Merge slot s's topic into master: master's tree with the topic's
 * files.  Now and then the topic goes on: it merges master as it was
 * before this merge (a criss-cross) and stays in flight.
 */
static void topic_merge(int s)
{
	struct topic *t = &topics[s];
	unsigned long before = master_tip;
	char ref[32], msg[128];
	int i;

	snprintf(msg, sizeof(msg), "Merge branch 'topic-%d'\n", t->id);
	master_tip = emit_commit("refs/heads/master", msg, master_tip, t->tip);
	for (i = 0; i < t->nfiles; i++) {
		struct file *m = &master[t->idx[i]];

		emit_modify(t->idx[i], &t->f[i]);
		free(m->lines);
		file_copy(m, &t->f[i]);
		in_master[t->idx[i]] = 1;
	}
	putchar('\n');
	mainline++;
	maybe_tag();
	if (unit() < 0.1) {
		snprintf(ref, sizeof(ref), "refs/heads/topic-%d", s);
		snprintf(msg, sizeof(msg), "Merge branch 'master' into "
			 "topic-%d\n", t->id);
		t->tip = emit_commit(ref, msg, 0, before);
		putchar('\n');
		return;
	}
	topic_free(t);
}

static void topic_start(int s)
{
	topic_free(&topics[s]);
	topics[s].active = 1;
	topics[s].id = ++topic_ids;
	topics[s].fork = master_tip;
}

/* The first commit: a quarter of the files. */
static void initial_commit(void)
{
	int i, first = nfiles_total / 4;

	for (i = 0; i < first; i++) {
		file_new(&master[i], i);
		in_master[i] = 1;
		emit_blob(&master[i]);
	}
	nfiles_made = first;
	master_tip = emit_commit("refs/heads/master", "Initial revision\n",
				 0, 0);
	for (i = 0; i < first; i++)
		emit_modify(i, &master[i]);
	putchar('\n');
	mainline++;
}

int main(int argc, char **argv)
{
	unsigned long commits_total;
	int s;

	if (argc != 3 || atol(argv[1]) < 10 || atoi(argv[2]) < 8) {
		fprintf(stderr, "usage: gen-history <commits> <files>\n");
		return 129;
	}
	commits_total = atol(argv[1]);
	nfiles_total = atoi(argv[2]);
	/*
	 * About 28% of the commits are on master's first-parent line; a
	 * tag for every 200 commits, 60 at least.
	 */
	ntags = commits_total / 200 < 60 ? 60 : commits_total / 200;
	tag_every = commits_total * 28 / 100 / ntags;
	ntags = 0;
	if (!tag_every)
		tag_every = 1;
	master = xmalloc(nfiles_total * sizeof(*master));
	memset(master, 0, nfiles_total * sizeof(*master));
	in_master = xmalloc(nfiles_total);
	memset(in_master, 0, nfiles_total);
	make_vocab();
	make_dirs(nfiles_total / 14 + 2);
	initial_commit();
	while (commits_made < commits_total) {
		double u = unit();

		s = below(SLOTS);
		if (!topics[s].active) {
			topic_start(s);
			continue;
		}
		if (u < 0.04)
			master_commit(commits_total);
		else if (u < 0.28 && topics[s].tip)
			topic_merge(s);
		else
			topic_commit(s, commits_total);
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("gen-history: write");
		return 1;
	}
	return 0;
}
