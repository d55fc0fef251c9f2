/* libFuzzer target: the tree parser and checker. */
#include <stdint.h>
#include <string.h>

#include "../cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tree_desc desc;
	struct name_entry e;
	const char *bad = check_tree(data, size);
	int ret;

	init_tree_desc(&desc, data, size);
	while ((ret = tree_entry_next(&desc, &e)) > 0) {
		/* Everything an entry points at lies inside the buffer. */
		if ((const uint8_t *)e.sha1 + 20 > data + size ||
		    e.path + e.pathlen > (const char *)data + size)
			__builtin_trap();
		if (!bad && (!e.pathlen || memchr(e.path, '/', e.pathlen)))
			__builtin_trap();	/* the checker let it through */
	}
	if (!bad && ret < 0)
		__builtin_trap();
	return 0;
}
