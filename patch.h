/*
 * patch.h: git's patches read and applied in process, shared by the
 * apply tool and applymbox (which applies each mail's patch without a
 * fork).  The files behind it:
 *
 *   patch-parse.c   text -> struct patch_set: git diffs with their
 *                   extended headers, plain unified diffs
 *   patch-name.c    the file names in them: C quotes, -p, /dev/null,
 *                   the one name of a "diff --git" line
 *   patch-binary.c  "GIT binary patch" hunks: base85, zlib, literal
 *                   and delta
 *   patch-apply.c   hunks onto a file's content in memory, as git apply
 *                   places them (exact context, searched outward)
 *   patch-check.c   a set applied in memory and checked against the
 *                   index and the work tree: all or nothing
 *   patch-write.c   then written: temp + rename, blobs, index entries,
 *                   and git apply -v's account
 *   patch-place.c   the work-tree files: temporary files, renames,
 *                   removals, .rej files
 *   patch-stat.c    --stat, --numstat and --summary as git prints them
 *
 * The index is the in-memory one of index.c (active_cache): the caller
 * loads it (read_cache) before applying with APPLY_INDEX or
 * APPLY_CACHED, and writes it (hold_index_lock, commit_index) after;
 * the library only changes it in memory.  Only the paths a patch names
 * are read, lstat'ed and hashed.
 *
 * Errors: parse_patch and apply_patch_set print nothing for what is
 * wrong with the patch or the tree; they fill a struct fault (cache.h)
 * that the caller reports (report_patch_fault prints it as git apply
 * does).  A system error while writing (disk full, a store error) is
 * also printed by error() where it happens.  Nothing else is printed:
 * git apply -v's account goes to the set's note hook.
 */
#ifndef PATCH_H
#define PATCH_H

#include <stdio.h>
#include <stddef.h>

struct cache_entry;
struct fault;

/* One "@@ -a,b +c,d @@" hunk. */
struct patch_hunk {
	const char *header;	/* the "@@" line itself, in the set's buf */
	unsigned long oldpos, oldlines;	/* as stated (1-based; 0 if empty) */
	unsigned long newpos, newlines;
	const char *text;	/* the body lines after the @@ line, each */
	size_t size;		/* with its '\n'; points into the set's buf */
	unsigned long lineno;	/* the @@ line's number in the input */
	int rejected;		/* set by apply_patch_set with APPLY_REJECT */
	struct patch_hunk *next;
};

/* One side of a "GIT binary patch": literal content or a delta. */
#define PATCH_BINARY_LITERAL 1
#define PATCH_BINARY_DELTA 2
struct patch_binary {
	int kind;		/* 0 (none), or one of the two above */
	unsigned char *data;	/* inflated (malloc'd, owned by the set) */
	size_t size;		/* its length: content, or the delta */
};

/* One file's change. */
struct patch {
	char *old_name;		/* NULL for a creation (malloc'd) */
	char *new_name;		/* NULL for a deletion (malloc'd) */
	unsigned int old_mode;	/* 0 when the patch does not say */
	unsigned int new_mode;
	int is_new, is_delete;	/* 1 yes, 0 no */
	int is_rename, is_copy;
	int score;		/* "similarity index" (or dissimilarity), % */
	int is_binary;		/* a binary patch, or "Binary files differ" */
	char old_id[HASH_MAX_HEXSZ + 1];	/* from the "index" line, maybe abbreviated */
	char new_id[HASH_MAX_HEXSZ + 1];	/* ("" when there is none) */
	struct patch_hunk *hunks;	/* in order */
	unsigned int nr_hunks;
	struct patch_binary forward, reverse;
	unsigned long added, deleted;	/* lines, for --stat */
	unsigned long lineno;	/* where the file's patch starts in input */
	struct patch *next;

	/* reverse_patch_set's and apply_patch_set's state: not for callers. */
	int reversed;		/* '+' and '-' of the hunks trade places */
	char *result;
	size_t result_size;
	int result_ready;
	unsigned int result_mode;
	unsigned char result_sha1[HASH_MAX_RAWSZ];
	int has_rejects;
};

/* Everything one parse_patch (or several) read. */
struct patch_set {
	struct patch *first, *last;
	size_t nr;
	char **bufs;		/* copies of the inputs; hunks point here */
	size_t nr_bufs, alloc_bufs;
	/*
	 * With APPLY_CACHED, where the old content of an index entry may
	 * come from instead of the store (NULL: the store): 1 with *buf
	 * malloc'd, 0 to read the blob.  The caller vouches that it is
	 * the content of ce's id (held in memory, or a work-tree file
	 * whose stat data match).  init_patch_set clears it.
	 */
	int (*old_content)(const struct cache_entry *ce, char **buf,
			   size_t *size);
	/*
	 * With APPLY_VERBOSE, git apply -v's account of the work, for the
	 * caller to print (NULL: none): with is_error, one message for
	 * error() (no '\n'); else text to print as it is ("Checking patch
	 * a...\n", "Hunk #2 succeeded at 7 (offset 1 line).\n", ...).
	 * note_data is passed on.  init_patch_set clears both.
	 */
	void (*note)(int is_error, const char *text, size_t len,
		     void *note_data);
	void *note_data;
};

