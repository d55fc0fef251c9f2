/*
 * applymbox: turn each mail of a series into a commit, as git am does,
 * in one process.
 *
 * Each mail is read as mailinfo reads it (mail.c), its patch applied
 * to the index and the work tree with the patch library (patch.h),
 * the index written as trees and committed with the mail's author,
 * date and "<subject>\n\n<description>", and the branch HEAD names
 * moved to the commit.  The index stays in memory: it is written once
 * per commit, and only the files a patch touches are read and hashed.
 *
 * The run's state lives in $GIT_DIR/applymbox: the mails (0001, ...),
 * the number of the next one, where the run started, a stop, and the
 * commit being made.  When
 * a patch does not apply, nothing of it is written; the run stops
 * there, says which mail, file and hunk, and waits for --continue
 * (commit the index the user fixed by hand, with that mail's message),
 * --skip (drop that mail) or --abort (back to where the run started).
 *
 * Writes come in an order that a kill -9 cannot make inconsistent for
 * good: the work tree first, then the objects, a note of the new
 * commit in the state, the index, and the branch last.  --continue
 * after a kill finishes the noted commit if it was half done, puts the
 * index and work tree back at HEAD and goes on; --abort works from any
 * point.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "commit-write.h"
#include "mail.h"
#include "patch.h"

static const char applymbox_usage[] =
	"applymbox [--signoff] [-k] <mbox>... | --continue | --skip | --abort";

struct am_state {
	int signoff, keep_subject;
	int next, last;		/* mails next..last are still to do */
	int stopped;		/* stopped at mail next */
	char *branch;		/* the ref HEAD names: refs/heads/... */
	unsigned char head[20];	/* the branch now */
	int has_head;
	unsigned char orig[20];	/* the branch when the run started */
	int orig_has_head;
};

static struct am_state st;
static const unsigned char null_id[20];

/* ---- the state directory ---- */

static char *state_path(const char *name)
{
	static char *dir;

	if (!dir)
		dir = path_join(get_git_dir(), "applymbox");
	return name ? path_join(dir, name) : xstrdup(dir);
}

static int state_exists(void)
{
	char *dir = state_path(NULL);
	struct stat s;
	int ret = !lstat(dir, &s);

	free(dir);
	return ret;
}

