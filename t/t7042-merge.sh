#!/bin/sh
test_description='dircache merge, merge --abort and --continue against git'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-undo.sh"

test_expect_success 'setup: two branches that conflict in f' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	printf "1\n2\n3\n" >r/f && echo o >r/other && echo g >r/gone &&
	(cd r && dircache add . && dircache commit -m base >/dev/null &&
	 dircache branch side &&
	 printf "1\nM\n3\n" >f && dircache commit -a -m master >/dev/null &&
	 dircache checkout side 2>/dev/null &&
	 printf "1\nS\n3\n" >f && echo new >added && dircache add f added &&
	 dircache rm gone && dircache commit -m side >/dev/null &&
	 dircache checkout master 2>/dev/null) &&
	echo local >>r/other
'

test_expect_success 'a conflicted merge: MERGE_HEAD, ORIG_HEAD and stages as git' '
	undo_copies r &&
	(cd ours && test_expect_code 1 dircache merge side 2>../err) &&
	test_grep "fix the conflicts" err &&
	test_grep "	f" err &&
	(cd theirs && test_expect_code 1 git --git-dir=.dircache --work-tree=. \
		merge side >/dev/null) &&
	undo_state ours | sed "/^\.\/f /d" >ours.state &&
	undo_state theirs | sed "/^\.\/f /d" >theirs.state &&
	test_cmp theirs.state ours.state &&
	cp -R ours merged
'

test_expect_success 'merge --abort: the pre-merge state, local change kept' '
	rm -rf theirs && cp -R merged theirs && rm -rf ours && cp -R merged ours &&
	# a copy has new stat data: git would call every file changed
	(cd theirs && git --git-dir=.dircache --work-tree=. update-index \
		-q --refresh >/dev/null; :) &&
	same_as_git merge --abort &&
	test_grep local ours/other &&
	! test -e ours/.dircache/MERGE_HEAD
'

test_expect_success 'merge --abort with nothing to abort: refused as git' '
	undo_copies r &&
	repo_state ours >before &&
	(cd ours && test_expect_code 128 dircache merge --abort 2>../err) &&
	test_grep "no merge to abort" err &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'merge --abort refuses a merged path changed since' '
	rm -rf ours && cp -R merged ours &&
	echo more >>ours/added &&
	repo_state ours >before &&
	(cd ours && test_expect_code 128 dircache merge --abort 2>../err) &&
	test_grep "added" err &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'a second merge is refused while one is in progress' '
	rm -rf ours && cp -R merged ours &&
	repo_state ours >before &&
	(cd ours && test_expect_code 128 dircache merge side 2>../err) &&
	test_grep "MERGE_HEAD exists" err &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'commit (and commit -a) refuse unmerged paths, nothing changed' '
	rm -rf ours && cp -R merged ours &&
	repo_state ours >before &&
	(cd ours && test_expect_code 128 dircache commit -m x 2>../err &&
	 test_expect_code 128 dircache commit -a -m x 2>>../err) &&
	test_grep "unmerged" err && test_grep "	f$" err &&
	! test_grep "write-tree" err &&
	repo_state ours >after &&
	test_cmp before after
'

test_expect_success 'merge --continue commits the resolution with both parents' '
	rm -rf ours && cp -R merged ours &&
	(cd ours && printf "1\nMS\n3\n" >f && dircache add f &&
	 dircache merge --continue >/dev/null) &&
	git --git-dir=ours/.dircache log -1 --format="%P %s" >out &&
	echo "$(cat r/.dircache/refs/heads/master) $(cat r/.dircache/refs/heads/side) Merge branch '"'side'"'" >expect &&
	test_cmp expect out
'

test_expect_success 'a fast-forward: ORIG_HEAD, index and files as git' '
	undo_copies r &&
	base=$(git --git-dir=r/.dircache rev-parse master^) &&
	(cd ours && dircache checkout -b tmp 2>/dev/null &&
	 dircache reset -q --hard $base &&
	 dircache merge master 2>../err) &&
	test_grep "Fast-forward" err &&
	(cd theirs && git --git-dir=.dircache --work-tree=. checkout -q -b tmp &&
	 git --git-dir=.dircache --work-tree=. reset -q --hard $base &&
	 git --git-dir=.dircache --work-tree=. merge -q master) &&
	undo_state ours >ours.state && undo_state theirs >theirs.state &&
	test_cmp theirs.state ours.state
'

test_done
