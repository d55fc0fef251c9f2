#!/bin/sh
test_description='merge-file: the three-way file merge, as git merge-file'
. "$(dirname "$0")/test-lib.sh"

# merge_both [OPTIONS] OURS BASE THEIRS: our result to ./actual and
# git merge-file's to ./expect, exit statuses to ./actual-rc and
# ./expect-rc.
merge_both() {
	merge-file -p "$@" >actual
	echo $? >actual-rc
	git merge-file -p "$@" >expect
	echo $? >expect-rc
}

# check_merge [OPTIONS] OURS BASE THEIRS: the same result and exit
# status as git's.
check_merge() {
	merge_both "$@" &&
	test_cmp expect actual &&
	test_cmp expect-rc actual-rc
}

lines() {
	for l in "$@"; do
		echo "$l"
	done
}

test_expect_success 'setup' '
	lines a b c d e f g h i j >base &&
	lines a B c d e f g h i j >ours &&
	lines a b c d e f g h I j >theirs
'

test_expect_success 'changes apart merge cleanly' '
	check_merge ours base theirs &&
	lines a B c d e f g h I j >want &&
	test_cmp want actual
'

test_expect_success 'without -p the result replaces ours, its mode kept' '
	cp ours o && chmod 640 o &&
	merge-file o base theirs >out &&
	test_must_fail test -s out &&
	test_cmp want o &&
	test "$(ls -l o | cut -c1-10)" = "-rw-r-----"
'

test_expect_success 'without -p, through a symlink, as git' '
	cp ours target && ln -s target link &&
	merge-file link base theirs &&
	test -h link &&
	test_cmp want target
'

test_expect_success 'the same change on both sides is no conflict' '
	check_merge ours base ours &&
	test_cmp ours actual &&
	lines a B c d e f g h I j >both &&
	check_merge both base theirs &&
	test_cmp both actual
'

test_expect_success 'overlapping changes conflict, with the file names' '
	lines a X c d e f g h i j >other &&
	test_expect_code 1 merge-file -p ours base other >actual &&
	cat >want <<-\EOF &&
	a
	<<<<<<< ours
	B
	=======
	X
	>>>>>>> other
	c
	d
	e
	f
	g
	h
	i
	j
	EOF
	test_cmp want actual &&
	check_merge ours base other
'

test_expect_success 'labels, --diff3 and the marker size' '
	lines a X c d e f g h i j >other &&
	check_merge -L mine -L old -L yours --diff3 ours base other &&
	test_grep "^||||||| old$" actual &&
	test_grep "^>>>>>>> yours$" actual &&
	check_merge -L mine ours base other &&
	test_grep "^<<<<<<< mine$" actual &&
	test_grep "^>>>>>>> other$" actual &&
	check_merge --marker-size=3 ours base other &&
	test_grep "^<<< ours$" actual &&
	check_merge --marker-size=12 --diff3 ours base other &&
	test_grep "^============$" actual
'

test_expect_success 'additions at the same place' '
	lines a b c NEW1 d e f g h i j >add1 &&
	lines a b c NEW2 d e f g h i j >add2 &&
	check_merge add1 base add2 &&
	test $(cat actual-rc) = 1 &&
	check_merge add1 base add1 &&
	test $(cat actual-rc) = 0 &&
	lines a b c NEW1 MORE d e f g h i j >add3 &&
	check_merge add1 base add3 &&
	check_merge --diff3 add1 base add3
'

test_expect_success 'a deletion against an edit' '
	lines a c d e f g h i j >del &&
	lines a BB c d e f g h i j >edit &&
	check_merge del base edit &&
	test $(cat actual-rc) = 1 &&
	check_merge edit base del &&
	check_merge --diff3 del base edit &&
	lines a b c d e >short &&
	check_merge short base theirs
'

# Conflicts at most 3 lines apart, or apart by lines with no letter or
# digit, are one conflict.
test_expect_success 'conflicts narrow to the lines the sides disagree on' '
	lines a 1 2 3 4 5 6 7 8 9 z >nbase &&
	lines a 1 X 3 4 5 6 7 Y 9 z >nours &&
	lines a 1 P 3 4 5 6 7 Q 9 z >ntheirs &&
	check_merge nours nbase ntheirs &&
	test $(cat actual-rc) = 2 &&
	check_merge --diff3 nours nbase ntheirs &&
	lines a X "{" "}" - ";" Y z >pbase &&
	lines a X1 "{" "}" - ";" Y1 z >pours &&
	lines a X2 "{" "}" - ";" Y2 z >ptheirs &&
	check_merge pours pbase ptheirs &&
	test $(cat actual-rc) = 1 &&
	lines a X "{" "}" k ";" Y z >kbase &&
	lines a X1 "{" "}" k ";" Y1 z >kours &&
	lines a X2 "{" "}" k ";" Y2 z >ktheirs &&
	check_merge kours kbase ktheirs &&
	test $(cat actual-rc) = 2
