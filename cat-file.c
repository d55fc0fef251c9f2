/*
 * cat-file: show one object.  -t prints its type and -s its size,
 * both from the header alone; -e says by its exit status alone whether
 * it exists (1 when it does not; a corrupt object is an error, not a
 * "no"); -p prints it for people, a tree as `git cat-file -p` lists
 * it; "<type> <id>" prints the raw content of that type, peeling as
 * git does (a tag gives the object it names, a commit its tree), and
 * refuses anything else, so that a script never parses the wrong
 * thing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "diff.h"

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

static void *read_or_die(const unsigned char *sha1, enum object_type *type,
			 size_t *size)
{
	void *buf = read_sha1_file(sha1, type, size);

	if (!buf)
		die("unable to read object %s", sha1_to_hex(sha1));
	return buf;
}

static void pretty_print(const unsigned char *sha1)
{
	enum object_type type;
	size_t size;
	void *buf = read_or_die(sha1, &type, &size);

	if (type == OBJ_TREE)
		print_tree(sha1, buf, size);
	else
		write_raw(buf, size);
	free(buf);
}

/* The raw content as <type>, peeling a tag or a commit as git does. */
static void print_typed(const unsigned char *sha1, enum object_type want)
{
	size_t size;
	void *buf = read_object_peeled(sha1, want, &size, NULL);

	if (!buf)
		die("unable to read %s %s", type_name(want), sha1_to_hex(sha1));
	write_raw(buf, size);
	free(buf);
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
	size_t size;

	if (!has_sha1_file(sha1))
		return 1;
	free(read_or_die(sha1, &type, &size));
	return 0;
}

int main(int argc, char **argv)
{
	enum object_type want = OBJ_NONE;
	unsigned char sha1[20];
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
		die("cannot resolve '%s'", argv[2]);

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
