#!/bin/sh
test_description='dircache diff --stat, --shortstat, --numstat against git diff, in all its forms'
. "$(dirname "$0")/test-lib.sh"

# git's defaults, rename detection included.
gdiff() {
	git diff "$@"
}

# compare ARGS...: each of the three forms, ours against git's.
compare() {
	for f in --stat --shortstat --numstat; do
		gdiff $f "$@" >expect &&
		dircache diff $f "$@" >actual &&
		test_cmp expect actual || return 1
	done
}

test_expect_success 'setup: a commit, then every kind of change' '
	git init -q r && cd r &&
	echo a >a && seq 1 100 >b && printf "\0bin" >c && mkdir d &&
	echo x >d/x && seq 1 50 >"sp ace" && echo gone >gone &&
	git add . && git commit -q -m one &&
	echo aa >>a && touch b && printf "\0bin2xx" >c &&
	seq 1 3 100 >d/x && chmod +x d/x && echo new >n && git add n &&
	seq 2 60 >"sp ace" && rm gone &&
	mkdir deep && seq 1 10 >deep/very-long-name-for-a-file-that-must-be-cut-down-by-the-stat.txt &&
	git add deep && echo more >>deep/very-long-name-for-a-file-that-must-be-cut-down-by-the-stat.txt
'

test_expect_success 'work tree against the index' '
	cd r && compare
'

test_expect_success 'the index against HEAD (--cached, --staged)' '
	cd r && compare --cached && compare --staged HEAD
'

test_expect_success 'the work tree against a tree' '
	cd r && compare HEAD
'

test_expect_success 'two trees, and paths' '
	cd r && git stash -q && echo z >z && git add z &&
	git commit -q -m two && git stash pop -q &&
	compare HEAD~1 HEAD && compare HEAD HEAD~1 &&
	compare HEAD~1 -- d "sp ace" && compare HEAD d && compare d
'

test_expect_success 'a touched file is no change; nothing changed prints nothing' '
	cd r && git stash -q && touch a b && compare && compare HEAD &&
	dircache diff --stat >actual && test_cmp /dev/null actual &&
	git stash pop -q
'

test_expect_success 'the width follows COLUMNS' '
	cd r && COLUMNS=40 compare HEAD && COLUMNS=200 compare HEAD
'

test_expect_success 'in colour: the bars and a binary file'"'"'s sizes, as git' '
	cd r && for f in --stat --shortstat --numstat ""; do
		gdiff $f --color=always HEAD >expect &&
		dircache diff $f --color HEAD >actual &&
		test_cmp expect actual || return 1
	done &&
	git -c diff.renames=false log --stat --color=always >expect &&
	dircache log --stat --color >actual && test_cmp expect actual &&
	grep "Bin .*bytes" actual
'

test_expect_success 'the last format option wins; unknown ones are usage' '
	cd r && git diff --stat >expect &&
	dircache diff --name-only --stat >actual && test_cmp expect actual &&
	git diff --name-only >expect &&
	dircache diff --stat --name-only >actual && test_cmp expect actual &&
	test_expect_code 129 dircache diff --stat=40
'

test_expect_success 'renames as git shows them: old => new, {a => b}/x' '
	git init -q ren && cd ren &&
	mkdir -p src/lib && seq 1 200 >src/lib/one && seq 300 500 >top &&
	git add . && git commit -q -m base &&
	git mv src/lib/one src/lib/two && git mv top moved &&
	echo changed >>moved && git add moved &&
	compare --cached && compare HEAD &&
	git commit -q -m renamed && compare HEAD~1 HEAD &&
	git diff --stat HEAD~1 HEAD >out && grep "=>" out &&
	compare --no-renames HEAD~1 HEAD
'

test_expect_success 'no temporary directory is left behind' '
	cd r && dircache diff --stat | head -n 1 >/dev/null &&
	! ls .git | grep tmp-
'

test_expect_success 'diff-stat refuses bad input' '
	cd r && printf "junk\0" | test_must_fail diff-stat 2>err &&
	grep "bad input" err &&
	test_expect_code 129 diff-stat --bogus
'

test_done
