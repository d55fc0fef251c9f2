/*
 * write-tree: store the index as tree objects and print the id of the
 * root tree.  It takes no arguments: the index is the whole input.
 *
 * The index is sorted by the bytes of full paths, so the entries under
 * one directory form one contiguous run, and that order is also git's
 * order for tree entries (a tree sorts as if its name ended in '/',
 * which is the byte that follows the directory name in its entries'
 * paths).  One pass over the index, recursing at each directory,
 * writes every tree in O(n).
 *
 * Everything is checked before anything is written: an index with
 * unmerged entries, or one naming an object the store does not hold,
 * is refused and leaves no tree behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char write_tree_usage[] = "write-tree";

/*
 * One tree being built: its entries as they will be stored, and the
 * file names a later directory of the same name could clash with.
 */
struct tree_buf {
	char *buf;
	size_t len, alloc;
	struct df_check df;
};

static void add_entry(struct tree_buf *t, unsigned int mode,
		      const char *name, size_t len, const unsigned char *sha1)
{
	char mode_str[16];
	int mlen = snprintf(mode_str, sizeof(mode_str), "%o", mode);

	ALLOC_GROW(t->buf, t->len + mlen + len + 22, t->alloc);
	memcpy(t->buf + t->len, mode_str, mlen);
	t->buf[t->len + mlen] = ' ';
	t->len += mlen + 1;
	memcpy(t->buf + t->len, name, len);
	t->buf[t->len + len] = '\0';
	t->len += len + 1;
	memcpy(t->buf + t->len, sha1, 20);
	t->len += 20;
}

static int in_dir(const struct cache_entry *ce, const char *base,
		  size_t baselen)
{
	return ce->ce_namelen > baselen && !memcmp(ce->name, base, baselen);
}

/*
 * Write the tree for the entries from *pos on whose paths start with
 * base (baselen bytes, ending in '/' unless empty).  Advances *pos
 * past them.
 */
static void write_tree(unsigned int *pos, const char *base, size_t baselen,
		       unsigned char *sha1)
{
	struct tree_buf t = { NULL, 0, 0, { NULL, 0, 0 } };

	while (*pos < active_nr) {
		const struct cache_entry *ce = active_cache[*pos];
		const char *name, *slash;
		unsigned char sub[20];
		size_t len;

		if (!in_dir(ce, base, baselen))
			break;
		name = ce->name + baselen;
		len = ce->ce_namelen - baselen;
		slash = memchr(name, '/', len);
		if (!slash) {
			add_entry(&t, ce->ce_mode, name, len, ce->sha1);
			df_check_file(&t.df, name, len);
			(*pos)++;
			continue;
		}
		len = slash - name;
		if (df_check_dir(&t.df, name, len))
			die("'%.*s' is both a file and a directory in the "
			    "index", (int)(baselen + len), ce->name);
		write_tree(pos, ce->name, baselen + len + 1, sub);
		add_entry(&t, 040000, name, len, sub);
	}
	if (write_sha1_file(t.buf, t.len, OBJ_TREE, sha1) < 0)
		die("unable to write the tree of '%.*s'",
		    baselen ? (int)baselen - 1 : 1, baselen ? base : ".");
	free(t.buf);
	df_check_clear(&t.df);
}

/*
 * Report every unmerged path (once), every file/directory clash and
 * every missing object before giving up, so that one run shows all
 * there is to fix, and nothing is written from an index that cannot
 * be written whole.
 */
static void check_index(void)
{
	const char *last_unmerged = NULL;
	unsigned int i;
	size_t len;
	int bad = 0;

	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		if (ce_stage(ce)) {
			if (!last_unmerged || strcmp(last_unmerged, ce->name))
				error("'%s' is unmerged", ce->name);
			last_unmerged = ce->name;
			bad = -1;
			continue;
		}
		if ((len = index_has_file_above(ce->name)) != 0)
			bad = error("'%.*s' is both a file and a directory in "
				    "the index", (int)len, ce->name);
		if (S_ISGITLINK(ce->ce_mode) || has_sha1_file_listed(ce->sha1))
			continue;
		bad = error("'%s' names object %s, which does not exist",
			    ce->name, sha1_to_hex(ce->sha1));
	}
	if (bad)
		die("index cannot be written as a tree; nothing written");
}

int main(int argc, char **argv)
{
	unsigned char sha1[20];
	unsigned int pos = 0;

	setup_tool(argv[0]);
	handle_help(argc, argv, write_tree_usage);
	if (argc != 1)
		usage(write_tree_usage);

	if (setup_repository() < 0)
		exit(128);
	if (read_cache() < 0)
		die("unable to read the index");
	check_index();
	write_tree(&pos, "", 0, sha1);
	if (flush_to_disk(-1) < 0)
		die("unable to make the trees durable");
	printf("%s\n", sha1_to_hex(sha1));
	finish_stdout();
	return 0;
}
