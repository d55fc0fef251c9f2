/*
 * applymbox: turn each mail of a series into a commit, as git am does,
 * in one process.
 *
 * Each mail is read as mailinfo reads it (mail.c), its patch applied
 * to the in-memory index with the patch library (patch.h, the old
 * content read from the store by the index's ids), the index written
 * as trees and committed with the mail's author, date and
 * "<subject>\n\n<description>".  Only the directories on the paths a
 * patch touched are hashed again (the tree memo of commit-write.c);
 * the trees and the commit are loose objects, not synced one by one.
 *
 * Between checkpoints nothing but objects reaches the disk: HEAD, the
 * index and the work tree stay at the last checkpoint's commit, so a
 * kill -9 there leaves all three consistent (the objects written since
 * are garbage).  A checkpoint, every CHECKPOINT_EVERY commits, at the
 * end and before a stop, makes the objects durable (one syncfs), notes
 * "the branch goes from H to C, next mail N" in the journal
 * (applymbox/checkpoint), writes the work-tree files the commits since
 * changed, the index, the branch and "next", and removes the journal.
 * A kill inside a checkpoint is rolled forward by the next --continue,
 * --skip or --abort: the branch moved to C, the index and work tree
 * put at C.  The state files are am-state.c's.
 *
 * When a patch does not apply, nothing of it is written; the commits
 * before it are checkpointed, the run stops there, says which mail,
 * file and hunk, and waits for --continue (commit the index the user
 * fixed by hand, with that mail's message), --skip (drop that mail) or
 * --abort (back to where the run started).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "am-state.h"
#include "commit-write.h"
#include "exclude.h"
#include "mail.h"
#include "patch.h"

static const char applymbox_usage[] =
	"applymbox [--signoff] [-k] <mbox>... | --continue | --skip | --abort";

static struct am_state st;
static const unsigned char null_id[HASH_MAX_RAWSZ];

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
	hashcpy(tree, ci.tree);
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

/*
 * Read mail number nr of the state into m; -1 after error(), -2 after
 * one when memory ran out (m must not be used).
 */
static int load_mail(int nr, struct am_mail *m)
{
	struct mbuf raw = MBUF_INIT;
	int ret;

	memset(m, 0, sizeof(*m));
	mail_info_init(&m->mi);
	m->mi.keep_subject = st.keep_subject;
	if (am_read_mail(nr, &raw) < 0) {
		ret = raw.failed ? -2 : -1;
		mbuf_release(&raw);
		return ret;
	}
	ret = parse_mail(&m->mi, mbuf_str(&raw), raw.len);
	mbuf_release(&raw);
	if (ret == -2 || mail_message(&m->mi, &m->subject, &m->name,
				      &m->email, &m->date, &m->msg) < 0)
		return -2;
	if (ret < 0 && m->mi.patch_lines)
		return error("mail %04d could not be read whole", nr);
	return 0;
}

static void first_line(const struct mbuf *msg, const char **s, int *len)
{
	*s = mbuf_str(msg);
	*len = (int)strcspn(*s, "\n");
}

/* ---- test hooks ---- */

/*
 * DIRCACHE_TEST_KILL=<where>:<n>, for the tests only: SIGKILL at the
 * nth time the run passes <where> (commit: a commit made in memory;
 * journal, worktree, index, ref: that step of a checkpoint done).
 */
static void test_kill(const char *where)
{
	static const char *want;
	static long left = -1;
	const char *colon;

	if (left < 0) {
		want = getenv("DIRCACHE_TEST_KILL");
		colon = want ? strchr(want, ':') : NULL;
		left = colon ? strtol(colon + 1, NULL, 10) : 0;
	}
	colon = want ? strchr(want, ':') : NULL;
	if (!colon || strncmp(want, where, colon - want) ||
	    where[colon - want] || left <= 0)
		return;
	if (!--left) {
		fflush(stdout);
		raise(SIGKILL);
	}
}

/* ---- committing ---- */

/*
 * Commits between checkpoints; DIRCACHE_AM_CHECKPOINT=<n> sets another
 * number (the tests use small ones to see many checkpoints).
 */
#define CHECKPOINT_EVERY 32

