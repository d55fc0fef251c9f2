#!/bin/sh
test_description='dircache branch -d/-D, tag -d, tag options in any order, show'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-undo.sh"

test_expect_success 'setup: master, a merged and an unmerged branch' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	(cd r && echo a >a && dircache add a && dircache commit -m one >/dev/null &&
	 dircache branch merged && dircache branch un &&
	 dircache checkout un 2>/dev/null && echo u >u && dircache add u &&
	 dircache commit -m un >/dev/null && dircache checkout master 2>/dev/null &&
	 mkdir d && echo x >d/y && dircache add d &&
	 dircache commit -m "two

more" >/dev/null)
'

test_expect_success 'branch -v: names aligned, short id and subject, as git' '
	undo_copies r &&
	same_as_git branch -v &&
	same_as_git branch a-much-longer-name un &&
	same_as_git branch -v
'

test_expect_success 'branch -d of merged branches: as git' '
	undo_copies r &&
	same_as_git branch -d merged &&
	same_as_git branch
'

test_expect_success 'branch -d refuses an unmerged branch; -D deletes it' '
	undo_copies r &&
	same_as_git branch -d un &&
	(cd ours && dircache branch -d un 2>../err; :) &&
	test_grep "not fully merged" err &&
	test_grep "branch -D un" err &&
	same_as_git branch -D un
'

test_expect_success 'branch -d: the current branch and a missing one are refused' '
	undo_copies r &&
	same_as_git branch -d master &&
	same_as_git branch -d nosuch merged
'

test_expect_success 'branch -d deletes a packed branch' '
	undo_copies r &&
	git --git-dir=ours/.dircache pack-refs --all &&
	git --git-dir=theirs/.dircache pack-refs --all &&
	same_as_git branch -D un &&
	cp ours/.dircache/packed-refs ours.packed &&
	cp theirs/.dircache/packed-refs theirs.packed &&
	test_cmp theirs.packed ours.packed &&
	git --git-dir=ours/.dircache fsck --strict >/dev/null
'

test_expect_success 'tag -a v1 -m msg: options after the name, as git' '
	undo_copies r &&
	same_as_git tag v1 -a -m "the msg" &&
	same_as_git tag -m msg2 v2 HEAD &&
	same_as_git tag light &&
	(cd ours && git --git-dir=.dircache cat-file tag v1) >out &&
	(cd theirs && git --git-dir=.dircache cat-file tag v1) >expect &&
	test_cmp expect out &&
	same_as_git tag
'

test_expect_success 'tag -d, and a missing tag refused, as git' '
	undo_copies r &&
	(cd ours && dircache tag v1 && dircache tag -a -m x v2) &&
	(cd theirs && git --git-dir=.dircache tag v1 &&
	 git --git-dir=.dircache tag -a -m x v2) &&
	same_as_git tag -d v1 nosuch v2 &&
	same_as_git tag
'

test_expect_success 'show: a commit, --stat, --oneline, a tag, a tree, a blob' '
	(cd r && dircache tag -a -m "tag msg" v1 HEAD) &&
	tree=$(git --git-dir=r/.dircache rev-parse HEAD^{tree}) &&
	blob=$(git --git-dir=r/.dircache rev-parse HEAD:a) &&
	for args in "" "HEAD" "--stat" "--oneline un" "v1" "$tree" "$blob" \
		"v1 un master" "master master"; do
		(cd r && git --git-dir=.dircache show $args) >expect &&
		(cd r && dircache show $args) >out &&
		test_cmp expect out || return 1
	done
'

test_done
