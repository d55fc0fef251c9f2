/*
 * am-state.c: the files of an applymbox run in $GIT_DIR/applymbox
 * (am-state.h says what each holds).  Every file is written whole
 * under <name>.lock and renamed into place, so a kill -9 leaves the
 * old contents or the new, and a stale lock at most.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "am-state.h"

char *am_state_path(const char *name)
{
	static char *dir;

	if (!dir)
		dir = path_join(get_git_dir(), "applymbox");
	return name ? path_join(dir, name) : xstrdup(dir);
}

static int path_exists(const char *name)
{
	char *path = am_state_path(name);
	struct stat s;
	int ret = !lstat(path, &s);

	free(path);
	return ret;
}

int am_state_exists(void)
{
	return path_exists(NULL);
}

int am_state_begun(void)
{
	return path_exists("next");
}

/* With sync, the file is on disk before it takes the name. */
static int write_file(const char *name, const void *text, size_t len,
		      int sync)
{
	struct lock_file *lk = xcalloc(1, sizeof(*lk));
	char *path = am_state_path(name);
	int ret = hold_lock_file(lk, path);

	if (!ret && (write_in_full(lk->fd, text, len) < 0 ||
		     (sync && flush_to_disk(lk->fd) < 0))) {
		ret = error_errno("write '%s'", lk->path);
		rollback_lock_file(lk);
	} else if (!ret) {
		ret = commit_lock_file(lk);
	}
	free(path);
	if (!ret)
		free(lk);	/* a held lock stays listed for cleanup */
	return ret;
}

int am_write_file(const char *name, const void *text, size_t len)
{
	return write_file(name, text, len, 0);
}

int am_write_number(const char *name, int nr)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", nr);

	return am_write_file(name, buf, n);
}

int am_read_file(const char *name, struct mbuf *out)
{
	char *path = am_state_path(name);
	struct stat s;
	int ret;

	if (lstat(path, &s) < 0) {
		ret = errno == ENOENT ? -2 :
		      error_errno("cannot read '%s'", path);
		free(path);
		return ret;
	}
	ret = read_mailbox(path, out);
	free(path);
	return ret;
}

int am_read_number(const char *name, int *nr)
{
	struct mbuf b = MBUF_INIT;
	char *end;
	int ret = am_read_file(name, &b);

	if (!ret) {
		long v = strtol(mbuf_str(&b), &end, 10);

		if (end == b.buf || *end != '\n' || v < 0 || v > 999999)
			ret = error("applymbox state '%s' is corrupt", name);
		*nr = (int)v;
	}
	mbuf_release(&b);
	return ret;
}

int am_remove_file(const char *name)
{
	char *path = am_state_path(name);
	int ret = 0;

	if (unlink(path) < 0 && errno != ENOENT)
		ret = error_errno("cannot remove '%s'", path);
	free(path);
	return ret;
}

int am_remove_state(void)
{
	char *dir = am_state_path(NULL);
	DIR *d;
	struct dirent *de;
	int ret;

	/* "next" first: a state without it is one never begun. */
	ret = am_remove_file("next");
	d = opendir(dir);

	while (d && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret |= am_remove_file(de->d_name);
	if (d)
		closedir(d);
	if (!ret && rmdir(dir) < 0)
		ret = error_errno("cannot remove '%s'", dir);
	free(dir);
	return ret;
}

void am_remove_stale_locks(void)
{
	char *dir = am_state_path(NULL);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".lock"))
			am_remove_file(de->d_name);
	}
	if (d)
		closedir(d);
	free(dir);
}

int am_read_mail(int nr, struct mbuf *out)
{
	char name[16];

	snprintf(name, sizeof(name), "%04d", nr);
	if (am_read_file(name, out) < 0)
		return out->failed ? -1 :	/* out of memory: said */
		       error("mail %04d is missing from the state", nr);
	return 0;
}

static int save_mail(void *data, const char *mail, size_t len)
{
	int *nr = data;
	char name[16];

	snprintf(name, sizeof(name), "%04d", ++*nr);
	return am_write_file(name, mail, len);
}

static int write_start(const struct am_state *st)
{
	struct mbuf buf = MBUF_INIT;
	int ret;

	mbuf_addstr(&buf, st->has_head ? sha1_to_hex(st->head) : "-");
	mbuf_addch(&buf, '\n');
	mbuf_addstr(&buf, st->branch);
	mbuf_addch(&buf, '\n');
	mbuf_addstr(&buf, st->signoff ? "signoff\n" : "");
	mbuf_addstr(&buf, st->keep_subject ? "keep\n" : "");
	if (buf.failed)
		ret = error("cannot write the state: out of memory");
	else
		ret = am_write_file("start", buf.buf, buf.len);
	mbuf_release(&buf);
	return ret;
}

