#!/bin/sh
test_description='objects over 4 GiB, streamed'
. "$(dirname "$0")/test-lib.sh"

# git stores objects of any size; so do we, a piece at a time, never
# holding one whole.  The sizes in headers (loose and packed) are read
# in 64 bits, from objects that are headers alone.

FIVE_GIB=5368709120

test_expect_success 'setup' '
	init-db 2>/dev/null
'

test_expect_success 'cat-file -s and -t read a loose header over 4 GiB' '
	id=$(python3 "$TEST_DIRECTORY/big-header.py" loose $FIVE_GIB \
		.dircache/objects) &&
	cat-file -s $id >got && cat-file -t $id >>got &&
	GIT_DIR=.dircache git cat-file -s $id >want &&
	GIT_DIR=.dircache git cat-file -t $id >>want &&
	test_cmp want got &&
	echo $FIVE_GIB >five && head -n 1 got | test_cmp five -
'

test_expect_success 'and a pack entry size of 64 bits, as git does' '
	for size in 4294967296 $((FIVE_GIB + 1)); do
		id=$(python3 "$TEST_DIRECTORY/big-header.py" pack $size \
			.dircache/objects/pack) &&
		cat-file -s $id >got && cat-file -t $id >>got &&
		GIT_DIR=.dircache git cat-file -s $id >want &&
		GIT_DIR=.dircache git cat-file -t $id >>want &&
		test_cmp want got &&
		test "$(head -n 1 got)" = $size &&
		rm -f .dircache/objects/pack/* || return 1
	done
'

test_done
