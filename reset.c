/*
 * reset.c: the index and the work tree compared with a tree, and put
 * back at one.  applymbox refuses to start on a tree that differs from
 * HEAD (list_changes), and --skip and --abort return to a commit
 * (reset_to_tree), as git's "read-tree --reset -u" does: a file that
 * already holds the right content keeps its stat data and is not
 * rewritten, so going back costs what changed, not the tree's size.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "commit-write.h"

struct flat_entry {
	char *path;
	unsigned int mode;
	unsigned char sha1[HASH_MAX_RAWSZ];
};

/* A subtree met: its path (no '/' at its end), id, and entries. */
struct flat_dir {
	char *path;
	unsigned char sha1[HASH_MAX_RAWSZ];
	size_t start, end;
};

struct flat_tree {
	struct flat_entry *e;
	size_t nr, alloc;
	struct flat_dir *dirs;
	size_t dirs_nr, dirs_alloc;
};

/* Every blob of tree under prefix, in git's order (the index's). */
static int flatten(struct flat_tree *ft, const unsigned char *tree,
		   const char *prefix)
{
	struct tree_desc desc;
	struct name_entry ne;
	size_t size;
	void *buf = read_object_of_type(tree, OBJ_TREE, &size);
	int r, ret = 0;

	if (!buf)
		return error("cannot read tree %s", sha1_to_hex(tree));
	init_tree_desc(&desc, buf, size);
	while (!ret && (r = tree_entry_next(&desc, &ne)) > 0) {
		size_t plen = strlen(prefix);
		char *path = xmalloc(plen + ne.pathlen + 2);

		memcpy(path, prefix, plen);
		memcpy(path + plen, ne.path, ne.pathlen);
		path[plen + ne.pathlen] = '\0';
		if (S_ISDIR(ne.mode)) {
			size_t d = ft->dirs_nr;

			ALLOC_GROW(ft->dirs, ft->dirs_nr + 1, ft->dirs_alloc);
			ft->dirs[d].path = xstrdup(path);
			hashcpy(ft->dirs[d].sha1, ne.sha1);
			ft->dirs[d].start = ft->nr;
			ft->dirs_nr++;
			strcat(path, "/");
			ret = flatten(ft, ne.sha1, path);
			ft->dirs[d].end = ft->nr;
			free(path);
			continue;
		}
		ALLOC_GROW(ft->e, ft->nr + 1, ft->alloc);
		ft->e[ft->nr].path = path;
		ft->e[ft->nr].mode = ne.mode;
		hashcpy(ft->e[ft->nr].sha1, ne.sha1);
		ft->nr++;
	}
	if (!ret && r < 0)
		ret = error("tree %s is corrupt", sha1_to_hex(tree));
	free(buf);
	return ret;
}

static void free_flat(struct flat_tree *ft)
{
	size_t i;

	for (i = 0; i < ft->nr; i++)
		free(ft->e[i].path);
	free(ft->e);
	for (i = 0; i < ft->dirs_nr; i++)
		free(ft->dirs[i].path);
	free(ft->dirs);
}

/*
 * The index is now tree: its cache tree is made whole from the trees
 * flattened, as git's unpack_trees leaves it after a reset.
 */
static void prime_cache_tree(const struct flat_tree *ft,
			     const unsigned char *tree)
{
	struct cache_tree *it = cache_tree_new();
	size_t i;

	cache_tree_set(it, "", 0, tree, ft->nr);
	for (i = 0; i < ft->dirs_nr; i++)
		cache_tree_set(it, ft->dirs[i].path, strlen(ft->dirs[i].path),
			       ft->dirs[i].sha1,
			       ft->dirs[i].end - ft->dirs[i].start);
	cache_tree_free(active_cache_tree);
	active_cache_tree = it;
	index_cache_tree_synced();
}

static int flat_compare(const struct flat_entry *f,
			const struct cache_entry *ce)
{
	return cache_name_compare(f->path, strlen(f->path), 0,
				  ce->name, ce->ce_namelen, ce_stage(ce));
}

