#!/bin/sh
test_description='pull, fetch and push default to the branch upstream git records'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

test_expect_success 'setup: a repository with two branches, cloned' '
	mkdir a && (cd a && dircache init 2>/dev/null) &&
	commit_line a file one &&
	(cd a && dircache branch side) &&
	commit_line a file two &&
	dircache clone a c 2>/dev/null
'

test_expect_success 'clone records the upstream as git clone does' '
	echo origin >expect &&
	git_in c config branch.master.remote >actual &&
	test_cmp expect actual &&
	echo refs/heads/master >expect &&
	git_in c config branch.master.merge >actual &&
	test_cmp expect actual
'

test_expect_success 'checkout of a remote branch with the config locked: refused, nothing changed' '
	: >c/.dircache/config.lock &&
	repo_state c >before &&
	(cd c && test_expect_code 128 dircache checkout side 2>../err) &&
	test_grep "config.lock exists" err &&
	repo_state c >after &&
	rm c/.dircache/config.lock &&
	test_cmp before after
'

test_expect_success 'checkout of a remote branch sets it as upstream' '
	(cd c && dircache checkout side 2>../err) &&
	test_grep "^branch .side. set up to track .origin/side.\.$" err &&
	test "$(git_in c config branch.side.remote)" = origin &&
	test "$(git_in c config branch.side.merge)" = refs/heads/side &&
	test "$(git_in c config branch.master.merge)" = refs/heads/master
'

test_expect_success 'pull with no argument merges the upstream, from a subdirectory' '
	(cd a && dircache checkout side 2>/dev/null) &&
	commit_line a s on-side &&
	(cd a && dircache checkout master 2>/dev/null) &&
	commit_line a m on-master &&
	mkdir -p c/sub &&
	(cd c/sub && dircache pull 2>/dev/null) &&
	test "$(git_in c rev-parse HEAD)" = "$(git_in a rev-parse side)" &&
	test "$(git_in c rev-parse refs/remotes/origin/master)" = \
		"$(git_in a rev-parse master)"
'

test_expect_success 'the upstream is read from the config, whatever the name' '
	git_in c config branch.side.merge refs/heads/master &&
	(cd c && dircache pull 2>/dev/null) &&
	git_in c rev-parse HEAD^2 >actual &&
	git_in a rev-parse master >expect &&
	test_cmp expect actual &&
	git_in c config branch.side.merge refs/heads/side
'

test_expect_success 'pull and push with no upstream: git message, nothing changed' '
	(cd c && dircache branch lone && dircache checkout lone 2>/dev/null) &&
	repo_state c >before &&
	(cd c && test_expect_code 1 dircache pull 2>../err) &&
	test_grep "^There is no tracking information for the current branch.$" err &&
	test_grep "dircache pull <remote> <branch>" err &&
	(cd c && test_expect_code 128 dircache push 2>../err) &&
	test_grep "current branch lone has no upstream branch" err &&
	test_grep "dircache push -u origin lone" err &&
	repo_state c >after &&
	test_cmp before after
'

test_expect_success 'push -u sets the upstream; then push and fetch need no argument' '
	(cd c && dircache push -u origin lone 2>../err) &&
	test_grep "branch .lone. set up to track .origin/lone.\." err &&
	test "$(git_in c config branch.lone.remote)" = origin &&
	test "$(git_in c config branch.lone.merge)" = refs/heads/lone &&
	commit_line c file on-lone &&
	(cd c && dircache push 2>/dev/null) &&
	test "$(git_in a rev-parse lone)" = "$(git_in c rev-parse lone)" &&
	commit_line a m more &&
	(cd c && dircache fetch 2>/dev/null) &&
	test "$(git_in c rev-parse refs/remotes/origin/master)" = \
		"$(git_in a rev-parse master)" &&
	git_in c config --list >config &&
	test "$(grep -c "^branch.lone.remote=" config)" = 1
'

test_expect_success 'branch from a remote branch tracks it; branch -d drops that' '
	rm -rf g && cp -R c g &&
	git_in g config remote.origin.url "$TRASH_DIRECTORY/a" &&
	git_in g config remote.origin.fetch "+refs/heads/*:refs/remotes/origin/*" &&
	(cd c && dircache branch topic origin/side 2>../err) &&
	test_grep "^branch .topic. set up to track .origin/side.\.$" err &&
	git --git-dir=g/.dircache branch -q topic origin/side &&
	git_in g config --get-regexp "^branch\.topic\." >expect &&
	git_in c config --get-regexp "^branch\.topic\." >actual &&
	test_cmp expect actual &&
	(cd c && dircache branch plain HEAD 2>../err) &&
	! test_grep "set up to track" err &&
	test_must_fail git_in c config branch.plain.remote &&
	(cd c && dircache branch -D topic >/dev/null) &&
	git --git-dir=g/.dircache branch -q -D topic &&
	git_in g config --get-regexp "^branch\." >expect &&
	git_in c config --get-regexp "^branch\." >actual &&
	test_cmp expect actual
'

test_expect_success 'a clone git made: its remote and upstream from the config' '
	git clone -q a/.dircache h &&
	(cd a && dircache checkout master 2>/dev/null) &&
	commit_line a m for-h &&
	(cd h && dircache pull 2>/dev/null) &&
	test "$(git -C h rev-parse HEAD)" = "$(git_in a rev-parse master)" &&
	test "$(git -C h rev-parse origin/master)" = "$(git_in a rev-parse master)"
'

test_expect_success 'pull on a detached HEAD with no argument: git message' '
	(cd c && git_in . rev-parse HEAD >../id) &&
	cp -R c d && cat id >d/.dircache/HEAD &&
	(cd d && test_expect_code 1 dircache pull 2>../err) &&
	test_grep "^You are not currently on a branch.$" err
'

test_done
