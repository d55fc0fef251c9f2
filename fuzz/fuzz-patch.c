/*
 * libFuzzer target: the patch reader.  Any input must be refused with
 * a message or read into a set whose every hunk lies inside the input
 * and whose counts add up; the set is then printed as --stat,
 * --numstat and --summary, reversed, and applied in memory to empty
 * content, none of which may crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cache.h"
#include "../patch-internal.h"

static void check_set(const struct patch_set *set, const char *buf,
		      size_t size)
{
	const struct patch *p;

	for (p = set->first; p; p = p->next) {
		const struct patch_hunk *h;
		unsigned int n = 0;

		for (h = p->hunks; h; h = h->next, n++)
			if (h->text < buf || h->text + h->size > buf + size ||
			    h->header < buf || h->header >= h->text)
				__builtin_trap();
		if (n != p->nr_hunks)
			__builtin_trap();
		if (!p->old_name && !p->new_name)
			__builtin_trap();
	}
}

static void apply_in_memory(struct patch_set *set)
{
	struct patch *p;

	for (p = set->first; p; p = p->next) {
		struct fault f = { 0 };
		char *out = NULL;
		size_t out_size;
		const char *name = p->new_name ? p->new_name : p->old_name;

		if (p->is_binary)
			apply_binary_patch(p, "", 0, &out, &out_size, &f);
		else
			apply_text_hunks(p, name, "", 0, 1, NULL, &out,
					 &out_size, &f);
		free(out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fault f = { 0 };
	struct patch_set set;
	FILE *null = fopen("/dev/null", "w");
	int n;

	init_patch_set(&set);
	n = parse_patch(&set, (const char *)data, size, 1, &f);
	if (n < 0 && !f.msg[0])
		__builtin_trap();
	if (n > 0) {
		check_set(&set, set.bufs[0], size);
		print_patch_stat(null, &set);
		print_patch_numstat(null, &set);
		print_patch_summary(null, &set);
		reverse_patch_set(&set);
		apply_in_memory(&set);
	}
	fclose(null);
	free_patch_set(&set);
	return 0;
}
