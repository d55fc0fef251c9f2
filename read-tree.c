/*
 * read-tree: read trees into the index.
 *
 * With one tree and no -m, the index is replaced by the tree's
 * entries, with zero stat data.  The whole tree is read and checked
 * before the index is touched: every tree must pass check_tree (so
 * every full path passes verify_path), and every blob and subtree
 * must exist (a gitlink names a commit in another repository and is
 * not looked for).  A merge looks only for the blobs it brings into
 * the index (tree-merge.c's check_blob): what the index keeps is there.  One bad tree or missing object refuses the whole tree and
 * leaves the index byte for byte as it was.  A commit id means its
 * tree.
 *
 * -m merges, with git's rules (tree-merge.c): one tree is git's one-way
 * merge (an entry whose path, mode and id are unchanged keeps its stat
 * data, so show-diff stays clean without a rehash); two trees <old>
 * <new> move the index from old to new, carrying local changes; three
 * trees <base> <ours> <theirs> put the stages 1, 2 and 3 of every
 * path into the index and collapse the trivial cases to stage 0.  A
 * local change that the merge would lose is a refusal naming the path.
 *
 * -u then updates the work tree: the entries that change are written
 * as checkout-cache writes them (checkout.c) and the removed ones
 * unlinked; an untracked file in the way is a refusal.  -i merges in
 * the index alone and does not look at the work tree.  Everything is
 * checked before anything is written; the index is replaced under
 * index.lock.  A file -u cannot write (a full disk) is named, the
 * others are written, the index is the merge's result, and the exit
 * is 128.
 *
 * --reset is -m that keeps no local change: an unmerged path becomes
 * the tree's entry (or goes), and -u overwrites what the work tree
 * changed, as git's --reset -u (the old scripts' "reset --hard").
 *
 * --empty empties the index, as git's does.
 *
 * The cache tree (TREE) is left as git 2.39 leaves it: whole after one
 * tree; after two or three (or none), made again from the result where
 * the store has each directory's tree, and none when a path is
 * unmerged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tree-merge.h"

static const char read_tree_usage[] =
	"read-tree (--empty | [(-m | --reset | --prefix=<dir>/) [-u | -i]] <tree-ish> [<tree-ish> [<tree-ish>]])";

/* The list becomes the index; the cache tree and a split are kept. */
static void install_list(struct entry_list *l)
{
	replace_cache_entries(l->ces, l->nr, l->alloc);
	l->ces = NULL;
	l->nr = l->alloc = 0;
}

/*
 * One tree read: the index is that tree, so every directory's tree id
 * and entry count is known, and the cache tree is made whole from the
 * subtrees read (git's prime_cache_tree): a write-tree after it hashes
 * nothing.  Called once the index holds the tree's entries.
 */
static void prime_cache_tree(const char *name, const struct entry_list *l)
{
	struct cache_tree *it;
	unsigned char sha1[HASH_MAX_RAWSZ], tree[HASH_MAX_RAWSZ];
	size_t i;

	if (get_sha1(name, sha1) < 0 || peel_object(sha1, OBJ_TREE, tree) < 0)
		return;
	it = cache_tree_new();
	cache_tree_set(it, "", 0, tree, active_nr);
	for (i = 0; i < l->dirs_nr; i++) {
		const struct subtree_span *d = &l->dirs[i];

		cache_tree_set(it, d->path, d->len - 1, d->sha1,
			       d->end - d->start);
	}
	cache_tree_free(active_cache_tree);
	active_cache_tree = it;
	index_cache_tree_synced();
}

/*
 * Two or three trees, or none: git drops the cache tree before the merge and
 * makes it again from the result (cache-tree.c's cache_tree_repair),
 * each directory valid where its tree is in the store already.
 */
static void repair_cache_tree(void)
{
	cache_tree_free(active_cache_tree);
	active_cache_tree = cache_tree_repair(active_cache, active_nr);
	index_cache_tree_synced();
}

/*
 * Without -m every blob is looked for as the trees are read; a merge
 * looks only for the blobs it brings into the index (tree-merge.c).
 */
static void read_trees(int n, char **names, struct entry_list *lists,
		       int merge)
{
	int i;

	for (i = 0; i < n; i++) {
		unsigned char sha1[HASH_MAX_RAWSZ];

		if (get_sha1(names[i], sha1) < 0 ||
		    read_tree_list(sha1, &lists[i], lists, i, !merge) < 0)
			die("cannot read tree '%s'", names[i]);
	}
}

