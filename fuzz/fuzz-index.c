/* libFuzzer target: the index reader, on arbitrary index file bytes. */
#include <stdint.h>
#include <stddef.h>

#include "../cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int i;

	if (read_index_from_buffer(data, size, "fuzz") >= 0) {
		/* What a tool does next: look entries up by name. */
		for (i = 0; i < active_nr; i++)
			cache_name_pos(active_cache[i]->name,
				       active_cache[i]->ce_namelen);
	}
	discard_cache();
	return 0;
}
