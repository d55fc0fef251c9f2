/*
 * libFuzzer target: git's globs (wildmatch.c) and exclude patterns
 * (exclude.c).  The input is "pattern\0path"; the pattern is matched
 * with and without WM_PATHNAME and added as an --exclude pattern.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cache.h"
#include "../exclude.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 2), *pattern, *path;
	struct exclude_set set;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	pattern = buf;
	path = buf + strlen(buf) + 1;
	if (path > buf + size)
		path = buf + size + 1;
	wildmatch(pattern, path, 0);
	/* With WM_PATHNAME a match never needs more than without. */
	if (wildmatch(pattern, path, WM_PATHNAME) && !strchr(pattern, '/') &&
	    !strstr(pattern, "**") && !wildmatch(pattern, path, 0))
		__builtin_trap();
	init_exclude_set(&set);
	add_exclude(&set.cmdline, pattern);
	if (*path && path[strlen(path) - 1] != '/')
		is_excluded(&set, path, DT_REG);
	clear_exclude_set(&set);
	free(buf);
	return 0;
}
