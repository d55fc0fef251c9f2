#!/bin/sh
test_description='rename detection (-M) in diff-tree, log and show, as git'"'"'s'
. "$(dirname "$0")/test-lib.sh"

# A history made with git where every commit renames something: exact
# renames (one candidate, several, across directories, with a mode
# change, symlinks, empty files), renames with edits (text, CRLF text,
# binary), pairs below the threshold, a unique basename paired before
# a better match elsewhere, ties broken by basename, a copy-like add,
# quoted names.  Our output must be git's, byte for byte.

commit() {
	GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000" \
		git commit -q -m "$2"
}

# lines FIRST LAST TAG: numbered lines of text, one file's content
lines() {
	seq "$1" "$2" | sed "s/^/$3 line number /"
}

test_expect_success 'setup: a history of renames' '
	git init -q r && cd r &&
	git config user.name "A U Thor" && git config user.email a@example.com &&
	mkdir -p d p q sub dir1 m n &&
	lines 1 50 a >a && lines 1 60 b >b && lines 1 200 c >c &&
	lines 1 30 x >d/x && lines 1 40 same >p/first && cp p/first q/same &&
	lines 1 90 swap >swap &&
	w=$(printf "w%.0s" $(seq 1 150)) && seq 1 30 | sed "s/\$/ $w/" >long &&
	printf "bin\0ary %s\n" $(seq 1 300) >bin1 &&
	lines 1 80 crlf | sed "s/\$/\r/" >crlf.txt &&
	: >empty && ln -s a link && lines 1 20 m >mode.sh &&
	lines 1 100 util >dir1/util.c &&
	{ lines 1 95 util; lines 1 5 other; } >other.c &&
	lines 1 50 kept >kept && lines 1 70 gone >gone &&
	lines 1 40 tie >tie1 && cp tie1 tie2 && cp tie1 m/one && cp tie1 n/two &&
	git add . && commit 1112911000 root &&

	git mv a z && git mv d/x sub/x && chmod +x mode.sh &&
	git mv mode.sh mode2.sh && git add mode2.sh &&
	git mv link link2 && git mv empty empty2 &&
	commit 1112912000 "exact renames" &&

	git mv c c2 && lines 1 40 c >c2 && lines 41 200 c | sed "s/^/ed /" |
		head -20 >>c2 && lines 61 200 c >>c2 &&
	git mv b b2 && lines 1 60 other >b2 &&
	sed "s/line number 1\r/LINE 1\r/" crlf.txt >crlf2.txt &&
	{ lines 46 90 swap; lines 1 45 swap; } >swap2 && git rm -q swap &&
	sed "s/^1/X/" long >long2 && git rm -q long && git add long2 &&
	git rm -q crlf.txt && git add crlf2.txt b2 c2 swap2 &&
	commit 1112913000 "renames with edits" &&

	mkdir r s && cp p/first r/same && cp r/same s/same &&
	cp r/same s/zz-other && git rm -q p/first q/same && git add r s &&
	commit 1112914000 "several candidates" &&

	cp kept copy-of-kept && git add copy-of-kept && git rm -q gone &&
	printf "bin\0ary %s\n" $(seq 1 290) >bin2 && git rm -q bin1 &&
	git add bin2 && commit 1112915000 "a copy-like add, binary" &&

	mkdir dir2 && { lines 1 95 util; lines 1 4 other; echo new; } >dir2/util.c &&
	git rm -q dir1/util.c other.c && git add dir2 &&
	commit 1112916000 "basename first" &&

	{ lines 1 30 tie; echo new; } >"tie 3" && { lines 1 30 tie; echo new; } >tie1x &&
	mkdir a b && { lines 1 30 tie; echo new; } >a/two && cp a/two b/one &&
	git rm -q tie1 tie2 m/one n/two && git add "tie 3" tie1x a b &&
	u=$(printf "\303\274") && mkdir "$u" && git mv kept "$u/kept" &&
	commit 1112917000 "ties and quoted names" &&

	mkdir -p deep/a/b && git mv sub deep/a/b/sub && git mv z deep/z &&
	commit 1112918000 "into directories"
'

# both CMD...: git's output and ours must be the same bytes.
both() {
	git "$@" >expect &&
	"$@" >out &&
	test_cmp expect out
}

test_expect_success 'diff-tree -r -M: each commit, raw, as git' '
	cd r &&
	for c in $(git rev-list HEAD~7..HEAD); do
		both diff-tree -r -M $c~ $c || return 1
	done &&
	grep R100 expect
'

while read -r opts; do
	test_expect_success "diff-tree $opts: each commit as git" '
		cd r &&
		for c in $(git rev-list HEAD~7..HEAD); do
			both diff-tree $opts $c~ $c || return 1
		done
	'
