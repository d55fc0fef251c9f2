/*
 * diff.h: the one diff engine (diff.c, diff-search.c, diff-slide.c),
 * git's patch format (diff-print.c), the three-way file merge
 * (merge.c) and path quoting (quote.c), shared by show-diff,
 * diff-tree, merge-file and, later, the patch applier and merges.
 */
#ifndef DIFF_H
#define DIFF_H

#include <stdio.h>
#include <stddef.h>

struct mbuf;

/*
 * One side of a file pair.  mode 0 means the side does not exist (the
 * file was added or deleted).  data/size hold the content (data may be
 * NULL for a missing side, and for a gitlink, whose text is made up
 * from sha1 as git does: "Subproject commit <hex>").  sha1 is the
 * blob id, which the caller fills in (hash_sha1_file for work-tree
 * content).
 */
struct diff_side {
	const char *path;
	unsigned int mode;
	unsigned char sha1[HASH_MAX_RAWSZ];
	const char *data;
	size_t size;
};

/* How print_patch writes; a NULL options pointer means all zero. */
struct diff_options {
	/*
	 * Binary content as git's "GIT binary patch" (forward and
	 * reverse hunks, each a literal or a delta as git chooses, full
	 * ids on the index line) that git apply can apply, instead of
	 * "Binary files a/p and b/p differ".
	 */
	int binary;
	/*
	 * Digits of the ids on "index" lines: ABBREV_DEFAULT (core.abbrev
	 * or git's automatic length), or 4 to hexsz (--abbrev=<n>); always
	 * the_hash->hexsz with full_index (--full-index).
	 */
	int abbrev;
	int full_index;
	/*
	 * A rename's similarity (diff-rename.c's scale), for the
	 * "similarity index" line printed when the sides' paths differ.
	 */
	int rename_score;
};

/*
 * The options every patch-writing tool takes: --full-index, --abbrev
 * and --abbrev=<n> (4 at least; past the store's hex digits it means
 * them all, as in git).  1 when arg was one of them, else 0.
 */
int parse_diff_option(struct diff_options *opt, const char *arg);

/*
 * Print git's patch for one pair to out, byte for byte as git diff
 * does: "diff --git a/p b/p", mode, "new file mode"/"deleted file
 * mode" and "index" lines, "--- a/p", "+++ b/p", hunks with 3 lines of
 * context and git's function-name hunk headers, "\ No newline at end
 * of file", or "Binary files a/p and b/p differ".  The two sides
 * should have the same type: the caller splits a file<->symlink change
 * into a deletion and an addition, as git does.  Sides with different
 * paths are a rename: "similarity index", "rename from" and "rename
 * to" lines, and no hunks when the ids are equal.  Prints nothing when
 * path, mode and sha1 are equal on both sides.  Returns 0, or -1 on an
 * output error.
 */
int print_patch(FILE *out, const struct diff_side *one,
		const struct diff_side *two, const struct diff_options *opt);
/*
 * A side of a patch from the store: the blob sha1 of this mode read
 * (and checked) for path; mode 0 is a missing side, a gitlink has no
 * data.  -1 after error() when the blob cannot be read.
 */
int fill_blob_side(struct diff_side *side, const char *path,
		   unsigned int mode, const unsigned char *sha1);
/* print_patch that prints no message: -1 with f (for a worker). */
int print_patch_f(FILE *out, const struct diff_side *one,
		  const struct diff_side *two, const struct diff_options *opt,
		  struct fault *f);
/* print_patch, then free both sides' data. */
int print_patch_free(FILE *out, struct diff_side *one, struct diff_side *two,
		     const struct diff_options *opt);

/*
 * The line diff itself (diff.c, diff-slide.c): Myers' O(ND) algorithm
 * in linear space with git's speed-ups and cost limits, and changed
 * lines placed where git's default diff places them (its slider
 * placement and indent heuristic), so that patches equal git's.
 * Lines are compared by content; edits hold 0-based line numbers.
 * Exposed for the tools that need edits rather than printed text
 * (merges, patch application).
 */
struct diff_line {
	const char *start;
	size_t len;		/* including the '\n' when present */
};

struct diff_edit {
	size_t old_start, old_count;	/* lines removed from the old side */
	size_t new_start, new_count;	/* lines added from the new side */
};

/* Place runs of changes by the indent heuristic (git diff's default). */
#define DIFF_INDENT_HEURISTIC 1

/* Split buf into lines; *nr gets their count.  Caller frees. */
struct diff_line *split_lines(const char *buf, size_t size, size_t *nr);
/*
 * Compute the edits turning a into b, in order; *nr gets their count
 * (0, and NULL returned, when a and b are equal).  flags: DIFF_*.
 * Caller frees.  Time about O((N+M) D) with D bounded, memory O(N+M).
 */
struct diff_edit *diff_lines(const struct diff_line *a, size_t na,
			     const struct diff_line *b, size_t nb,
			     unsigned flags, size_t *nr);

