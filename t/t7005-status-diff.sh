#!/bin/sh
test_description='dircache status and diff against git status -s and git diff'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# git status -s on our repository in $1 (git must not list .dircache).
git_status() {
	(cd "$1" && git --git-dir=.dircache --work-tree=. status -s)
}

status_matches() {
	(cd "$1" && dircache status -s) >ours &&
	git_status "$1" >theirs &&
	test_cmp theirs ours
}

test_expect_success 'setup: a repository with a commit' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	mkdir -p r/.dircache/info && echo /.dircache >r/.dircache/info/exclude &&
	mkdir -p r/d/e && echo a >r/d/e/a && echo b >r/b && echo c >r/c &&
	echo x >"r/sp ace" && printf "n\n" >"r/new
line" && echo keep >r/d/keep &&
	(cd r && dircache add . && dircache commit -m one >/dev/null)
'

test_expect_success 'a clean tree: nothing, as git' '
	status_matches r &&
	(cd r && dircache status) >out &&
	test_grep "nothing to commit" out
'

test_expect_success 'staged, changed, both, deleted, untracked, ignored' '
	echo m >>r/b && (cd r && dircache add b) && echo mm >>r/b &&
	rm r/c && echo z >>r/d/e/a && echo y >>"r/sp ace" &&
	echo "a new file" >r/newfile && (cd r && dircache add newfile) &&
	echo u >r/top && mkdir -p r/u/v && echo u >r/u/v/x &&
	echo t >r/d/untracked && printf "q\n" >"r/un
tracked" &&
	echo "*.o" >r/.gitignore && echo o >r/junk.o &&
	status_matches r
'

test_expect_success 'staged deletion, mode change and added-then-changed' '
	(cd r && dircache rm -f "new
line") &&
	chmod +x r/d/keep && (cd r && dircache add d/keep) &&
	echo more >>r/newfile && echo "and more" >>r/newfile &&
	status_matches r &&
	(cd r && dircache status) >out &&
	test_grep "^Changes to be committed:" out &&
	test_grep "^	new file:   newfile" out &&
	test_grep "^Untracked files:" out
'

test_expect_success 'unmerged paths after a conflicted pull: UU, AA, UD' '
	mkdir m && (cd m && dircache init 2>/dev/null) &&
	mkdir -p m/.dircache/info && echo /.dircache >m/.dircache/info/exclude &&
	printf "1\n2\n3\n" >m/both && echo gone >m/gone &&
	(cd m && dircache add . && dircache commit -m base >/dev/null) &&
	dircache clone m n 2>/dev/null &&
	mkdir -p n/.dircache/info && echo /.dircache >n/.dircache/info/exclude &&
	(cd m && printf "1\nm\n3\n" >both && echo m >added && echo m2 >>gone &&
	 dircache add . && dircache commit -m m >/dev/null) &&
	(cd n && printf "1\nn\n3\n" >both && echo n >added &&
	 dircache rm gone && dircache add . && dircache commit -m n >/dev/null) &&
	(cd n && test_expect_code 1 dircache pull origin 2>/dev/null) &&
	status_matches n &&
	(cd n && dircache status) >out &&
	test_grep "^Unmerged paths:" out &&
	test_grep "both modified:   both" out
'

test_expect_success 'status on an unborn branch' '
	mkdir fresh && (cd fresh && dircache init 2>/dev/null) &&
	mkdir -p fresh/.dircache/info && echo /.dircache >fresh/.dircache/info/exclude &&
	echo a >fresh/a && echo b >fresh/b && (cd fresh && dircache add a) &&
	status_matches fresh
'

test_expect_success 'diff: the work tree against the index, as git diff' '
	(cd r && dircache diff) >ours &&
	(cd r && git --git-dir=.dircache --work-tree=. diff) >theirs &&
	test_cmp theirs ours &&
	(cd r/d && dircache diff -- e) >ours &&
	(cd r && git --git-dir=.dircache --work-tree=. diff -- d/e) >theirs &&
	test_cmp theirs ours
'

test_expect_success 'diff <commit> <commit>, as git diff' '
	(cd r && dircache commit -a -m two >/dev/null) &&
	one=$(git_in r rev-parse HEAD^) && two=$(git_in r rev-parse HEAD) &&
	(cd r && dircache diff $one $two) >ours &&
	git_in r diff $one $two >theirs &&
	test_cmp theirs ours
'

test_expect_success 'diff --cached and diff <commit>, as git diff' '
	echo staged >>r/b && (cd r && dircache add b) && echo wt >>r/b &&
	one=$(git_in r rev-parse HEAD^) &&
	(cd r && dircache diff --cached) >ours &&
	(cd r && git --git-dir=.dircache --work-tree=. diff --cached) >theirs &&
	test_cmp theirs ours &&
	(cd r && dircache diff $one) >ours &&
	(cd r && git --git-dir=.dircache --work-tree=. diff $one) >theirs &&
	test_cmp theirs ours
'

test_expect_success 'diff --name-only and --name-status, every form, as git diff' '
	echo sp >"r/with space" && printf "q\n" >"r/tab	name" &&
	(cd r && dircache add "with space" "tab	name") &&
	echo more >>"r/with space" && rm r/b &&
	one=$(git_in r rev-parse HEAD^) &&
	for o in --name-only --name-status
	do
		for args in "" --cached "$one" "--cached $one" "$one HEAD" "-- d"
		do
			(cd r && dircache diff $o $args) >ours &&
			(cd r && git --git-dir=.dircache --work-tree=. diff $o $args) >theirs &&
			test_cmp theirs ours || return 1
		done
	done &&
	(cd r/d && dircache diff --name-only -- e) >ours &&
	(cd r && git --git-dir=.dircache --work-tree=. diff --name-only -- d/e) >theirs &&
	test_cmp theirs ours &&
	(cd r && test_expect_code 128 dircache diff --name-only nosuch 2>../err)
'

test_done
