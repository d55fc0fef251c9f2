/*
 * diff-rename.c: renames found among the files a diff deletes and
 * adds, as git's default rename detection finds them (diffcore-rename
 * without copies or breaks), so that the pairs and their "similarity
 * index" are git's.
 *
 * Three rounds, each on what the one before left:
 *  1. exact renames: an added file whose id a deleted file has (same
 *     mode unless both are regular files); among several, the first
 *     not yet used, one with the same basename preferred;
 *  2. a deleted and an added file whose basename no other remaining
 *     file on its side has, paired when their similarity is at least
 *     halfway from the threshold to 100%;
 *  3. every remaining pair scored (unless there are more than
 *     limit * limit), the best four sources kept per destination, all
 *     of them sorted by score (same basename first on a tie, then the
 *     order they were kept in), and taken greedily.
 *
 * The similarity is git's: each file cut into chunks that end at a
 * newline or after 64 bytes (a CR before LF skipped in text), each
 * chunk hashed; the bytes of the destination's chunks that the source
 * has as many times count as copied, and the score is copied bytes
 * times RENAME_MAX_SCORE over the larger size.  Pairs whose sizes are
 * too different for the threshold are not read at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "diff.h"

#define SPAN_HASHBASE 107927
#define CANDIDATES_PER_DST 4

/* One chunk hash and the bytes of the chunks that have it. */
struct span {
	uint32_t hash;
	uint32_t cnt;
};

/* What is known of one file: its size, then its chunk counts. */
struct rename_info {
	int size_known;
	size_t size;
	struct span *spans;	/* sorted by hash, one per hash */
	size_t nr_spans;
	int failed;
};

struct rename_state {
	const struct rename_file *src, *dst;
	size_t nr_src, nr_dst;
	const struct rename_options *opt;
	struct rename_info *src_info, *dst_info;
	int *src_used;		/* per source */
	int *dst_src;		/* per destination: its source or -1 */
	int *dst_score;
};

struct score_entry {
	int src, dst;		/* dst -1: unused slot */
	int score;
	int name_score;
};

static int compare_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static void add_span(struct span **v, size_t *nr, size_t *alloc,
		     uint32_t a1, uint32_t a2, uint32_t n)
{
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[*nr].hash = (a1 + a2 * 0x61) % SPAN_HASHBASE;
	(*v)[*nr].cnt = n;
	(*nr)++;
}

/* The chunk counts of buf, sorted by hash, duplicates merged. */
static struct span *count_spans(const unsigned char *buf, size_t size,
				size_t *nr_out)
{
	int text = !buffer_is_binary((const char *)buf, size);
	uint32_t a1 = 0, a2 = 0, n = 0;
	struct span *v = NULL;
	size_t nr = 0, alloc = 0, i, j;

	for (i = 0; i < size; i++) {
		uint32_t c = buf[i], old = a1;

		if (text && c == '\r' && i + 1 < size && buf[i + 1] == '\n')
			continue;
		a1 = (a1 << 7) ^ (a2 >> 25);
		a2 = (a2 << 7) ^ (old >> 25);
		a1 += c;
		if (++n < 64 && c != '\n')
			continue;
		add_span(&v, &nr, &alloc, a1, a2, n);
		n = a1 = a2 = 0;
	}
	if (n)
		add_span(&v, &nr, &alloc, a1, a2, n);
	if (nr)
		qsort(v, nr, sizeof(*v), compare_span);
	for (i = j = 0; i < nr; i++) {
		if (j && v[j - 1].hash == v[i].hash)
			v[j - 1].cnt += v[i].cnt;
		else
			v[j++] = v[i];
	}
	*nr_out = j;
	return v;
}

/* The bytes of dst's chunks that src has too (git's "src_copied"). */
static unsigned long copied_bytes(const struct rename_info *s,
				  const struct rename_info *d)
{
	unsigned long copied = 0;
	size_t i = 0, j = 0;

	while (i < s->nr_spans && j < d->nr_spans) {
		if (d->spans[j].hash < s->spans[i].hash) {
			j++;
		} else if (d->spans[j].hash > s->spans[i].hash) {
			i++;
		} else {
			copied += s->spans[i].cnt < d->spans[j].cnt ?
				  s->spans[i].cnt : d->spans[j].cnt;
			i++;
			j++;
		}
	}
	return copied;
}

static void *read_file_data(const struct rename_options *opt,
			    const struct rename_file *f, size_t *size)
{
	if (opt->read)
		return opt->read(f, size, opt->read_data);
	return read_object_of_type(f->sha1, OBJ_BLOB, size);
}

