/*
 * log.h: what log-tree shows of a commit's changes beside its patch
 * (log-diff.c): the files two trees hold differently, git's diffstat
 * of them, and git's colours for patches.
 */
#ifndef LOG_H
#define LOG_H

#include <stdio.h>

#include "cache.h"
#include "diff.h"

/* git's default colours (color.diff.*, color.diff.commit). */
#define COLOR_COMMIT	"\033[33m"
#define COLOR_META	"\033[1m"
#define COLOR_FRAG	"\033[36m"
#define COLOR_OLD	"\033[31m"
#define COLOR_NEW	"\033[32m"
#define COLOR_WS	"\033[41m"	/* trailing blanks of an added line */
#define COLOR_RESET	"\033[m"

/*
 * One changed file: a side with mode 0 does not exist.  A rename has
 * old_path (the old side's path) and score (its similarity).
 */
struct file_change {
	char *path;
	char *old_path;
	int score;
	unsigned int mode[2];
	unsigned char sha1[2][HASH_MAX_RAWSZ];
	unsigned long added, deleted;	/* lines; bytes when binary */
	int binary;
};

struct file_changes {
	struct file_change *items;
	size_t nr, alloc;
	/*
	 * NULL, or where the blobs read for the counts are checked: read
	 * unverified, the counts are not trusted until wait_check_later
	 * passes.
	 */
	struct check_later *checker;
};

/*
 * The files trees old and new (NULL: the empty tree) hold differently
 * where ps (NULL: everywhere) selects, in git's order, into l (free it
 * with free_file_changes); a change of type is one entry.  -1 after
 * error() when a tree cannot be read.
 */
int collect_file_changes(struct file_changes *l, const unsigned char *old,
			 const unsigned char *new, const struct pathspec *ps);
void free_file_changes(struct file_changes *l);
/*
 * Pair l's deletions and additions that are renames (diff-rename.c):
 * each becomes one change with old_path, at the addition's place, as
 * git lists it.  Returns 0, or the rename limit the inexact search
 * would have needed when opt->limit stopped it.
 */
int detect_file_renames(struct file_changes *l,
			const struct rename_options *opt);
/*
 * git's diffstat of l to out, width columns wide, the bars coloured
 * when color: the blobs are read and diffed for the counts (stored in
 * l).  -1 after error() when a blob cannot be read or out fails.
 */
int print_diffstat(FILE *out, struct file_changes *l, int width, int color);
/* git's term_columns: $COLUMNS, the terminal's width, else 80. */
int term_columns(void);
/*
 * The counts of every change in l (print_diffstat makes them): a side
 * with a mode and the null id is the work-tree file at the path (the
 * raw diff's way of naming it).  -1 after error() when a side cannot
 * be read.
 */
int count_file_changes(struct file_changes *l);
/*
 * A side of a patch as fill_blob_side fills it, the blob read by
 * read_later on cl (NULL: checked as read) into o; give it back with
 * release_later(cl, o), not free().  -1 after error().
 */
int fill_later_side(struct diff_side *s, struct later_obj *o,
		    struct check_later *cl, const char *path,
		    unsigned int mode, const unsigned char *sha1);
/* git's --shortstat of l (nothing when l is empty); -1 as above. */
int print_shortstat(FILE *out, struct file_changes *l);
/* git's --numstat of l; -1 as above. */
int print_numstat(FILE *out, struct file_changes *l);

/* Where a patch's text is, line by line, for color_patch. */
enum patch_part { PATCH_OUTSIDE, PATCH_HEADER, PATCH_HUNK };
/*
 * Write size bytes of patch text (whole lines) to out in git's
 * colours: headers bold, hunk headers cyan, removed lines red, added
 * ones green with their trailing blanks marked, anything else (a
 * diffstat, a commit) as it is.  *part carries the state from one call
 * to the next: start at PATCH_OUTSIDE.
 */
void color_patch(FILE *out, const char *buf, size_t size,
		 enum patch_part *part);

/* ---- decorate.c: the ref names after a commit's id ---- */

#define DECORATE_SHORT	1	/* main, tag: v1, origin/main */
#define DECORATE_FULL	2	/* refs/heads/main, tag: refs/tags/v1 */
/*
 * Load the names git log decorates commits with by default: refs/heads/,
 * refs/remotes/, refs/tags/ (tags peeled), refs/stash and HEAD, in
 * style.  0, or -1 after error() when the refs cannot be read.
 */
int load_decorations(int style);
/*
 * " (HEAD -> main, tag: v1, origin/main)" for the object sha1 to out,
 * git's order and colours (when color); nothing when no name is its.
 */
void show_decorations(FILE *out, const unsigned char *sha1, int color);

#endif
