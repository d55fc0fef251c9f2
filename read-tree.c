/*
 * read-tree: replace the index with the entries of a tree.  A commit
 * id means its tree.  The whole tree is read and checked before the
 * index is touched: every tree must pass check_tree, every full path
 * verify_path, and every blob and subtree must exist (a gitlink names
 * a commit in another repository and is not looked for).  One bad
 * tree or missing object refuses the whole tree and leaves the index
 * byte for byte as it was.
 *
 * -m is git's one-way merge: an entry whose path, mode and id are the
 * same in the current index keeps its stat data, so that reading the
 * tree one already has checked out leaves show-diff clean without a
 * rehash.  Without -m every entry starts with zero stat data.
 *
 * Only one tree is taken.  Two- and three-way merges are refused with
 * exit 128 (a feature that is missing, not a malformed command line).
 *
 * A recursive walk in tree order yields index order: a tree sorts a
 * directory "d" as "d/", and every full path below it starts with
 * "d/", so comparing a sibling name with "d/" or with "d/x" gives the
 * same answer.  The entries are therefore appended, never inserted;
 * the order is still checked as they are appended.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char read_tree_usage[] = "read-tree [-m] <tree-ish>";

/* Longest full path accepted; also bounds the depth of the walk. */
#define MAX_PATH_LEN 4096

static struct cache_entry **new_cache;
static size_t new_nr, new_alloc;

static void append_entry(const char *path, size_t len,
			 const struct name_entry *e)
{
	struct cache_entry *ce = make_cache_entry(path, len);
	struct cache_entry *prev = new_nr ? new_cache[new_nr - 1] : NULL;

	ce->ce_mode = e->mode;
	memcpy(ce->sha1, e->sha1, 20);
	if (prev && cache_name_compare(prev->name, prev->ce_namelen, 0,
				       ce->name, ce->ce_namelen, 0) >= 0)
		die("internal error: '%s' out of order after '%s'",
		    ce->name, prev->name);
	ALLOC_GROW(new_cache, new_nr + 1, new_alloc);
	new_cache[new_nr++] = ce;
}

/*
 * "tree <id>" or "tree <id> at 'dir'" for messages (static buffer); a
 * long dir is cut to its last bytes, so the reason still fits a line.
 */
static const char *describe_tree(const unsigned char *sha1, const char *dir,
				 size_t dirlen)
{
	static char buf[512];
	size_t len = dirlen ? dirlen - 1 : 0;	/* without the '/' */
	size_t skip = len > 200 ? len - 200 : 0;

	if (!len)
		snprintf(buf, sizeof(buf), "tree %s", sha1_to_hex(sha1));
	else
		snprintf(buf, sizeof(buf), "tree %s at '%s%.*s'",
			 sha1_to_hex(sha1), skip ? "..." : "",
			 (int)(len - skip), dir + skip);
	return buf;
}

/*
 * Read the tree sha1 whose entries live under path[0..len) (empty, or
 * ending in '/'), check it, and append its entries.  path has room
 * for MAX_PATH_LEN bytes and a NUL.
 */
static void read_tree_recursive(const unsigned char *sha1, void *buf,
				size_t size, char *path, size_t len)
{
	struct tree_desc desc;
	struct name_entry e;
	const char *bad = check_tree(buf, size);

	if (bad)
		die("%s: %s", describe_tree(sha1, path, len), bad);
	init_tree_desc(&desc, buf, size);
	while (tree_entry_next(&desc, &e) > 0) {
		size_t full = len + e.pathlen;

		if (full + 1 > MAX_PATH_LEN)
			die("%s: entry '%.*s' makes a path longer than %d "
			    "bytes", describe_tree(sha1, path, len),
			    (int)(e.pathlen > 64 ? 64 : e.pathlen), e.path,
			    MAX_PATH_LEN - 1);
		memcpy(path + len, e.path, e.pathlen);
		path[full] = '\0';
		if (!verify_path(path, full))
			die("%s: invalid path '%s'",
			    describe_tree(sha1, path, len), path);
		if (S_ISDIR(e.mode)) {
			size_t sub_size;
			void *sub = read_object_of_type(e.sha1, OBJ_TREE,
							&sub_size);

			if (!sub)
				die("%s: cannot read subtree '%s'",
				    describe_tree(sha1, path, len), path);
			path[full] = '/';
			read_tree_recursive(e.sha1, sub, sub_size, path,
					    full + 1);
			free(sub);
			continue;
		}
		if (!S_ISGITLINK(e.mode) && !has_sha1_file(e.sha1))
			die("%s: entry '%s' names blob %s, which is missing",
			    describe_tree(sha1, path, len), path,
			    sha1_to_hex(e.sha1));
		append_entry(path, full, &e);
	}
}

/* Copy stat data from old stage-0 entries with the same path, mode, id. */
static void keep_stat_data(void)
{
	unsigned int i = 0;
	size_t j;

	for (j = 0; j < new_nr && i < active_nr; j++) {
		struct cache_entry *ce = new_cache[j], *old = NULL;
		int cmp = -1;

		while (i < active_nr) {
			old = active_cache[i];
			cmp = cache_name_compare(old->name, old->ce_namelen, 0,
						 ce->name, ce->ce_namelen, 0);
			if (cmp > 0 || (!cmp && !ce_stage(old)))
				break;
			i++;
		}
		if (cmp || i >= active_nr || old->ce_mode != ce->ce_mode ||
		    memcmp(old->sha1, ce->sha1, 20))
			continue;
		ce->ce_ctime = old->ce_ctime;
		ce->ce_mtime = old->ce_mtime;
		ce->ce_dev = old->ce_dev;
		ce->ce_ino = old->ce_ino;
		ce->ce_uid = old->ce_uid;
		ce->ce_gid = old->ce_gid;
		ce->ce_size = old->ce_size;
		i++;
	}
}

static void install_new_cache(void)
{
	discard_cache();
	active_cache = new_cache;
	active_nr = new_nr;
	active_alloc = new_alloc;
	new_cache = NULL;
	new_nr = new_alloc = 0;
}

int main(int argc, char **argv)
{
	unsigned char sha1[20], tree_sha1[20];
	char path[MAX_PATH_LEN + 1];
	int merge = 0, i;
	size_t size;
	void *buf;

	setup_tool(argv[0]);
	handle_help(argc, argv, read_tree_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-m"))
			usage(read_tree_usage);
		merge = 1;
	}
	if (i == argc)
		usage(read_tree_usage);
	if (argc - i > 1)
		die("%d trees given: two- and three-way merges are not "
		    "supported yet", argc - i);
	if (setup_repository() < 0)
		exit(128);
	if (get_sha1(argv[i], sha1) < 0)
		die("cannot read tree '%s'", argv[i]);

	if (hold_index_lock() < 0)
		die("cannot lock the index");
	if (merge && read_cache() < 0)
		die("cannot read the index");
	buf = read_tree_ish(sha1, &size, tree_sha1);
	if (!buf)
		die("cannot read tree '%s'", argv[i]);
	path[0] = '\0';
	read_tree_recursive(tree_sha1, buf, size, path, 0);
	free(buf);
	if (merge)
		keep_stat_data();
	install_new_cache();
	if (commit_index() < 0)
		die("cannot write the index");
	finish_stdout();
	return 0;
}