static int checkpoint_every(void)
{
	static int every;
	const char *env;

	if (!every) {
		env = getenv("DIRCACHE_AM_CHECKPOINT");
		every = env ? atoi(env) : 0;
		if (every <= 0)
			every = CHECKPOINT_EVERY;
	}
	return every;
}

/* The branch as the disk has it: the last checkpoint's commit. */
static unsigned char disk_head[HASH_MAX_RAWSZ];
static int disk_has_head;
/*
 * Commits since, and the paths they changed (the work tree lags).  The
 * objects they made are promised (promise.c): held in memory, written
 * on every core and synced at the checkpoint.
 */
static int commits_since;
static struct am_touched touched;

/* The content of ce when a commit since the checkpoint made it. */
static char *held_content(const struct cache_entry *ce, size_t *size)
{
	return read_promised_object(ce->sha1, size);
}

/*
 * The old content of ce for the patch library, without inflating its
 * blob: held in memory when a commit since the checkpoint made it,
 * else the work-tree file (which lags only for touched paths) when its
 * stat data match the entry's (racy ones are hashed), as apply --index
 * trusts it.
 */
static int old_content(const struct cache_entry *ce, char **buf,
		       size_t *size)
{
	struct stat s;

	if (am_touched_has(&touched, ce->name)) {
		*buf = held_content(ce, size);
		return *buf != NULL;
	}
	if (!S_ISREG(ce->ce_mode) || lstat_work_path(ce->name, &s) < 0 ||
	    ce_mode_from_stat(s.st_mode) != ce->ce_mode ||
	    ce_match_stat(ce, &s))
		return 0;
	*buf = read_work_file(ce->name, &s, size);
	return *buf != NULL;
}

static void note_disk_head(void)
{
	hashcpy(disk_head, st.head);
	disk_has_head = st.has_head;
}

/* The author of mail m; -1 after error() (a stop, not a crash). */
static int mail_author(struct am_mail *m, struct ident *author)
{
	return ident_from_parts(author, mbuf_str(&m->name),
				mbuf_str(&m->email),
				m->date.len ? m->date.buf : NULL,
				"the mail's From: or Date:");
}

/*
 * Commit the in-memory index with mail m's message and author: the
 * trees and the commit are stored, the branch moves in memory only
 * (checkpoint writes it).  Dies on failure.
 */