int am_create_state(struct am_state *st, int nr_mbox, char **mbox)
{
	struct mbox_options opt = { 0, 0, 0 };
	char *dir = am_state_path(NULL);
	int i, nr = 0, ret = 0;
	size_t bytes;

	/*
	 * The mkdir is the lock on the state: a run that loses it to
	 * another started at the same time removes nothing.
	 */
	if (mkdir(dir, 0777) < 0) {
		if (errno == EEXIST)
			error("a run is in progress in '%s': use --continue, "
			      "--skip or --abort", dir);
		else
			error_errno("cannot create '%s'", dir);
		free(dir);
		return -1;
	}
	free(dir);
	for (i = 0; !ret && i < nr_mbox; i++)
		if (split_mailbox(mbox[i], &opt, save_mail, &nr, &bytes) < 0)
			ret = error("cannot split patches from '%s'", mbox[i]);
	if (!ret)
		ret = write_start(st);
	if (!ret)
		ret = am_write_number("last", nr);
	if (!ret)
		ret = am_write_number("next", 1);
	if (ret) {
		am_remove_state();
		return -1;
	}
	hashcpy(st->orig, st->head);
	st->orig_has_head = st->has_head;
	st->next = 1;
	st->last = nr;
	return 0;
}

/* A whole line at *p: copied into out, *p moved past it. */
static int take_line(const char **p, struct mbuf *out)
{
	const char *nl = strchr(*p, '\n');

	if (!nl)
		return -1;
	mbuf_reset(out);
	mbuf_add(out, *p, nl - *p);
	*p = nl + 1;
	return 0;
}

int am_load_state(struct am_state *st)
{
	struct mbuf b = MBUF_INIT, line = MBUF_INIT;
	const char *p;
	int ret;

	ret = am_read_file("start", &b);
	p = mbuf_str(&b);
	if (!ret && (take_line(&p, &line) < 0 ||
		     (strcmp(line.buf, "-") &&
		      (line.len != the_hash->hexsz ||
		       get_sha1_hex(line.buf, st->orig) < 0))))
		ret = -1;
	st->orig_has_head = line.len && strcmp(mbuf_str(&line), "-");
	if (!ret && take_line(&p, &line) < 0)
		ret = -1;
	if (!ret) {
		st->branch = xstrdup(line.buf);
		st->signoff = strstr(p, "signoff\n") != NULL;
		st->keep_subject = strstr(p, "keep\n") != NULL;
		ret = am_read_number("last", &st->last);
	}
	if (!ret)
		ret = am_read_number("next", &st->next);
	if (!ret) {
		int stop;

		st->stopped = am_read_number("stopped", &stop) == 0;
	}
	mbuf_release(&b);
	mbuf_release(&line);
	if (ret)
		return error("the state in '%s' is corrupt",
			     am_state_path(NULL));
	st->has_head = !read_ref(st->branch, st->head);
	return 0;
}

int am_write_checkpoint(int next, const unsigned char *commit,
			const unsigned char *old)
{
	char buf[24 + 2 * (HASH_MAX_HEXSZ + 1)];
	int n = snprintf(buf, sizeof(buf), "%d %s ", next,
			 sha1_to_hex(commit));

	n += snprintf(buf + n, sizeof(buf) - n, "%s\n",
		      old ? sha1_to_hex(old) : "-");
	/* Synced: the index and the branch that follow are. */
	return write_file("checkpoint", buf, n, 1);
}

int am_read_checkpoint(int *next, unsigned char *commit, unsigned char *old,
		       int *has_old)
{
	struct mbuf b = MBUF_INIT;
	const size_t hexsz = the_hash->hexsz;
	const char *p;
	char *end;
	int ret = am_read_file("checkpoint", &b);
	long v;

	if (ret < 0)
		return ret;
	p = mbuf_str(&b);
	v = strtol(p, &end, 10);
	if (end == p || *end != ' ' || v < 1 || v > 999999 ||
	    get_sha1_hex(end + 1, commit) < 0 || end[hexsz + 1] != ' ')
		ret = -1;
	else if (end[hexsz + 2] == '-' && end[hexsz + 3] == '\n')
		*has_old = 0;
	else if (get_sha1_hex(end + hexsz + 2, old) < 0 ||
		 end[2 * hexsz + 2] != '\n')
		ret = -1;
	else
		*has_old = 1;
	*next = (int)v;
	mbuf_release(&b);
	if (ret < 0)
		return error("applymbox state 'checkpoint' is corrupt");
	return 0;
}
