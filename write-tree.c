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

/* A name in the tree being built (points into the index). */
struct name {
	const char *name;
	size_t len;
};

/*
 * One tree being built: its entries as they will be stored, and the
 * file names that a later directory of the same name could clash with.
 */
struct tree_buf {
	char *buf;
	size_t len, alloc;
	struct name *files;
	size_t files_nr, files_alloc;
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

/* Does name extend the file name f by a byte that sorts below '/'? */
static int may_lie_between(const struct name *f, const char *name,
			   size_t len)
{
	return len > f->len && !memcmp(name, f->name, f->len) &&
	       (unsigned char)name[f->len] < '/';
}

/*
 * A file "a" and a directory "a" cannot both enter a tree.  They are
 * not neighbours: "a-" and "a.b" sort between them.  So keep a stack
 * of files each extending the one below it that way; a name that does
 * not extend the top ends the top's run for good, so each file is
 * pushed and popped once.
 */
static void pop_files(struct tree_buf *t, const char *name, size_t len)
{
	while (t->files_nr &&
	       !may_lie_between(&t->files[t->files_nr - 1], name, len))
		t->files_nr--;
}

static void note_file(struct tree_buf *t, const char *name, size_t len)
{
	pop_files(t, name, len);
	ALLOC_GROW(t->files, t->files_nr + 1, t->files_alloc);
	t->files[t->files_nr].name = name;
	t->files[t->files_nr++].len = len;
}

static int is_file_twin(struct tree_buf *t, const char *name, size_t len)
{
	const struct name *top;

	while (t->files_nr) {
		top = &t->files[t->files_nr - 1];
		if (top->len == len && !memcmp(top->name, name, len))
			return 1;
		if (may_lie_between(top, name, len))
			return 0;
		t->files_nr--;
	}
	return 0;
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
	struct tree_buf t = { NULL, 0, 0, NULL, 0, 0 };

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
			note_file(&t, name, len);
			(*pos)++;
			continue;
		}
		len = slash - name;
		if (is_file_twin(&t, name, len))
			die("'%.*s' is both a file and a directory in the "
			    "index", (int)(baselen + len), ce->name);
		write_tree(pos, ce->name, baselen + len + 1, sub);
		add_entry(&t, 040000, name, len, sub);
	}
	if (write_sha1_file(t.buf, t.len, OBJ_TREE, sha1) < 0)
		die("unable to write the tree of '%.*s'",
		    baselen ? (int)baselen - 1 : 1, baselen ? base : ".");
	free(t.buf);
	free(t.files);
}

/*
 * Report every unmerged path (once) and every missing object before
 * giving up, so that one run shows all there is to fix.
 */
static void check_index(void)
{
	unsigned int i;
	int bad = 0;

	for (i = 0; i < active_nr; i++) {
		const struct cache_entry *ce = active_cache[i];

		if (ce_stage(ce)) {
			if (!i || strcmp(active_cache[i - 1]->name, ce->name))
				bad = error("'%s' is unmerged", ce->name);
			continue;
		}
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

	set_progname(argv[0]);
	handle_help(argc, argv, write_tree_usage);
	if (argc != 1)
		usage(write_tree_usage);

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
