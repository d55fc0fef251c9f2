/*
 * prune: remove the loose objects nothing reaches and that are older
 * than a grace period, as git prune does.
 *
 * Reachable is what is reached from every ref under refs/, HEAD,
 * MERGE_HEAD, ORIG_HEAD and CHERRY_PICK_HEAD, the reflogs, the index's
 * entries and its cache tree: commits, their trees and parents, trees'
 * entries (not gitlinks), what tags name.  Packed objects are never
 * removed (a repack drops them), and the quarantines of running
 * receives (objects/tmp_objdir-*) are not looked into: only the
 * fan-out directories are.
 *
 * The grace period is what makes pruning safe beside writers: a
 * writer (a commit being made, a receive checking a pack) may hold an
 * object it has just written, or found already stored, that no ref
 * reaches yet.  An object whose file is newer than --expire (default
 * two weeks, as git's gc.pruneExpire) is never removed, so a writer
 * has that long to make it reachable.  --expire now removes them all:
 * only when nothing else writes.  A reachable object that cannot be
 * read (a broken store) stops prune before it removes anything.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "history.h"

static const char prune_usage[] = "prune [-n] [-v] [--expire <time>]";

static int dry_run, verbose;
static int64_t expire;		/* files this old or older may go */

/* ---- when ---- */

static const struct {
	const char *name;
	int64_t seconds;
} units[] = {
	{ "second", 1 }, { "minute", 60 }, { "hour", 3600 },
	{ "day", 86400 }, { "week", 7 * 86400 }, { "month", 30 * 86400 },
	{ "year", 365 * 86400 },
};

/* "<n>.<unit>[s].ago" or "<n> <unit>[s] ago": seconds; -1 otherwise. */
static int64_t parse_ago(const char *s)
{
	char *end;
	unsigned long long n = strtoull(s, &end, 10);
	size_t i, len;

	if (end == s || (*end != '.' && *end != ' '))
		return -1;
	s = end + 1;
	for (i = 0; i < sizeof(units) / sizeof(*units); i++) {
		len = strlen(units[i].name);
		if (strncmp(s, units[i].name, len))
			continue;
		end = (char *)s + len + (s[len] == 's');
		if ((*end != '.' && *end != ' ') || strcmp(end + 1, "ago"))
			return -1;
		if (n > (unsigned long long)(INT64_MAX / units[i].seconds))
			return -1;
		return n * units[i].seconds;
	}
	return -1;
}

/*
 * A day alone, "2026-12-06": git reads it at the current time of day,
 * local time, and so does this (parse_date's result, or NULL).
 */
static const char *parse_day(const char *s, int64_t now)
{
	time_t t = (time_t)now;
	struct tm tm;
	char buf[64];
	int y, m, d, n = 0;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || s[n] ||
	    !localtime_r(&t, &tm))
		return NULL;
	snprintf(buf, sizeof(buf), "%04d-%02d-%02d %02d:%02d:%02d", y, m, d,
		 tm.tm_hour, tm.tm_min, tm.tm_sec);
	return parse_date(buf);
}

/*
 * --expire: "now", "never", a number of seconds ago, "2.weeks.ago"
 * and the like, or a date parse_date reads.  -1 when none of those.
 */
static int parse_expire(const char *s, int64_t now, int64_t *when)
{
	const char *date;
	int64_t ago;
	char *end;

	if (!strcmp(s, "now")) {
		*when = now;
		return 0;
	}
	if (!strcmp(s, "never")) {
		*when = INT64_MIN;
		return 0;
	}
	ago = strtoll(s, &end, 10);
	if (end != s && !*end && ago >= 0) {
		*when = now - ago;
		return 0;
	}
	ago = parse_ago(s);
	if (ago >= 0) {
		*when = now - ago;
		return 0;
	}
	date = parse_date(s);
	if (!date)
		date = parse_day(s, now);
	if (!date)
		return -1;
	*when = strtoll(date, NULL, 10);
	return 0;
}

/* ---- what may go ---- */

struct candidates {
	unsigned char (*ids)[HASH_MAX_RAWSZ];
	size_t nr, alloc;
};

static int note_old(const unsigned char *sha1, void *data)
{
	struct candidates *c = data;
	struct stat st;

	if (lstat(sha1_file_name(sha1), &st) < 0 || st.st_mtime > expire)
		return 0;
	ALLOC_GROW(c->ids, c->nr + 1, c->alloc);
	hashcpy(c->ids[c->nr++], sha1);
	return 0;
}

/* ---- what is reached ---- */

struct reach {
	struct object **todo;	/* commits, trees and tags to read */
	size_t nr, alloc;
};

