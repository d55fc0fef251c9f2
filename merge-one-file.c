/*
 * merge-one-file: settle one unmerged path, as git merge-one-file
 * does; merge-cache runs it with the ids of stages 1, 2 and 3, the
 * path and the three modes (empty strings for a missing stage).
 *
 *   removed on one side, unchanged on the other, or on both: removed
 *     (from the index, and from the work tree when ours had it);
 *   added on one side: added (theirs is written to the work tree;
 *     an untracked file in its way is a conflict);
 *   added on both identically: added;
 *   changed on both, or added on both differently: merge_buffers,
 *     the three-way file merge of merge-file.
 *
 * A clean result is written to the work tree and enters the index at
 * stage 0 with its stat data.  A conflict leaves the merged text with
 * "<<<<<<< ours" / "=======" / ">>>>>>> theirs" markers in the work
 * tree (with ours' mode), the stages in the index, a message on stderr
 * and exit 1.  Added on both differently is a conflict even when the
 * texts merge, as in git (there is no base to trust).  A mode changed
 * differently on the two sides, a symbolic link or gitlink changed on
 * both, and binary files are conflicts too, named as such; a binary
 * file keeps ours' content.
 *
 * Unlike git's script, removal on both sides is a clean removal (git
 * mistakes it for a mode conflict), and a directory that a file
 * replaces is removed only when the index tracks all it holds.
 * Progress lines ("Auto-merging p") go to stderr with the messages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkout.h"
#include "diff.h"

static const char merge_one_file_usage[] =
	"merge-one-file <base-id> <ours-id> <theirs-id> <path> "
	"<base-mode> <ours-mode> <theirs-mode>";

/* One stage of the path: missing when !present. */
struct side {
	int present;
	unsigned char sha1[HASH_MAX_RAWSZ];
	unsigned int mode;
};

static const char *path;

static void parse_side(struct side *s, const char *id, const char *mode)
{
	char *end;

	memset(s, 0, sizeof(*s));
	if (!*id && !*mode)
		return;
	if (get_sha1_hex(id, s->sha1) || id[the_hash->hexsz])
		die("'%s' is not an object id", id);
	s->mode = strtoul(mode, &end, 8);
	if (!*mode || *end)
		die("'%s' is not a mode", mode);
	s->present = 1;
}

static int same_id(const struct side *a, const struct side *b)
{
	return a->present && b->present && !hashcmp(a->sha1, b->sha1);
}

/* Is name in the index at any stage? */
static int tracked(const char *name, size_t len)
{
	int pos = cache_name_pos(name, len);

	if (pos >= 0)
		return 1;
	pos = -pos - 1;
	return (unsigned int)pos < active_nr &&
	       active_cache[pos]->ce_namelen == len &&
	       !memcmp(active_cache[pos]->name, name, len);
}

static int may_go(const char *name, size_t len, void *data)
{
	(void)data;
	return tracked(name, len);
}

/*
 * May the file path be written?  A leading file, or a directory at
 * path, goes (checkout's force) only when the index tracks all of it;
 * a file at path only when keep_file.  -1 after error() otherwise.
 */
static int way_is_clear(int keep_file)
{
	char *found;
	enum in_the_way way = find_in_the_way(path, may_go, NULL, &found);

	if (way == WAY_CLEAR || (way == WAY_FILE && keep_file)) {
		free(found);
		return 0;
	}
	if (way == WAY_FILE)
		error("%s: untracked file would be overwritten by the merge",
		      path);
	else
		error("%s: untracked '%s' is in the way", path, found);
	free(found);
	return -1;
}

static struct cache_entry *side_entry(const unsigned char *sha1,
				      unsigned int mode)
{
	struct cache_entry *ce = make_cache_entry(path, strlen(path));

	hashcpy(ce->sha1, sha1);
	ce->ce_mode = mode;
	return ce;
}

/* Write ce's blob to the work tree (recording its stat data in ce). */
static void write_file(struct cache_entry *ce, int refresh)
{
	struct checkout co;

	checkout_init(&co, "");
	co.force = 1;
	co.refresh = refresh;
	if (checkout_entry(&co, ce) < 0)
		die("cannot write '%s'", path);
	checkout_finish(&co);
}

static void add_to_index(struct cache_entry *ce)
{
	if (add_cache_entry(ce, ADD_CACHE_OK_TO_ADD | ADD_CACHE_STAGE_DF) < 0)
		die("cannot add '%s' to the index", path);
}

/* Add sha1 at stage 0 and write it; with keep, the file is ours already. */
static int add_side(const struct side *s, int keep)
{
	struct cache_entry *ce = side_entry(s->sha1, s->mode);
	struct stat st;

	if (keep) {
		if (!lstat_work_path(path, &st) &&
		    path_matches_sha1(path, &st, ce->sha1) == 1) {
			fill_stat_cache_info(ce, &st);
			ce->ce_mode = s->mode;
		}
		add_to_index(ce);
		return 0;
	}
	add_to_index(ce);
	write_file(ce, 1);
	return 0;
}

