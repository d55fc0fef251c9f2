/*
 * ls-tree: list the entries of a tree, as git ls-tree does.
 *
 * Each line is "<mode> <type> <id>\t<path>" (or the path alone with
 * --name-only), the path quoted as git quotes it, or unquoted and
 * NUL-terminated with -z.  Without -r only the top level is listed,
 * but a path given on the command line is followed down: its leading
 * directories are entered (and shown as well with -t) and the entry it
 * names is shown; "dir/" lists what is inside dir.  Paths are not
 * globs: git ls-tree matches them literally, a whole path component at
 * a time.  -d shows trees only; -r -d implies -t, as in git.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"

static const char ls_tree_usage[] =
	"ls-tree [-r] [-t] [-d] [-z] [--name-only] <tree-ish> [<path>...]";

static int recursive, show_trees, trees_only, nul_terminate, name_only;

/*
 * The paths, as git ls-tree reads them: literal, normalized, a
 * trailing slash kept ("a/" selects what is inside a).
 */
struct literal_spec {
	char *path;
	size_t len;
};

static struct literal_spec *specs;
static size_t nr_specs;
static int match_all;

static void parse_specs(char **argv, int argc)
{
	struct pathspec ps;
	size_t i;

	if (parse_pathspec(&ps, argv, argc) < 0)
		exit(128);
	match_all = !argc;
	specs = xcalloc(ps.nr ? ps.nr : 1, sizeof(*specs));
	for (i = 0; i < ps.nr; i++) {
		struct pathspec_item *item = &ps.items[i];

		specs[i].len = item->len + (item->dir_only ? 1 : 0);
		specs[i].path = xmalloc(specs[i].len + 1);
		memcpy(specs[i].path, item->match, item->len);
		if (item->dir_only)
			specs[i].path[item->len] = '/';
		specs[i].path[specs[i].len] = '\0';
	}
	nr_specs = ps.nr;
	if (ps.match_all)
		match_all = 1;	/* "." names everything */
	clear_pathspec(&ps);
}

/*
 * Does one spec select path (len bytes; a tree when is_tree, a
 * gitlink when is_link)?  It does when it names the path (with a
 * trailing slash only a tree, or a gitlink), a directory above it, or
 * lies below it (the path is a tree on the way to it).
 */
static int spec_selects(const struct literal_spec *s, const char *path,
			size_t len, int is_tree, int is_link)
{
	if (s->len <= len) {
		if (memcmp(s->path, path, s->len))
			return 0;
		return s->len == len || s->path[s->len - 1] == '/' ||
		       path[s->len] == '/';
	}
	if (memcmp(s->path, path, len) || s->path[len] != '/')
		return 0;
	return is_tree || (is_link && s->len == len + 1);
}

static int selected(const char *path, size_t len, int is_tree, int is_link)
{
	size_t i;

	if (match_all)
		return 1;
	for (i = 0; i < nr_specs; i++)
		if (spec_selects(&specs[i], path, len, is_tree, is_link))
			return 1;
	return 0;
}

/* Enter the tree path: with -r always, else when a spec lies below it. */
static int descend(const char *path, size_t len)
{
	size_t i;

	if (recursive)
		return 1;
	for (i = 0; i < nr_specs; i++)
		if (specs[i].len > len && specs[i].path[len] == '/' &&
		    !memcmp(specs[i].path, path, len))
			return 1;
	return 0;
}

static void show_entry(const struct name_entry *e, const char *path,
		       size_t len)
{
	if (!name_only) {
		enum object_type type = object_type_of_mode(e->mode);

		printf("%06o %s %s\t", e->mode, type_name(type),
		       sha1_to_hex(e->sha1));
	}
	if (nul_terminate) {
		fwrite(path, 1, len, stdout);
		putchar('\0');
	} else {
		write_quoted_path(stdout, "", path, len);
		putchar('\n');
	}
}

static void list_tree(const unsigned char *sha1, const char *base,
		      size_t baselen);

static void list_entry(const struct name_entry *e, const char *base,
		       size_t baselen)
{
	int is_tree = S_ISDIR(e->mode), is_link = S_ISGITLINK(e->mode);
	size_t len = baselen + e->pathlen;
	char *path = xmalloc(len + 2);

	memcpy(path, base, baselen);
	memcpy(path + baselen, e->path, e->pathlen);
	path[len] = '\0';
	if (!selected(path, len, is_tree, is_link))
		goto out;
	if (is_tree && descend(path, len)) {
		if (show_trees)
			show_entry(e, path, len);
		path[len] = '/';
		list_tree(e->sha1, path, len + 1);
	} else if (is_tree || !trees_only) {
		show_entry(e, path, len);
	}
out:
	free(path);
}

static void list_tree(const unsigned char *sha1, const char *base,
		      size_t baselen)
{
	struct tree_desc desc;
	struct name_entry e;
	const char *bad;
	size_t size;
	void *buf = read_object_of_type(sha1, OBJ_TREE, &size);
	int ret;

	if (!buf)
		exit(128);
	bad = check_tree(buf, size);
	if (bad)
		die("tree %s is corrupt: %s", sha1_to_hex(sha1), bad);
	init_tree_desc(&desc, buf, size);
	while ((ret = tree_entry_next(&desc, &e)) > 0)
		list_entry(&e, base, baselen);
	if (ret < 0)
		die("tree %s is corrupt", sha1_to_hex(sha1));
	free(buf);
}

int main(int argc, char **argv)
{
	unsigned char sha1[HASH_MAX_RAWSZ], tree[HASH_MAX_RAWSZ];
	size_t size;
	void *buf;
	int i;

	setup_tool(argv[0]);
	handle_help(argc, argv, ls_tree_usage);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-r"))
			recursive = 1;
		else if (!strcmp(arg, "-t"))
			show_trees = 1;
		else if (!strcmp(arg, "-d"))
			trees_only = 1;
		else if (!strcmp(arg, "-z"))
			nul_terminate = 1;
		else if (!strcmp(arg, "--name-only") ||
			 !strcmp(arg, "--name-status"))
			name_only = 1;
		else
			usage(ls_tree_usage);
	}
	if (i >= argc)
		usage(ls_tree_usage);
	if (trees_only && recursive)
		show_trees = 1;	/* -d -r shows the trees it enters */
	if (setup_repository() < 0)
		exit(128);
	if (get_sha1(argv[i], sha1) < 0)
		exit(128);
	parse_specs(argv + i + 1, argc - i - 1);
	buf = read_object_peeled(sha1, OBJ_TREE, &size, tree);
	if (!buf)
		die("not a tree object: %s", argv[i]);
	free(buf);
	list_tree(tree, "", 0);
	finish_stdout();
	return 0;
}