/* Replace state file name with text, through name.lock. */
static int write_state_file(const char *name, const void *text, size_t len)
{
	struct lock_file *lk = xcalloc(1, sizeof(*lk));
	char *path = state_path(name);
	int ret = hold_lock_file(lk, path);

	if (!ret && write_in_full(lk->fd, text, len) < 0) {
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

static int write_state_number(const char *name, int nr)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", nr);

	return write_state_file(name, buf, n);
}

/* The contents of a state file, or -1 (quiet when missing and quiet). */
static int read_state_file(const char *name, struct mbuf *out)
{
	char *path = state_path(name);
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

static int read_state_number(const char *name, int *nr)
{
	struct mbuf b = MBUF_INIT;
	char *end;
	int ret = read_state_file(name, &b);

	if (!ret) {
		long v = strtol(mbuf_str(&b), &end, 10);

		if (end == b.buf || *end != '\n' || v < 0 || v > 999999)
			ret = error("applymbox state '%s' is corrupt", name);
		*nr = (int)v;
	}
	mbuf_release(&b);
	return ret;
}

static int remove_state_file(const char *name)
{
	char *path = state_path(name);
	int ret = 0;

	if (unlink(path) < 0 && errno != ENOENT)
		ret = error_errno("cannot remove '%s'", path);
	free(path);
	return ret;
}

static int remove_state(void)
{
	char *dir = state_path(NULL);
	DIR *d;
	struct dirent *de;
	int ret;

	/* "next" first: a state without it is one never begun. */
	ret = remove_state_file("next");
	d = opendir(dir);

	while (d && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret |= remove_state_file(de->d_name);
	if (d)
		closedir(d);
	if (!ret && rmdir(dir) < 0)
		ret = error_errno("cannot remove '%s'", dir);
	free(dir);
	return ret;
}

static int read_state_mail(int nr, struct mbuf *out)
{
	char name[16];

	snprintf(name, sizeof(name), "%04d", nr);
	if (read_state_file(name, out) < 0)
		return error("mail %04d is missing from the state", nr);
	return 0;
}

static int save_mail(void *data, const char *mail, size_t len)
{
	int *nr = data;
	char name[16];

	snprintf(name, sizeof(name), "%04d", ++*nr);
	return write_state_file(name, mail, len);
}

/*
 * The state of a new run: the mails first, then where it starts, and
 * "next" last: a state without "next" was never begun (--abort
 * removes it).
 */
static int create_state(int argc, char **argv)
{
	struct mbox_options opt = { 0, 0, 0 };
	struct mbuf buf = MBUF_INIT;
	char *dir = state_path(NULL);
	int i, nr = 0, ret = 0;

	if (mkdir(dir, 0777) < 0)
		ret = error_errno("cannot create '%s'", dir);
	free(dir);
	for (i = 0; !ret && i < argc; i++) {
		ret = read_mailbox(argv[i], &buf);
		if (!ret && split_mbox(mbuf_str(&buf), buf.len, &opt,
				       save_mail, &nr) < 0)
			ret = error("cannot split patches from '%s'", argv[i]);
	}
	mbuf_release(&buf);
	if (!ret) {
		mbuf_addstr(&buf, st.has_head ? sha1_to_hex(st.head) : "-");
		mbuf_addch(&buf, '\n');
		mbuf_addstr(&buf, st.branch);
		mbuf_addch(&buf, '\n');
		mbuf_addstr(&buf, st.signoff ? "signoff\n" : "");
		mbuf_addstr(&buf, st.keep_subject ? "keep\n" : "");
		ret = write_state_file("start", buf.buf, buf.len);
		mbuf_release(&buf);
	}
	if (!ret)
		ret = write_state_number("last", nr);
	if (!ret)
		ret = write_state_number("next", 1);
	if (ret) {
		remove_state();
		return -1;
	}
	memcpy(st.orig, st.head, 20);
	st.orig_has_head = st.has_head;
	st.next = 1;
	st.last = nr;
	return 0;
}

/* Whether create_state got as far as "next". */
static int state_begun(void)
{
	char *path = state_path("next");
	struct stat s;
	int ret = !lstat(path, &s);

	free(path);
	return ret;
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

static int load_state(void)
{
	struct mbuf b = MBUF_INIT, line = MBUF_INIT;
	const char *p;
	int ret;

	ret = read_state_file("start", &b);
	p = mbuf_str(&b);
	if (!ret && (take_line(&p, &line) < 0 ||
		     (strcmp(line.buf, "-") &&
		      get_sha1_hex(line.buf, st.orig) < 0)))
		ret = -1;
	st.orig_has_head = line.len && strcmp(mbuf_str(&line), "-");
	if (!ret && take_line(&p, &line) < 0)
		ret = -1;
	if (!ret) {
		st.branch = xstrdup(line.buf);
		st.signoff = strstr(p, "signoff\n") != NULL;
		st.keep_subject = strstr(p, "keep\n") != NULL;
		ret = read_state_number("last", &st.last);
	}
	if (!ret)
		ret = read_state_number("next", &st.next);
	if (!ret) {
		int stop;

		st.stopped = read_state_number("stopped", &stop) == 0;
	}
	mbuf_release(&b);
	mbuf_release(&line);
	if (ret)
		return error("the state in '%s' is corrupt", state_path(NULL));
	st.has_head = !read_ref(st.branch, st.head);
	return 0;
}

/* ---- HEAD ---- */

static int read_head(void)
{
	char *resolved = NULL;

	st.has_head = !resolve_ref("HEAD", st.head, &resolved);
	if (!resolved || strncmp(resolved, "refs/heads/", 11)) {
		free(resolved);
		return error("HEAD is detached or names no branch: check "
			     "out a branch first");
	}
	st.branch = resolved;
	return 0;
}

/* The tree of commit sha1. */
static int commit_tree_id(const unsigned char *sha1, unsigned char *tree)
{
	struct commit_info ci;
	size_t size;
	void *buf = read_object_of_type(sha1, OBJ_COMMIT, &size);
	int ret;

	if (!buf)
		return error("cannot read commit %s", sha1_to_hex(sha1));
	ret = parse_commit_buffer(buf, size, &ci);
	free(buf);
	if (ret < 0)
		return error("commit %s is corrupt", sha1_to_hex(sha1));
	memcpy(tree, ci.tree, 20);
	free_commit_info(&ci);
	return 0;
}

/* ---- one mail ---- */

struct am_mail {
	struct mail_info mi;
	struct mbuf subject, name, email, date;
	struct mbuf msg;		/* the commit message */
};

static void release_mail(struct am_mail *m)
{
	mail_info_release(&m->mi);
	mbuf_release(&m->subject);
	mbuf_release(&m->name);
	mbuf_release(&m->email);
	mbuf_release(&m->date);
	mbuf_release(&m->msg);
}

/* Read mail number nr of the state into m; -1 after error(). */
static int load_mail(int nr, struct am_mail *m)
{
	struct mbuf raw = MBUF_INIT;
	int ret;

	memset(m, 0, sizeof(*m));
	mail_info_init(&m->mi);
	m->mi.keep_subject = st.keep_subject;
	if (read_state_mail(nr, &raw) < 0)
		return -1;
	ret = parse_mail(&m->mi, mbuf_str(&raw), raw.len);
	mbuf_release(&raw);
	mail_message(&m->mi, &m->subject, &m->name, &m->email, &m->date,
		     &m->msg);
	if (ret < 0 && m->mi.patch_lines)
		return error("mail %04d could not be read whole", nr);
	return 0;
}

static void first_line(const struct mbuf *msg, const char **s, int *len)
{
	*s = mbuf_str(msg);
	*len = (int)strcspn(*s, "\n");
}

/* ---- committing ---- */

/* The author of mail m; -1 after error() (a stop, not a crash). */
static int mail_author(struct am_mail *m, struct ident *author)
{
	return ident_from_parts(author, mbuf_str(&m->name),
				mbuf_str(&m->email),
				m->date.len ? m->date.buf : NULL,
				"the mail's From: or Date:");
}

/* "<nr> <commit> <parent or ->": the commit being made for mail nr. */
static int write_pending(int nr, const unsigned char *commit)
{
	char buf[128];
	int n = snprintf(buf, sizeof(buf), "%d %s ", nr, sha1_to_hex(commit));

	n += snprintf(buf + n, sizeof(buf) - n, "%s\n",
		      st.has_head ? sha1_to_hex(st.head) : "-");
	return write_state_file("pending", buf, n);
}

/*
 * Commit the in-memory index with mail nr's message and author, then
 * write the index and move the branch.  Dies on failure.
 */
static void commit_mail(int nr, struct am_mail *m, const struct ident *author)
{
	struct ident committer;
	unsigned char tree[20], commit[20];

	if (ident_from_env(&committer, 1) < 0)
		exit(128);
	if (st.signoff)
		add_signoff(&m->msg, committer.name, committer.email);
	if (write_index_tree(tree, 0) < 0 ||
	    write_commit_object(tree, (const unsigned char (*)[20])st.head,
				st.has_head, author, &committer,
				mbuf_str(&m->msg), m->msg.len, commit) < 0)
		exit(128);
	if (flush_to_disk(-1) < 0)
		die("unable to make the commit durable");
	if (write_pending(nr, commit) < 0)
		exit(128);
	if (hold_index_lock() < 0 || commit_index() < 0)
		die("unable to write the index");
	if (update_ref(st.branch, commit, st.has_head ? st.head : null_id) < 0)
		exit(128);
	memcpy(st.head, commit, 20);
	st.has_head = 1;
	ident_release(&committer);
}

/* ---- the run ---- */

static void print_stop(int nr, struct am_mail *m,
		       const struct patch_error *err)
{
	const char *s;
	int len;

	first_line(&m->msg, &s, &len);
	if (err && err->git_msg[0])
		error("%s", err->git_msg);
	if (err && err->msg[0])
		error("%s", err->msg);
	printf("Patch failed at %04d %.*s\n", nr, len, s);
	finish_stdout();
	fprintf(stderr,
		"HEAD, the index and the work tree are at the last good "
		"commit.\nFix it by hand (apply --reject, edit, "
		"update-cache), then run \"applymbox --continue\".\n"
		"To drop this mail, run \"applymbox --skip\"; to go back to "
		"where the run started, \"applymbox --abort\".\n");
}

/* Stop at mail nr: note it in the state and exit 1. */
static void stop_at(int nr, struct am_mail *m, const struct patch_error *err)
{
	if (write_state_number("stopped", nr) < 0)
		exit(128);
	print_stop(nr, m, err);
	exit(1);
}

/*
 * The files a patch wrote were hashed as they were written: their
 * entries are known up to date, so that writing the index does not
 * look at them again as racy (they are all newer than the index read
 * at the start) once per commit for the rest of the series.
 */
static void mark_written(const struct patch_set *set)
{
	const struct patch *p;

	for (p = set->first; p; p = p->next) {
		int pos;

		if (!p->new_name)
			continue;
		pos = cache_name_pos(p->new_name, strlen(p->new_name));
		if (pos >= 0)
			active_cache[pos]->ce_state |= CE_UPTODATE;
	}
}

/* Apply mail nr and commit it, or stop. */
static void apply_mail(int nr)
{
	struct am_mail m;
	struct patch_set set;
	struct patch_error err;
	struct ident author;
	const char *s;
	int len;

	memset(&err, 0, sizeof(err));
	if (load_mail(nr, &m) < 0)
		stop_at(nr, &m, NULL);
	first_line(&m.msg, &s, &len);
	if (!m.mi.patch_lines) {
		fprintf(stderr, "applymbox: %04d %.*s: no patch in this mail; "
			"skipped\n", nr, len, s);
		release_mail(&m);
		return;
	}
	printf("Applying: %.*s\n", len, s);
	if (mail_author(&m, &author) < 0)
		stop_at(nr, &m, NULL);
	init_patch_set(&set);
	if (parse_patch(&set, mbuf_str(&m.mi.patch), m.mi.patch.len, 1,
			&err) < 0)
		stop_at(nr, &m, &err);
	if (!set.nr) {
		snprintf(err.msg, sizeof(err.msg), "no valid patch in mail %04d",
			 nr);
		stop_at(nr, &m, &err);
	}
	if (apply_patch_set(&set, APPLY_INDEX, &err) != 0)
		stop_at(nr, &m, &err);
	mark_written(&set);
	commit_mail(nr, &m, &author);
	ident_release(&author);
	free_patch_set(&set);
	clear_patch_error(&err);
	release_mail(&m);
}

static void run(void)
{
	for (; st.next <= st.last; st.next++) {
		apply_mail(st.next);
		if (write_state_number("next", st.next + 1) < 0)
			exit(128);
		fflush(stdout);
	}
	if (remove_state() < 0)
		exit(128);
	finish_stdout();
}

/* ---- the commands ---- */

static void load_index(void)
{
	if (read_cache() < 0)
		die("unable to read the index");
}

static const unsigned char *head_tree(unsigned char *tree)
{
	if (!st.has_head)
		return NULL;
	if (commit_tree_id(st.head, tree) < 0)
		exit(128);
	return tree;
}

static void start(int argc, char **argv)
{
	unsigned char tree[20];
	char *changes;

	if (state_exists())
		die("a run is in progress in %s: use --continue, --skip or "
		    "--abort", state_path(NULL));
	if (read_head() < 0)
		exit(128);
	load_index();
	if (list_changes(head_tree(tree), &changes) < 0)
		exit(128);
	if (changes) {
		fputs(changes, stderr);
		die("the index or the work tree differs from HEAD; commit or "
		    "reset it first");
	}
	if (create_state(argc, argv) < 0)
		exit(128);
	run();
}

/* Put the index and the work tree at tree (NULL: empty); dies. */
static void reset_all(const unsigned char *tree)
{
	if (hold_index_lock() < 0)
		exit(128);
	load_index();
	if (reset_to_tree(tree) < 0 || commit_index() < 0)
		die("unable to put the index and the work tree back");
}

/*
 * After a kill: a commit noted as pending whose branch move did not
 * happen is finished; its mail is then done.
 */
static void finish_pending(void)
{
	struct mbuf b = MBUF_INIT;
	unsigned char commit[20], parent[20];
	char *end;
	const char *p;
	int nr, has_parent;

	if (read_state_file("pending", &b) < 0)
		return;
	p = mbuf_str(&b);
	nr = (int)strtol(p, &end, 10);
	if (*end != ' ' || get_sha1_hex(end + 1, commit) < 0 ||
	    end[41] != ' ')
		die("applymbox state 'pending' is corrupt");
	has_parent = end[42] != '-';
	if (has_parent && get_sha1_hex(end + 42, parent) < 0)
		die("applymbox state 'pending' is corrupt");
	if ((st.has_head && !memcmp(st.head, commit, 20)) ||
	    (has_parent == st.has_head &&
	     (!has_parent || !memcmp(st.head, parent, 20)))) {
		if (!st.has_head || memcmp(st.head, commit, 20))
			if (update_ref(st.branch, commit,
				       st.has_head ? st.head : null_id) < 0)
				exit(128);
		memcpy(st.head, commit, 20);
		st.has_head = 1;
		if (st.next == nr && write_state_number("next", ++st.next) < 0)
			exit(128);
	}
	mbuf_release(&b);
}

/* --continue after a stop: commit what the user fixed. */
static void commit_fixed(void)
{
	unsigned char tree[20], head[20];
	struct am_mail m;
	struct ident author;

	load_index();
	if (write_index_tree(tree, 1) < 0)
		exit(128);
	if (head_tree(head) && !memcmp(tree, head, 20))
		die("the index still matches HEAD: update-cache the fixed "
		    "files first, or drop the mail with --skip");
	if (load_mail(st.next, &m) < 0 || mail_author(&m, &author) < 0)
		exit(128);
	commit_mail(st.next, &m, &author);
	ident_release(&author);
	release_mail(&m);
}

/*
 * After a kill, files the interrupted mail created may stand in the
 * work tree outside the index.  Those whose content is the blob the
 * patch names are ours, and go; anything else stays.
 */
static void remove_created_files(int nr)
{
	struct am_mail m;
	struct patch_set set;
	struct patch_error err;
	struct patch *p;

	memset(&err, 0, sizeof(err));
	init_patch_set(&set);
	if (load_mail(nr, &m) < 0 ||
	    parse_patch(&set, mbuf_str(&m.mi.patch), m.mi.patch.len, 1,
			&err) < 0)
		goto out;
	load_index();
	for (p = set.first; p; p = p->next) {
		const char *path = p->new_name, *want = p->new_id;
		char old_id[41];
		unsigned char sha1[20];
		struct stat s;
		int pos;

		if (!path || !(p->is_new || p->is_rename || p->is_copy) ||
		    cache_name_pos(path, strlen(path)) >= 0)
			continue;
		/* A pure rename or copy names no id: the source's content. */
		if (!want[0] && p->old_name &&
		    (pos = cache_name_pos(p->old_name,
					  strlen(p->old_name))) >= 0) {
			memcpy(old_id, sha1_to_hex(active_cache[pos]->sha1), 41);
			want = old_id;
		}
		if (!want[0] || lstat_work_path(path, &s) < 0 ||
		    !S_ISREG(s.st_mode) || index_path(path, &s, 0, sha1) < 0 ||
		    strncmp(sha1_to_hex(sha1), want, strlen(want)))
			continue;
		unlink(path);
	}
	discard_cache();
out:
	free_patch_set(&set);
	clear_patch_error(&err);
	release_mail(&m);
}

/* Locks of state files that a killed run left: only applymbox takes them. */
static void remove_stale_state_locks(void)
{
	char *dir = state_path(NULL);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".lock"))
			remove_state_file(de->d_name);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void resume(const char *cmd)
{
	unsigned char tree[20];

	if (!state_exists())
		die("no run in progress: nothing to %s", cmd + 2);
	remove_stale_state_locks();
	if (!state_begun()) {
		/* Killed while saving the mails: nothing was applied. */
		if (remove_state() < 0)
			exit(128);
		fprintf(stderr, "applymbox: the run never began; its state "
			"is removed: start it again\n");
		return;
	}
	if (load_state() < 0)
		exit(128);
	if (!strcmp(cmd, "--abort")) {
		if (!st.stopped)
			remove_created_files(st.next);
		if (st.orig_has_head && commit_tree_id(st.orig, tree) < 0)
			exit(128);
		reset_all(st.orig_has_head ? tree : NULL);
		if (st.orig_has_head &&
		    update_ref(st.branch, st.orig, NULL) < 0)
			exit(128);
		if (!st.orig_has_head) {
			char *ref = path_join(get_git_dir(), st.branch);

			if (unlink(ref) < 0 && errno != ENOENT)
				die_errno("cannot remove '%s'", ref);
			free(ref);
		}
		if (remove_state() < 0)
			exit(128);
		return;
	}
	finish_pending();
	if (st.stopped && !strcmp(cmd, "--continue")) {
		commit_fixed();
	} else {
		/* --skip, or --continue after a kill: back to HEAD. */
		if (!st.stopped)
			remove_created_files(st.next);
		reset_all(head_tree(tree));
		if (!st.stopped)
			goto go_on;
	}
	if (write_state_number("next", ++st.next) < 0)
		exit(128);
go_on:
	if (remove_state_file("stopped") < 0)
		exit(128);
	run();
}

int main(int argc, char **argv)
{
	int i;

	setup_tool(argv[0]);
	handle_help(argc, argv, applymbox_usage);
	if (argc == 2 && (!strcmp(argv[1], "--continue") ||
			  !strcmp(argv[1], "--skip") ||
			  !strcmp(argv[1], "--abort"))) {
		if (setup_repository() < 0)
			exit(128);
		resume(argv[1]);
		return 0;
	}
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--signoff") ||
			   !strcmp(argv[i], "-s"))
			st.signoff = 1;
		else if (!strcmp(argv[i], "-k"))
			st.keep_subject = 1;
		else
			usage(applymbox_usage);
	}
	if (i == argc)
		usage(applymbox_usage);
	if (setup_repository() < 0)
		exit(128);
	start(argc - i, argv + i);
	return 0;
}
