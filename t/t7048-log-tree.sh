#!/bin/sh
test_description='log-tree and dircache log against git log: merges, roots, odd paths and messages, path limiting'
. "$(dirname "$0")/test-lib.sh"

# git log as it runs by default: renames detected (diff.renames), as
# log-tree detects them.  Decorations are for terminals.
glog() {
	git -c log.decorate=false log "$@"
}

commit_at() {
	GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q "$@"
}

test_expect_success 'setup: two roots, merges, an evil merge, odd names' '
	git init -q r && cd r &&
	git config user.name "A U Thor" && git config user.email a@example.com &&
	seq 1 30 >a.txt && printf "one\ntwo\n" >"sp ace.txt" &&
	printf "x\n" >"$(printf "\303\274n\303\257.txt")" &&
	printf "\0bin" >bin && mkdir -p d/e && seq 1 5 >d/e/deep.c &&
	git add . && GIT_AUTHOR_DATE="1112911993 -0130" \
		GIT_COMMITTER_DATE="1112911993 -0130" git commit -q -m root &&
	seq 1 31 >a.txt && printf "\0bin2" >bin &&
	GIT_AUTHOR_DATE="1112912000 +0545" GIT_COMMITTER_DATE="1112912000 +0545" \
		git commit -q -a -m "two: a and bin" &&
	git branch side &&
	printf "one\nthree\n" >"sp ace.txt" &&
	GIT_AUTHOR_DATE="1112913000 +0000" GIT_COMMITTER_DATE="1112913000 +0000" \
		git commit -q -a -m "master: sp ace" &&
	git checkout -q side && printf "b\n" >b.txt && git add b.txt &&
	GIT_AUTHOR_DATE="1112914000 +0100" GIT_COMMITTER_DATE="1112914000 +0100" \
		git commit -q -m "side: b" &&
	seq 0 31 >a.txt &&
	GIT_AUTHOR_DATE="1112915000 +0100" GIT_COMMITTER_DATE="1112915000 +0100" \
		git commit -q -a -m "side: a" &&
	git checkout -q master &&
	GIT_AUTHOR_DATE="1112916000 +0200" GIT_COMMITTER_DATE="1112916000 +0200" \
		git merge -q --no-edit side &&
	git checkout -q --orphan other && git rm -rq --cached . &&
	printf "other\n" >x.txt && git add x.txt &&
	GIT_AUTHOR_DATE="1112910000 +0000" GIT_COMMITTER_DATE="1112910000 +0000" \
		git commit -q -m "another root" &&
	git checkout -q -f master &&
	GIT_AUTHOR_DATE="1112917000 +0000" GIT_COMMITTER_DATE="1112917000 +0000" \
		git merge -q --no-edit --no-commit --allow-unrelated-histories other &&
	echo evil >>d/e/deep.c && git add d/e/deep.c &&
	GIT_AUTHOR_DATE="1112917000 +0000" GIT_COMMITTER_DATE="1112917000 +0000" \
		git commit -q -m "evil merge" &&
	git mv a.txt moved.txt && ln -s moved.txt link &&
	git add link && chmod +x "sp ace.txt" && git add "sp ace.txt" &&
	GIT_AUTHOR_DATE="1112918000 -0800" GIT_COMMITTER_DATE="1112918000 -0800" \
		git commit -q -m "rename, symlink, mode" &&
	rm link && echo file >link && git add link &&
	GIT_AUTHOR_DATE="1112919000 +1400" GIT_COMMITTER_DATE="1112919000 +1400" \
		git commit -q -m "link becomes a file" &&
	GIT_AUTHOR_DATE="1112920000 +0000" GIT_COMMITTER_DATE="1112920000 +0000" \
		git commit -q --allow-empty -m "empty" &&
	tree=$(git write-tree) &&
	c=$(printf "\n\n  Subject with\tlead and tab  \ncontinued\n\n\tbody\twith tabs\ntrail   \n\n\n" |
		GIT_AUTHOR_NAME="N\303\266n Ascii" GIT_AUTHOR_DATE="1112921000 -0000" \
		GIT_COMMITTER_DATE="1112921000 +0000" \
		git commit-tree -p HEAD "$tree") &&
	git update-ref refs/heads/master "$c" &&
	seq 1 400 | sed "s/^/a long line of text /" >"sp ace.txt" &&
	long=$(printf "very/long/directory/name/%.0s" 1 2 3 4) &&
	mkdir -p "$long" && echo deep >"$long/file name.txt" &&
	git add . && GIT_AUTHOR_DATE="1112922000 +0000" \
		GIT_COMMITTER_DATE="1112922000 +0000" git commit -q -m "big change"
'

while read -r opts; do
	test_expect_success "log $opts: as git log" '
		(cd r && glog $opts) >expect &&
		(cd r && dircache log $opts) >out &&
		test_cmp expect out
	'
done <<'LIST'

