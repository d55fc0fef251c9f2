/*
 * nameless.c: files that get their name only once whole.  A file made
 * with O_TMPFILE has no name until linkat gives it one, which never
 * replaces anything: a reader never sees it half written, a crash
 * leaves nothing behind, and making it costs one directory entry where
 * a temporary name and a rename cost two (checkout, loose objects).
 *
 * linkat with AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; through
 * /proc/self/fd it needs /proc.  Without either, or without O_TMPFILE
 * on the file system, nameless_files_work() turns false and callers
 * write under a temporary name instead.  Threads read and set the way
 * at once: each value is a safe answer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

enum { LINK_EMPTY_PATH, LINK_PROC_FD, LINK_NONE };
static int link_way;

static int get_link_way(void)
{
	return __atomic_load_n(&link_way, __ATOMIC_RELAXED);
}

static void set_link_way(int way)
{
	__atomic_store_n(&link_way, way, __ATOMIC_RELAXED);
}

int nameless_files_work(void)
{
	return get_link_way() != LINK_NONE;
}

/* A nameless file in dir, relative to dirfd. */
static int open_in(int dirfd, const char *dir, unsigned int mode)
{
	int fd;

	if (!nameless_files_work()) {
		errno = EOPNOTSUPP;
		return -1;
	}
	fd = openat(dirfd, dir, O_WRONLY | O_TMPFILE, mode);
	/* EISDIR: a kernel that knows O_DIRECTORY but not O_TMPFILE */
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
		       errno == EINVAL))
		set_link_way(LINK_NONE);
	return fd;
}

int open_nameless(const char *path, size_t dirlen, unsigned int mode)
{
	char *dir;
	int fd;

	if (!dirlen)
		return open_in(AT_FDCWD, ".", mode);
	dir = xmalloc(dirlen + 1);
	memcpy(dir, path, dirlen);	/* with its '/': "/" stays the root */
	dir[dirlen] = '\0';
	fd = open_in(AT_FDCWD, dir, mode);
	free(dir);
	return fd;
}

int open_nameless_at(int dirfd, unsigned int mode)
{
	return open_in(dirfd, ".", mode);
}

int link_nameless_at(int fd, int dirfd, const char *name)
{
	char proc[48];

	if (get_link_way() == LINK_EMPTY_PATH) {
		if (!linkat(fd, "", dirfd, name, AT_EMPTY_PATH))
			return 0;
		/* ENOENT too when the capability is missing */
		if (errno != ENOENT && errno != EPERM)
			goto fail;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW) < 0)
		goto fail;
	set_link_way(LINK_PROC_FD);
	return 0;
fail:
	if (errno != EEXIST)
		set_link_way(LINK_NONE);
	return -1;
}

int link_nameless(int fd, const char *path)
{
	return link_nameless_at(fd, AT_FDCWD, path);
}

int open_scratch_file(const char *dir)
{
	char *tmp;
	int fd = open(dir, O_RDWR | O_TMPFILE | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	/* no O_TMPFILE here: a name, gone at once */
	tmp = xmalloc(strlen(dir) + 32);
	sprintf(tmp, "%s/scratch-XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd >= 0)
		unlink(tmp);
	free(tmp);
	return fd;
}
