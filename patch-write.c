/*
 * patch-write.c: a patch set checked against the tree, then written.
 * Every patch is applied in memory first, in order, each taking up
 * what the earlier ones of the set left of its file; only when all of
 * it applies is anything written: the removals first, then each new
 * content to a temporary name in its directory, renamed over the
 * file.  With the index, the blobs are stored and the entries changed
 * in memory; the caller writes the index.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "diff.h"
#include "patch-internal.h"

/* What the set makes of one path. */
struct target {
	const char *path;
	int existed;		/* before the set (work tree or index) */
	int exists;		/* after it */
	const char *buf;	/* the content after it, when it exists */
	size_t size;
	unsigned int mode;
	struct patch *owner;	/* the last patch that wrote it */
};

struct applier {
	unsigned int flags;
	const struct patch_set *set;
	struct patch_error *err;
	struct target *t;
	size_t nr, alloc;
	char **dirs;		/* directories new files replace */
	size_t nr_dirs, alloc_dirs;
};

static struct target *find_target(struct applier *a, const char *path)
{
	size_t i;

	for (i = a->nr; i-- > 0;)
		if (!strcmp(a->t[i].path, path))
			return &a->t[i];
	return NULL;
}

static struct target *add_target(struct applier *a, const char *path)
{
	struct target *t;

	ALLOC_GROW(a->t, a->nr + 1, a->alloc);
	t = &a->t[a->nr++];
	memset(t, 0, sizeof(*t));
	t->path = path;
	return t;
}

/* ---- the old content ---- */

/* A leading directory of path that the set leaves as a file or link. */
static const char *set_file_above(struct applier *a, const char *path)
{
	size_t i;

	for (i = 0; i < a->nr; i++) {
		size_t n = strlen(a->t[i].path);

		if (a->t[i].exists && !strncmp(a->t[i].path, path, n) &&
		    path[n] == '/')
			return a->t[i].path;
	}
	return NULL;
}

/* Work-tree paths are reached through real directories only. */
static int check_leading(struct applier *a, const char *path)
{
	if (a->flags & APPLY_CACHED)
		return 0;
	if (has_symlink_leading_path(path, strlen(path)) != 0)
		return patch_fail(a->err, path, "affected file '%s' is beyond "
				  "a symbolic link", path);
	return 0;
}

static int index_entry(const char *path)
{
	return cache_name_pos(path, strlen(path));
}

/* With --index, the work-tree file must hold what the index holds. */
static int check_index_match(struct applier *a, const char *path,
			     const struct cache_entry *ce,
			     const struct stat *st)
{
	if (!ce_match_stat(ce, st))
		return 0;
	if (ce_mode_from_stat(st->st_mode) == ce->ce_mode &&
	    path_matches_sha1(path, st, ce->sha1) == 1)
		return 0;
	return patch_fail(a->err, path, "%s: does not match index", path);
}

/* The content of path before the set, from the index or the work tree. */
static int read_old(struct applier *a, const char *path, struct target *t,
		    char **buf)
{
	int pos = index_entry(path);
	struct stat st;

	*buf = NULL;
	if ((a->flags & (APPLY_INDEX | APPLY_CACHED)) && pos < 0)
		return patch_fail(a->err, path, "%s: does not exist in index",
				  path);
	if (a->flags & APPLY_CACHED) {
		const struct cache_entry *ce = active_cache[pos];

		t->mode = ce->ce_mode;
		if (a->set->old_content &&
		    a->set->old_content(ce, buf, &t->size) == 1)
			return 0;
		*buf = read_object_of_type(ce->sha1, OBJ_BLOB, &t->size);
		if (!*buf)
			return patch_fail(a->err, path, "%s: cannot read blob "
					  "%s", path, sha1_to_hex(ce->sha1));
		return 0;
	}
	if (check_leading(a, path) < 0)
		return -1;
	if (lstat(path, &st) < 0)
		return patch_fail(a->err, path, "%s: %s", path,
				  strerror(errno));
	if ((a->flags & APPLY_INDEX) &&
	    check_index_match(a, path, active_cache[pos], &st) < 0)
		return -1;
	if (check_work_file_type(path, &st) < 0)
		return patch_fail(a->err, path, "%s: wrong type", path);
	*buf = read_work_file(path, &st, &t->size);
	if (!*buf)
		return patch_fail(a->err, path, "%s: cannot read", path);
	t->mode = ce_mode_from_stat(st.st_mode);
	return 0;
}

