#!/bin/sh
test_description='read-tree -m with three trees: every case of git'"'"'s three-way table'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-merge.sh"

# One path "p" goes through the cases; "keep" is in every tree.  The
# index holds ours unless a case says otherwise; git's read-tree -m on
# the same trees is the oracle for the stages and the work tree.
test_expect_success 'setup: blobs and trees' '
	setup_store && cd repo &&
	K=$(blob keep) && A=$(blob a-base) && B=$(blob b-ours) &&
	C=$(blob c-theirs) && Z=$(blob z-local) &&
	L=$(printf target | gd hash-object -w --stdin) &&
	k="100644 $K	keep" &&
	mk_tree "$k" >../T0 &&
	mk_tree "$k" "100644 $A	p" >../TA &&
	mk_tree "$k" "100755 $A	p" >../TAX &&
	mk_tree "$k" "100644 $B	p" >../TB &&
	mk_tree "$k" "100644 $C	p" >../TC &&
	mk_tree "$k" "100644 $Z	p" >../TZ &&
	mk_tree "$k" "120000 $L	p" >../TL &&
	mk_tree "$k" "100644 $C	p/q" >../TDC &&
	mk_tree "$k" "100644 $A	p/q" >../TDA &&
	mk_tree "$k" "100644 $A	p/q" "100644 $B	p/r" >../TDAB &&
	mk_tree "$k" "100644 $C	p-x" "100644 $C	p0" "100644 $C	p/q" >../TDN
'

for t in T0 TA TAX TB TC TZ TL TDC TDA TDAB TDN
do
	eval "$t=\$(cat $t)"
done
DIRTY='echo a local change >p'

# case NAME ok|fail INDEX ACTION BASE OURS THEIRS: with and without -u.
case3() {
	for opts in "-m" "-m -u"
	do
		test_expect_success "$1 [$opts]" "
			start $3 '$4' &&
			run_both $opts -- $5 $6 $7 &&
			same_as_git $2
		"
	done
}

case3 "#2ALT added by theirs only: theirs" ok "$T0" "" "$T0" "$T0" "$TC"
case3 "#3ALT added by ours only: ours" ok "$TB" "" "$T0" "$TB" "$T0"
case3 "#4 added differently: stages 2 and 3" ok "$TB" "" "$T0" "$TB" "$TC"
case3 "#5ALT added identically: stage 0" ok "$TB" "" "$T0" "$TB" "$TB"
case3 "#5ALT changed identically: stage 0" ok "$TB" "" "$TA" "$TB" "$TB"
case3 "#6 removed by both: stage 1 only" ok "$T0" "" "$TA" "$T0" "$T0"
case3 "#7 removed by ours, changed by theirs: stages 1 and 3" ok "$T0" "" "$TA" "$T0" "$TC"
case3 "#7 removed by ours, same in theirs: stages 1 and 3" ok "$T0" "" "$TA" "$T0" "$TA"
case3 "#10 removed by theirs, same in ours: stages 1 and 2" ok "$TA" "" "$TA" "$TA" "$T0"
case3 "#11 removed by theirs, changed by ours: stages 1 and 2" ok "$TB" "" "$TA" "$TB" "$T0"
case3 "#13 changed by ours only: ours" ok "$TB" "" "$TA" "$TB" "$TA"
case3 "#14 changed by theirs only: theirs" ok "$TA" "" "$TA" "$TA" "$TC"
case3 "#14ALT index matches theirs: theirs" ok "$TC" "" "$TA" "$TA" "$TC"
case3 "#14 index matches neither: refused" fail "$TZ" "" "$TA" "$TA" "$TC"
case3 "#15 unchanged everywhere: stage 0" ok "$TA" "" "$TA" "$TA" "$TA"
case3 "#16 changed differently: stages 1, 2, 3" ok "$TB" "" "$TA" "$TB" "$TC"
case3 "index does not match ours: refused" fail "$TZ" "" "$TA" "$TB" "$TC"
case3 "index lacks a path ours has: as git" ok "$T0" "" "$TA" "$TB" "$TB"
case3 "index has a path no tree has: refused" fail "$TZ" "" "$T0" "$T0" "$T0"
case3 "#13 dirty work tree: ours, the change kept" ok "$TB" "$DIRTY" "$TA" "$TB" "$TA"
case3 "#14 dirty work tree: refused" fail "$TA" "$DIRTY" "$TA" "$TA" "$TC"
case3 "#16 dirty work tree: refused" fail "$TB" "$DIRTY" "$TA" "$TB" "$TC"
case3 "mode changed by ours only: ours" ok "$TAX" "" "$TA" "$TAX" "$TA"
case3 "mode changed by ours, content by theirs: stages" ok "$TAX" "" "$TA" "$TAX" "$TC"
case3 "a symlink in theirs: stages" ok "$TB" "" "$TA" "$TB" "$TL"
case3 "D/F: file in ours, directory in theirs" ok "$TB" "" "$T0" "$TB" "$TDC"
case3 "D/F: directory in ours, file in theirs" ok "$TDC" "" "$T0" "$TDC" "$TB"
case3 "D/F: theirs replaces a file by a directory" ok "$TA" "" "$TA" "$TA" "$TDC"
case3 "D/F: theirs replaces a directory by a file" ok "$TDA" "" "$TDA" "$TDA" "$TC"
case3 "D/F: ours replaces a directory by a file" ok "$TC" "" "$TDA" "$TC" "$TDA"
case3 "D/F: theirs replaces a directory of two by a file" ok "$TDAB" "" "$TDAB" "$TDAB" "$TC"
case3 "D/F: names sorting between file and directory" ok "$TB" "" "$TA" "$TB" "$TDN"