done <<'LIST'
-r -M -p
-r -M -z
-M
-r -M30%
-r -M90
-r --find-renames=75
-r --find-renames
-r -M100%
-r -M -p --binary
-r -M --abbrev=7
-r --no-renames
-r -M -p --full-index
LIST

test_expect_success 'diff-tree -M finds renames, without -M none' '
	cd r &&
	diff-tree -r -M HEAD~6 HEAD~5 >out &&
	grep "D	b\$" out && grep "A	b2\$" out &&
	grep "R0[0-9][0-9]	c	c2\$" out &&
	grep "R0[0-9][0-9]	crlf.txt	crlf2.txt\$" out &&
	grep "R100	swap	swap2\$" out &&
	grep "R0[0-9][0-9]	long	long2\$" out &&
	diff-tree -r HEAD~6 HEAD~5 >out &&
	! grep R out
'

test_expect_success 'a unique basename is paired first; ties go by basename' '
	cd r &&
	diff-tree -r -M HEAD~3 HEAD~2 >out &&
	grep "R0[0-9][0-9]	dir1/util.c	dir2/util.c\$" out &&
	grep "D	other.c\$" out &&
	diff-tree -r -M HEAD~2 HEAD~1 >out &&
	grep "R074	n/two	a/two\$" out && grep "R074	m/one	b/one\$" out &&
	diff-tree -r -M HEAD~5 HEAD~4 >out &&
	grep "R100	q/same	r/same\$" out && grep "R100	p/first	s/same\$" out &&
	grep "A	s/zz-other\$" out
'

test_expect_success 'diff-tree -M over the whole history, and with paths' '
	cd r &&
	both diff-tree -r -M HEAD~7 HEAD &&
	both diff-tree -r -M -p HEAD~7 HEAD &&
	both diff-tree -r -M HEAD~7 HEAD -- dir1 dir2 &&
	both diff-tree -r -M HEAD~5 HEAD~4 -- s &&
	git rev-list HEAD >list &&
	git diff-tree -r -M --stdin <list >expect &&
	diff-tree -r -M --stdin <list >out &&
	test_cmp expect out
'

test_expect_success 'a bad -M argument is refused' '
	cd r &&
	test_expect_code 128 diff-tree -r -Mx HEAD~ HEAD 2>err &&
	grep "invalid argument" err
'

test_expect_success 'diff.renameLimit: exact renames only past it, and a warning' '
	cd r &&
	git -c diff.renameLimit=1 diff-tree -r -M HEAD~6 HEAD~5 >expect 2>experr &&
	git config diff.renameLimit 1 &&
	diff-tree -r -M HEAD~6 HEAD~5 >out 2>err &&
	git config --unset diff.renameLimit &&
	test_cmp expect out &&
	sed "s/^diff-tree: //" err >err.git &&
	test_cmp experr err.git && grep "at least [0-9]* and retry" err &&
	grep "A	c2\$" out
'

while read -r opts; do
	test_expect_success "log $opts: as git log" '
		cd r &&
		git -c log.decorate=false log $opts >expect &&
		dircache log $opts >out &&
		test_cmp expect out
	'
done <<'LIST'
--stat
-p
--stat -p
--oneline --stat
--stat -M90%
-p --find-renames=30
--stat --no-renames
-p --no-renames
--stat -- dir1 dir2
--stat -- s
-p -- z deep
LIST

test_expect_success 'diff.renames=false: log shows deletions and additions' '
	cd r &&
	git -c diff.renames=false -c log.decorate=false log --stat >expect &&
	git config diff.renames false &&
	log-tree --stat >out &&
	git config --unset diff.renames &&
	test_cmp expect out &&
	! grep "=>" out
'

test_expect_success 'show: a rename commit as git show' '
	cd r &&
	for c in HEAD HEAD~1 HEAD~3 HEAD~5; do
		git -c log.decorate=false show $c >expect &&
		dircache show $c >out &&
		test_cmp expect out || return 1
	done &&
	git -c log.decorate=false show --stat HEAD~6 >expect &&
	dircache show --stat HEAD~6 >out &&
	test_cmp expect out
'

# git status on r: its forms; the long one with hints in our words.
# Outputs go to $T, outside r, not to be untracked files there.
T=$TRASH_DIRECTORY
status_same() {
	git status -s >"$T/expect" && dircache status -s >"$T/out" &&
	test_cmp "$T/expect" "$T/out" &&
	git status --porcelain -z >"$T/expect" && dircache status --porcelain -z >"$T/out" &&
	test_cmp "$T/expect" "$T/out" &&
	git status -s >"$T/expect" && dircache status -s >"$T/out.s" &&
	test_cmp "$T/expect" "$T/out.s" &&
	git status | sed "s/\"git /\"dircache /g" >"$T/expect" &&
	dircache status >"$T/out" &&
	test_cmp "$T/expect" "$T/out"
}