/* Is path free for a new file (not in the tree, or gone by now)? */
static int check_absent(struct applier *a, const char *path)
{
	struct target *t = find_target(a, path);
	struct stat st;

	if (t) {
		if (t->exists)
			return patch_fail(a->err, path, "%s: already exists "
					  "in working directory", path);
		return 0;
	}
	if ((a->flags & (APPLY_INDEX | APPLY_CACHED)) && index_entry(path) >= 0)
		return patch_fail(a->err, path, "%s: already exists in index",
				  path);
	if (a->flags & APPLY_CACHED)
		return 0;
	if (check_leading(a, path) < 0)
		return -1;
	if (!lstat(path, &st) && S_ISDIR(st.st_mode)) {
		/* Fine if the set empties it: checked once all is read. */
		ALLOC_GROW(a->dirs, a->nr_dirs + 1, a->alloc_dirs);
		a->dirs[a->nr_dirs++] = xstrdup(path);
		return 0;
	}
	if (!lstat(path, &st) || errno != ENOENT)
		return patch_fail(a->err, path, "%s: already exists in working "
				  "directory", path);
	return 0;
}

/* Does the set remove every file below the directory dir? */
static int emptied_by_set(struct applier *a, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ok = d != NULL;

	while (ok && (e = readdir(d)) != NULL) {
		struct target *t;
		struct stat st;
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = path_join(dir, e->d_name);
		if (lstat(path, &st) < 0)
			ok = 0;
		else if (S_ISDIR(st.st_mode))
			ok = emptied_by_set(a, path);
		else
			ok = (t = find_target(a, path)) != NULL && !t->exists;
		free(path);
	}
	if (d)
		closedir(d);
	return ok;
}

/*
 * What the whole set leaves: no file written below a path it leaves
 * as a file or symlink (one it creates, or one already there), and
 * every directory a new file takes the place of emptied.
 */
static int check_final_paths(struct applier *a)
{
	size_t i;

	for (i = 0; i < a->nr; i++) {
		const char *above;

		if (!a->t[i].exists || !a->t[i].owner)
			continue;
		above = set_file_above(a, a->t[i].path);
		if (above)
			return patch_fail(a->err, a->t[i].path, "affected file "
					  "'%s' is beyond a symbolic link",
					  a->t[i].path);
	}
	for (i = 0; i < a->nr_dirs; i++)
		if (!emptied_by_set(a, a->dirs[i]))
			return patch_fail(a->err, a->dirs[i], "%s: already "
					  "exists in working directory",
					  a->dirs[i]);
	return 0;
}

/*
 * The old side of patch: its content (owned by the set or, when read
 * now, by *owned) and mode.  A path the set already changed gives
 * what the set made of it.
 */
static int old_side(struct applier *a, struct patch *patch, char **owned,
		    const char **buf, size_t *size, unsigned int *mode)
{
	const char *path = patch->old_name;
	struct target *t = find_target(a, path), *nt;

	*owned = NULL;
	if (t) {
		if (!t->exists)
			return patch_fail(a->err, path, "%s: No such file or "
					  "directory", path);
		*buf = t->buf;
		*size = t->size;
		*mode = t->mode;
		return 0;
	}
	nt = add_target(a, path);
	if (read_old(a, path, nt, owned) < 0) {
		a->nr--;
		return -1;
	}
	nt->existed = nt->exists = 1;
	nt->buf = *owned;
	*buf = *owned;
	*size = nt->size;
	*mode = nt->mode;
	return 0;
}

/* ---- one patch in memory ---- */

static int check_modes(struct applier *a, struct patch *patch,
		       unsigned int mode)
{
	const char *path = patch->old_name;

	if (patch->old_mode &&
	    (patch->old_mode & S_IFMT) != (mode & S_IFMT))
		return patch_fail(a->err, path, "%s: wrong type", path);
	if (!patch->old_mode)
		patch->old_mode = mode;
	if (!patch->new_mode && !patch->is_delete)
		patch->new_mode = patch->old_mode;
	return 0;
}

