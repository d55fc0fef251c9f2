/*
 * libFuzzer target: the three-way merge on any three texts (the
 * input cut in three at points its first bytes give).  Besides not
 * crashing, a merge where one side is the base gives the other side,
 * and one where both sides agree gives them, without conflicts, in
 * both styles.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cache.h"
#include "../diff.h"

static int same(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && !memcmp(a, b, an);
}

static void check(const struct merge_input *in, int diff3)
{
	struct merge_options opt = { "o", "b", "t", 0, diff3 };
	struct merge_result res;
	const char *want = NULL;
	size_t want_size = 0;

	merge_buffers(&res, in, &opt);
	if (same(in->ours, in->ours_size, in->base, in->base_size)) {
		want = in->theirs;
		want_size = in->theirs_size;
	} else if (same(in->theirs, in->theirs_size, in->base,
			in->base_size) ||
		   same(in->ours, in->ours_size, in->theirs,
			in->theirs_size)) {
		want = in->ours;
		want_size = in->ours_size;
	}
	if (want && (res.conflicts || !same(res.buf, res.size, want,
					     want_size)))
		__builtin_trap();
	free(res.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct merge_input in;
	size_t a, b;

	if (size < 2 || size > 4096)
		return 0;
	a = data[0] % (size - 1);
	b = data[1] % (size - 1);
	if (a > b) {
		size_t t = a;

		a = b;
		b = t;
	}
	data += 2;
	size -= 2;
	in.base = (const char *)data;
	in.base_size = a;
	in.ours = (const char *)data + a;
	in.ours_size = b - a;
	in.theirs = (const char *)data + b;
	in.theirs_size = size - b;
	check(&in, 0);
	check(&in, 1);
	return 0;
}