/* Mark sha1 (a type) reached; -1 when it was met as another type. */
static int mark(struct reach *r, const unsigned char *sha1,
		enum object_type type)
{
	struct object *o = lookup_object(sha1, type);

	if (!o)
		return -1;
	if (o->flags & SEEN)
		return 0;
	o->flags |= SEEN;
	if (type != OBJ_BLOB) {
		ALLOC_GROW(r->todo, r->nr + 1, r->alloc);
		r->todo[r->nr++] = o;
	}
	return 0;
}

/*
 * A starting point of unknown type.  One that is missing stops prune
 * when must is set (a ref, the index); a reflog's may be long gone.
 */
static void mark_root(struct reach *r, const unsigned char *sha1, int must,
		      const char *what)
{
	static const unsigned char null_sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	size_t size;
	struct fault f;

	if (hasheq(sha1, null_sha1))
		return;
	if (object_info(sha1, &type, &size, &f) < 0) {
		if (!must && f.code == FAULT_MISSING)
			return;
		report_object_fault(sha1, &f);
		die("cannot read %s, named by %s: not pruning",
		    sha1_to_hex(sha1), what);
	}
	if (mark(r, sha1, type) < 0)
		die("%s names an object of two types: not pruning", what);
}

static int links_of_commit(struct reach *r, const void *buf, size_t size)
{
	struct commit_info ci;
	size_t i;
	int ret;

	if (parse_commit_buffer(buf, size, &ci) < 0)
		return -1;
	ret = mark(r, ci.tree, OBJ_TREE);
	for (i = 0; !ret && i < ci.nr_parents; i++)
		ret = mark(r, ci.parents[i], OBJ_COMMIT);
	free_commit_info(&ci);
	return ret;
}

static int links_of_tree(struct reach *r, const void *buf, size_t size)
{
	struct tree_desc desc;
	struct name_entry e;
	int ret;

	init_tree_desc(&desc, buf, size);
	while ((ret = tree_entry_next(&desc, &e)) > 0)
		if (!S_ISGITLINK(e.mode) &&
		    mark(r, e.sha1, object_type_of_mode(e.mode)) < 0)
			return -1;
	return ret;
}

/* Read every object queued and queue what it names. */
static void walk(struct reach *r)
{
	while (r->nr) {
		struct object *o = r->todo[--r->nr];
		enum object_type type;
		unsigned char sha1[HASH_MAX_RAWSZ];
		size_t size;
		void *buf = read_object_of_type(o->sha1, o->type, &size);
		int ret = -1;

		if (!buf)
			die("cannot read %s %s: not pruning",
			    type_name(o->type), sha1_to_hex(o->sha1));
		if (o->type == OBJ_COMMIT)
			ret = links_of_commit(r, buf, size);
		else if (o->type == OBJ_TREE)
			ret = links_of_tree(r, buf, size);
		else if (o->type == OBJ_TAG &&
			 !parse_tag_buffer(buf, size, sha1, &type))
			ret = mark(r, sha1, type);
		free(buf);
		if (ret < 0)
			die("%s %s is malformed: not pruning",
			    type_name(o->type), sha1_to_hex(o->sha1));
	}
}

static int ref_root(const char *name, const unsigned char *sha1, void *data)
{
	mark_root(data, sha1, 1, name);
	return 0;
}

/* The ids at the start of each line of $GIT_DIR/<name> (MERGE_HEAD). */
static void file_roots(struct reach *r, const char *name, int must)
{
	char *path = path_join(get_git_dir(), name);
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned char sha1[HASH_MAX_RAWSZ];

	if (!f) {
		if (errno != ENOENT)
			die_errno("open '%s'", path);
		free(path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!get_sha1_hex(line, sha1))
			mark_root(r, sha1, must, name);
		/* a reflog line: "<old> <new> ..." */
		if (!must && strlen(line) > the_hash->hexsz &&
		    line[the_hash->hexsz] == ' ' &&
		    !get_sha1_hex(line + the_hash->hexsz + 1, sha1))
			mark_root(r, sha1, must, name);
		while (!strchr(line, '\n') && fgets(line, sizeof(line), f))
			;
	}
	fclose(f);
	free(path);
}

/* Every reflog under $GIT_DIR/<dir>. */
static void reflog_roots(struct reach *r, const char *dir)
{
	char *path = path_join(get_git_dir(), dir);
	DIR *d = opendir(path);
	struct dirent *de;

	free(path);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *sub;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		sub = path_join(dir, de->d_name);
		path = path_join(get_git_dir(), sub);
		if (!lstat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				reflog_roots(r, sub);
			else if (S_ISREG(st.st_mode))
				file_roots(r, sub, 0);
		}
		free(path);
		free(sub);
	}
	closedir(d);
}