--oneline
--stat
-p
--stat -p
-p --stat --oneline
--oneline --stat
--oneline -p
-n 3 --stat
-2 -p
--max-count=4 --oneline
side
side --oneline --stat
master~2 -p
side..master --oneline
^side master --stat
other --stat -p
-- a.txt
--oneline -- b.txt
--stat -- d
-p -- x.txt
--oneline -- moved.txt link
--stat -- bin
--oneline -- nothing-here
--stat -p -- very
side -p -- a.txt
--oneline -- d/
--stat -- d/e/deep.c
--oneline -- d/e a.txt/x link/
--oneline -- *.c
--oneline -- d/*
--oneline -- very/long/directory/name/very
LIST

test_expect_success 'paths with spaces and non-ASCII, as git' '
	u=$(printf "\303\274n\303\257.txt") &&
	(cd r && glog --stat -- "sp ace.txt" "$u") >expect &&
	(cd r && dircache log --stat -- "sp ace.txt" "$u") >out &&
	test_cmp expect out &&
	(cd r && glog -p -- "$u") >expect &&
	(cd r && dircache log -p -- "$u") >out &&
	test_cmp expect out
'

test_expect_success 'the diffstat fits COLUMNS, narrow and wide' '
	for c in 30 50 120 250; do
		(cd r && COLUMNS=$c glog --stat) >expect &&
		(cd r && COLUMNS=$c dircache log --stat) >out &&
		test_cmp expect out || return 1
	done
'

test_expect_success 'log-tree takes several tips and ranges, as git log' '
	(cd r && glog --oneline side other) >expect &&
	(cd r && log-tree --oneline side other) >out &&
	test_cmp expect out &&
	(cd r && glog --oneline master..side) >expect &&
	(cd r && log-tree --oneline master..side) >out &&
	test_cmp expect out
'

test_expect_success 'a merge the paths have from one parent is followed through it' '
	(cd r && glog --oneline -- "sp ace.txt") >expect &&
	(cd r && dircache log --oneline -- "sp ace.txt") >out &&
	test_cmp expect out &&
	test_grep "master: sp ace" out &&
	! grep "Merge branch" out
'

test_expect_success 'a merge that kept one side hides the other side' '
	(cd r && git checkout -q -b s2 side && echo s2 >"sp ace.txt" &&
	 git commit -q -a -m "s2: sp ace" && git checkout -q master &&
	 git merge -q -s ours --no-edit s2 &&
	 glog --oneline -- "sp ace.txt") >expect &&
	(cd r && dircache log --oneline -- "sp ace.txt") >out &&
	test_cmp expect out &&
	! grep "s2: sp ace" out &&
	(cd r && glog --oneline --stat -- "sp ace.txt" b.txt) >expect &&
	(cd r && dircache log --oneline --stat -- "sp ace.txt" b.txt) >out &&
	test_cmp expect out
'

test_expect_success 'colour: git log --color=always byte for byte' '
	(cd r && glog --color=always --stat -p -n 4) >expect &&
	(cd r && dircache log --color=always --stat -p -n 4) >out &&
	test_cmp expect out &&
	(cd r && glog --color=always --oneline) >expect &&
	(cd r && dircache log --color --oneline) >out &&
	test_cmp expect out
'

test_expect_success 'log-tree --color-patch colours a patch as git diff' '
	(cd r && echo "trailing  " >>moved.txt && echo "x	" >>b.txt &&
	 git diff --color=always) >expect &&
	(cd r && git diff | log-tree --color-patch) >out &&
	test_cmp expect out
'

test_expect_success 'a branch with no commit yet: git words, the porcelain name' '
	mkdir empty && (cd empty && dircache init 2>/dev/null &&
	 test_expect_code 128 dircache log 2>../err) &&
	test_grep "^dircache log: your current branch .master. does not have any commits yet" err &&
	(cd r && test_expect_code 128 dircache log master..nosuch 2>../err) &&
	test_grep "^dircache log: " err
'

test_expect_success 'bad arguments: usage or a bad revision' '
	(cd r && test_expect_code 129 log-tree --bogus &&
	 test_expect_code 129 log-tree -n x &&
	 test_expect_code 129 log-tree --color=sometimes &&
	 test_expect_code 128 log-tree no-such-rev) 2>err &&
	test_grep "bad revision" err
'

test_expect_success '--stat: lines added or removed in one place, as git counts' '
	git init -q ends &&
	(
		cd ends &&
		step() {
			printf "$2" >"$1" && git add "$1" &&
			git commit -q -m "$1: $2" || return 1
		} &&
		step f "a\nb\nc\n" && step f "a\nb\nc\nd\ne\n" &&
		step f "z\na\nb\nc\nd\ne\n" && step f "z\na\nb\nX\nc\nd\ne\n" &&
		step f "z\na\nc\nd\ne\n" && step f "z\na\nc\n" &&
		step f "z\na\nc" && step f "z\na\nc\n" && step f "z\na\nc\nq" &&
		step f "z\na\nc\nq\nr\n" && step f "" && step f "x\nx\nx\n" &&
		step f "x\nx\nx\nx\n" && step f "x\nx\n" && step f "ab\n" &&
		step f "ab\nab\n" && step f "x\nfoo\n" && step f "x\nbarfoo\n" &&
		step f "a\nb\n" && step f "a\nzb\nb\n" && step f "a\nzb\nb\nb" &&
		step f "a\nzb\nb\nb\nb" && step f "k\n\n\n" && step f "k\n\n\n\n" &&
		step f "k\n\n"
	) &&
	GIT_DIR=ends/.git COLUMNS=80 log-tree --stat >ours &&
	GIT_DIR=ends/.git COLUMNS=80 glog --stat >theirs &&
	test_cmp theirs ours &&
	GIT_DIR=ends/.git log-tree -p --stat >ours &&
	GIT_DIR=ends/.git glog -p --stat >theirs &&
	test_cmp theirs ours
'

test_done
