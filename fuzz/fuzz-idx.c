/*
 * libFuzzer target: the pack idx parser and the pack entry header
 * parser.  An input check_pack_idx accepts must be safe to look up in,
 * in order or not; in order (check_pack_idx_order), every id found
 * again at its own position; every offset read without leaving the
 * buffer.  The same bytes read as an entry header must be
 * refused or parsed within their length.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct packed_git p;
	struct pack_entry_info e;
	struct fault f;
	uint32_t n;
	int hdr;

	memset(&p, 0, sizeof(p));
	p.idx = data;
	p.idx_size = size;
	if (!check_pack_idx(&p)) {
		int ordered = !check_pack_idx_order(&p);

		for (n = 0; n < p.nr; n++) {
			int64_t at = find_pack_pos(&p, nth_packed_sha1(&p, n));

			/* out of order: found, refused or missed, never past */
			if (ordered ? at != n : at >= (int64_t)p.nr || at < -2)
				__builtin_trap();
			(void)nth_packed_offset(&p, n);
			(void)nth_packed_crc(&p, n);
		}
	}
	hdr = parse_pack_entry(data, size, size + 12, &e, &f);
	if (hdr > (int)size)
		__builtin_trap();
	return 0;
}