static void refuse_unmerged(void)
{
	unsigned int i;

	for (i = 0; i < active_nr; i++)
		if (ce_stage(active_cache[i]))
			die("'%s' is unmerged: you need to resolve your "
			    "current index first", active_cache[i]->name);
}

/* The number of work tree files -u could not write or remove. */
static unsigned int merge_trees(struct unpack_options *o, char **names)
{
	unsigned int failed;

	o->initial = access(get_index_file(), F_OK) < 0;
	if (read_cache() < 0)
		die("cannot read the index");
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	if (o->reset)
		collapse_unmerged();
	else
		refuse_unmerged();
	drop_resolve_undo();
	read_trees(o->n, names, o->trees, 1);
	if (unpack_trees(o) < 0)
		die("merge refused: nothing changed");
	install_list(&o->result);
	failed = update_work_tree(o);
	entry_list_clear(&o->removed);
	if (o->n == 1)
		prime_cache_tree(names[0], &o->trees[0]);
	else
		repair_cache_tree();
	return failed;
}

/* The longest path tree-list.c reads. */
#define MAX_BIND_PATH 4095

/* --prefix's value: "" or a path ending in '/', checked as paths are. */
static char *bind_prefix(const char *arg)
{
	size_t len = strlen(arg);
	char *p = xmalloc(len + 2);

	if (arg[0] == '/')
		die("invalid prefix '%s': it cannot start with '/'", arg);
	memcpy(p, arg, len);
	if (len && p[len - 1] != '/')
		p[len++] = '/';
	p[len] = '\0';
	if (len && !verify_path(p, len - 1))
		die("invalid prefix '%s'", arg);
	return p;
}

/* The entries of l renamed under prefix, in order, into out. */
static void prefix_entries(const struct entry_list *l, const char *prefix,
			   struct entry_list *out)
{
	size_t plen = strlen(prefix), i;
	char *name = xmalloc(plen + MAX_BIND_PATH + 1);

	memcpy(name, prefix, plen);
	for (i = 0; i < l->nr; i++) {
		const struct cache_entry *ce = l->ces[i];
		struct cache_entry *n;

		if (plen + ce->ce_namelen > MAX_BIND_PATH)
			die("path too long under '%s': %s", prefix, ce->name);
		memcpy(name + plen, ce->name, ce->ce_namelen);
		n = make_cache_entry(name, plen + ce->ce_namelen);
		n->ce_mode = ce->ce_mode;
		hashcpy(n->sha1, ce->sha1);
		entry_list_append(out, n);
	}
	free(name);
}

/*
 * Is the index in the way of e: the same path (git's "overlaps"), a
 * file where e needs a directory, or entries below e's path?
 */
static void refuse_overlap(const struct cache_entry *e)
{
	const char *slash = e->name;
	int pos = cache_name_pos(e->name, e->ce_namelen);

	if (pos >= 0)
		die("Entry '%s' overlaps with '%s'.  Cannot bind.", e->name,
		    active_cache[pos]->name);
	pos = -pos - 1;
	if (pos < (int)active_nr &&
	    active_cache[pos]->ce_namelen > e->ce_namelen &&
	    !memcmp(active_cache[pos]->name, e->name, e->ce_namelen) &&
	    active_cache[pos]->name[e->ce_namelen] == '/')
		die("Entry '%s' overlaps with '%s'.  Cannot bind.", e->name,
		    active_cache[pos]->name);
	while ((slash = strchr(slash, '/')) != NULL) {
		pos = cache_name_pos(e->name, slash - e->name);
		if (pos >= 0)
			die("Entry '%s' overlaps with '%s'.  Cannot bind.",
			    e->name, active_cache[pos]->name);
		slash++;
	}
}

/* A copy of ce: replace_cache_entries frees the index's own. */
static struct cache_entry *dup_entry(const struct cache_entry *ce)
{
	struct cache_entry *n = make_cache_entry(ce->name, ce->ce_namelen);

	memcpy(n, ce, sizeof(*ce));
	return n;
}

static int nothing_may_go(const char *name, size_t len, void *data)
{
	(void)name;
	(void)len;
	(void)data;
	return 0;
}

/*
 * --prefix: the tree's entries join the index under prefix, where the
 * index has nothing (git's bind merge); with -u they are written, where
 * the work tree has nothing either.
 */
