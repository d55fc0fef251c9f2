/*
 * lockfile.c: the one way a file is replaced.  "<file>.lock" is
 * created with O_EXCL, written, and renamed over <file>, so a reader
 * sees the old file or the new one, and two writers never both win.
 *
 * A lock is ours to remove only once our open(O_EXCL) made it: until
 * then the name may belong to a running writer, and a signal, an exit
 * or an error in that window must leave it alone.  Locks we hold are
 * removed on exit and on SIGINT, SIGTERM, SIGHUP and SIGPIPE; other
 * files that must not outlive a signal (apply's temporary files) are
 * removed by the same handler, through at_signal_cleanup.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

/* Every lock this process holds, for the exit and signal cleanup. */
static struct lock_file *volatile held_locks;

static void remove_held_locks(void)
{
	struct lock_file *lk;

	for (lk = held_locks; lk; lk = lk->next)
		unlink(lk->path);
}

/* Other files' removals a signal runs too (at_signal_cleanup). */
#define MAX_SIGNAL_CLEANUPS 4
static void (*signal_cleanups[MAX_SIGNAL_CLEANUPS])(void);
static volatile sig_atomic_t nr_signal_cleanups;

static void remove_locks_on_signal(int sig)
{
	int i;

	remove_held_locks();
	for (i = 0; i < nr_signal_cleanups; i++)
		signal_cleanups[i]();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_cleanup(void)
{
	static int installed;

	if (installed++)
		return;
	atexit(remove_held_locks);
	signal(SIGINT, remove_locks_on_signal);
	signal(SIGTERM, remove_locks_on_signal);
	signal(SIGHUP, remove_locks_on_signal);
	signal(SIGPIPE, remove_locks_on_signal);
}

void at_signal_cleanup(void (*fn)(void))
{
	if (nr_signal_cleanups == MAX_SIGNAL_CLEANUPS)
		die("BUG: more than %d signal cleanups", MAX_SIGNAL_CLEANUPS);
	signal_cleanups[nr_signal_cleanups] = fn;
	nr_signal_cleanups = nr_signal_cleanups + 1;
	install_cleanup();
}

/* Keep the cleanup's signals out while the lock changes hands. */
static void block_cleanup_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void forget_lock(struct lock_file *lk)
{
	struct lock_file *volatile *p;

	for (p = &held_locks; *p; p = &(*p)->next)
		if (*p == lk) {
			*p = lk->next;
			break;
		}
}

int hold_lock_file(struct lock_file *lk, const char *target)
{
	size_t len = strlen(target) + 6;
	sigset_t old;
	char *path;
	int fd, err;

	if (lk->path)
		return error("internal error: '%s' is already locked",
			     lk->path);
	install_cleanup();
	lk->fd = -1;
	lk->target = xstrdup(target);
	path = xmalloc(len);
	snprintf(path, len, "%s.lock", target);
	block_cleanup_signals(&old);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
	err = errno;
	if (fd >= 0) {
		lk->path = path;
		lk->fd = fd;
		lk->next = held_locks;
		held_locks = lk;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd >= 0)
		return 0;
	errno = err;
	if (errno == EEXIST)
		error("unable to create '%s': File exists; another process "
		      "may be running (if none is, remove the file)", path);
	else
		error_errno("unable to create '%s'", path);
	free(path);
	free(lk->target);
	lk->target = NULL;
	return -1;
}

/* Free lk's names; it is off the held list, and no longer held. */
static void free_lock_names(struct lock_file *lk)
{
	free(lk->path);
	free(lk->target);
	lk->path = lk->target = NULL;
}

/*
 * Once the rename is done the name may be taken by the next writer, so
 * no signal may come between the rename and forgetting the lock.
 */
int commit_lock_file(struct lock_file *lk)
{
	sigset_t old;
	int err;

	if (!lk->path)
		return error("internal error: commit of a lock not held");
	if (lk->fd >= 0 && close(lk->fd) < 0) {
		lk->fd = -1;
		error_errno("close '%s'", lk->path);
		rollback_lock_file(lk);
		return -1;
	}
	lk->fd = -1;
	block_cleanup_signals(&old);
	if (rename(lk->path, lk->target) < 0) {
		err = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		errno = err;
		error_errno("rename '%s' to '%s'", lk->path, lk->target);
		rollback_lock_file(lk);
		return -1;
	}
	forget_lock(lk);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free_lock_names(lk);
	return 0;
}

void rollback_lock_file(struct lock_file *lk)
{
	sigset_t old;

	if (!lk->path)
		return;
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
	block_cleanup_signals(&old);
	unlink(lk->path);
	forget_lock(lk);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free_lock_names(lk);
}
