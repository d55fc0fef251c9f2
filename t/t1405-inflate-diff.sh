#!/bin/sh
test_description='inflate.c against zlib on random, crafted and damaged streams'
. "$(dirname "$0")/test-lib.sh"

# Every object read goes through inflate.c; it must accept exactly the
# streams zlib accepts, give the same bytes, use the same input and
# call a wrong Adler-32 so.  test-tool inflate-diff makes the streams:
# random bytes behind a zlib header; content with runs, long matches
# and 32 KiB distances deflated by zlib (every level and strategy, a
# flush on the way) or by deflate.c, as it is, cut short, with bits
# flipped or bytes overwritten; and streams put together a symbol at a
# time (distances at the window's edge and past it, codes 286-287 and
# 30-31, code sets over-subscribed and incomplete), each asked for its
# true size, one near it, or the size it was written to give.  The
# same stream inflated a window at a time (inflate_windows, the
# collision check's way for big objects) must give inflate_whole's
# answer: in a window of 64-164 KiB, where a match reaches back across
# a move of the window and a block may have to start again, or stop
# with INFLATE_WINDOW after a true prefix; in one as big as the result,
# always the same answer.  Each
# input and output buffer is exactly as big as allowed, so that under
# SANITIZE=1 a byte read or written past either is an error.

for seed in 1 2 3 4
do
	test_expect_success "seed $seed: 2000 streams, ours and zlib agree" '
		"$TEST_DIRECTORY"/helper/test-tool inflate-diff '$seed' 2000
	'
done

test_done