static int in_flat(const struct flat_tree *ft, const char *path)
{
	size_t lo = 0, hi = ft->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(ft->e[mid].path, path);

		if (!cmp)
			return 1;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void add_note(char **out, size_t *len, size_t *alloc,
		     const char *path, const char *what)
{
	size_t n = strlen(path) + strlen(what) + 4;

	ALLOC_GROW(*out, *len + n, *alloc);
	*len += snprintf(*out + *len, n, "%s: %s\n", path, what);
}

/*
 * An entry whose stat data changed (a copied tree, a file touched and
 * put back) but whose file still holds its blob takes the new stat
 * data, as update-cache --refresh gives it; hashed on every core.
 * stale[i] is set for the entries that need an update.
 */
struct refresh_run {
	struct cache_entry **ces;
	unsigned char *stale;
};

static size_t refresh_nth(void *data, size_t i)
{
	struct refresh_run *r = data;

	if (!ce_stage(r->ces[i]))
		r->stale[i] = refresh_cache_entry(r->ces[i], 0);
	return 1;
}

int list_changes(const unsigned char *tree, char **out)
{
	struct flat_tree ft = { NULL, 0, 0, NULL, 0, 0 };
	struct refresh_run r;
	size_t i = 0, len = 0, alloc = 0;
	unsigned int j = 0;

	*out = NULL;
	if (tree && flatten(&ft, tree, "") < 0) {
		free_flat(&ft);
		return -1;
	}
	while (i < ft.nr || j < active_nr) {
		const struct cache_entry *ce = j < active_nr ?
					       active_cache[j] : NULL;
		int cmp = !ce ? -1 : i == ft.nr ? 1 : flat_compare(&ft.e[i], ce);

		if (ce && ce_stage(ce)) {
			add_note(out, &len, &alloc, ce->name, "unmerged");
			j++;
		} else if (cmp < 0) {
			add_note(out, &len, &alloc, ft.e[i++].path,
				 "deleted from the index");
		} else if (cmp > 0) {
			add_note(out, &len, &alloc, ce->name,
				 "added to the index");
			j++;
		} else {
			if (ft.e[i].mode != ce->ce_mode ||
			    hashcmp(ft.e[i].sha1, ce->sha1))
				add_note(out, &len, &alloc, ce->name,
					 "changed in the index");
			i++;
			j++;
		}
	}
	free_flat(&ft);
	preload_index(NULL);
	r.ces = active_cache;
	r.stale = xcalloc(active_nr ? active_nr : 1, 1);
	run_parallel(0, active_nr, refresh_nth, &r, NULL, 0);
	for (j = 0; j < active_nr; j++)
		if (r.stale[j])
			add_note(out, &len, &alloc, active_cache[j]->name,
				 "changed in the work tree");
	free(r.stale);
	return 0;
}

/* Remove a work-tree file, then the directories it leaves empty. */
static void remove_work_file(const char *path)
{
	struct stat st;

	if (lstat_work_path(path, &st) < 0 || S_ISDIR(st.st_mode))
		return;
	if (unlink(path) < 0)
		return;
	remove_empty_leading_dirs(path);
}

/*
 * The directories path goes in, made where missing: none may be a
 * symlink.  Not thread-safe (the leading-path memo of path.c).
 */
static int prepare_work_path(const char *path)
{
	size_t len = strlen(path);
	char *lead;
	int ret = 0;

	if (has_symlink_leading_path(path, len))
		return error("'%s' is beyond a symbolic link", path);
	lead = xstrdup(path);
	if (create_leading_dirs(lead) < 0)
		ret = error_errno("create directories for '%s'", path);
	free(lead);
	return ret;
}

/*
 * Write blob sha1 to path with mode, through a temporary name; from
 * buf (size bytes, the blob's content) when it is not NULL.  Its
 * directories are prepare_work_path's; safe on many threads at once.
 */
static int write_prepared_file(const char *path, unsigned int mode,
			       const unsigned char *sha1, const char *buf,
			       size_t size)
{
	size_t len = strlen(path);
	char *tmp = xmalloc(len + 32);
	int fd, ret = 0;

	snprintf(tmp, len + 32, "%s.reset-%ld", path, (long)getpid());
	if (buf && S_ISLNK(mode)) {
		char *target = xmalloc(size + 1);

		memcpy(target, buf, size);
		target[size] = '\0';
		if (symlink(target, tmp) < 0)
			ret = error_errno("symlink '%s'", tmp);
		free(target);
	} else if (S_ISLNK(mode)) {
		enum object_type type;
		size_t size;
		char *target = read_sha1_file(sha1, &type, &size);

		if (!target || type != OBJ_BLOB)
			ret = error("cannot read blob %s", sha1_to_hex(sha1));
		else if (symlink(target, tmp) < 0)
			ret = error_errno("symlink '%s'", tmp);
		free(target);
	} else {
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL,
			  (mode & 0100) ? 0777 : 0666);
		if (fd < 0) {
			ret = error_errno("open '%s'", tmp);
			goto out;
		}
		if (buf)
			ret = write_in_full(fd, buf, size) < 0 ?
			      error_errno("write '%s'", tmp) : 0;
		else
			ret = stream_blob_to_fd(fd, path, sha1);
		if (close(fd) < 0 && !ret)
			ret = error_errno("close '%s'", tmp);
	}
	if (!ret) {
		struct stat st;

		/* A directory in the way (an empty one) gives way. */
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			rmdir(path);
		if (rename(tmp, path) < 0)
			ret = error_errno("rename '%s' to '%s'", tmp, path);
	}
	if (ret)
		unlink(tmp);
out:
	free(tmp);
	return ret;
}

