#!/bin/sh
test_description='read-tree -m with two trees: every row of git'"'"'s Two Tree Merge table'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-merge.sh"

# One path "p" goes through the rows; "keep" is in every tree and
# index, so that the index is never the "initial checkout" one unless a
# row says so.  H is the old tree, M the new one, I the index.
test_expect_success 'setup: blobs and trees' '
	setup_store && cd repo &&
	K=$(blob keep) && X=$(blob x-old) && Y=$(blob y-new) &&
	Z=$(blob z-local) &&
	T0=$(mk_tree "100644 $K	keep") &&
	TX=$(mk_tree "100644 $K	keep" "100644 $X	p") &&
	TY=$(mk_tree "100644 $K	keep" "100644 $Y	p") &&
	TZ=$(mk_tree "100644 $K	keep" "100644 $Z	p") &&
	TXE=$(mk_tree "100644 $K	keep" "100755 $X	p") &&
	TD=$(mk_tree "100644 $K	keep" "100644 $Y	p/q") &&
	for t in T0 TX TY TZ TXE TD
	do
		eval echo "\$$t" >../$t || return 1
	done
'

T0=$(cat T0) TX=$(cat TX) TY=$(cat TY) TZ=$(cat TZ) TXE=$(cat TXE) TD=$(cat TD)
DIRTY='echo a local change >p'
UNTRACKED='echo untracked >p'

# row NUMBER ok|fail INDEX ACTION H M DESCRIPTION: one case per option set.
row() {
	for opts in "-m" "-m -u"
	do
		test_expect_success "row $1 [$opts]: $7" "
			start $3 '$4' &&
			run_both $opts -- $5 $6 &&
			same_as_git $2
		"
	done
}

row 1 ok "$T0" "" "$T0" "$TY" "I, H missing, M exists: use M"
row 2 ok "$T0" "" "$TX" "$T0" "I, M missing, H exists: stays out"
row 3 ok noindex "" "$TX" "$TX" "initial checkout, H == M: use M"
row 3 ok "$T0" "" "$TX" "$TX" "I missing, H == M: keep the index"
row 3 fail "$T0" "" "$TX" "$TY" "I missing, H != M: refused"
row 3 ok noindex "" "$TX" "$TY" "initial checkout, H != M: use M"
row 4 ok "$TX" "" "$T0" "$T0" "H, M missing, clean: keep the index"
row 5 ok "$TX" "$DIRTY" "$T0" "$T0" "H, M missing, dirty: keep the index"
row 6 ok "$TY" "" "$T0" "$TY" "H missing, I == M, clean: keep the index"
row 7 ok "$TY" "$DIRTY" "$T0" "$TY" "H missing, I == M, dirty: keep the index"
row 8 fail "$TZ" "" "$T0" "$TY" "H missing, I != M, clean: refused"
row 9 fail "$TZ" "$DIRTY" "$T0" "$TY" "H missing, I != M, dirty: refused"
row 10 ok "$TX" "" "$TX" "$T0" "M missing, I == H, clean: removed"
row 11 fail "$TX" "$DIRTY" "$TX" "$T0" "M missing, I == H, dirty: refused"
row 12 fail "$TZ" "" "$TX" "$T0" "M missing, I != H, clean: refused"
row 13 fail "$TZ" "$DIRTY" "$TX" "$T0" "M missing, I != H, dirty: refused"
row 14 ok "$TZ" "" "$TX" "$TX" "H == M, clean: keep the index"
row 15 ok "$TZ" "$DIRTY" "$TX" "$TX" "H == M, dirty: keep the index"
row 16 fail "$TZ" "" "$TX" "$TY" "I, H, M all differ, clean: refused"
row 17 fail "$TZ" "$DIRTY" "$TX" "$TY" "I, H, M all differ, dirty: refused"
row 18 ok "$TY" "" "$TX" "$TY" "I == M, clean: keep the index"
row 19 ok "$TY" "$DIRTY" "$TX" "$TY" "I == M, dirty: keep the index"
row 20 ok "$TX" "" "$TX" "$TY" "I == H, clean: use M"
row 21 fail "$TX" "$DIRTY" "$TX" "$TY" "I == H, dirty: refused"
row 20 ok "$TX" "" "$TX" "$TXE" "a mode change, I == H, clean: use M"
row 21 fail "$TX" "chmod +x p" "$TX" "$TXE" "mode changed locally, I == H: refused"
row 20 ok "$TX" "" "$TX" "$TD" "file p becomes directory p"
row 20 ok "$TD" "" "$TD" "$TX" "directory p becomes file p"

test_expect_success 'an untracked file in the way: refused with -u, named' '
	start "$T0" "$UNTRACKED" &&
	run_both -m -u -- "$T0" "$TY" &&
	same_as_git fail &&
	test_grep "untracked working tree file .p. would be overwritten" ours.err
'

test_expect_success 'an untracked file in the way: no refusal without -u' '
	start "$T0" "$UNTRACKED" &&
	run_both -m -- "$T0" "$TY" &&
	same_as_git ok
'

test_expect_success 'an untracked file where a directory goes: refused with -u' '
	start "$T0" "$UNTRACKED" &&
	run_both -m -u -- "$T0" "$TD" &&
	same_as_git fail
'

test_expect_success 'an untracked file in a directory a file replaces: refused' '
	start "$TD" "echo stray >p/stray" &&
	run_both -m -u -- "$TD" "$TX" &&
	same_as_git fail
'

test_expect_success 'a refusal names the path and writes nothing' '
	start "$TX" "$DIRTY" &&
	run_both -m -u -- "$TX" "$TY" &&
	same_as_git fail &&
	test_grep "p" ours.err &&
	test ! -e ours/.dircache/index.lock
'

test_expect_success '-i: a dirty work tree is not looked at' '
	start "$TX" "$DIRTY" &&
	run_both -m -i -- "$TX" "$TY" &&
	same_as_git ok
'

test_expect_success '-u keeps the stat data: show-diff is clean after' '
	start "$TX" &&
	(cd ours && read-tree -m -u "$TX" "$TY" && show-diff >../sd) &&
	test ! -s sd &&
	(cd ours && gd diff-files --quiet)
'

test_done
