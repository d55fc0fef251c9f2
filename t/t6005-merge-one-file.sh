#!/bin/sh
test_description='merge-one-file: each case of git merge-one-file, against it'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-merge.sh"

test_expect_success 'setup: blobs and trees' '
	setup_store && cd repo &&
	K=$(blob keep) &&
	printf "1\n2\n3\n4\n5\n6\n7\n8\n" | gd hash-object -w --stdin >../A &&
	printf "1\nB\n3\n4\n5\n6\n7\n8\n" | gd hash-object -w --stdin >../B &&
	printf "1\n2\n3\n4\n5\n6\nC\n8\n" | gd hash-object -w --stdin >../C &&
	printf "1\nX\n3\n4\n5\n6\n7\n8\n" | gd hash-object -w --stdin >../X &&
	A=$(cat ../A) B=$(cat ../B) C=$(cat ../C) X=$(cat ../X) &&
	k="100644 $K	keep" &&
	mk_tree "$k" >../T0 &&
	mk_tree "$k" "100644 $A	p" >../TA &&
	mk_tree "$k" "100755 $A	p" >../TAX &&
	mk_tree "$k" "100644 $B	p" >../TB &&
	mk_tree "$k" "100755 $B	p" >../TBX &&
	mk_tree "$k" "100644 $C	p" >../TC &&
	mk_tree "$k" "100644 $X	p" >../TX &&
	mk_tree "$k" "120000 $C	p" >../TL &&
	mk_tree "$k" "100644 $A	d/p" >../TDA &&
	mk_tree "$k" "100644 $C	d/p" >../TDC
'

for t in T0 TA TAX TB TBX TC TX TL TDA TDC
do
	eval "$t=\$(cat $t)"
done

# mof ok|fail BASE OURS THEIRS: read-tree -m -u, then the path merged by
# merge-one-file in ours and git-merge-one-file in gits.
mof() {
	start "$3" &&
	(cd ours && read-tree -m -u "$2" "$3" "$4" &&
	 merge-cache -o merge-one-file -a 2>../ours.err; echo $? >../ours.rc) &&
	(cd gits && gd read-tree -m -u "$2" "$3" "$4" &&
	 gd merge-index -o git-merge-one-file -a >/dev/null 2>&1
	 echo $? >../gits.rc) &&
	(cd ours && gd ls-files --stage) >ours.ls &&
	(cd gits && gd ls-files --stage) >gits.ls &&
	test_cmp gits.ls ours.ls &&
	for d in ours gits
	do
		(cd $d && find . -path ./.dircache -prune -o -type f -print |
		 LC_ALL=C sort | while read -r f
		 do
			echo "$f $(test -x "$f" && echo x)"
			sed -e "s/^\(<<<<<<<\|>>>>>>>\) .*/\1/" "$f"
		 done) >$d.files || return 1
	done &&
	test_cmp gits.files ours.files &&
	if test "$1" = ok
	then
		test "$(cat ours.rc)" = 0 && test "$(cat gits.rc)" = 0
	else
		test "$(cat ours.rc)" != 0 && test "$(cat gits.rc)" != 0
	fi
}

test_expect_success 'removed by ours, unchanged in theirs: removed' '
	mof ok "$TA" "$T0" "$TA"
'
test_expect_success 'removed by theirs, unchanged in ours: removed from both' '
	mof ok "$TA" "$TA" "$T0" && test ! -e ours/p
'
test_expect_success 'removed by theirs, leading directory left empty: gone' '
	mof ok "$TDA" "$TDA" "$T0" && test ! -e ours/d
'
test_expect_success 'removed by theirs, mode changed by ours: a conflict' '
	mof fail "$TA" "$TAX" "$T0" &&
	test_grep "mode changed" ours.err
'
test_expect_success 'added by theirs only: written (read-tree takes it)' '
	mof ok "$T0" "$T0" "$TC" && test -f ours/p
'
test_expect_success 'changed on both in different lines: merged' '
	mof ok "$TA" "$TB" "$TC" &&
	printf "1\nB\n3\n4\n5\n6\nC\n8\n" >want && test_cmp want ours/p
'
test_expect_success 'changed on both in the same line: markers, stages, exit 1' '
	mof fail "$TA" "$TB" "$TX" &&
	test_grep "^<<<<<<< ours$" ours/p &&
	test_grep "^>>>>>>> theirs$" ours/p &&
	test_grep "content conflict in p" ours.err
'
# git merge-one-file merges from the empty blob, and leaves ours' text
# when the store lacks it: store it, so that git merges too.
test_expect_success 'added on both differently: a conflict even when it merges' '
	EMPTY=$(cd repo && gd hash-object -w /dev/null) &&
	mof fail "$T0" "$TB" "$TC" &&
	test_grep "content conflict in p" ours.err
'
test_expect_success 'a mode changed by ours, content by theirs: a mode conflict' '
	mof fail "$TA" "$TBX" "$TC" &&
	test_grep "mode conflict in p" ours.err && test -x ours/p
'
test_expect_success 'a symbolic link changed on one side, a file on the other: refused' '
	mof fail "$TA" "$TB" "$TL" &&
	test_grep "symbolic link" ours.err
'
test_expect_success 'removed by ours, changed by theirs: left unmerged' '
	mof fail "$TA" "$T0" "$TC"
'
test_expect_success 'an untracked file where theirs adds one: refused' '
	start "$T0" "echo untracked >p" &&
	(cd ours && read-tree -m "$T0" "$T0" "$T0" &&
	 C=$(cat ../C) &&
	 test_expect_code 1 merge-one-file "" "" "$C" p "" "" 100644 2>../err) &&
	test_grep "untracked" err &&
	test "$(cat ours/p)" = untracked
'
test_expect_success 'an id of the other hash, or cut short: refused, index kept' '
	cd repo &&
	A=$(cat ../A) &&
	read-tree $TA &&
	cp .dircache/index ../index.before &&
	case $test_hash_algo in
	sha1) other=$A$(printf %.24s $A) ;;
	*) other=$(printf %.40s $A) ;;
	esac &&
	for ids in "$other $A $A" "$A $other $A" "$A $A ${A}0" \
		   "$A $A ${A%?}"; do
		test_expect_code 128 merge-one-file $ids p 100644 100644 100644 \
			2>err &&
		test_grep "is not an object id" err &&
		cmp ../index.before .dircache/index || return 1
	done
'

test_expect_success 'usage: seven arguments' '
	test_expect_code 129 merge-one-file a b c 2>err &&
	test_grep "^usage: merge-one-file <base-id>" err
'

test_done
