/* libFuzzer target: the commit and tag parsers and checkers. */
#include <stdint.h>
#include <string.h>

#include "../cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct commit_info ci;
	struct fsck_options o;
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	int bad;

	memset(&o, 0, sizeof(o));
	bad = fsck_commit(data, size, &o);
	if (parse_commit_buffer(data, size, &ci) == 0)
		free_commit_info(&ci);
	else if (!bad)
		__builtin_trap();	/* checked good, yet unparseable */
	memset(&o, 0, sizeof(o));
	fsck_tag(data, size, &o, sha1, &type);
	parse_tag_buffer(data, size, sha1, &type);
	return 0;
}
