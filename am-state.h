/*
 * am-state.h: the state of an applymbox run, kept in $GIT_DIR/applymbox
 * so that a stop, a kill -9 or a crash can be taken up again by
 * applymbox --continue, --skip or --abort.
 *
 * The files: the mails (0001, ...), "start" (where the run started, the
 * branch, the options), "last" (the number of mails), "next" (the
 * first mail not yet in the branch; written last when a run is made,
 * so a state without it was never begun), "stopped" (the run stopped
 * at mail "next" on a patch that did not apply), and "checkpoint", the
 * journal of a checkpoint under way (see applymbox.c).  Each is
 * replaced whole through a lock file and a rename.
 */
#ifndef AM_STATE_H
#define AM_STATE_H

#include "mail.h"

struct am_state {
	int signoff, keep_subject;
	int next, last;		/* mails next..last are still to do */
	int stopped;		/* stopped at mail next */
	char *branch;		/* the ref HEAD names: refs/heads/... */
	unsigned char head[HASH_MAX_RAWSZ];	/* the branch now */
	int has_head;
	unsigned char orig[HASH_MAX_RAWSZ];	/* the branch when the run started */
	int orig_has_head;
};

/* $GIT_DIR/applymbox/<name>, or the directory for NULL (malloc'd). */
char *am_state_path(const char *name);
/* Whether a state directory exists; whether its run was begun. */
int am_state_exists(void);
int am_state_begun(void);

/* Replace state file name with text (or a number), through name.lock. */
int am_write_file(const char *name, const void *text, size_t len);
int am_write_number(const char *name, int nr);
/* A state file's contents: 0, -2 when missing (quiet), -1 after error(). */
int am_read_file(const char *name, struct mbuf *out);
int am_read_number(const char *name, int *nr);
/* Remove one state file (missing is fine); -1 after error(). */
int am_remove_file(const char *name);
/* Remove the whole state ("next" first); -1 after error(). */
int am_remove_state(void);
/* Remove the *.lock files a killed run left (only applymbox takes them). */
void am_remove_stale_locks(void);

/*
 * Mail nr of the state (its raw text); -1 after error(), out marked
 * failed when memory ran out.
 */
int am_read_mail(int nr, struct mbuf *out);

/*
 * A new run: the state directory, the mails of every mbox (split as
 * git mailsplit splits them), then "start", "last" and "next".  st
 * gives the options, branch and head, and gets next, last and orig.
 * On failure nothing it made is left; when the directory exists (another
 * run's) it is left alone.  -1 after error().
 */
int am_create_state(struct am_state *st, int nr_mbox, char **mbox);
/* Read the state of a begun run into st (head read from the branch). */
int am_load_state(struct am_state *st);

/*
 * The checkpoint journal: "the branch goes from old (NULL: unborn) to
 * commit, whose objects are durable, and the next mail is next".
 * Written before a checkpoint touches the work tree, removed once the
 * index, the branch and "next" are written.  am_read_checkpoint gives
 * 0, -2 when there is none, -1 after error().
 */
int am_write_checkpoint(int next, const unsigned char *commit,
			const unsigned char *old);
int am_read_checkpoint(int *next, unsigned char *commit, unsigned char *old,
		       int *has_old);

/* ---- am-touched.c: the paths changed since the checkpoint ---- */

struct patch_set;
struct fault;

/* A list of paths (malloc'd, the list's), in the order first touched. */
struct am_touched {
	char **paths;
	size_t nr, alloc;
};

/* 1 when path is in t. */
int am_touched_has(const struct am_touched *t, const char *path);
/* Add the paths set changes (and forget their trees' ids: commit-write.h). */
void am_touch_set(struct am_touched *t, const struct patch_set *set);
/* Empty t (keeping its array for the next run of commits). */
void am_touched_clear(struct am_touched *t);
/*
 * The patch is applied to the index alone, and its files reach the
 * work tree at the checkpoint: a file it creates must not stand there
 * already (an untracked file the checkpoint would overwrite), unless
 * it is a touched path (the checkpoint's to put right) or a directory
 * the set empties and replaces.  0, or -1 with f (FAULT_CONFLICT).
 */
int am_check_untracked(const struct am_touched *t,
		       const struct patch_set *set, struct fault *f);

#endif