static void commit_mail(struct am_mail *m, const struct ident *author)
{
	struct ident committer;
	unsigned char tree[HASH_MAX_RAWSZ], commit[HASH_MAX_RAWSZ];

	if (ident_from_env(&committer, 1) < 0)
		exit(128);
	if (st.signoff)
		add_signoff(&m->msg, committer.name, committer.email);
	if (m->msg.failed)
		die("cannot sign off the message: out of memory");
	if (write_index_tree(tree, 0) < 0 ||
	    write_commit_object(tree, (const unsigned char (*)[HASH_MAX_RAWSZ])st.head,
				st.has_head, author, &committer,
				mbuf_str(&m->msg), m->msg.len, commit) < 0)
		exit(128);
	hashcpy(st.head, commit);
	st.has_head = 1;
	commits_since++;
	ident_release(&committer);
	test_kill("commit");
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Put the commits since the last checkpoint on disk, next being the
 * first mail not in them: objects made durable, the journal, the work
 * tree, the index, the branch, "next", and the journal removed.  A
 * kill at any point is rolled forward by finish_checkpoint.  Dies on
 * failure.
 */
static void checkpoint(int next)
{

	if (!commits_since && !touched.nr)
		return;
	if (flush_to_disk(-1) < 0)
		die("unable to make the commits durable");
	if (am_write_checkpoint(next, st.head,
				disk_has_head ? disk_head : NULL) < 0)
		exit(128);
	test_kill("journal");
	if (touched.nr)
		qsort(touched.paths, touched.nr, sizeof(*touched.paths),
		      compare_paths);
	if (checkout_index_paths(touched.paths, touched.nr, held_content) < 0)
		die("unable to write the work tree");
	test_kill("worktree");
	if (hold_index_lock() < 0 || commit_index() < 0)
		die("unable to write the index");
	test_kill("index");
	if (update_ref(st.branch, st.head,
		       disk_has_head ? disk_head : null_id) < 0)
		exit(128);
	test_kill("ref");
	if (am_write_number("next", next) < 0 ||
	    am_remove_file("checkpoint") < 0)
		exit(128);
	note_disk_head();
	drop_promises();
	am_touched_clear(&touched);
	commits_since = 0;
}

/* ---- the run ---- */

static void print_stop(int nr, struct am_mail *m, const struct fault *f)
{
	const char *s;
	int len;

	first_line(&m->msg, &s, &len);
	if (f && f->msg[0])
		report_patch_fault(f);
	printf("Patch failed at %04d %.*s\n", nr, len, s);
	finish_stdout();
	fprintf(stderr,
		"HEAD, the index and the work tree are at the last good "
		"commit.\nFix it by hand (apply --reject, edit, "
		"update-cache), then run \"applymbox --continue\".\n"
		"To drop this mail, run \"applymbox --skip\"; to go back to "
		"where the run started, \"applymbox --abort\".\n");
}

/* Stop at mail nr: the commits before it written, a note, exit 1. */
static void stop_at(int nr, struct am_mail *m, const struct fault *f)
{
	checkpoint(nr);
	if (am_write_number("stopped", nr) < 0)
		exit(128);
	print_stop(nr, m, f);
	exit(1);
}

/* Apply mail nr and commit it, or stop. */
static void apply_mail(int nr)
{
	struct am_mail m;
	struct patch_set set;
	struct fault f;
	struct ident author;
	const char *s;
	int len, ret = load_mail(nr, &m);

	/*
	 * Out of memory is no fault of the mail: the commits before it
	 * are written, and --continue tries the mail again.
	 */
	if (ret == -2) {
		checkpoint(nr);
		die("mail %04d: out of memory; \"applymbox --continue\" "
		    "tries it again", nr);
	}
	if (ret < 0)
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
			&f) < 0)
		stop_at(nr, &m, &f);
	set.old_content = old_content;
	if (!set.nr) {
		set_fault(&f, FAULT_CORRUPT, "no valid patch in mail %04d", nr);
		stop_at(nr, &m, &f);
	}
	if (am_check_untracked(&touched, &set, &f) < 0 ||
	    apply_patch_set(&set, APPLY_CACHED, &f) != 0)
		stop_at(nr, &m, &f);
	am_touch_set(&touched, &set);
	commit_mail(&m, &author);
	ident_release(&author);
	free_patch_set(&set);
	release_mail(&m);
}

static void run(void)
{
	remember_index_trees();
	promise_writes(1);
	for (; st.next <= st.last; st.next++) {
		apply_mail(st.next);
		if (commits_since >= checkpoint_every())
			checkpoint(st.next + 1);
		fflush(stdout);
	}
	checkpoint(st.next);
	if (am_remove_state() < 0)
		exit(128);
	finish_stdout();
}

/* ---- the commands ---- */

static void load_index(void)
{
	if (read_cache() < 0)
		die("unable to read the index");
	forget_index_trees(NULL);
}

static const unsigned char *head_tree(unsigned char *tree)
{
	if (!st.has_head)
		return NULL;
	if (commit_tree_id(st.head, tree) < 0)
		exit(128);
	return tree;
}

/*
 * The state directory is the run's lock, made after HEAD and the index
 * were read: a run that took it and ended in between moved the branch
 * under us.  Then our state goes and we refuse.
 */
static void check_branch_still(void)
{
	unsigned char now[HASH_MAX_RAWSZ];
	int has_now = !read_ref(st.branch, now);

	if (has_now == st.has_head && (!has_now || hasheq(now, st.head)))
		return;
	am_remove_state();
	die("%s moved while the run started (another run?): start again",
	    st.branch);
}