static int removed(const struct side *b, const struct side *o,
		   const struct side *t)
{
	struct stat st;

	if ((!o->present && t->present && b->mode != t->mode) ||
	    (!t->present && o->present && b->mode != o->mode))
		return error("%s: deleted on one side, its mode changed on "
			     "the other", path);
	if (o->present) {
		fprintf(stderr, "Removing %s\n", path);
		if (!lstat_work_path(path, &st) && !S_ISDIR(st.st_mode)) {
			if (unlink(path) < 0)
				die_errno("unlink '%s'", path);
			remove_empty_leading_dirs(path);
		}
	}
	remove_file_from_cache(path);
	return 0;
}

static char *read_blob(const struct side *s, size_t *size)
{
	char *buf;

	if (!s->present) {
		*size = 0;
		return xcalloc(1, 1);
	}
	buf = read_object_of_type(s->sha1, OBJ_BLOB, size);
	if (!buf)
		die("cannot read blob %s of '%s'", sha1_to_hex(s->sha1), path);
	return buf;
}

/* Changed on both sides: the file merge. */
static int merge_contents(const struct side *b, const struct side *o,
			  const struct side *t)
{
	struct merge_options opt = { "ours", "base", "theirs", 0, 0 };
	struct merge_input in;
	struct merge_result res;
	struct cache_entry *ce;
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *bases, *ours, *theirs;
	int conflict;

	if (S_ISLNK(o->mode) || S_ISLNK(t->mode))
		return error("%s: not merging symbolic link changes", path);
	if (S_ISGITLINK(o->mode) || S_ISGITLINK(t->mode))
		return error("%s: not merging conflicting gitlink changes",
			     path);
	if (way_is_clear(1) < 0)
		return -1;
	fprintf(stderr, b->present ? "Auto-merging %s\n" :
		"Added %s in both, but differently.\n", path);
	bases = read_blob(b, &in.base_size);
	ours = read_blob(o, &in.ours_size);
	theirs = read_blob(t, &in.theirs_size);
	if (buffer_is_binary(bases, in.base_size) ||
	    buffer_is_binary(ours, in.ours_size) ||
	    buffer_is_binary(theirs, in.theirs_size)) {
		write_file(side_entry(o->sha1, o->mode), 0);
		return error("%s: binary files: a conflict, ours kept", path);
	}
	in.base = bases;
	in.ours = ours;
	in.theirs = theirs;
	conflict = merge_buffers(&res, &in, &opt) || !b->present;
	if (write_sha1_file(res.buf, res.size, OBJ_BLOB, sha1) < 0)
		die("cannot store the merged '%s'", path);
	ce = side_entry(sha1, o->mode);
	write_file(ce, !conflict && o->mode == t->mode);
	if (conflict || o->mode != t->mode) {
		free(ce);
		if (o->mode == t->mode)
			return error("content conflict in %s", path);
		if (!conflict)
			return error("mode conflict in %s: %o->%o,%o", path,
				     b->mode, o->mode, t->mode);
		return error("content conflict, mode conflict in %s: "
			     "%o->%o,%o", path, b->mode, o->mode, t->mode);
	}
	add_to_index(ce);
	return 0;
}

static int merge_path(const struct side *b, const struct side *o,
		      const struct side *t)
{
	/* Removed on both, or on one side and unchanged on the other. */
	if (b->present && ((!o->present && !t->present) ||
			   (!o->present && same_id(t, b)) ||
			   (!t->present && same_id(o, b))))
		return removed(b, o, t);
	if (!b->present && o->present && !t->present)
		return add_side(o, 1);
	if (!b->present && !o->present && t->present) {
		fprintf(stderr, "Adding %s\n", path);
		if (way_is_clear(0) < 0)
			return -1;
		return add_side(t, 0);
	}
	if (!b->present && same_id(o, t)) {
		if (o->mode != t->mode)
			return error("%s: added identically on both sides, "
				     "but modes conflict %o->%o", path,
				     o->mode, t->mode);
		fprintf(stderr, "Adding %s\n", path);
		return add_side(o, 1);
	}
	if (o->present && t->present)
		return merge_contents(b, o, t);
	return error("%s: not handling case %s -> %s -> %s", path,
		     b->present ? sha1_to_hex(b->sha1) : "",
		     o->present ? sha1_to_hex(o->sha1) : "",
		     t->present ? sha1_to_hex(t->sha1) : "");
}

int main(int argc, char **argv)
{
	struct side b, o, t;
	char *name;

	setup_tool(argv[0]);
	handle_help(argc, argv, merge_one_file_usage);
	if (argc != 8)
		usage(merge_one_file_usage);
	if (setup_repository() < 0)	/* the_hash: the ids' size */
		exit(128);
	parse_side(&b, argv[1], argv[5]);
	parse_side(&o, argv[2], argv[6]);
	parse_side(&t, argv[3], argv[7]);
	name = normalize_path(argv[4]);
	if (!verify_path(name, strlen(name)))
		die("invalid path '%s'", argv[4]);
	path = name;
	if (hold_index_lock() < 0)
		die("cannot lock the index");
	if (read_cache() < 0)
		die("cannot read the index");
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	if (merge_path(&b, &o, &t) < 0) {
		rollback_index_lock();
		return 1;
	}
	if (commit_index() < 0)
		die("cannot write the index");
	finish_stdout();
	return 0;
}
