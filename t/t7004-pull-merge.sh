#!/bin/sh
test_description='dircache pull: three-way merges, clean and conflicted, against git'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

test_expect_success 'setup: an origin and a clone that both go on' '
	mkdir a && (cd a && dircache init 2>/dev/null) &&
	printf "1\n2\n3\n4\n5\n6\n7\n8\n9\n" >a/lines &&
	echo keep >a/keep && echo gone >a/gone && echo "s p" >"a/sp ace" &&
	(cd a && dircache add . && dircache commit -m base >/dev/null) &&
	dircache clone a b 2>/dev/null &&
	(cd a && sed -i "s/^2$/two/" lines && echo theirs >a-new &&
	 dircache add a-new && dircache rm gone &&
	 dircache commit -a -m "a side" >/dev/null) &&
	(cd b && sed -i "s/^8$/eight/" lines && echo ours >"b new" &&
	 dircache add "b new" && dircache commit -a -m "b side" >/dev/null)
'

test_expect_success 'a clean merge: a commit with two parents, git merge-tree agrees' '
	ours=$(cat b/.dircache/refs/heads/master) &&
	theirs=$(cat a/.dircache/refs/heads/master) &&
	(cd b && dircache pull origin 2>../err) &&
	test_grep "Merge made" err &&
	head=$(cat b/.dircache/refs/heads/master) &&
	printf "%s %s\n" $ours $theirs >expect &&
	git_in b log -1 --format="%P" $head >actual &&
	test_cmp expect actual &&
	git_in b log -1 --format=%s $head >msg &&
	test_grep "^Merge branch .master. of " msg &&
	git_in b merge-tree --write-tree $ours $theirs >want &&
	git_in b rev-parse $head^{tree} >got &&
	test_cmp want got &&
	printf "1\ntwo\n3\n4\n5\n6\n7\neight\n9\n" >expect &&
	test_cmp expect b/lines &&
	test "$(cat b/a-new)" = theirs && test_must_fail test -e b/gone &&
	(cd b && show-diff -q) &&
	test_must_fail test -e b/.dircache/MERGE_HEAD &&
	git_accepts b
'

test_expect_success 'push the merge back: the origin fast-forwards' '
	printf "[receive]\n\tdenyCurrentBranch = ignore\n" >>a/.dircache/config &&
	(cd b && dircache push origin 2>/dev/null) &&
	test "$(cat a/.dircache/refs/heads/master)" = "$(cat b/.dircache/refs/heads/master)" &&
	(cd a && read-tree -m -u $(cat .dircache/refs/heads/master) && show-diff -q) &&
	cmp a/lines b/lines &&
	git_accepts a
'

test_expect_success 'a conflicted merge stops, lists the path, commit finishes it' '
	(cd a && sed -i "s/^5$/five-a/" lines && dircache commit -a -m "a five" >/dev/null) &&
	(cd b && sed -i "s/^5$/five-b/" lines && dircache commit -a -m "b five" >/dev/null) &&
	ours=$(cat b/.dircache/refs/heads/master) &&
	theirs=$(cat a/.dircache/refs/heads/master) &&
	(cd b && test_expect_code 1 dircache pull origin 2>../err) &&
	test_grep "fix the conflicts" err &&
	test_grep "	lines" err &&
	test_grep "^<<<<<<< " b/lines && test_grep "^>>>>>>> " b/lines &&
	test "$(cat b/.dircache/refs/heads/master)" = $ours &&
	test "$(cat b/.dircache/MERGE_HEAD)" = $theirs &&
	git_in b ls-files -u >unmerged &&
	test $(wc -l <unmerged) = 3 &&
	(cd b && test_expect_code 128 dircache commit 2>/dev/null) &&
	printf "1\ntwo\n3\n4\nfive\n6\n7\neight\n9\n" >b/lines &&
	(cd b && dircache add lines && dircache commit >/dev/null) &&
	printf "%s %s\n" $ours $theirs >expect &&
	git_in b log -1 --format="%P" >actual &&
	test_cmp expect actual &&
	test_must_fail test -e b/.dircache/MERGE_HEAD &&
	git_accepts b
'

test_expect_success 'local changes in the way of a merge: refused, nothing lost' '
	(cd a && echo more >>keep && dircache commit -a -m "a keep" >/dev/null) &&
	(cd b && echo other >>"sp ace" && dircache commit -a -m "b space" >/dev/null) &&
	echo "uncommitted" >>b/keep &&
	state=$(repo_state b) &&
	(cd b && test_expect_code 128 dircache pull origin 2>../err) &&
	test_grep "local changes would be lost" err &&
	test "$(repo_state b | grep -v "^./.dircache/objects\|refs/remotes")" = \
	     "$(printf "%s\n" "$state" | grep -v "^./.dircache/objects\|refs/remotes")" &&
	test_grep uncommitted b/keep
'

test_expect_success 'git log reads our merged history as ours was made' '
	git_in b log --format="%H %P %s" >actual &&
	test $(grep -c "^[0-9a-f]* [0-9a-f]* [0-9a-f]* Merge" actual) = 2
'

test_expect_success 'dircache log equals git log, with merges, -n and -p' '
	(cd b && dircache log) >ours && git_in b log >theirs &&
	test_cmp theirs ours &&
	(cd b && dircache log -n 3 -p) >ours && git_in b log -n 3 -p >theirs &&
	test_cmp theirs ours &&
	(cd b && dircache log -p) >ours && git_in b log -p >theirs &&
	test_cmp theirs ours &&
	p=$(git_in b rev-parse HEAD^) && (cd b && dircache log -n2 $p) >ours && git_in b log -n2 $p >theirs &&
	test_cmp theirs ours
'

test_expect_success 'log dates in every zone and era, as git shows them' '
	mkdir dates && (cd dates && dircache init 2>/dev/null) &&
	for d in "0 +0000" "1112911993 +0530" "951782400 -1200" \
		"951868799 +1400" "4102444800 -0930" "1709251199 +0000" \
		"2147483648 +0100"; do
		echo "$d" >>dates/f &&
		(cd dates && dircache add f &&
		 GIT_AUTHOR_DATE="$d" dircache commit -m "at $d" >/dev/null) ||
		return 1
	done &&
	(cd dates && dircache log) >ours && git_in dates log >theirs &&
	test_cmp theirs ours
'

test_done
