#!/bin/sh
test_description='the porcelain in a git worktree (a .git gitfile, commondir)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

test_expect_success 'setup: a repository and a worktree git added' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	(cd r && echo a >a && dircache add a && dircache commit -m one >/dev/null) &&
	git --git-dir=r/.dircache worktree add -q "$PWD/wt" -b feat &&
	test -f wt/.git
'

test_expect_success 'status, add, commit and log in the worktree' '
	(cd wt && dircache status) >out &&
	test_grep "nothing to commit" out &&
	echo b >wt/b && (cd wt && dircache add b && dircache status -s) >out &&
	echo "A  b" >expect && test_cmp expect out &&
	(cd wt && dircache commit -m two) >id &&
	test "$(cat id)" = "$(git --git-dir=r/.dircache rev-parse feat)" &&
	test "$(git --git-dir=r/.dircache rev-parse master)" != "$(cat id)" &&
	(cd wt && dircache log --oneline) >out &&
	(cd wt && git log --oneline) >expect &&
	test_cmp expect out &&
	git --git-dir=r/.dircache fsck --strict >/dev/null
'

test_expect_success 'a subdirectory of the worktree finds its top' '
	mkdir -p wt/sub && (cd wt/sub && dircache log --oneline -n 1) >out &&
	(cd wt && git log --oneline -n 1) >expect &&
	test_cmp expect out
'

test_expect_success 'branch, tag and reset there use the shared refs' '
	(cd wt && dircache branch) >out &&
	printf "* feat\n  master\n" >expect && test_cmp expect out &&
	master=$(git --git-dir=r/.dircache rev-parse master) &&
	(cd wt && dircache tag t1 && dircache reset -q --hard $master) &&
	test -f r/.dircache/refs/tags/t1 &&
	test "$(git --git-dir=r/.dircache rev-parse feat)" = "$master" &&
	test -f r/.dircache/worktrees/wt/ORIG_HEAD &&
	! test -e wt/b &&
	(cd wt && git status --porcelain) >out &&
	! test -s out
'

test_done
