#!/bin/sh
test_description='dircache reset against git reset'
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
	 dircache commit -m "two
continued

body" >../two) &&
	echo a3 >>r/a && echo s >r/staged && (cd r && dircache add staged) &&
	echo u >r/untracked && echo k2 >>r/d/k
'

for mode in "" --soft --mixed --hard; do
	test_expect_success "reset $mode to the first commit, as git" '
		undo_copies r &&
		same_as_git reset $mode $(cat one)
	'
	test_expect_success "reset $mode (HEAD), as git" '
		undo_copies r &&
		same_as_git reset $mode
	'
done

test_expect_success 'reset -q --hard prints nothing' '
	undo_copies r &&
	same_as_git reset -q --hard $(cat one)
'

test_expect_success 'reset <commit> -- <path> and reset <path>, as git' '
	undo_copies r &&
	same_as_git reset $(cat one) -- d a &&
	same_as_git reset -- staged nothing-there &&
	same_as_git reset n
'

test_expect_success 'reset in a subdirectory takes relative paths' '
	undo_copies r &&
	(cd ours/d && dircache reset $(cat ../../one) -- e) >out &&
	(cd theirs && git --git-dir=.dircache --work-tree=. \
		reset $(cat ../one) -- d/e) >expect &&
	test_cmp expect out &&
	undo_state ours >ours.state && undo_state theirs >theirs.state &&
	test_cmp theirs.state ours.state
'

test_expect_success 'reset --hard with paths is refused, nothing changed' '
	undo_copies r &&
	repo_state ours >before &&
	(cd ours && test_expect_code 128 dircache reset --hard HEAD -- a) &&
	(cd ours && test_expect_code 128 dircache reset --soft HEAD a) &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'a bad commit is refused, nothing changed' '
	undo_copies r &&
	repo_state ours >before &&
	(cd ours && test_expect_code 128 dircache reset --hard nosuch 2>../err) &&
	test_grep "nosuch" err &&
	(cd ours && test_expect_code 128 dircache reset --hard $(cat ../r/.dircache/refs/heads/master)^{tree}x) &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'a locked index: refused, refs unchanged' '
	undo_copies r &&
	: >ours/.dircache/index.lock &&
	repo_state ours >before &&
	(cd ours && test_must_fail dircache reset --hard $(cat ../one)) &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'reset --hard removes a file only the index had' '
	undo_copies r &&
	echo x >ours/x && echo x >theirs/x &&
	(cd ours && dircache add x) && git --git-dir=theirs/.dircache \
		--work-tree=theirs add x &&
	same_as_git reset --hard
'

test_expect_success 'reset-cache keeps the stat data of unchanged entries' '
	undo_copies r &&
	(cd ours && reset-cache $(cat ../one) &&
	 git --git-dir=.dircache ls-files --debug -- a d/k) >out &&
	grep -c "mtime: 0:0" out >count &&
	echo 1 >expect &&
	test_cmp expect count
'

test_done
