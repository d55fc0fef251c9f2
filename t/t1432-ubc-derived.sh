#!/bin/sh
test_description='the unavoidable bit conditions follow from the DVs

t/ubc-derive.py derives, from the 32 disturbance vectors and the
local collisions they are made of, the relations between expanded
message bits an attack on each DV must satisfy; every relation of
sha1dc.c, for every DV it is listed under, must be one of them.'
. "$(dirname "$0")/test-lib.sh"

DERIVE="python3 $TEST_DIRECTORY/ubc-derive.py"
SRC="$TEST_DIRECTORY/../sha1dc.c"
VEC="$TEST_DIRECTORY/t1430"

test_expect_success 'every relation of the table is derived' '
	$DERIVE "$SRC" >out &&
	test_grep "156 relations in the table, all derived: yes" out
'

test_expect_success 'a relation with the wrong value is caught' '
	sed "s/UBC(63, 0, 64, 5, 1,/UBC(63, 0, 64, 5, 0,/" "$SRC" >bad.c &&
	! cmp -s bad.c "$SRC" &&
	test_expect_code 1 $DERIVE bad.c >out &&
	test_grep "A48_0: W\[63\] bit 0 ^ W\[64\] bit 5 = 0 is not derived" out
'

test_expect_success 'a relation listed under a DV it does not bind is caught' '
	sed "s/UBC(37, 1, 37, 6, 0, A51_2)/UBC(37, 1, 37, 6, 0, A51_2 | A50_2)/" \
		"$SRC" >bad.c &&
	! cmp -s bad.c "$SRC" &&
	test_expect_code 1 $DERIVE bad.c >out &&
	test_grep "A50_2: W\[37\] bit 1 ^ W\[37\] bit 6 = 0 is not derived" out
'

# SHAttered is an attack on II(52,0): its two near-collision blocks
# (blocks 3 and 4 of the files) must keep that DV, and the prefix must not.
test_expect_success 'the SHAttered blocks pass the table for II(52,0)' '
	$DERIVE "$SRC" "$VEC/shattered-1.head" "$VEC/shattered-2.head" >out &&
	cat >expect <<-\EOT &&
	shattered-1.head block 3 passes B52_0
	shattered-1.head block 4 passes B52_0
	shattered-2.head block 3 passes B52_0
	shattered-2.head block 4 passes B52_0
	EOT
	grep passes out >actual &&
	test_cmp expect actual
'

test_done