static int make_result(struct applier *a, struct patch *patch,
		       const char *old, size_t old_size)
{
	const char *name = patch->new_name ? patch->new_name : patch->old_name;
	int reject = !!(a->flags & APPLY_REJECT), r;

	if (patch->is_binary)
		return apply_binary_patch(patch, old, old_size, &patch->result,
					  &patch->result_size, a->err);
	r = apply_text_hunks(patch, name, old, old_size, reject,
			     !!(a->flags & APPLY_VERBOSE), &patch->result,
			     &patch->result_size, a->err);
	if (r > 0) {
		patch->has_rejects = r;
		a->err->rejects += r;
	}
	return r < 0 ? -1 : 0;
}

static int apply_one(struct applier *a, struct patch *patch, char **owned)
{
	const char *old = "";
	size_t old_size = 0;
	unsigned int mode = 0;
	struct target *t;

	if (patch->is_new) {
		if (check_absent(a, patch->new_name) < 0)
			return -1;
		if (!patch->new_mode)
			patch->new_mode = 0100644;
	} else {
		if (old_side(a, patch, owned, &old, &old_size, &mode) < 0 ||
		    check_modes(a, patch, mode) < 0)
			return -1;
	}
	if (patch->new_name && patch->old_name &&
	    strcmp(patch->new_name, patch->old_name) &&
	    check_absent(a, patch->new_name) < 0)
		return -1;
	if (patch->new_name && check_leading(a, patch->new_name) < 0)
		return -1;
	if (make_result(a, patch, old, old_size) < 0)
		return -1;
	if (patch->is_delete && patch->result_size)
		return patch_fail(a->err, patch->old_name, "removal patch "
				  "leaves file contents");
	if (patch->old_name && (patch->is_delete || patch->is_rename)) {
		t = find_target(a, patch->old_name);
		t->exists = 0;
		t->owner = patch;
	}
	if (patch->new_name) {
		t = find_target(a, patch->new_name);
		if (!t)
			t = add_target(a, patch->new_name);
		t->exists = 1;
		t->buf = patch->result;
		t->size = patch->result_size;
		t->mode = patch->new_mode;
		t->owner = patch;
	}
	return 0;
}

/* git's way of naming a patch in its messages: "old => new" for a move. */
static void say_patch(const char *before, const struct patch *patch,
		      const char *after)
{
	const char *o = patch->old_name, *n = patch->new_name;

	fputs(before, stderr);
	if (o && n && strcmp(o, n)) {
		write_quoted_path(stderr, "", o, strlen(o));
		fputs(" => ", stderr);
		write_quoted_path(stderr, "", n, strlen(n));
	} else {
		o = n ? n : o;
		write_quoted_path(stderr, "", o, strlen(o));
	}
	fputs(after, stderr);
}

static void say_checking(const struct patch *patch)
{
	say_patch("Checking patch ", patch, "...\n");
}

/* All of the set in memory: 0, or -1 at the first failure. */
static int apply_in_memory(struct applier *a, struct patch_set *set,
			   char ***owned, size_t *nr_owned)
{
	struct patch *patch;

	for (patch = set->first; patch; patch = patch->next) {
		char *buf = NULL;
		int r;

		if (a->flags & APPLY_VERBOSE)
			say_checking(patch);
		r = apply_one(a, patch, &buf);
		if (buf) {
			*owned = xrealloc(*owned, (*nr_owned + 1) *
					  sizeof(**owned));
			(*owned)[(*nr_owned)++] = buf;
		}
		if (r < 0)
			return -1;
	}
	return (a->flags & APPLY_CACHED) ? 0 : check_final_paths(a);
}

/* ---- writing ---- */

static mode_t file_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

