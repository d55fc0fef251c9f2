/*
 * cat-file: show one object.  -t prints its type and -s its size,
 * both from the header alone; -e says by its exit status alone whether
 * it exists (1 when it does not; a corrupt object is an error, not a
 * "no"); -p prints it for people, a tree as `git cat-file -p` lists
 * it; "<type> <id>" prints the raw content of that type, peeling as
 * git does (a tag gives the object it names, a commit its tree), and
 * refuses anything else, so that a script never parses the wrong
 * thing.  An object of up to 16 MiB is checked whole before a byte of
 * it is written; a bigger one (a blob of any size) goes out a piece at
 * a time, in little memory, and its damage is found at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"

/* Objects up to this size are read whole before a byte is written. */
#define HOLD_MAX ((size_t)16 << 20)

static const char cat_file_usage[] =
	"cat-file (-t | -s | -e | -p | <type>) <id>";

static void write_raw(const void *buf, size_t size)
{
	if (size && fwrite(buf, 1, size, stdout) != size)
		die_errno("write to standard output");
}

static void print_tree(const unsigned char *sha1, const void *buf,
		       size_t size)
{
	const char *bad = check_tree(buf, size);
	struct tree_desc desc;
	struct name_entry e;

	if (bad)
		die("tree %s is corrupt: %s", sha1_to_hex(sha1), bad);
	init_tree_desc(&desc, buf, size);
	while (tree_entry_next(&desc, &e) > 0) {
		printf("%06o %s %s\t", e.mode,
		       type_name(object_type_of_mode(e.mode)),
		       sha1_to_hex(e.sha1));
		write_quoted_path(stdout, "", e.path, e.pathlen);
		putchar('\n');
	}
}

static void __attribute__((noreturn))
die_unreadable(const unsigned char *sha1, const struct fault *f)
{
	report_object_fault(sha1, f);
	die("unable to read object %s", sha1_to_hex(sha1));
}

/* Read whole and checked: nothing is written unless all of it is good. */
static void write_held(const unsigned char *sha1, struct object_stream *st,
		       FILE *out)
{
	struct fault f;
	void *buf = read_object_stream_whole(st, &f);

	if (!buf)
		die_unreadable(sha1, &f);
	if (out)
		write_raw(buf, st->size);
	free(buf);
}

/*
 * Bigger than HOLD_MAX, a piece of OBJECT_CHUNK bytes at a time: a
 * damaged object's bytes before the damage are out when it is found,
 * and the exit status says so, as git's cat-file does for big blobs.
 */
static void write_pieces(const unsigned char *sha1, struct object_stream *st,
			 FILE *out)
{
	unsigned char *chunk = xmalloc(OBJECT_CHUNK);
	struct fault f;
	ssize_t n;

	while ((n = read_object_stream(st, chunk, OBJECT_CHUNK, &f)) > 0)
		if (out)
			write_raw(chunk, n);
	if (n < 0)
		die_unreadable(sha1, &f);
	free(chunk);
}

/*
 * The object's content, checked, to out when not NULL (a tree listed
 * when list_tree); its type into *type.  Memory stays bounded whatever
 * its size, but for a tree's.
 */
static void stream_object(const unsigned char *sha1, enum object_type *type,
			  FILE *out, int list_tree)
{
	struct object_stream st;
	struct fault f;
	void *buf;

	if (open_object_stream(&st, sha1, &f) < 0)
		die_unreadable(sha1, &f);
	*type = st.type;
	if (list_tree && st.type == OBJ_TREE) {
		buf = read_object_stream_whole(&st, &f);
		if (!buf)
			die_unreadable(sha1, &f);
		print_tree(sha1, buf, st.size);
		free(buf);
	} else if (st.size <= HOLD_MAX) {
		write_held(sha1, &st, out);
	} else {
		write_pieces(sha1, &st, out);
	}
	close_object_stream(&st);
}

static void pretty_print(const unsigned char *sha1)
{
	enum object_type type;

	stream_object(sha1, &type, stdout, 1);
}

/* The raw content as <type>, peeling a tag or a commit as git does. */
static void print_typed(const unsigned char *sha1, enum object_type want)
{
	unsigned char peeled[HASH_MAX_RAWSZ];
	enum object_type type;

	if (peel_object(sha1, want, peeled) < 0)
		die("unable to read %s %s", type_name(want), sha1_to_hex(sha1));
	stream_object(peeled, &type, stdout, 0);
}

static void print_info(const unsigned char *sha1, int want_type)
{
	enum object_type type;
	size_t size;

	if (sha1_object_info(sha1, &type, &size) < 0)
		die("unable to read object %s", sha1_to_hex(sha1));
	if (want_type)
		printf("%s\n", type_name(type));
	else
		printf("%zu\n", size);
}

/* Exists: 0; absent: 1, silently; present but unreadable: die. */
static int exists(const unsigned char *sha1)
{
	enum object_type type;

	if (!has_sha1_file(sha1))
		return 1;
	stream_object(sha1, &type, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	enum object_type want = OBJ_NONE;
	unsigned char sha1[HASH_MAX_RAWSZ];
	const char *opt;

	setup_tool(argv[0]);
	handle_help(argc, argv, cat_file_usage);
	if (argc != 3)
		usage(cat_file_usage);
	opt = argv[1];
	if (opt[0] == '-') {
		if (strcmp(opt, "-t") && strcmp(opt, "-s") &&
		    strcmp(opt, "-e") && strcmp(opt, "-p"))
			usage(cat_file_usage);
	} else {
		want = type_from_string(opt, strlen(opt));
		if (want == OBJ_BAD)
			die("invalid object type '%s'", opt);
	}
	if (setup_repository() < 0)
		exit(128);
	if (get_sha1(argv[2], sha1) < 0)
		exit(128);

	if (!strcmp(opt, "-e"))
		return exists(sha1);
	if (!strcmp(opt, "-t") || !strcmp(opt, "-s"))
		print_info(sha1, opt[1] == 't');
	else if (!strcmp(opt, "-p"))
		pretty_print(sha1);
	else
		print_typed(sha1, want);
	finish_stdout();
	return 0;
}