static unsigned int bind_tree(struct unpack_options *o, const char *prefix,
			      char *name)
{
	struct entry_list under = { 0 };
	size_t i, j = 0;
	unsigned int k = 0;
	int refused = 0;

	if (read_cache() < 0)
		die("cannot read the index");
	if (expand_sparse_index() < 0)
		die("cannot expand the sparse index");
	refuse_unmerged();
	read_trees(1, &name, o->trees, 0);
	prefix_entries(&o->trees[0], prefix, &under);
	for (i = 0; i < under.nr; i++) {
		char *found;

		refuse_overlap(under.ces[i]);
		if (o->update &&
		    find_in_the_way(under.ces[i]->name, nothing_may_go, NULL,
				    &found) != WAY_CLEAR) {
			error("untracked working tree file '%s' would be "
			      "overwritten by merge", found);
			free(found);
			refused = 1;
		}
	}
	if (refused)
		die("merge refused: nothing changed");
	/* The index and the new entries, merged in index order. */
	for (i = 0; i < under.nr || k < active_nr; j++) {
		if (k < active_nr &&
		    (i == under.nr ||
		     cache_name_compare(active_cache[k]->name,
					active_cache[k]->ce_namelen, 0,
					under.ces[i]->name,
					under.ces[i]->ce_namelen, 0) < 0)) {
			entry_list_append(&o->result,
					  dup_entry(active_cache[k++]));
			continue;
		}
		if (o->update)
			under.ces[i]->ce_state |= CE_WT_UPDATE;
		entry_list_append(&o->result, under.ces[i++]);
	}
	free(under.ces);
	install_list(&o->result);
	repair_cache_tree();
	return update_work_tree(o);
}

int main(int argc, char **argv)
{
	struct unpack_options o;
	char *prefix = NULL;
	unsigned int failed = 0;
	int merge = 0, empty = 0, i;

	setup_tool(argv[0]);
	handle_help(argc, argv, read_tree_usage);
	memset(&o, 0, sizeof(o));
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-m"))
			merge = 1;
		else if (!strcmp(argv[i], "-u"))
			o.update = 1;
		else if (!strcmp(argv[i], "-i"))
			o.index_only = 1;
		else if (!strcmp(argv[i], "--empty"))
			empty = 1;
		else if (!strcmp(argv[i], "--reset"))
			o.reset = 1;
		else if (!strncmp(argv[i], "--prefix=", 9))
			prefix = bind_prefix(argv[i] + 9);
		else
			usage(read_tree_usage);
	}
	o.n = argc - i;
	if (merge + o.reset + !!prefix > 1)
		die("Which one? -m, --reset, or --prefix?");
	if (prefix && o.n != 1)
		die("--prefix takes one tree");
	if (o.reset && o.n > 2)
		die("--reset takes one or two trees");
	merge |= o.reset || prefix;
	if (empty && o.n)
		die("passing trees as arguments contradicts --empty");
	if (empty && merge)
		die("you must specify at least one tree to merge");
	if (!empty && (o.n < 1 || o.n > 3))
		usage(read_tree_usage);
	if ((o.update || o.index_only) && !merge)
		die("-u and -i need -m, --reset or --prefix");
	if (o.update && o.index_only)
		die("-u and -i cannot be used together");
	if (o.n > 1 && !merge)
		die("%d trees given: -m is needed to merge them", o.n);
	if (setup_repository() < 0)
		exit(128);

	if (hold_index_lock() < 0)
		die("cannot lock the index");
	if (empty) {
		repair_cache_tree();	/* the empty tree's */
	} else if (prefix) {
		failed = bind_tree(&o, prefix, argv[i]);
	} else if (merge) {
		failed = merge_trees(&o, argv + i);
	} else {
		read_trees(1, argv + i, o.trees, 0);
		install_list(&o.trees[0]);
		prime_cache_tree(argv[i], &o.trees[0]);
	}
	if (commit_index() < 0)
		die("cannot write the index");
	/*
	 * The index holds the merge's result either way: the files that
	 * were written match it, and the ones named above show as changed
	 * until checkout-cache -f writes them.
	 */
	if (failed)
		die("%u file%s not updated; the index has the new entries",
		    failed, failed == 1 ? "" : "s");
	finish_stdout();
	return 0;
}
