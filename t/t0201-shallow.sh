#!/bin/sh
test_description='shallow clones: the shallow commits have no parents, as in git'
. "$(dirname "$0")/test-lib.sh"

# same TOOL ARGS...: our TOOL and git's, same output and exit status.
same() {
	_tool=$1
	shift
	$_tool "$@" >../ours 2>../ours.err
	echo $? >>../ours
	git $_tool "$@" >../theirs
	echo $? >>../theirs
	test_cmp ../theirs ../ours
}

test_expect_success 'setup: a history of six commits, cloned 3 deep' '
	git init -q origin && cd origin &&
	for i in 1 2 3 4 5 6; do
		mkdir -p d$i && echo $i >d$i/f && echo $i >>top &&
		git add . &&
		GIT_COMMITTER_DATE="$((1112912053 + i * 60)) -0700" \
			git commit -q -m "commit $i" || return 1
	done &&
	git tag -a -m "a tag" v5 HEAD~1 &&
	git branch side HEAD~2 &&
	cd .. &&
	git clone -q --depth 3 --no-local --no-single-branch origin sh &&
	test -s sh/.git/shallow
'

test_expect_success 'rev-list stops at the shallow commits, as git' '
	cd sh &&
	same rev-list HEAD &&
	same rev-list --parents HEAD &&
	same rev-list --topo-order --parents HEAD &&
	same rev-list --all &&
	same rev-list --objects --all &&
	same rev-list HEAD ^refs/remotes/origin/side
'

test_expect_success 'merge-base sees the shallow commits as roots' '
	cd sh &&
	same merge-base HEAD refs/remotes/origin/side &&
	same merge-base --all HEAD refs/remotes/origin/side
'

test_expect_success 'fsck-cache finds nothing missing, as git' '
	cd sh &&
	fsck-cache >../ours 2>&1 &&
	git fsck >../theirs 2>&1 &&
	test_cmp ../theirs ../ours &&
	fsck-cache --strict HEAD
'

test_expect_success 'without the shallow file the parents are missing' '
	cp -R sh noshallow && cd noshallow &&
	rm .git/shallow &&
	test_must_fail rev-list HEAD >/dev/null 2>&1 &&
	test_must_fail git rev-list HEAD >/dev/null 2>&1 &&
	test_expect_code 2 fsck-cache >/dev/null 2>&1
'

test_expect_success 'a worktree of a shallow clone reads the common shallow' '
	cd sh &&
	git worktree add -q ../sh-wt origin/side &&
	cd ../sh-wt &&
	same rev-list HEAD &&
	same rev-list --parents --all &&
	fsck-cache
'

test_done