static int load_size(const struct rename_options *opt,
		     const struct rename_file *f, struct rename_info *in)
{
	enum object_type type;

	if (in->size_known)
		return 0;
	if (in->failed)
		return -1;
	if (opt->read || sha1_object_info(f->sha1, &type, &in->size) < 0) {
		void *data = read_file_data(opt, f, &in->size);

		if (!data) {
			in->failed = 1;
			return -1;
		}
		in->spans = count_spans(data, in->size, &in->nr_spans);
		free(data);
	}
	in->size_known = 1;
	return 0;
}

static int load_spans(const struct rename_options *opt,
		      const struct rename_file *f, struct rename_info *in)
{
	size_t size;
	void *data;

	if (in->failed)
		return -1;
	if (in->spans || !in->size)
		return 0;
	data = read_file_data(opt, f, &size);
	if (!data) {
		in->failed = 1;
		return -1;
	}
	in->spans = count_spans(data, size, &in->nr_spans);
	free(data);
	return 0;
}

/* git's estimate_similarity: 0..RENAME_MAX_SCORE, 0 when not worth it. */
static int similarity(struct rename_state *st, int s, int d, int min_score)
{
	struct rename_info *si = &st->src_info[s], *di = &st->dst_info[d];
	size_t max, base;

	if (!S_ISREG(st->src[s].mode) || !S_ISREG(st->dst[d].mode))
		return 0;
	if (load_size(st->opt, &st->src[s], si) < 0 ||
	    load_size(st->opt, &st->dst[d], di) < 0)
		return 0;
	max = si->size > di->size ? si->size : di->size;
	base = si->size < di->size ? si->size : di->size;
	if ((unsigned long long)max * (RENAME_MAX_SCORE - min_score) <
	    (unsigned long long)(max - base) * RENAME_MAX_SCORE)
		return 0;
	if (!di->size)
		return 0;
	if (load_spans(st->opt, &st->src[s], si) < 0 ||
	    load_spans(st->opt, &st->dst[d], di) < 0)
		return 0;
	return (int)((unsigned long long)copied_bytes(si, di) *
		     RENAME_MAX_SCORE / max);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int same_basename(const char *a, const char *b)
{
	return !strcmp(base_name(a), base_name(b));
}

static void record(struct rename_state *st, int s, int d, int score)
{
	st->src_used[s] = 1;
	st->dst_src[d] = s;
	st->dst_score[d] = score;
}

/* ---- round 1: exact renames ---- */

static const struct rename_file *sort_src;

static int compare_src_id(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int c = hashcmp(sort_src[x].sha1, sort_src[y].sha1);

	return c ? c : x - y;
}

static int exact_candidate(const struct rename_file *s,
			   const struct rename_file *d)
{
	if (!S_ISREG(s->mode) || !S_ISREG(d->mode))
		return s->mode == d->mode;
	return 1;
}

/* The first source of d's id, unused, with the same basename if any. */
static void find_exact(struct rename_state *st, const int *order, int d)
{
	const struct rename_file *dst = &st->dst[d];
	size_t lo = 0, hi = st->nr_src;
	int best = -1, best_score = -1, tries = 100;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (hashcmp(st->src[order[mid]].sha1, dst->sha1) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < st->nr_src; lo++) {
		int s = order[lo], score;

		if (hashcmp(st->src[s].sha1, dst->sha1))
			break;
		if (!exact_candidate(&st->src[s], dst) || st->src_used[s])
			continue;
		score = 1 + same_basename(st->src[s].path, dst->path);
		if (score > best_score) {
			best = s;
			best_score = score;
			if (score == 2)
				break;
		}
		if (!--tries)
			break;
	}
	if (best >= 0)
		record(st, best, d, RENAME_MAX_SCORE);
}

static void find_exact_renames(struct rename_state *st)
{
	int *order = xmalloc(st->nr_src * sizeof(*order));
	size_t i;

	for (i = 0; i < st->nr_src; i++)
		order[i] = i;
	sort_src = st->src;
	qsort(order, st->nr_src, sizeof(*order), compare_src_id);
	for (i = 0; i < st->nr_dst; i++)
		find_exact(st, order, i);
	free(order);
}

/* ---- round 2: unique basenames ---- */

static const struct rename_file *sort_files;

static int compare_base(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(base_name(sort_files[x].path),
		       base_name(sort_files[y].path));

	return c ? c : x - y;
}

/*
 * The one file of f (by index) named base among those in order[] (nr
 * indexes sorted by basename), or -1 when none or several are.
 */
static int unique_base(const int *order, size_t nr,
		       const struct rename_file *f, const char *base)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(base_name(f[order[mid]].path), base) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= nr || strcmp(base_name(f[order[lo]].path), base))
		return -1;
	if (lo + 1 < nr && !strcmp(base_name(f[order[lo + 1]].path), base))
		return -1;
	return order[lo];
}