/* The trees of the index's cache tree: "<path>\0<n> <sub>\n[<id>]". */
static void cache_tree_roots(struct reach *r)
{
	struct cache_tree *it = index_cache_tree();
	struct mbuf b = MBUF_INIT;
	const unsigned char *p, *end;

	/* Its TREE payload: a node's entry count, then (if valid) its id. */
	if (!it)
		return;
	if (cache_tree_write(&b, it) < 0 || b.failed)
		die("out of memory reading the index's cache tree: not pruning");
	p = (const unsigned char *)b.buf;
	end = p + b.len;

	while (p && p < end) {
		const unsigned char *nl, *nul = memchr(p, '\0', end - p);
		long entries;

		if (!nul || !(nl = memchr(nul, '\n', end - nul)))
			break;
		entries = strtol((const char *)nul + 1, NULL, 10);
		p = nl + 1;
		if (entries < 0)
			continue;
		if ((size_t)(end - p) < the_hash->rawsz)
			break;
		if (has_sha1_file(p))
			mark_root(r, p, 0, "the index's cache tree");
		p += the_hash->rawsz;
	}
	mbuf_release(&b);
}

static void index_roots(struct reach *r)
{
	unsigned int i;

	if (read_cache() < 0)
		die("cannot read the index: not pruning");
	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		if (!S_ISGITLINK(ce->ce_mode) &&
		    mark(r, ce->sha1, OBJ_BLOB) < 0)
			die("the index names %s, not a blob: not pruning",
			    sha1_to_hex(ce->sha1));
	}
	cache_tree_roots(r);
}

static void mark_reachable(void)
{
	struct reach r = { NULL, 0, 0 };
	unsigned char sha1[HASH_MAX_RAWSZ];

	for_each_ref(ref_root, &r);
	if (!resolve_ref("HEAD", sha1, NULL))
		mark_root(&r, sha1, 1, "HEAD");
	file_roots(&r, "MERGE_HEAD", 1);
	file_roots(&r, "ORIG_HEAD", 0);
	file_roots(&r, "CHERRY_PICK_HEAD", 0);
	reflog_roots(&r, "logs");
	index_roots(&r);
	walk(&r);
	free(r.todo);
}

/* ---- removing ---- */

static int prune_one(const unsigned char *sha1)
{
	const char *path = sha1_file_name(sha1);
	enum object_type type;
	size_t size;
	struct fault f;

	if (dry_run || verbose)
		printf("%s %s\n", sha1_to_hex(sha1),
		       object_info(sha1, &type, &size, &f) < 0 ? "unknown" :
		       type_name(type));
	if (dry_run || !unlink(path) || errno == ENOENT)
		return 0;
	return error_errno("unlink '%s'", path);
}

static void remove_empty_fanouts(void)
{
	unsigned int i;

	for (i = 0; i < 256; i++) {
		char dir[4];
		char *path;

		snprintf(dir, sizeof(dir), "%02x", i);
		path = path_join(get_object_directory(), dir);
		rmdir(path);	/* only when empty */
		free(path);
	}
}

static void parse_args(int argc, char **argv)
{
	int64_t now = time(NULL);
	int i;

	expire = now - 14 * 86400;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *when = NULL;

		if (!strcmp(a, "-n"))
			dry_run = 1;
		else if (!strcmp(a, "-v"))
			verbose = 1;
		else if (!strcmp(a, "--expire") && i + 1 < argc)
			when = argv[++i];
		else if (!strncmp(a, "--expire=", 9))
			when = a + 9;
		else
			usage(prune_usage);
		if (when && parse_expire(when, now, &expire) < 0)
			die("--expire: '%s' is not a time", when);
	}
}

int main(int argc, char **argv)
{
	struct candidates c = { NULL, 0, 0 };
	size_t i;
	int ret = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, prune_usage);
	parse_args(argc, argv);
	if (setup_repository() < 0)
		exit(128);
	for_each_loose_object(note_old, NULL, &c);
	if (c.nr) {
		mark_reachable();
		for (i = 0; i < c.nr; i++) {
			struct object *o = lookup_object(c.ids[i], OBJ_NONE);

			if (o && (o->flags & SEEN))
				continue;
			if (prune_one(c.ids[i]) < 0)
				ret = 1;
		}
		if (!dry_run)
			remove_empty_fanouts();
	}
	free(c.ids);
	if (fflush(stdout) || ferror(stdout))
		die_errno("write to standard output");
	return ret ? 128 : 0;
}
