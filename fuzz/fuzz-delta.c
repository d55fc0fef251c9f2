/*
 * libFuzzer target: git's delta format both ways.  The input read as
 * a delta must be refused or applied within bounds; cut in two at a
 * point its first bytes give, it is a base and a target whose delta
 * must give the target back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cache.h"

static void hostile_delta(const uint8_t *data, size_t size)
{
	static const char base[] = "a base of some forty bytes, more or less";
	size_t out_size;
	const char *why;
	char *out = apply_delta(base, sizeof(base) - 1, data, size,
				&out_size, &why);

	if (!out && !why)
		__builtin_trap();
	free(out);
}

static void round_trip(const uint8_t *data, size_t size)
{
	size_t cut, delta_size, out_size;
	const char *why;
	void *delta;
	char *out;

	if (size < 2)
		return;
	cut = ((size_t)data[0] << 8 | data[1]) % (size - 1);
	data += 2;
	size -= 2;
	delta = create_delta(data, cut, data + cut, size - cut, 0,
			     &delta_size);
	if (!delta)
		__builtin_trap();
	out = apply_delta(data, cut, delta, delta_size, &out_size, &why);
	if (!out || out_size != size - cut ||
	    memcmp(out, data + cut, out_size))
		__builtin_trap();
	free(out);
	free(delta);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hostile_delta(data, size);
	round_trip(data, size);
	return 0;
}
