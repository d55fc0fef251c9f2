/*
 * refs.c: the one reader and writer of refs.  A ref is a file under
 * $GIT_DIR holding an id, or "ref: <name>" naming another ref (HEAD is
 * usually one); refs not found as files are looked for in packed-refs,
 * where git keeps them after pack-refs or gc.  Names are checked so a
 * ref can never name a file outside refs/ (or HEAD).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

/* git follows at most this many symbolic refs. */
#define MAX_SYMREF_DEPTH 5

int check_ref_name(const char *name)
{
	const char *p;

	if (strcmp(name, "HEAD") && strncmp(name, "refs/", 5))
		return -1;
	for (p = name; *p; p++) {
		unsigned char c = *p;

		if (c <= ' ' || c == 0x7f || strchr("~^:?*[\\", c))
			return -1;
	}
	if (strstr(name, "..") || strstr(name, "//") || strstr(name, "/.") ||
	    strstr(name, "@{") || p[-1] == '/' || p[-1] == '.' ||
	    (p - name >= 5 && !strcmp(p - 5, ".lock")))
		return -1;
	return 0;
}

/* ---- where a ref lives ---- */

/*
 * In a worktree, HEAD and the refs under these are its own, in its git
 * directory; all others are shared, in the common directory (git's
 * files backend, is_per_worktree_ref).
 */
static const char *const worktree_ref_dirs[] = {
	"refs/bisect", "refs/rewritten", "refs/worktree"
};
#define NR_WORKTREE_REF_DIRS \
	(sizeof(worktree_ref_dirs) / sizeof(*worktree_ref_dirs))

static int is_per_worktree_ref(const char *name)
{
	size_t i;

	if (!strncmp(name, "refs/", 5)) {
		for (i = 0; i < NR_WORKTREE_REF_DIRS; i++) {
			size_t n = strlen(worktree_ref_dirs[i]);

			if (!strncmp(name, worktree_ref_dirs[i], n) &&
			    (!name[n] || name[n] == '/'))
				return 1;
		}
		return 0;
	}
	return 1;
}

char *ref_path(const char *name)
{
	return path_join(is_per_worktree_ref(name) ? get_git_dir() :
			 get_common_dir(), name);
}

/* ---- packed-refs ---- */

struct packed_ref {
	char *name;
	unsigned char sha1[HASH_MAX_RAWSZ];
};

static struct packed_ref *packed;
static size_t nr_packed, alloc_packed;
static int packed_loaded;

static void parse_packed_line(const char *line, size_t len)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	size_t hexsz = the_hash->hexsz;
	struct packed_ref *r;

	/* "<hex id> <name>"; "^<hex>" peel lines and "#" comments skipped */
	if (len < hexsz + 2 || line[hexsz] != ' ' ||
	    get_sha1_hex(line, sha1) < 0)
		return;
	ALLOC_GROW(packed, nr_packed + 1, alloc_packed);
	r = &packed[nr_packed++];
	r->name = xmalloc(len - hexsz);
	memcpy(r->name, line + hexsz + 1, len - hexsz - 1);
	r->name[len - hexsz - 1] = '\0';
	hashcpy(r->sha1, sha1);
}