test_expect_success 'status: staged renames as git status shows them' '
	cd r &&
	git mv deep/z zz && git mv r/same t-same && git mv c2 "c 3" &&
	echo more >>"c 3" && git add "c 3" && echo again >>"c 3" &&
	sed "s/line number 1[0-9]/EDIT/" swap2 >swap3 && git rm -q swap2 &&
	git add swap3 && echo new >brand-new && git add brand-new &&
	git rm -q --cached s/same && echo untracked >untracked &&
	status_same &&
	grep "^R  deep/z -> zz\$" "$T/out.s" &&
	grep "renamed:    swap2 -> swap3\$" "$T/out"
'

test_expect_success 'status --no-renames, status.renames, --find-renames=<n>' '
	cd r &&
	git status -s --no-renames >"$T/expect" &&
	dircache status -s --no-renames >"$T/out" &&
	test_cmp "$T/expect" "$T/out" && ! grep "^R" "$T/out" &&
	git -c status.renames=false status -s >"$T/expect" &&
	git config status.renames false &&
	dircache status -s >"$T/out" &&
	test_cmp "$T/expect" "$T/out" && ! grep "^R" "$T/out" &&
	git status -s --find-renames=95 >"$T/expect" &&
	dircache status -s --find-renames=95 >"$T/out" &&
	git config --unset status.renames &&
	test_cmp "$T/expect" "$T/out" && grep "^R" "$T/out" &&
	git config diff.renames false &&
	git status -s >"$T/expect" && dircache status -s >"$T/out" &&
	git config --unset diff.renames &&
	test_cmp "$T/expect" "$T/out" && ! grep "^R" "$T/out"
'

test_expect_success 'status from a subdirectory: renames relative to it' '
	cd r/deep &&
	git status -s >"$T/expect" && dircache status -s >"$T/out" &&
	test_cmp "$T/expect" "$T/out" &&
	grep "^RM ../c2 -> \"../c 3\"\$" "$T/out"
'

test_expect_success 'diff-cache -M: the index and the work tree, as git diff-index' '
	cd r &&
	echo late >>zz &&
	for o in "-M" "-M --cached" "-M -p" "-M -p --cached" "-M -z" \
		"--cached -M90%" "--cached --find-renames=30 -p" "--no-renames"; do
		git diff-index $o HEAD >"$T/expect" &&
		diff-cache $o HEAD >"$T/out" &&
		test_cmp "$T/expect" "$T/out" || return 1
	done &&
	! grep R "$T/out" &&
	diff-cache -M HEAD >"$T/out" && ! grep "R.*$ZERO_OID" "$T/out" &&
	grep "R0[0-9][0-9]	deep/z	zz\$" "$T/out"
'

test_expect_success 'dircache diff: renames as git diff finds them' '
	cd r &&
	for o in "--cached" "--cached --name-status" "--cached --name-only" \
		"HEAD" "HEAD~3 HEAD" "--name-status HEAD~7 HEAD" \
		"--name-only HEAD~7 HEAD" "--cached -M90%" "--cached --no-renames" \
		"--find-renames=20 HEAD~6 HEAD~5"; do
		git diff $o >"$T/expect" &&
		dircache diff $o >"$T/out" &&
		test_cmp "$T/expect" "$T/out" || return 1
	done &&
	dircache diff --cached --name-status >"$T/out" &&
	grep "^R100	r/same	t-same\$" "$T/out" &&
	git -c diff.renames=false diff --cached >"$T/expect" &&
	git config diff.renames false &&
	dircache diff --cached >"$T/out" &&
	git config --unset diff.renames &&
	test_cmp "$T/expect" "$T/out" && ! grep "^rename" "$T/out"
'

test_expect_success 'show-diff -M: a rename to an intent-to-add file, as git' '
	cd r &&
	git commit -q -m "status state" &&
	mv t-same t-same2 && git add -N t-same2 &&
	mv swap3 swap4 && echo edit >>swap4 && git add -N swap4 &&
	echo newer >newer && git add -N newer &&
	git diff-files -M --name-status >"$T/expect" &&
	show-diff -M -s >"$T/out" &&
	test_cmp "$T/expect" "$T/out" &&
	grep "^R100	t-same	t-same2\$" "$T/out" &&
	git diff-files -M -p >"$T/expect" &&
	show-diff -M >"$T/out" &&
	test_cmp "$T/expect" "$T/out" &&
	git diff-files -M -z --name-status >"$T/expect" &&
	show-diff -M -z >"$T/out" &&
	test_cmp "$T/expect" "$T/out" &&
	git diff-files --name-status >"$T/expect" &&
	show-diff -s >"$T/out" &&
	test_cmp "$T/expect" "$T/out" && ! grep "^R" "$T/out" &&
	for o in "" "--name-status" "--name-only" "--no-renames" "-M90%"; do
		git diff $o >"$T/expect" &&
		dircache diff $o >"$T/out" &&
		test_cmp "$T/expect" "$T/out" || return 1
	done
'

test_done