/* The indexes of the files not yet paired, sorted by basename. */
static int *remaining_by_base(const struct rename_file *f, size_t nr,
			      const int *used, size_t *out)
{
	int *order = xmalloc((nr + 1) * sizeof(*order));
	size_t i, n = 0;

	for (i = 0; i < nr; i++)
		if (!used[i])
			order[n++] = i;
	sort_files = f;
	qsort(order, n, sizeof(*order), compare_base);
	*out = n;
	return order;
}

static int *dst_used_flags(const struct rename_state *st)
{
	int *used = xmalloc((st->nr_dst + 1) * sizeof(*used));
	size_t i;

	for (i = 0; i < st->nr_dst; i++)
		used[i] = st->dst_src[i] >= 0;
	return used;
}

static void find_basename_renames(struct rename_state *st, int min_score)
{
	int min_base = min_score + (RENAME_MAX_SCORE - min_score) / 2;
	int *dst_used = dst_used_flags(st);
	size_t nr_s, nr_d, i;
	int *snames = remaining_by_base(st->src, st->nr_src, st->src_used,
					&nr_s);
	int *dnames = remaining_by_base(st->dst, st->nr_dst, dst_used, &nr_d);

	for (i = 0; i < st->nr_src; i++) {
		const char *base = base_name(st->src[i].path);
		int d, score;

		if (st->src_used[i] ||
		    unique_base(snames, nr_s, st->src, base) != (int)i)
			continue;
		d = unique_base(dnames, nr_d, st->dst, base);
		if (d < 0 || st->dst_src[d] >= 0)
			continue;
		score = similarity(st, i, d, min_base);
		if (score >= min_base)
			record(st, i, d, score);
	}
	free(snames);
	free(dnames);
	free(dst_used);
}

/* ---- round 3: the matrix ---- */

/* git's score_compare: > 0 when a sorts after b (is worse). */
static int compare_score(const struct score_entry *a,
			 const struct score_entry *b)
{
	if (a->dst < 0)
		return b->dst >= 0;
	if (b->dst < 0)
		return -1;
	if (a->score == b->score)
		return b->name_score - a->name_score;
	return b->score - a->score;
}

static void keep_if_better(struct score_entry *m, const struct score_entry *o)
{
	int i, worst = 0;

	for (i = 1; i < CANDIDATES_PER_DST; i++)
		if (compare_score(&m[i], &m[worst]) > 0)
			worst = i;
	if (compare_score(&m[worst], o) > 0)
		m[worst] = *o;
}

/* A stable merge sort of the kept candidates by compare_score. */
static void sort_scores(struct score_entry *v, size_t n,
			struct score_entry *tmp)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	sort_scores(v, mid, tmp);
	sort_scores(v + mid, n - mid, tmp);
	while (i < mid && j < n)
		tmp[k++] = compare_score(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static void score_dst(struct rename_state *st, int d, struct score_entry *m,
		      int min_score)
{
	size_t s;
	int j;

	for (j = 0; j < CANDIDATES_PER_DST; j++)
		m[j].dst = -1;
	for (s = 0; s < st->nr_src; s++) {
		struct score_entry e;

		if (st->src_used[s])
			continue;
		e.score = similarity(st, s, d, min_score);
		e.name_score = same_basename(st->src[s].path, st->dst[d].path);
		e.dst = d;
		e.src = s;
		keep_if_better(m, &e);
	}
}

static int find_inexact_renames(struct rename_state *st, int min_score)
{
	size_t nr_s = 0, nr_d = 0, i, n = 0;
	struct score_entry *mx, *tmp;
	long limit = st->opt->limit;

	for (i = 0; i < st->nr_src; i++)
		nr_s += !st->src_used[i];
	for (i = 0; i < st->nr_dst; i++)
		nr_d += st->dst_src[i] < 0;
	if (!nr_s || !nr_d)
		return 0;
	if (limit > 0 && (double)nr_s * nr_d > (double)limit * limit)
		return nr_s > nr_d ? nr_s : nr_d;
	mx = xmalloc(nr_d * CANDIDATES_PER_DST * sizeof(*mx));
	for (i = 0; i < st->nr_dst; i++)
		if (st->dst_src[i] < 0)
			score_dst(st, i, &mx[CANDIDATES_PER_DST * n++],
				  min_score);
	n *= CANDIDATES_PER_DST;
	tmp = xmalloc(n * sizeof(*tmp));
	sort_scores(mx, n, tmp);
	free(tmp);
	for (i = 0; i < n; i++) {
		if (mx[i].dst < 0 || mx[i].score < min_score)
			break;
		if (st->dst_src[mx[i].dst] >= 0 || st->src_used[mx[i].src])
			continue;
		record(st, mx[i].src, mx[i].dst, mx[i].score);
	}
	free(mx);
	return 0;
}

int find_renames(const struct rename_file *src, size_t nr_src,
		 const struct rename_file *dst, size_t nr_dst,
		 const struct rename_options *opt, int *dst_src,
		 int *dst_score)
{
	int min_score = opt->min_score > 0 ? opt->min_score :
			RENAME_DEFAULT_SCORE;
	struct rename_state st;
	size_t i;
	int needed = 0;

	for (i = 0; i < nr_dst; i++) {
		dst_src[i] = -1;
		dst_score[i] = 0;
	}
	if (!nr_src || !nr_dst)
		return 0;
	memset(&st, 0, sizeof(st));
	st.src = src;
	st.dst = dst;
	st.nr_src = nr_src;
	st.nr_dst = nr_dst;
	st.opt = opt;
	st.dst_src = dst_src;
	st.dst_score = dst_score;
	st.src_used = xcalloc(nr_src, sizeof(*st.src_used));
	find_exact_renames(&st);
	if (min_score < RENAME_MAX_SCORE) {
		st.src_info = xcalloc(nr_src, sizeof(*st.src_info));
		st.dst_info = xcalloc(nr_dst, sizeof(*st.dst_info));
		find_basename_renames(&st, min_score);
		needed = find_inexact_renames(&st, min_score);
		for (i = 0; i < nr_src; i++)
			free(st.src_info[i].spans);
		for (i = 0; i < nr_dst; i++)
			free(st.dst_info[i].spans);
		free(st.src_info);
		free(st.dst_info);
	}
	free(st.src_used);
	return needed;
}

int parse_rename_option(const char *arg, struct rename_options *opt)
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
	opt->min_score = parse_rename_score(n);
	if (opt->min_score < 0)
		return error("invalid argument to -M: %s", n);
	return 1;
}