'

test_expect_success 'no newline at the end' '
	printf "a\nb\nc" >nb &&
	printf "a\nb\nc\nd" >no &&
	printf "a\nB\nc" >nt &&
	check_merge no nb nt &&
	printf "a\nb\nC" >no2 &&
	printf "a\nb\nX" >nt2 &&
	check_merge no2 nb nt2 &&
	test $(cat actual-rc) = 1 &&
	check_merge --diff3 no2 nb nt2 &&
	printf "a\nb\nc\n" >nl &&
	check_merge nl nb nt
'

test_expect_success 'empty files' '
	: >empty &&
	check_merge empty empty empty &&
	test_must_fail test -s actual &&
	lines x >x && lines y >y &&
	check_merge x empty y &&
	check_merge empty base theirs &&
	check_merge --diff3 empty base theirs &&
	check_merge ours base empty &&
	check_merge empty empty x
'

test_expect_success 'CRLF lines: markers end as the lines do' '
	printf "a\r\nb\r\nc\r\n" >cb &&
	printf "a\r\nB\r\nc\r\n" >co &&
	printf "a\r\nX\r\nc\r\n" >ct &&
	check_merge co cb ct &&
	test_grep "^=======$(printf "\r")$" actual &&
	check_merge --diff3 co cb ct &&
	printf "a\nX\nc\n" >ct2 &&
	check_merge co cb ct2 &&
	test_grep "^=======$" actual &&
	printf "a\r\nB\r\nc" >co3 &&
	printf "a\r\nX\r\nc" >ct3 &&
	check_merge co3 cb ct3
'

test_expect_success 'the exit status counts conflicts, at most 127' '
	awk "BEGIN { for (i = 1; i <= 900; i++) print \"line \" i }" >big &&
	awk "{ print (NR % 6 ? \$0 : \"ours \" NR) }" big >bigo &&
	awk "{ print (NR % 6 ? \$0 : \"theirs \" NR) }" big >bigt &&
	check_merge bigo big bigt &&
	test $(cat actual-rc) = 127 &&
	test $(grep -c "^<<<<<<<" actual) = 150 &&
	awk "NR <= 60" big >b60 && awk "NR <= 60" bigo >o60 &&
	awk "NR <= 60" bigt >t60 &&
	check_merge o60 b60 t60 &&
	test $(cat actual-rc) = 10
'

test_expect_success 'binary files are refused, ours untouched' '
	printf "a\000b\n" >bin &&
	cp bin bin-before &&
	test_expect_code 128 merge-file bin base theirs 2>err &&
	test_grep "cannot merge binary files" err &&
	cmp bin bin-before &&
	test_expect_code 128 merge-file -p ours bin theirs 2>err &&
	test_expect_code 128 merge-file -p ours base bin 2>err
'

test_expect_success 'bad arguments' '
	test_expect_code 129 merge-file ours base 2>err &&
	test_grep "^usage: merge-file" err &&
	test_expect_code 129 merge-file -L a -L b -L c -L d ours base theirs \
		2>err &&
	test_grep "too many labels" err &&
	test_expect_code 129 merge-file --marker-size=x ours base theirs &&
	test_expect_code 129 merge-file --bogus ours base theirs &&
	test_expect_code 128 merge-file -p missing base theirs 2>err &&
	test_grep "missing" err &&
	mkdir dir &&
	test_expect_code 128 merge-file -p dir base theirs &&
	merge-file -h >out &&
	test_grep "^usage: merge-file" out
'

# Random cases from t/merge-triples.py: git's result byte for byte,
# clean or not, and git's exit status; the first half again in diff3
# style.  MERGE_SEED picks another set.
seed=${MERGE_SEED:-6000}
test_expect_success "random three-way merges as git's (seed $seed)" '
	mkdir random && (cd random &&
	python3 "$TEST_DIRECTORY/merge-triples.py" $seed 200 "$TOP" &&
	mkdir ours git &&
	n=0 &&
	for b in *.base; do
		i=${b%.base} &&
		for opt in "" --diff3; do
			[ -z "$opt" ] || [ $n -lt 100 ] || continue
			merge-file -p $opt $i.ours $i.base $i.theirs \
				>ours/$i$opt
			echo "$i$opt $?" >>ours/codes
			git merge-file -p $opt $i.ours $i.base $i.theirs \
				>git/$i$opt
			echo "$i$opt $?" >>git/codes
		done &&
		n=$((n + 1)) || return 1
	done) &&
	diff -r random/git random/ours &&
	test $(ls random/ours | wc -l) = 301 &&
	test $(grep -c " 0$" random/ours/codes) -ge 60 &&
	test $(grep -c " [1-9][0-9]*$" random/ours/codes) -ge 60
'

test_done