static int write_work_file(const char *path, unsigned int mode,
			   const unsigned char *sha1, const char *buf,
			   size_t size)
{
	if (prepare_work_path(path) < 0)
		return -1;
	return write_prepared_file(path, mode, sha1, buf, size);
}

/* The index entry for a target file, its work-tree file made right. */
static struct cache_entry *reset_entry(const struct flat_entry *f)
{
	size_t len = strlen(f->path);
	int pos = cache_name_pos(f->path, len);
	struct cache_entry *ce;
	struct stat st;

	if (pos < 0 || active_cache[pos]->ce_mode != f->mode ||
	    hashcmp(active_cache[pos]->sha1, f->sha1) ||
	    refresh_cache_entry(active_cache[pos],
				REFRESH_IGNORE_SKIP_WORKTREE)) {
		if (!S_ISGITLINK(f->mode) &&
		    write_work_file(f->path, f->mode, f->sha1, NULL, 0) < 0)
			return NULL;
	}
	ce = make_cache_entry(f->path, len);
	ce->ce_mode = f->mode;
	hashcpy(ce->sha1, f->sha1);
	if (!S_ISGITLINK(f->mode) && !lstat(f->path, &st))
		fill_stat_cache_info(ce, &st);
	return ce;
}

struct path_write {
	struct cache_entry *ce;
	char *(*held)(const struct cache_entry *ce, size_t *size);
};

/*
 * Overwrite path, a regular file of one link and of mode's executable
 * bit, with the size bytes of buf: no new inode and no rename, so no
 * lock on its directory (the threads writing the files of one
 * directory waited on each other's creates and renames).  A kill part
 * way leaves the file part written, as a kill between two files leaves
 * the tree part way: the caller redoes the write (applymbox rolls its
 * checkpoint forward).  A file with other links (a tree copied with cp
 * -al) is not touched, so the other names keep their content.  0 when
 * done, st the file's new stat data; 1 when the file is not one to
 * overwrite; -1 after error().
 */