/* dir of path (with its slash), or "" (malloc'd). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path + 1) : 0;
	char *dir = xmalloc(n + 1);

	memcpy(dir, path, n);
	dir[n] = '\0';
	return dir;
}

static int write_tmp_link(const char *dir, const char *target, char **tmp)
{
	int i;

	for (i = 0; i < 100; i++) {
		char *name = xmalloc(strlen(dir) + 40);

		sprintf(name, "%s.apply-%ld-%d", dir, (long)getpid(), i);
		if (!symlink(target, name)) {
			*tmp = name;
			return 0;
		}
		free(name);
		if (errno != EEXIST)
			break;
	}
	return error_errno("symlink in '%s'", *dir ? dir : ".");
}

static int write_tmp_file(const char *dir, const char *buf, size_t size,
			  unsigned int mode, char **tmp)
{
	char *name = xmalloc(strlen(dir) + 20);
	mode_t perm = ((mode & 0100) ? 0777 : 0666) & ~file_umask();
	int fd;

	sprintf(name, "%s.apply-XXXXXX", dir);
	fd = mkstemp(name);
	if (fd < 0) {
		error_errno("create a file in '%s'", *dir ? dir : ".");
		free(name);
		return -1;
	}
	if (write_in_full(fd, buf, size) < 0 || fchmod(fd, perm) < 0 ||
	    close(fd) < 0) {
		error_errno("write '%s'", name);
		close(fd);
		unlink(name);
		free(name);
		return -1;
	}
	*tmp = name;
	return 0;
}

/* rename, over an empty directory too (one the set emptied). */
static int rename_into_place(const char *tmp, const char *path)
{
	struct stat st;

	if (!rename(tmp, path))
		return 0;
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || rmdir(path) < 0)
		return -1;
	return rename(tmp, path);
}

/*
 * Put buf at path under a temporary name in its directory, then
 * rename it over path: a reader sees the old file or the new one, and
 * a symlink at path is replaced, never written through.
 */
static int write_work_file(const char *path, const char *buf, size_t size,
			   unsigned int mode)
{
	char *dir = dir_of(path), *copy = xstrdup(path), *tmp = NULL;
	int ret = -1;

	if (create_leading_dirs(copy) < 0) {
		error_errno("create leading directories of '%s'", path);
		goto out;
	}
	if (S_ISLNK(mode) && memchr(buf, '\0', size)) {
		error("'%s': a symlink target cannot hold a NUL", path);
		goto out;
	}
	if ((S_ISLNK(mode) ? write_tmp_link(dir, buf, &tmp) :
			     write_tmp_file(dir, buf, size, mode, &tmp)) < 0)
		goto out;
	if (rename_into_place(tmp, path) < 0) {
		error_errno("rename '%s' to '%s'", tmp, path);
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	free(copy);
	free(dir);
	return ret;
}

/* Remove path, then the directories it leaves empty. */
static int remove_work_file(const char *path)
{
	char *dir = xstrdup(path), *slash;

	if (unlink(path) < 0 && errno != ENOENT) {
		free(dir);
		return error_errno("unlink '%s'", path);
	}
	while ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		if (rmdir(dir) < 0)
			break;
	}
	free(dir);
	return 0;
}

static int index_target(const struct target *t, unsigned int flags,
			const unsigned char *sha1)
{
	struct cache_entry *ce = make_cache_entry(t->path, strlen(t->path));
	struct stat st;

	memcpy(ce->sha1, sha1, 20);
	if (!(flags & APPLY_CACHED)) {
		if (lstat(t->path, &st) < 0) {
			free_cache_entry(ce);
			return error_errno("lstat '%s'", t->path);
		}
		fill_stat_cache_info(ce, &st);
	}
	ce->ce_mode = S_ISLNK(t->mode) ? 0120000 :
		      (t->mode & 0100) ? 0100755 : 0100644;
	return add_cache_entry(ce, ADD_CACHE_OK_TO_ADD);
}

