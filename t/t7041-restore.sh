#!/bin/sh
test_description='dircache restore and checkout -- <path> against git'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-undo.sh"

test_expect_success 'setup: two commits, then local changes' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	echo a >r/a && echo b >r/b && mkdir -p r/d/e && echo c >r/d/e/c &&
	echo k >r/d/k &&
	(cd r && dircache add . && dircache commit -m one >../one) &&
	echo a2 >>r/a && rm r/b && echo n >r/n && echo c2 >>r/d/e/c &&
	(cd r && dircache add a n d && dircache rm b &&
	 dircache commit -m two >../two) &&
	echo a3 >>r/a && echo s >r/staged && (cd r && dircache add staged) &&
	echo s2 >>r/staged && echo c3 >>r/d/e/c && echo k2 >>r/d/k &&
	rm r/n && (cd r && dircache add d/k) && echo k3 >>r/d/k
'

for args in "a" "d" "." "-- a d/e" "--staged staged d" "-S -W d n" \
	"--source=$(cat one) ." "-s $(cat one) n b" \
	"--staged --worktree --source=$(cat one) ." \
	"--source $(cat one) --staged d/k a" "nosuch" "a nosuch" \
	"--staged nosuch"; do
	test_expect_success "restore $args, as git" '
		undo_copies r &&
		same_as_git restore $args
	'
done

for args in "-- a" "-- d n" "-- ." "$(cat one) -- ." "$(cat one) -- d b" \
	"$(cat one) d b" "a" "$(cat two) -- nosuch a" "-- nosuch"; do
	test_expect_success "checkout $args, as git" '
		undo_copies r &&
		same_as_git checkout $args
	'
done

test_expect_success 'restore and checkout in a subdirectory' '
	undo_copies r &&
	(cd ours/d && dircache restore e && dircache checkout -- k) &&
	(cd theirs/d && git --git-dir=../.dircache --work-tree=.. restore e &&
	 git --git-dir=../.dircache --work-tree=.. checkout -- k) &&
	undo_state ours >ours.state && undo_state theirs >theirs.state &&
	test_cmp theirs.state ours.state
'

test_expect_success 'a path that names nothing changes nothing' '
	undo_copies r &&
	repo_state ours >before &&
	(cd ours && test_expect_code 1 dircache restore d nosuch 2>../err &&
	 test_expect_code 1 dircache checkout $(cat ../one) -- n 2>>../err) &&
	test_grep "pathspec .nosuch. did not match" err &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'checkout <branch> still switches branches' '
	undo_copies r &&
	(cd ours && dircache reset -q --hard && dircache branch side $(cat ../one) &&
	 dircache checkout side 2>../err) &&
	test_grep "Switched to branch .side." err &&
	test "$(sed -n 1p ours/.dircache/HEAD)" = "ref: refs/heads/side"
'

test_done
