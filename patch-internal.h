/*
 * patch-internal.h: what the patch-*.c files share and nobody else
 * needs.
 */
#ifndef PATCH_INTERNAL_H
#define PATCH_INTERNAL_H

#include <string.h>

#include "cache.h"
#include "patch.h"

/*
 * The length of the line at p (with its '\n'), not past end.  Inline:
 * the parser, the binary hunks and the applier all read lines, and
 * none of them is below the others.
 */
static inline size_t patch_line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? (size_t)(nl - p + 1) : (size_t)(end - p);
}

/*
 * patch-name.c: the name at p of a "---"/"+++"/"rename from" line (len
 * bytes, no '\n'), with p_value leading components stripped (malloc'd);
 * NULL when it is broken, or /dev/null (then *null is set).
 */
char *line_name(const char *p, size_t len, int p_value, int *null);
/*
 * patch-name.c: the one name (malloc'd) of the rest of a "diff --git"
 * line (len bytes) when both sides name the same file, else NULL.
 */
char *git_header_name(const char *p, size_t len, int p_value);

/*
 * patch-binary.c: read the hunks after "GIT binary patch" at p
 * (lineno is p's line): the forward one and, when present, the
 * reverse.  Returns the bytes taken and counts the lines in *lines, or
 * -1 with f filled.
 */
long parse_binary_hunks(struct patch *patch, const char *p, const char *end,
			unsigned long lineno, unsigned long *lines,
			struct fault *f);

/*
 * patch-binary.c: the new content of a binary patch from the old one
 * (malloc'd, in *out), checked against the full ids of the "index"
 * line when it has them; -1 with f filled.
 */
int apply_binary_patch(const struct patch *patch, const char *old,
		       size_t old_size, char **out, size_t *out_size,
		       struct fault *f);

/*
 * patch-apply.c: apply patch's text hunks to old (old_size bytes),
 * giving the result (malloc'd) in *out.  Without reject, the first
 * hunk that does not apply fails it all (-1, f filled); with it,
 * such hunks are marked rejected and skipped.  Returns the number of
 * hunks rejected.  With notes (NULL: quiet), where each hunk went and
 * what a failed one looked for go to patch_note.
 */
int apply_text_hunks(struct patch *patch, const char *name, const char *old,
		     size_t old_size, int reject, const struct patch_set *notes,
		     char **out, size_t *out_size, struct fault *f);

/*
 * patch-apply.c: give text to notes' note hook (git apply -v's
 * account), when notes is not NULL and text was written whole.
 */
void patch_note(const struct patch_set *notes, int is_error,
		const struct mbuf *text);

/*
 * patch-place.c: work-tree files.  write_patch_tmp puts a content
 * (a symlink's target when mode says so) in a new temporary file next
 * to path, named in *tmp (malloc'd; NULL on error); place_patch_tmp
 * renames it over path (creating its leading directories, replacing
 * an empty directory); write_patch_file does both.  remove_patch_file
 * unlinks path and the directories it leaves empty;
 * write_patch_rejects writes patch's rejected hunks to <path>.rej as
 * git does.  Each returns 0, or -1 after error().
 */
int write_patch_tmp(const char *path, const char *buf, size_t size,
		    unsigned int mode, char **tmp);
int place_patch_tmp(const char *tmp, const char *path);
int write_patch_file(const char *path, const char *buf, size_t size,
		     unsigned int mode);
int remove_patch_file(const char *path);
int write_patch_rejects(const struct patch *patch);

/*
 * patch-place.c: many contents to temporary files at once, on every
 * core (write_patch_tmp for each job; tmp and dir belong to the call,
 * failed says which did not make it).  0, or -1 after error() when
 * one failed: the temporary files that were made are in their jobs.
 */
struct tmp_job {
	const char *path;
	const char *buf;
	size_t size;
	unsigned int mode;
	char *dir;		/* where the file goes, for the workers */
	char *tmp;		/* the temporary file (malloc'd), or NULL */
	int failed;
};
int write_patch_tmps(struct tmp_job *jobs, size_t nr);
/*
 * patch-place.c: place_patch_tmp for each of tmps[i] and paths[i],
 * those in their path's own directory on every core; each tmps[i]
 * placed is freed and set to NULL.  0, or -1 after error() (the tmps
 * still set are not placed).
 */
int place_patch_tmps(char **tmps, const char **paths, size_t nr);
/*
 * patch-place.c: the threads for nr items of a file's work each (a
 * file read, made or renamed: worth a thread of their own even when
 * few, unlike run_parallel's): one a core, at most 8, at most nr.
 */
int patch_threads(size_t nr);

/*
 * patch-check.c and patch-write.c: what the set makes of one path (the
 * path and buf belong to the set, tmp to the target).
 */
struct target {
	const char *path;
	int existed;		/* before the set (work tree or index) */
	int exists;		/* after it */
	const char *buf;	/* the content after it, when it exists */
	size_t size;
	char *tmp;		/* or the temporary file that holds it */
	unsigned int mode;
	struct patch *owner;	/* the last patch that wrote it */
};

/*
 * patch-write.c: write the nr targets t of a set that has applied
 * (flags as apply_patch_set's): the blobs, the removals, the renames of
 * the temporary files (tmp freed), the index entries.  0, or -1 after
 * error().
 */
int write_patch_targets(struct target *t, size_t nr, unsigned int flags);
/*
 * patch-write.c: git apply -v's line on patch to set's note hook:
 * before, its name (git's way: "old => new" for a move), after.
 */
void note_patch(const struct patch_set *set, const char *before,
		const struct patch *patch, const char *after);
/*
 * patch-write.c: git apply -v's account of each patch of set once
 * written, and the .rej files of those with rejected hunks (not with
 * APPLY_CACHED in flags).  0, or -1 after error().
 */
int report_patch_results(struct patch_set *set, unsigned int flags);

#endif
