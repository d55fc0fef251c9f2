/*
 * test-delta: the delta functions for the tests.
 *
 *   test-delta make <base> <target>   the delta, on stdout
 *   test-delta apply <base> <delta>   the result, on stdout
 *   test-delta roundtrip (<a> <b>)... each delta from a to b and from
 *                                     b to a gives back the other
 *
 * Exit 1 when apply_delta() refuses a delta or a round trip fails,
 * 128 on other errors.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cache.h"

static const char usage_line[] =
	"usage: test-delta (make <base> <target> | apply <base> <delta> |\n"
	"       roundtrip (<a> <b>)...)";

static char *read_file(const char *path, size_t *size)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0)
		die_errno("open '%s'", path);
	buf = xmalloc(st.st_size + 1);
	if (read_in_full(fd, buf, st.st_size) != st.st_size)
		die_errno("read '%s'", path);
	close(fd);
	*size = st.st_size;
	return buf;
}

/* The delta from a to b must turn a into b; 0 if so. */
static int round_trip(const char *a, size_t a_size, const char *b,
		      size_t b_size, const char *name)
{
	size_t delta_size, out_size;
	void *delta = create_delta(a, a_size, b, b_size, 0, &delta_size);
	char *out;
	const char *why;
	int ret = 0;

	if (!delta)
		return error("%s: no delta", name);
	out = apply_delta(a, a_size, delta, delta_size, &out_size, &why);
	if (!out)
		ret = error("%s: %s", name, why);
	else if (out_size != b_size || memcmp(out, b, b_size))
		ret = error("%s: the delta gives something else", name);
	free(out);
	free(delta);
	return ret;
}

static int round_trips(int nr, char **paths)
{
	int i, bad = 0;

	if (nr % 2)
		usage(usage_line);
	for (i = 0; i < nr; i += 2) {
		size_t a_size, b_size;
		char *a = read_file(paths[i], &a_size);
		char *b = read_file(paths[i + 1], &b_size);

		if (round_trip(a, a_size, b, b_size, paths[i + 1]) ||
		    round_trip(b, b_size, a, a_size, paths[i]))
			bad = 1;
		free(a);
		free(b);
	}
	return bad;
}

int main(int argc, char **argv)
{
	size_t base_size, other_size, out_size;
	char *base, *other;
	void *out;
	const char *why;

	set_progname(argv[0]);
	handle_help(argc, argv, usage_line);
	if (argc >= 2 && !strcmp(argv[1], "roundtrip"))
		return round_trips(argc - 2, argv + 2);
	if (argc != 4)
		usage(usage_line);
	base = read_file(argv[2], &base_size);
	other = read_file(argv[3], &other_size);
	if (!strcmp(argv[1], "make")) {
		out = create_delta(base, base_size, other, other_size, 0,
				   &out_size);
		if (!out)
			die("no delta");
	} else if (!strcmp(argv[1], "apply")) {
		out = apply_delta(base, base_size, other, other_size,
				  &out_size, &why);
		if (!out) {
			error("%s", why);
			return 1;
		}
	} else {
		usage(usage_line);
	}
	if (write_in_full(1, out, out_size) < 0)
		die_errno("write");
	return 0;
}
