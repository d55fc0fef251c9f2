#!/bin/sh
test_description='merge-cache: the program, its arguments and its failures as git merge-index'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-merge.sh"

# An index with unmerged paths of every shape: all three stages, no
# base, no ours, no theirs; and merged paths between them.
test_expect_success 'setup: an unmerged index' '
	setup_store && cd repo &&
	A=$(blob a) && B=$(blob b) && C=$(blob c) &&
	base=$(mk_tree "100644 $A	all3" "100644 $A	no-ours" \
		"100644 $A	no-theirs" "100644 $A	merged" "100644 $A	sub/x") &&
	ours=$(mk_tree "100755 $B	all3" "100644 $B	no-base" \
		"100644 $B	no-theirs" "100644 $A	merged" "100644 $B	sub/x") &&
	theirs=$(mk_tree "100644 $C	all3" "100644 $C	no-base" \
		"100644 $C	no-ours" "100644 $A	merged" "100644 $C	sub/x") &&
	read-tree -m "$base" "$ours" "$theirs" &&
	cp .dircache/index ../unmerged &&
	cat >../record <<-\EOS &&
	#!/bin/sh
	echo "$# args: [$1] [$2] [$3] [$4] [$5] [$6] [$7]" >>"$LOG"
	case "$4" in
	$FAIL) exit 3 ;;
	esac
	exit 0
	EOS
	chmod +x ../record
'

# both OPTIONS...: merge-cache and git merge-index, same program and
# index; logs, statuses and indexes compared.
both() {
	cp unmerged repo/.dircache/index &&
	(cd repo && LOG=../ours.log merge-cache "$@" 2>../ours.err; echo $? >../ours.rc) &&
	cp unmerged repo/.dircache/index &&
	(cd repo && LOG=../gits.log gd merge-index "$@" 2>../gits.err; echo $? >../gits.rc) &&
	test_cmp gits.log ours.log &&
	test_cmp gits.rc ours.rc
}

test_expect_success '-a: every unmerged path, seven arguments each' '
	rm -f ours.log gits.log && FAIL=none && export FAIL &&
	both "$TRASH_DIRECTORY/record" -a &&
	test "$(cat ours.rc)" = 0 &&
	test "$(wc -l <ours.log)" = 5 &&
	test_grep "^7 args: \[\] \[[0-9a-f]*\] \[[0-9a-f]*\] \[no-base\] \[\] \[100644\] \[100644\]$" ours.log
'

test_expect_success 'paths: the named ones, a merged one skipped, -- before a dash' '
	rm -f ours.log gits.log && FAIL=none && export FAIL &&
	both "$TRASH_DIRECTORY/record" merged no-ours -- sub/x &&
	test "$(wc -l <ours.log)" = 2
'

test_expect_success 'a path not in the index: refused as git' '
	rm -f ours.log gits.log && FAIL=none && export FAIL &&
	touch ours.log gits.log &&
	both "$TRASH_DIRECTORY/record" nosuch &&
	test "$(cat ours.rc)" = 128 &&
	test_grep "nosuch" ours.err
'

for opts in "" "-o" "-q" "-o -q"
do
	test_expect_success "a failing program [$opts]: status and paths as git" "
		rm -f ours.log gits.log && FAIL='no-base|no-theirs' && export FAIL &&
		both $opts \"\$TRASH_DIRECTORY/record\" -a
	"
done

test_expect_success 'without -o the first failure stops; -o goes on' '
	rm -f ours.log gits.log && FAIL=no-base && export FAIL &&
	both "$TRASH_DIRECTORY/record" -a &&
	test "$(wc -l <ours.log)" = 2 &&
	test_grep "merge program failed" ours.err &&
	rm -f ours.log gits.log &&
	both -o "$TRASH_DIRECTORY/record" -a &&
	test "$(wc -l <ours.log)" = 5
'

test_expect_success 'usage' '
	test_expect_code 129 merge-cache 2>err &&
	test_grep "^usage: merge-cache \[-o\] \[-q\] <program> (-a | \[--\] <path>...)$" err &&
	test_expect_code 129 merge-cache -x prog -a &&
	merge-cache -h >out && test_grep "^usage: merge-cache" out
'

test_done