static void load_packed_refs(void)
{
	char *path, *line = NULL;
	size_t size = 0;
	ssize_t len;
	FILE *f;

	if (packed_loaded)
		return;
	packed_loaded = 1;
	path = path_join(get_common_dir(), "packed-refs");
	f = fopen(path, "r");
	free(path);
	if (!f)
		return;
	while ((len = getline(&line, &size, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		parse_packed_line(line, len);
	}
	free(line);
	fclose(f);
}

static const struct packed_ref *find_packed_ref(const char *name)
{
	size_t i;

	load_packed_refs();
	for (i = 0; i < nr_packed; i++)
		if (!strcmp(packed[i].name, name))
			return &packed[i];
	return NULL;
}

/* ---- reading ---- */

/*
 * Read the loose ref file at path (freed here): 0 with sha1 set, 1
 * with *target set (malloc'd) for a symbolic ref, -1 when there is no
 * such file or it holds neither.
 */
static int read_loose_ref(char *path, unsigned char *sha1, char **target)
{
	char buf[256], *nl;
	ssize_t n, hexsz = the_hash->hexsz;
	struct stat st;
	int fd;

	*target = NULL;
	fd = lstat(path, &st) || !S_ISREG(st.st_mode) ? -1 :
	     open(path, O_RDONLY | O_NONBLOCK);
	free(path);
	if (fd < 0)
		return -1;
	n = read_in_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (!strncmp(buf, "ref:", 4)) {
		char *ref = buf + 4;

		ref += strspn(ref, " \t");
		nl = strchr(ref, '\n');
		if (nl)
			*nl = '\0';
		*target = xstrdup(ref);
		return 1;
	}
	if (n < hexsz || get_sha1_hex(buf, sha1) < 0 ||
	    (n > hexsz && buf[hexsz] != '\n' && buf[hexsz] != ' '))
		return -1;
	return 0;
}

/*
 * Another repository's git and common directories (a submodule's), or
 * ours (both NULL).
 */
struct repo_dirs {
	const char *git_dir, *common_dir;
};

/* The file of ref name in repository r (malloc'd). */
static char *ref_path_in(const struct repo_dirs *r, const char *name)
{
	if (!r->git_dir)
		return ref_path(name);
	return path_join(is_per_worktree_ref(name) ? r->git_dir :
			 r->common_dir, name);
}

/* Another repository's packed ref name (not cached): 0, or -1. */
static int read_other_packed_ref(const char *dir, const char *name,
				 unsigned char *sha1)
{
	char *path = path_join(dir, "packed-refs"), *line = NULL;
	size_t size = 0, n = strlen(name), hexsz = the_hash->hexsz;
	ssize_t len;
	int ret = -1;
	FILE *f = fopen(path, "r");

	free(path);
	if (!f)
		return -1;
	while (ret && (len = getline(&line, &size, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len == hexsz + 1 + n && line[hexsz] == ' ' &&
		    !strcmp(line + hexsz + 1, name) &&
		    !get_sha1_hex(line, sha1))
			ret = 0;
	}
	free(line);
	fclose(f);
	return ret;
}

static int resolve_ref_in(const struct repo_dirs *r, const char *name,
			  unsigned char *sha1, char **resolved);

int resolve_ref(const char *name, unsigned char *sha1, char **resolved)
{
	static const struct repo_dirs ours = { NULL, NULL };

	return resolve_ref_in(&ours, name, sha1, resolved);
}

/* resolve_ref in repository r. */
static int resolve_ref_in(const struct repo_dirs *r, const char *name,
			  unsigned char *sha1, char **resolved)
{
	char *cur = xstrdup(name), *target;
	int depth;

	if (resolved)
		*resolved = NULL;
	for (depth = 0; depth <= MAX_SYMREF_DEPTH; depth++) {
		const struct packed_ref *p;
		int ret;

		if (check_ref_name(cur) < 0)
			break;
		ret = read_loose_ref(ref_path_in(r, cur), sha1, &target);
		if (ret == 1) {
			free(cur);
			cur = target;
			continue;
		}
		if (ret < 0 && r->git_dir)
			ret = read_other_packed_ref(r->common_dir, cur, sha1);
		else if (ret < 0 && (p = find_packed_ref(cur)) != NULL) {
			hashcpy(sha1, p->sha1);
			ret = 0;
		}
		if (ret < 0)
			break;
		if (resolved)
			*resolved = cur;
		else
			free(cur);
		return 0;
	}
	if (resolved && depth <= MAX_SYMREF_DEPTH && !check_ref_name(cur))
		*resolved = cur;	/* an unborn branch: HEAD's target */
	else
		free(cur);
	return -1;
}

int read_ref(const char *name, unsigned char *sha1)
{
	return resolve_ref(name, sha1, NULL);
}

/* The repository of a submodule at path: path/.git, or its "gitdir: ". */
static char *gitlink_dir(const char *path)
{
	char *dot_git = path_join(path, ".git"), *dir;
	struct fault f = { 0 };
	struct stat st;

	if (lstat(dot_git, &st) < 0 ||
	    (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
		free(dot_git);
		return NULL;
	}
	if (S_ISDIR(st.st_mode))
		return dot_git;
	dir = read_gitfile(dot_git, &f);
	free(dot_git);
	return dir;
}

int resolve_gitlink_head(const char *path, unsigned char *sha1)
{
	struct repo_dirs r;
	char *dir = gitlink_dir(path), *common;
	int ret;

	if (!dir)
		return -1;
	common = common_dir_of(dir);
	r.git_dir = dir;
	r.common_dir = common;
	ret = resolve_ref_in(&r, "HEAD", sha1, NULL);
	free(common);
	free(dir);
	return ret;
}

/* ---- listing ---- */

struct ref_item {
	char *name;
	unsigned char sha1[HASH_MAX_RAWSZ];
	int packed;		/* from packed-refs: a loose one wins */
};

struct ref_list {
	struct ref_item *refs;
	size_t nr, alloc;
};

static void add_ref(struct ref_list *l, const char *name,
		    const unsigned char *sha1, int packed)
{
	struct ref_item *r;

	ALLOC_GROW(l->refs, l->nr + 1, l->alloc);
	r = &l->refs[l->nr++];
	r->name = xstrdup(name);
	hashcpy(r->sha1, sha1);
	r->packed = packed;
}

/*
 * The loose refs under top in base (a git directory), walked with a
 * list of directories still to read instead of recursion, so that a
 * hostile tree of thousands of nested directories costs memory, not
 * stack.  From the common directory, the worktree's own refs are
 * skipped: they are read from its git directory.
 */
static void list_loose_refs_in(struct ref_list *l, const char *base,
			       const char *top, int common)
{
	char **dirs = NULL;
	size_t nr = 0, alloc = 0;

	ALLOC_GROW(dirs, 1, alloc);
	dirs[nr++] = xstrdup(top);
	while (nr) {
		char *dir = dirs[--nr], *full = path_join(base, dir);
		DIR *d = opendir(full);
		struct dirent *de;

		free(full);
		while (d && (de = readdir(d)) != NULL) {
			char *name, *target;
			unsigned char sha1[HASH_MAX_RAWSZ];
			struct stat st;

			if (de->d_name[0] == '.')
				continue;
			name = path_join(dir, de->d_name);
			full = path_join(base, name);
			if (!lstat(full, &st) && S_ISDIR(st.st_mode)) {
				if (!common || !is_per_worktree_ref(name)) {
					ALLOC_GROW(dirs, nr + 1, alloc);
					dirs[nr++] = name;
					name = NULL;
				}
			} else if (!check_ref_name(name) &&
				   !resolve_ref(name, sha1, &target)) {
				add_ref(l, name, sha1, 0);
				free(target);
			}
			free(full);
			free(name);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	free(dirs);
}

/* Shared refs from the common directory, a worktree's own from its own. */
static void list_loose_refs(struct ref_list *l)
{
	size_t i;

	list_loose_refs_in(l, get_common_dir(), "refs", 1);
	for (i = 0; i < NR_WORKTREE_REF_DIRS; i++)
		list_loose_refs_in(l, get_git_dir(), worktree_ref_dirs[i], 0);
}

static int compare_refs(const void *a, const void *b)
{
	const struct ref_item *x = a, *y = b;
	int cmp = strcmp(x->name, y->name);

	return cmp ? cmp : x->packed - y->packed;
}

int for_each_ref(each_ref_fn fn, void *data)
{
	struct ref_list l = { NULL, 0, 0 };
	size_t i, n = 0;
	int ret = 0;

	list_loose_refs(&l);
	load_packed_refs();
	for (i = 0; i < nr_packed; i++)
		add_ref(&l, packed[i].name, packed[i].sha1, 1);
	if (l.nr > 1)
		qsort(l.refs, l.nr, sizeof(*l.refs), compare_refs);
	/* Sorted loose first: the packed copy of a loose ref is dropped. */
	for (i = 0; i < l.nr; i++) {
		if (n && !strcmp(l.refs[n - 1].name, l.refs[i].name)) {
			free(l.refs[i].name);
			continue;
		}
		l.refs[n++] = l.refs[i];
	}
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = fn(l.refs[i].name, l.refs[i].sha1, data);
		free(l.refs[i].name);
	}
	free(l.refs);
	return ret;
}

/* Are a and b the same directory? */
static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Call fn with the HEAD of the git directory dir, if it names a commit. */
static int other_head(const char *dir, const char *name, each_ref_fn fn,
		      void *data)
{
	struct repo_dirs r;
	unsigned char sha1[HASH_MAX_RAWSZ];

	r.git_dir = dir;
	r.common_dir = get_common_dir();
	if (resolve_ref_in(&r, "HEAD", sha1, NULL) < 0)
		return 0;
	return fn(name, sha1, data);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names under dir (malloc'd, sorted, none starting with '.'). */
static char **list_dir(const char *dir, size_t *nr)
{
	char **names = NULL;
	size_t alloc = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	*nr = 0;
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, *nr + 1, alloc);
		names[(*nr)++] = xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	if (*nr > 1)
		qsort(names, *nr, sizeof(*names), compare_names);
	return names;
}

int for_each_other_head(each_ref_fn fn, void *data)
{
	char *wts = path_join(get_common_dir(), "worktrees"), **names;
	size_t i, nr;
	int ret = 0;

	if (!same_dir(get_common_dir(), get_git_dir()))
		ret = other_head(get_common_dir(), "main-worktree/HEAD", fn,
				 data);
	names = list_dir(wts, &nr);
	for (i = 0; i < nr; i++) {
		char *dir = path_join(wts, names[i]);
		char *name = xmalloc(strlen(names[i]) + 16);

		sprintf(name, "worktrees/%s/HEAD", names[i]);
		if (!ret && !same_dir(dir, get_git_dir()))
			ret = other_head(dir, name, fn, data);
		free(name);
		free(dir);
		free(names[i]);
	}
	free(names);
	free(wts);
	return ret;
}

/* ---- writing ---- */

static int ref_is_current(const char *name, const unsigned char *old_sha1)
{
	unsigned char cur[HASH_MAX_RAWSZ];
	int exists = !read_ref(name, cur);

	if (is_null_hash(old_sha1))
		return !exists;
	return exists && !hashcmp(cur, old_sha1);
}

int update_ref(const char *name, const unsigned char *sha1,
	       const unsigned char *old_sha1)
{
	struct lock_file lk = { 0 };
	char line[HASH_MAX_HEXSZ + 1], *path;
	size_t hexsz = the_hash->hexsz;
	int ret;

	if (check_ref_name(name) < 0 || !strcmp(name, "HEAD"))
		return error("refusing to write ref '%s': bad name", name);
	path = ref_path(name);
	if (create_leading_dirs(path) < 0) {
		ret = error_errno("create directories for '%s'", path);
		free(path);
		return ret;
	}
	ret = hold_lock_file(&lk, path);
	free(path);
	if (ret < 0)
		return -1;
	if (old_sha1 && !ref_is_current(name, old_sha1)) {
		rollback_lock_file(&lk);
		return error("ref '%s' moved while it was being updated", name);
	}
	memcpy(line, sha1_to_hex(sha1), hexsz);
	line[hexsz] = '\n';
	if (write_in_full(lk.fd, line, hexsz + 1) < 0) {
		error_errno("write '%s'", lk.path);
		rollback_lock_file(&lk);
		return -1;
	}
	if (flush_to_disk(lk.fd) < 0) {
		rollback_lock_file(&lk);
		return -1;
	}
	return commit_lock_file(&lk);
}