static int overwrite_file(const char *path, unsigned int mode,
			  const char *buf, size_t size, struct stat *st)
{
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return 1;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) ||
	    st->st_nlink != 1 || (st->st_mode & 0100) != (mode & 0100)) {
		close(fd);
		return 1;
	}
	if (write_in_full(fd, buf, size) < 0 || ftruncate(fd, size) < 0 ||
	    fstat(fd, st) < 0)
		ret = error_errno("write '%s'", path);
	if (close(fd) < 0 && !ret)
		ret = error_errno("close '%s'", path);
	return ret;
}

static size_t write_nth_path(void *data, size_t i)
{
	struct path_write *w = &((struct path_write *)data)[i];
	struct cache_entry *ce = w->ce;
	struct stat st;
	size_t size = 0;
	char *buf = w->held ? w->held(ce, &size) : NULL;
	int r = 1;

	if (buf && S_ISREG(ce->ce_mode))
		r = overwrite_file(ce->name, ce->ce_mode, buf, size, &st);
	if (r > 0 && write_prepared_file(ce->name, ce->ce_mode, ce->sha1, buf,
					 size) < 0)
		r = -1;
	free(buf);
	if (r < 0) {
		w->ce = NULL;
	} else if (!r) {
		fill_stat_cache_info(ce, &st);
		ce->ce_state |= CE_UPTODATE;
	} else if (lstat(ce->name, &st) < 0) {
		error_errno("lstat '%s'", ce->name);
		w->ce = NULL;
	} else {
		fill_stat_cache_info(ce, &st);
		ce->ce_state |= CE_UPTODATE;
	}
	return 1;
}

/*
 * A removed path goes first (it may be a file in the way of a new
 * directory); then each path the index has is written from its blob
 * and its entry takes the new file's stat data: the directories one
 * path after another, the files on every core.
 */
int checkout_index_paths(char **paths, size_t nr,
			 char *(*held)(const struct cache_entry *ce,
				       size_t *size))
{
	struct path_write *w = xcalloc(nr ? nr : 1, sizeof(*w));
	size_t i, n = 0;
	int pos, ret = 0;

	for (i = 0; i < nr; i++)
		if (cache_name_pos(paths[i], strlen(paths[i])) < 0)
			remove_work_file(paths[i]);
	for (i = 0; i < nr; i++) {
		struct cache_entry *ce;

		pos = cache_name_pos(paths[i], strlen(paths[i]));
		if (pos < 0)
			continue;
		ce = active_cache[pos];
		if (S_ISGITLINK(ce->ce_mode))
			continue;
		if (prepare_work_path(ce->name) < 0) {
			ret = -1;
			goto out;
		}
		w[n].ce = ce;
		w[n].held = held;
		n++;
	}
	run_parallel(0, n, write_nth_path, w, NULL, 0);
	for (i = 0; i < n; i++)
		if (!w[i].ce)
			ret = -1;
out:
	free(w);
	return ret;
}

int reset_to_tree(const unsigned char *tree)
{
	struct flat_tree ft = { NULL, 0, 0, NULL, 0, 0 };
	struct cache_entry **ces;
	unsigned int j;
	size_t i, n = 0;
	int ret = 0;

	if (tree && flatten(&ft, tree, "") < 0) {
		free_flat(&ft);
		return -1;
	}
	/* Files the tree does not have go first: they may be in the way. */
	for (j = 0; j < active_nr; j++)
		if (!in_flat(&ft, active_cache[j]->name))
			remove_work_file(active_cache[j]->name);
	ces = xcalloc(ft.nr + 1, sizeof(*ces));
	for (i = 0; !ret && i < ft.nr; i++) {
		ces[n] = reset_entry(&ft.e[i]);
		if (!ces[n])
			ret = -1;
		else
			n++;
	}
	/*
	 * The index keeps what it was read with: its version, its split,
	 * its extensions; the tree's entries are in index order already.
	 */
	if (!ret) {
		replace_cache_entries(ces, n, ft.nr + 1);
		if (tree)
			prime_cache_tree(&ft, tree);
	} else {
		for (i = 0; i < n; i++)
			free_cache_entry(ces[i]);
		free(ces);
	}
	free_flat(&ft);
	return ret;
}