/*
 * What went wrong, in the struct fault parse_patch and apply_patch_set
 * fill: a patch that does not parse is FAULT_CORRUPT, with line the
 * input's line when there is one; a hunk that does not apply is
 * FAULT_CONFLICT with path (borrowed from the set) and line (where the
 * hunk says it goes), msg "<path>: hunk #N (line L) does not apply";
 * the tree refusing (a file that exists, one that does not match the
 * index) FAULT_CONFLICT without a line; the system refusing FAULT_IO.
 * msg says what ("corrupt patch at line 12", "a/../b: invalid path",
 * "x: does not match index", ...).
 */
/*
 * Print f as git apply does, with error(): "patch failed: <path>:<L>"
 * before a hunk's message.  Returns -1.
 */
int report_patch_fault(const struct fault *f);

/* An empty set; free with free_patch_set. */
void init_patch_set(struct patch_set *set);
/* Free every patch, hunk and buffer of set, and empty it. */
void free_patch_set(struct patch_set *set);

/*
 * Parse len bytes of patch text (git diffs, plain unified diffs, with
 * mail text or anything else between them, as git apply skips it)
 * and append its files to set; buf is copied (the caller keeps it).
 * p_value: leading path components to strip (-p, 1 by default for
 * git).  Returns the number of files read (0 when the text holds no
 * patch at all: not an error here, the caller decides), or -1 with f
 * filled (a corrupt or truncated hunk, a bad header, a name that is
 * not a valid path, a binary hunk that does not decode); the set keeps
 * what earlier calls appended and gains nothing from a failed one.
 */
int parse_patch(struct patch_set *set, const char *buf, size_t len,
		int p_value, struct fault *f);
/*
 * The same without the copy: buf is malloc'd with room for len + 1
 * bytes, and the set takes it (freed with the set, or at once when
 * the parse fails).  For a patch read whole from a file.
 */
int parse_patch_owned(struct patch_set *set, char *buf, size_t len,
		      int p_value, struct fault *f);

/*
 * Turn every patch of set around, and their order, as -R does (call
 * it before applying or printing).
 */
void reverse_patch_set(struct patch_set *set);

/* Flags for apply_patch_set. */
#define APPLY_INDEX	0x01	/* the work tree and the index (--index) */
#define APPLY_CACHED	0x02	/* the index only (--cached) */
#define APPLY_CHECK	0x04	/* check only; write nothing (--check) */
#define APPLY_REJECT	0x08	/* write what applies, the rest to .rej */
#define APPLY_VERBOSE	0x10	/* git apply -v's lines, to set->note */

/*
 * Check every patch of set against the tree and, unless APPLY_CHECK,
 * write the results: work-tree files to a temporary name then renamed
 * (not with APPLY_CACHED; without the index, the temporary files are
 * written during the check, and renamed only when all of the set has
 * applied), and with APPLY_INDEX or
 * APPLY_CACHED the in-memory index updated (blobs stored, and for
 * APPLY_INDEX the stat data of the written files).  The content read
 * is the work tree's, or with APPLY_CACHED the index's; APPLY_INDEX
 * also wants each touched file to match the index.  Paths must pass
 * verify_path, and no file is read or written through a symlink in a
 * leading directory, present or created by the set.  A patch of set
 * may take up a file an earlier one of the same set changed.
 *
 * Returns 0 when all of it applied; -1 with f filled when any part
 * failed, with nothing written at all (no file, no temporary file
 * left, no object needed only by the failed set, no index entry); with
 * APPLY_REJECT, the number of hunks that did not apply (> 0) when some
 * did not: the others are written and the failed ones go to
 * <path>.rej (f describes the first).  -1 with APPLY_REJECT is a
 * failure that is not a hunk's (a bad path, a missing file): then too
 * nothing is written.
 */
int apply_patch_set(struct patch_set *set, unsigned int flags,
		    struct fault *f);

/*
 * What git apply --stat, --numstat and --summary print for set, byte
 * for byte (paths quoted as git quotes them).  -1 on an output error
 * (errno says why: ENOMEM when memory ran out).
 */
int print_patch_stat(FILE *out, const struct patch_set *set);
int print_patch_numstat(FILE *out, const struct patch_set *set);
int print_patch_summary(FILE *out, const struct patch_set *set);

#endif