/* Does the buffer look binary to git (a NUL in its first 8000 bytes)? */
int buffer_is_binary(const char *buf, size_t size);

/* ---- merge.c: the three-way file merge ---- */

/* The three texts of a merge (any bytes; the caller refuses binary). */
struct merge_input {
	const char *ours, *base, *theirs;
	size_t ours_size, base_size, theirs_size;
};

/* How conflicts are written; a NULL options pointer means all zero. */
struct merge_options {
	/* Names after the markers; NULL: a bare marker. */
	const char *ours_label, *base_label, *theirs_label;
	int marker_size;	/* <= 0: git's 7 */
	int diff3;		/* the base between "|||||||" and "=======" */
};

struct merge_result {
	char *buf;		/* the merged text, malloc'd: caller frees */
	size_t size;
	int conflicts;		/* conflict regions in it */
};

/*
 * Merge the change from base to theirs into ours, as git merge-file
 * does: a clean result is git's byte for byte, and conflicts are
 * written with git's markers around git's conflict regions (narrowed
 * to the lines the sides disagree on, except with diff3).  Returns
 * the number of conflicts (out->conflicts); never fails.
 */
int merge_buffers(struct merge_result *out, const struct merge_input *in,
		  const struct merge_options *opt);

/* ---- diff-rename.c: renames found as git finds them ---- */

#define RENAME_MAX_SCORE	60000	/* git's MAX_SCORE: 100% */
#define RENAME_DEFAULT_SCORE	30000	/* -M's default: 50% */
#define RENAME_DEFAULT_LIMIT	1000	/* diff.renameLimit's default */

/* A deleted (source) or added (destination) file of a diff. */
struct rename_file {
	const char *path;
	unsigned int mode;
	unsigned char sha1[HASH_MAX_RAWSZ];	/* its id (the caller hashes work files) */
};

struct rename_options {
	int min_score;		/* 0..RENAME_MAX_SCORE; 0: the default */
	long limit;		/* no inexact search past limit^2 pairs */
	/*
	 * Where a file's content comes from (malloc'd, *size set; NULL
	 * after error()); NULL: the blob sha1 from the store.
	 */
	void *(*read)(const struct rename_file *f, size_t *size, void *data);
	void *read_data;
};

/*
 * git's default rename detection (diffcore-rename, no copies): which
 * source each destination was renamed from.  dst_src[i] gets the index
 * in src, or -1; dst_score[i] the similarity (RENAME_MAX_SCORE for an
 * exact rename).  Both arrays hold nr_dst.  Returns 0, or, when the
 * inexact search was skipped for opt->limit, the limit that would have
 * been needed (only exact and basename renames are found then).
 */
int find_renames(const struct rename_file *src, size_t nr_src,
		 const struct rename_file *dst, size_t nr_dst,
		 const struct rename_options *opt, int *dst_src,
		 int *dst_score);
/* git's -M<n> argument ("50", "50%", ".5"): the score, or -1 if bad. */
int parse_rename_score(const char *arg);
/* -M[<n>], --find-renames[=<n>] into opt: 1 if arg is one, 0 if not, -1 if bad. */
int parse_rename_option(const char *arg, struct rename_options *opt);
/* The percentage git prints for a score ("similarity index", R086). */
#define RENAME_PERCENT(score) ((score) * 100 / RENAME_MAX_SCORE)
/*
 * Rename detection as config says for a porcelain: section ("status",
 * or NULL) first, then "diff": its .renames (true, or "copies", which
 * we treat as true) into *detect (unless NULL) and .renameLimit into
 * *limit; left as they are when unset.  -1 after error() for a value
 * git would refuse.
 */
int rename_config(const char *section, int *detect, long *limit);
/*
 * A diff tool's renames after its options: *detect 0 (off), 1 (-M) or
 * -1 (as diff.renames says, on by default); opt's limit from
 * diff.renameLimit.  -1 on a bad config value (reported).
 */
int setup_diff_renames(int *detect, struct rename_options *opt);
/* git's warning when the inexact search was skipped (needed: its limit). */
void warn_rename_limit(const char *var, int needed);

/* ---- quote.c ---- */

/*
 * Write prefix+name to out, in double quotes with C escapes when name
 * holds a byte git quotes (control, '"', '\\', or >= 0x80), as git
 * does with core.quotePath on.
 */
void write_quoted_path(FILE *out, const char *prefix, const char *name,
		       size_t len);
/* The same appended to b: 0, or -1 when out of memory (mbuf.c). */
int add_quoted_path(struct mbuf *b, const char *prefix, const char *name,
		    size_t len);
/*
 * A path as the last field of a listing line: "\t" + quoted name +
 * "\n", or with nul "\0" + name + "\0" (git's -z form).
 */
void write_name_field(FILE *out, const char *name, size_t len, int nul);
/* 1 when name needs quoting. */
int path_needs_quoting(const char *name, size_t len);

#endif