int parse_rename_score(const char *arg)
{
	unsigned long num = 0, scale = 1;
	int dot = 0;

	for (; *arg; arg++) {
		if (*arg == '.' && !dot) {
			scale = 1;
			dot = 1;
		} else if (*arg == '%') {
			scale = dot ? scale * 100 : 100;
			if (arg[1])
				return -1;
			break;
		} else if (*arg >= '0' && *arg <= '9') {
			if (scale < 100000) {
				scale *= 10;
				num = num * 10 + (*arg - '0');
			}
		} else {
			return -1;
		}
	}
	if (num >= scale)
		return RENAME_MAX_SCORE;
	return (int)(RENAME_MAX_SCORE * num / scale);
}

/* "copies" and "copy" are rename detection too here: we find no copies. */
static int rename_value(const char *key, const char *value, int *detect)
{
	int b;

	if (value && (!strcasecmp(value, "copies") ||
		      !strcasecmp(value, "copy"))) {
		*detect = 1;
		return 0;
	}
	b = config_bool(value);
	if (b < 0)
		return error("bad boolean config value '%s' for '%s'",
			     value ? value : "", key);
	*detect = b;
	return 0;
}

/* One key: 1 when set (into *detect or *limit), 0 when not, -1. */
static int rename_key(const char *section, const char *name, int *detect,
		      long *limit)
{
	char key[64];
	char *value = NULL;
	int r;

	snprintf(key, sizeof(key), "%s.%s", section, name);
	r = config_get(key, &value);
	if (r <= 0)
		return r;
	if (detect)
		r = rename_value(key, value, detect);
	else if (!value || config_int(value, limit) < 0)
		r = error("bad numeric config value '%s' for '%s'",
			  value ? value : "", key);
	else
		r = 0;
	free(value);
	return r < 0 ? -1 : 1;
}

int rename_config(const char *section, int *detect, long *limit)
{
	int r = 0;

	if (section && detect)
		r = rename_key(section, "renames", detect, NULL);
	if (!r && detect)
		r = rename_key("diff", "renames", detect, NULL);
	if (r < 0)
		return -1;
	r = 0;
	if (section)
		r = rename_key(section, "renamelimit", NULL, limit);
	if (!r)
		r = rename_key("diff", "renamelimit", NULL, limit);
	return r < 0 ? -1 : 0;
}

int setup_diff_renames(int *detect, struct rename_options *opt)
{
	opt->limit = RENAME_DEFAULT_LIMIT;
	if (*detect && rename_config(NULL, *detect < 0 ? detect : NULL,
				     &opt->limit) < 0)
		return -1;
	if (*detect < 0)
		*detect = 1;	/* git diff's default */
	return 0;
}

void warn_rename_limit(const char *var, int needed)
{
	warning("exhaustive rename detection was skipped due to too many "
		"files.");
	warning("you may want to set your %s variable to at least %d and "
		"retry the command.", var, needed);
}