static void start(int argc, char **argv)
{
	unsigned char tree[HASH_MAX_RAWSZ];
	char *changes;

	if (am_state_exists())
		die("a run is in progress in %s: use --continue, --skip or "
		    "--abort", am_state_path(NULL));
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
	if (am_create_state(&st, argc, argv) < 0)
		exit(128);
	check_branch_still();
	note_disk_head();
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

/* Remove path when it is there; dies when it cannot. */
static void remove_stale(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		die_errno("cannot remove '%s'", path);
}

/*
 * After a kill inside a checkpoint: its commit's objects are durable
 * (they were synced before the journal was written), so the
 * checkpoint is finished: the branch moved to the commit if it is
 * still where the journal says it was, the index and the work tree
 * put at its tree, "next" written, the journal removed.  Doing it
 * twice does no harm.  The locks the kill left are the run's own.
 */
static void finish_checkpoint(void)
{
	unsigned char commit[HASH_MAX_RAWSZ], old[HASH_MAX_RAWSZ], tree[HASH_MAX_RAWSZ];
	int next, has_old, r = am_read_checkpoint(&next, commit, old,
						  &has_old);
	char *lock, *ref;

	if (r == -2)
		return;
	if (r < 0)
		exit(128);
	lock = xmalloc(strlen(get_index_file()) + 6);
	sprintf(lock, "%s.lock", get_index_file());
	remove_stale(lock);
	free(lock);
	ref = ref_path(st.branch);
	lock = xmalloc(strlen(ref) + 6);
	sprintf(lock, "%s.lock", ref);
	remove_stale(lock);
	free(lock);
	free(ref);
	if (!st.has_head || hashcmp(st.head, commit)) {
		if (has_old != st.has_head ||
		    (has_old && hashcmp(old, st.head)))
			die("%s moved since the run was killed; it was %s",
			    st.branch, has_old ? sha1_to_hex(old) : "unborn");
		if (update_ref(st.branch, commit,
			       st.has_head ? st.head : null_id) < 0)
			exit(128);
		hashcpy(st.head, commit);
		st.has_head = 1;
	}
	reset_all(head_tree(tree));
	st.next = next;
	if (am_write_number("next", next) < 0 ||
	    am_remove_file("checkpoint") < 0)
		exit(128);
}

/* --continue after a stop: commit what the user fixed. */
static void commit_fixed(void)
{
	unsigned char tree[HASH_MAX_RAWSZ], head[HASH_MAX_RAWSZ];
	struct am_mail m;
	struct ident author;

	load_index();
	if (write_index_tree(tree, 1) < 0)
		exit(128);
	if (head_tree(head) && hasheq(tree, head))
		die("the index still matches HEAD: update-cache the fixed "
		    "files first, or drop the mail with --skip");
	if (load_mail(st.next, &m) < 0 || mail_author(&m, &author) < 0)
		exit(128);
	remember_index_trees();
	commit_mail(&m, &author);
	checkpoint(st.next + 1);
	ident_release(&author);
	release_mail(&m);
}

static void abort_run(void)
{
	unsigned char tree[HASH_MAX_RAWSZ];

	if (st.orig_has_head && commit_tree_id(st.orig, tree) < 0)
		exit(128);
	reset_all(st.orig_has_head ? tree : NULL);
	if (st.orig_has_head && update_ref(st.branch, st.orig, NULL) < 0)
		exit(128);
	if (!st.orig_has_head) {
		char *ref = ref_path(st.branch);

		remove_stale(ref);
		free(ref);
	}
	if (am_remove_state() < 0)
		exit(128);
}

static void resume(const char *cmd)
{
	unsigned char tree[HASH_MAX_RAWSZ];

	if (!am_state_exists())
		die("no run in progress: nothing to %s", cmd + 2);
	if (!am_state_begun()) {
		/*
		 * Killed while saving the mails: nothing was applied.
		 * --abort removes the state; --continue and --skip have
		 * nothing to go on with and say so, as git am does.
		 */
		if (strcmp(cmd, "--abort"))
			die("the run never began (it was stopped while "
			    "saving the mails in %s): nothing to %s; run "
			    "\"applymbox --abort\" to remove it, then start "
			    "again", am_state_path(NULL), cmd + 2);
		if (am_remove_state() < 0)
			exit(128);
		fprintf(stderr, "applymbox: the run never began; its state "
			"is removed: start it again\n");
		return;
	}
	am_remove_stale_locks();
	if (am_load_state(&st) < 0)
		exit(128);
	finish_checkpoint();
	note_disk_head();
	if (!strcmp(cmd, "--abort")) {
		abort_run();
		return;
	}
	if (st.stopped && !strcmp(cmd, "--continue")) {
		commit_fixed();
		st.next++;
	} else {
		/* --skip, or --continue after a kill: back to HEAD. */
		reset_all(head_tree(tree));
		if (st.stopped && am_write_number("next", ++st.next) < 0)
			exit(128);
	}
	if (am_remove_file("stopped") < 0)
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