/* The hunks that did not apply, as git writes them to <path>.rej. */
static int write_rejects(const struct patch *patch)
{
	const char *old = patch->old_name ? patch->old_name : patch->new_name;
	const char *new = patch->new_name ? patch->new_name : patch->old_name;
	const struct patch_hunk *h;
	char *text = NULL, *path = xmalloc(strlen(new) + 5);
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		die_errno("open_memstream");
	fprintf(f, "diff a/%s b/%s\t(rejected hunks)\n", old, new);
	for (h = patch->hunks; h; h = h->next) {
		if (h->rejected)
			fwrite(h->header, 1, h->text + h->size - h->header, f);
	}
	fclose(f);
	sprintf(path, "%s.rej", new);
	ret = write_work_file(path, text, len, 0100644);
	free(text);
	free(path);
	return ret;
}

static int write_patch_targets(struct target *t, size_t nr,
			       unsigned int flags)
{
	unsigned char (*ids)[20] = xcalloc(nr ? nr : 1, 20);
	int with_index = flags & (APPLY_INDEX | APPLY_CACHED);
	int ret = -1;
	size_t i;

	for (i = 0; i < nr; i++)
		if (with_index && t[i].exists && t[i].owner &&
		    write_sha1_file(t[i].buf, t[i].size, OBJ_BLOB, ids[i]) < 0)
			goto out;
	for (i = 0; !(flags & APPLY_CACHED) && i < nr; i++)
		if (t[i].existed && !t[i].exists &&
		    remove_work_file(t[i].path) < 0)
			goto out;
	for (i = 0; !(flags & APPLY_CACHED) && i < nr; i++)
		if (t[i].exists && t[i].owner &&
		    write_work_file(t[i].path, t[i].buf, t[i].size,
				    t[i].mode) < 0)
			goto out;
	for (i = 0; with_index && i < nr; i++)
		if (!t[i].exists)
			remove_file_from_cache(t[i].path);
	for (i = 0; with_index && i < nr; i++)
		if (t[i].exists && t[i].owner &&
		    index_target(&t[i], flags, ids[i]) < 0)
			goto out;
	ret = 0;
out:
	free(ids);
	return ret;
}

/* git apply -v's account of each file, and the .rej files. */
static int report_results(struct patch_set *set, unsigned int flags)
{
	struct patch *p;

	for (p = set->first; p; p = p->next) {
		const struct patch_hunk *h;
		unsigned int nth = 0;

		char tail[64];

		if (!p->has_rejects) {
			say_patch("Applied patch ", p, " cleanly.\n");
			continue;
		}
		snprintf(tail, sizeof(tail), " with %d reject%s...\n",
			 p->has_rejects, p->has_rejects == 1 ? "" : "s");
		say_patch("Applying patch ", p, tail);
		for (h = p->hunks; h; h = h->next) {
			nth++;
			if (h->rejected)
				fprintf(stderr, "Rejected hunk #%u.\n", nth);
			else
				fprintf(stderr, "Hunk #%u applied cleanly.\n",
					nth);
		}
		if (!(flags & APPLY_CACHED) && write_rejects(p) < 0)
			return -1;
	}
	return 0;
}

int apply_patch_set(struct patch_set *set, unsigned int flags,
		    struct patch_error *err)
{
	struct applier a = { flags, set, err, NULL, 0, 0, NULL, 0, 0 };
	char **owned = NULL;
	size_t nr_owned = 0, i;
	int ret;

	if (flags & APPLY_CACHED)
		a.flags &= ~APPLY_INDEX;
	err->rejects = 0;
	/*
	 * The directories path.c remembers as real may have gone since
	 * (an earlier set removed them, and may have put a symlink there).
	 */
	forget_known_dirs();
	ret = apply_in_memory(&a, set, &owned, &nr_owned);
	if (!ret && !(flags & APPLY_CHECK))
		ret = write_patch_targets(a.t, a.nr, a.flags);
	if (!ret && (flags & APPLY_VERBOSE) && !(flags & APPLY_CHECK))
		ret = report_results(set, a.flags);
	if (!ret && err->rejects)
		ret = 1;
	else if (ret < 0 && !err->msg[0])
		patch_fail(err, NULL, "cannot write the patch's result");
	forget_known_dirs();
	for (i = 0; i < nr_owned; i++)
		free(owned[i]);
	free(owned);
	free(a.t);
	for (i = 0; i < a.nr_dirs; i++)
		free(a.dirs[i]);
	free(a.dirs);
	return ret;
}
