/*
 * exclude.h: which work-tree paths are ignored, with git's exclude
 * rules (exclude.c, on git's globs in wildmatch.c), and the walk that
 * finds the files the index does not know (dir.c).  For ls-files and
 * the porcelain.
 */
#ifndef EXCLUDE_H
#define EXCLUDE_H

#include <dirent.h>

#include "cache.h"

/* ---- wildmatch.c: git's globs ---- */

/* "*", "?" and sets stop at "/", and "**" spans directories. */
#define WM_PATHNAME 1
/* 1 when text matches the glob pattern (both NUL-terminated). */
int wildmatch(const char *pattern, const char *text, unsigned flags);

/* ---- exclude.c: git's exclude patterns ---- */

/*
 * One pattern as git reads it: "!" negates, a trailing "/" matches
 * directories only, a pattern without "/" matches the last component
 * of a path at any depth, one with a "/" (a leading one too) is
 * anchored to the directory of its file.
 */
struct exclude {
	char *pattern;		/* without "!" and the trailing "/" */
	size_t len;
	size_t nowild;		/* bytes before the first glob character */
	unsigned flags;		/* EXC_* in exclude.c */
	const char *base;	/* "dir/" of a per-directory file, or "" */
	size_t baselen;
};

struct exclude_list {
	struct exclude *items;
	size_t nr, alloc;
	char *base;		/* owned: the items' base */
};

/* A directory entered by the walk and its per-directory patterns. */
struct exclude_frame {
	size_t baselen;
	struct exclude_list list;
};

/*
 * The three groups git consults, in this order, the first that has a
 * matching pattern deciding (and in a group the last pattern that
 * matches): --exclude, the per-directory files (deepest first), then
 * --exclude-from files (the last given first).
 */
struct exclude_set {
	struct exclude_list cmdline;
	struct exclude_list *files;
	size_t nr_files, alloc_files;
	const char *per_dir;	/* --exclude-per-directory, or NULL */

	/* The directories of the last path asked about. */
	struct exclude_frame *stack;
	size_t nr_stack, alloc_stack;
	char *base;
	size_t base_alloc;
	int dir_excluded;	/* a directory above is excluded */
};

void init_exclude_set(struct exclude_set *set);
void clear_exclude_set(struct exclude_set *set);
/*
 * A set for another thread: the patterns of set, shared (set must
 * outlive it and not change), with a directory stack of its own.
 * clear_exclude_fork frees the stack only.
 */
void fork_exclude_set(struct exclude_set *fork,
		      const struct exclude_set *set);
void clear_exclude_fork(struct exclude_set *fork);
/* 1 when no pattern can be met (no --exclude, file or per-dir name). */
int exclude_set_empty(const struct exclude_set *set);
/* Add one pattern (an --exclude argument) to list, for base "". */
void add_exclude(struct exclude_list *list, const char *pattern);
/*
 * Add the patterns of an exclude file (one a line; blank lines and
 * "#" comments skipped, trailing spaces trimmed unless escaped) as a
 * new --exclude-from list.  -1 after error() when it cannot be read.
 */
int add_excludes_from_file(struct exclude_set *set, const char *path);
/*
 * git's standard excludes (ls-files --exclude-standard, status, add):
 * .gitignore in every directory, then $GIT_DIR/info/exclude, then
 * core.excludesFile (or $XDG_CONFIG_HOME/git/ignore).  Missing files
 * are fine; -1 after error() when one cannot be read.
 */
int add_standard_excludes(struct exclude_set *set);
/*
 * Is path (relative to the top; dtype DT_REG, DT_LNK or DT_DIR, or
 * DT_UNKNOWN to lstat it) excluded?  Per-directory files are read from
 * the work tree as the directories are entered; a path in an excluded
 * directory is excluded whatever its own patterns say, as in git.
 */
int is_excluded(struct exclude_set *set, const char *path, int dtype);

/* ---- dir.c: the files the index does not know ---- */

struct dir_walk {
	/* In: both may be NULL. */
	struct exclude_set *exclude;
	const struct pathspec *pathspec;
	int show_ignored;	/* list the excluded files, not the others */
	/* Out: sorted as the index sorts; a nested repository as "dir/". */
	char **names;
	size_t nr, alloc;
};

/*
 * Walk the work tree from the current directory (its top) as git
 * ls-files -o does: files and symlinks not in the index at any stage,
 * excluded ones left out (or, with show_ignored, only those), into
 * directories the exclude rules do not rule out; ".git" and the
 * repository directory are never entered.  The index must be loaded.
 * -1 after error() when a directory cannot be read.
 */
int read_directory(struct dir_walk *w);
void clear_dir_walk(struct dir_walk *w);

#endif
