/* libFuzzer target: the date parser used by commit-tree. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	const char *out;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	out = parse_date(text);
	/* A parsed date is always "<digits> <+|-><4 digits>". */
	if (out && !strchr(out, ' '))
		__builtin_trap();
	free(text);
	return 0;
}
