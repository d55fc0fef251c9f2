#!/bin/sh
test_description='the unavoidable bit conditions follow from the DVs

t/ubc-derive.py derives, from the 32 disturbance vectors and the
local collisions they are made of, the relations between expanded
message bits an attack on each DV must satisfy; every relation of
sha1dc.c, for every DV it is listed under, must be one of them.
t/ubc-select.py keeps those that every attack path over steps 35-64
satisfies (carries and boolean-function behaviour allowed), and that
selection must be the table, DV by DV: no relation more, none fewer.'
. "$(dirname "$0")/test-lib.sh"

DERIVE="python3 $TEST_DIRECTORY/ubc-derive.py"
SELECT="python3 $TEST_DIRECTORY/ubc-select.py"

# rel i p j q c: the pattern ubc-select.py prints for a relation
rel() {
	echo "W\\[$1\\] bit $2 ^ W\\[$3\\] bit $4 = $5"
}
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

test_expect_success 'the selection rule gives the table, DV by DV' '
	$SELECT "$SRC" >out &&
	test_grep "156 table lines; selection equals the table for 32 of 32 DVs" \
		out &&
	test $(grep -c ": equal$" out) = 32 &&
	! grep "differ\|not selected\|not in the table\|follow from" out
'

test_expect_success 'the selected relations are listed, DV by DV' '
	$SELECT --list --dv B52_0 "$SRC" >out &&
	test $(grep -c "^B52_0: W" out) = 15 &&
	test_grep "^B52_0: $(rel 36 4 38 4 1)$" out &&
	test_grep "^B52_0: $(rel 54 4 60 29 1)$" out &&
	test_grep "B52_0: 15 relations selected, 15 in the table: equal" out
'

# Every feasible signing of a DV lies within 2^-4.09 of its best one;
# a bound tighter than that drops signings and selects relations the
# table does not have.
test_expect_success 'the probability bound: 2^-4.1 gives the table, 2^-4 not' '
	set -- --dv A52_0 --dv B50_2 --dv B51_2 &&
	$SELECT --bound 4.1 "$@" "$SRC" >out &&
	test_grep "selection equals the table for 3 of 3 DVs" out &&
	test_expect_code 1 $SELECT --bound 4 "$@" "$SRC" >out &&
	test_grep "B50_2: selected, not in the table: $(rel 39 0 39 1 1)" out
'

test_expect_success 'without the carry digit a relation too many is selected' '
	test_expect_code 1 $SELECT --extra 0 "$SRC" >out &&
	test_grep "A52_0: selected, not in the table: $(rel 35 30 36 3 1)" out &&
	test_grep "equals the table for 31 of 32 DVs" out
'

test_expect_success 'another step range is caught' '
	test_expect_code 1 $SELECT --first 36 "$SRC" >out &&
	test_grep "A46_2: in the table, not selected: $(rel 35 1 36 6 1)" out &&
	test_expect_code 1 $SELECT --last 65 "$SRC" >out &&
	test_grep "A43_0: selected, not in the table: $(rel 64 2 65 7 1)" out
'

# A relation missing from the table is named by the first bit of its
# group: without W[59] bit 29 ^ W[60] bit 29, W[60] bit 29 leaves the
# group W[54] bit 4 heads.
test_expect_success 'a table line dropped or with a wrong value is caught' '
	sed "/UBC(59, 29, 60, 29, 0, B52_0)/d" "$SRC" >bad.c &&
	! cmp -s bad.c "$SRC" &&
	test_expect_code 1 $SELECT --dv B52_0 bad.c >out &&
	test_grep "B52_0: selected, not in the table: $(rel 54 4 60 29 1)" out &&
	sed "s/UBC(63, 0, 64, 5, 1,/UBC(63, 0, 64, 5, 0,/" "$SRC" >bad.c &&
	! cmp -s bad.c "$SRC" &&
	test_expect_code 1 $SELECT --dv A48_0 bad.c >out &&
	test_grep "A48_0: in the table, not selected: $(rel 63 0 64 5 0)" out
'

# The one table line that goes on past a backslash-newline is read
# whole: its last DV moved to another DV is caught for both (for B51_0
# the missing relation shows as W[42] bit 4 ^ W[44] bit 29, the table
# still joining W[42] bit 4 to W[45] bit 29).
test_expect_success 'a table line continued on the next line is read whole' '
	grep -n "^	    B51_0) \\\\$" "$SRC" >lines &&
	test $(wc -l <lines) = 1 &&
	sed "s/^	    B51_0) \\\\$/	    B52_0) \\\\/" "$SRC" >bad.c &&
	! cmp -s bad.c "$SRC" &&
	test_expect_code 1 $SELECT --dv B51_0 --dv B52_0 bad.c >out &&
	test_grep "B51_0: selected, not in the table: $(rel 42 4 44 29 0)" out &&
	test_grep "B52_0: in the table, not selected: $(rel 44 29 45 29 0)" out
'

# SHAttered (blocks 3 and 4 of the PDFs) and SHA-mbles (blocks 1 to 9
# of the messages) are attacks on II(52,0): every one of their
# near-collision blocks satisfies the relations selected for it, and
# neither prefix does.
test_expect_success 'the attack blocks pass the selection for II(52,0)' '
	$SELECT --dv B52_0 "$SRC" "$VEC/shattered-1.head" \
		"$VEC/shattered-2.head" "$VEC/sha-mbles-1.bin" \
		"$VEC/sha-mbles-2.bin" >out &&
	for f in shattered-1.head shattered-2.head; do
		for b in 3 4; do
			echo "$f block $b passes B52_0" || return 1
		done
	done >expect &&
	for f in sha-mbles-1.bin sha-mbles-2.bin; do
		for b in 1 2 3 4 5 6 7 8 9; do
			echo "$f block $b passes B52_0" || return 1
		done
	done >>expect &&
	grep passes out >actual &&
	test_cmp expect actual
'

test_done
