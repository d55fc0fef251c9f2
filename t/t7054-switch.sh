#!/bin/sh
test_description='dircache switch and checkout -b <new> <start>, as git switch'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-undo.sh"

test_expect_success 'setup: two branches apart' '
	mkdir r && (cd r && dircache init -q &&
	 echo a >a && echo b >b && dircache add a b && dircache commit -m one >/dev/null &&
	 dircache branch side &&
	 echo a2 >>a && dircache commit -a -m two >/dev/null)
'

test_expect_success 'switch <branch> with a local change carried, as git' '
	undo_copies r &&
	echo local >>ours/b && echo local >>theirs/b &&
	same_as_git switch side &&
	same_as_git switch side &&
	same_as_git switch master
'

test_expect_success 'switch -c <new> [<start>], checkout -b <new> <start>' '
	undo_copies r &&
	same_as_git switch -c topic &&
	same_as_git switch -c old side &&
	same_as_git switch master &&
	same_as_git checkout -b other side
'

test_expect_success 'switch refuses a file name and a lost change, changing nothing' '
	undo_copies r &&
	echo local >>ours/a &&
	undo_state ours >before &&
	(cd ours && test_expect_code 128 dircache switch a 2>../err) &&
	test_grep "invalid reference: a" err &&
	(cd ours && test_expect_code 128 dircache switch side 2>/dev/null) &&
	undo_state ours >after &&
	test_cmp before after
'

test_done
