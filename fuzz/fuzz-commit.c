/* libFuzzer target: the commit and tag parsers and checkers. */
#include <stdint.h>

#include "../cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct commit_info ci;
	unsigned char sha1[20];
	enum object_type type;
	const char *bad = check_commit(data, size);

	if (parse_commit_buffer(data, size, &ci) == 0)
		free_commit_info(&ci);
	else if (!bad)
		__builtin_trap();	/* checked good, yet unparseable */
	check_tag(data, size, sha1, &type);
	return 0;
}