test_expect_success 'an untracked file where theirs adds one: refused with -u' '
	start "$T0" "echo untracked >p" &&
	run_both -m -u -- "$T0" "$T0" "$TC" &&
	same_as_git fail &&
	test_grep "untracked working tree file .p." ours.err
'

test_expect_success 'an unmerged index: refused' '
	start "$TB" &&
	(cd ours && read-tree -m "$TA" "$TB" "$TC") &&
	cp ours/.dircache/index unmerged &&
	(cd ours && test_expect_code 128 read-tree -m "$TA" "$TB" "$TC" 2>../err) &&
	test_grep "unmerged" err &&
	cmp unmerged ours/.dircache/index
'

test_expect_success '-i: a dirty work tree is not looked at' '
	start "$TA" "$DIRTY" &&
	run_both -m -i -- "$TA" "$TA" "$TC" &&
	same_as_git ok
'

# index_entries FILE: the index's header and entries (v2) in hex, a
# line each: the part the merge decides.  (git also writes the cache
# tree it can repair from the store after a merge; read-tree -m does
# not: that is no matter of the hash, and not compared here.)
index_entries() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
raw = int(sys.argv[2]) // 2
n, off = int.from_bytes(d[8:12], "big"), 12
print(d[:12].hex())
for i in range(n):
    flags = int.from_bytes(d[off + 40 + raw:off + 42 + raw], "big")
    size = (40 + raw + 2 + (flags & 0xfff) + 8) & ~7
    print(d[off:off + size].hex())
    off += size
' "$1" $OID_HEXSZ
}

# With no index and no work tree there is no stat data: the entries
# read-tree -m writes (stages, modes, ids, names) are git's bytes.
test_expect_success 'the index a three-way merge writes: git'"'"'s bytes' '
	cd repo &&
	for trees in "$TA $TB $TC" "$TA $TB $TB" "$T0 $TB $TC" "$TA $T0 $TC" \
		     "$TAX $TA $TC" "$TA $TL $TC" "$TC $TDA $TC" "$TB $TA $TDN" \
		     "$TDAB $TDAB $TC"; do
		rm -f ../ours.idx ../gits.idx &&
		GIT_INDEX_FILE=../ours.idx read-tree -m $trees &&
		GIT_INDEX_FILE=../gits.idx gd read-tree -m $trees &&
		index_entries ../ours.idx >ours.hex &&
		index_entries ../gits.idx >gits.hex &&
		test_cmp gits.hex ours.hex || return 1
	done &&
	grep -c . ours.hex >count &&
	test $(cat count) -gt 3
'

test_done
