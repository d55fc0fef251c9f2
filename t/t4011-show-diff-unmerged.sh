#!/bin/sh
test_description='show-diff: unmerged paths as git diff-files shows them'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.dircache
export GIT_DIR

test_expect_success 'setup: every combination of stages' '
	test_create_repo r && cd r &&
	echo keep >keep && update-cache --add keep &&
	one=$(echo one | git hash-object -w --stdin) &&
	two=$(echo two | git hash-object -w --stdin) &&
	three=$(echo three | git hash-object -w --stdin) &&
	for p in s123 s12 s13 s2 s3 s23 gone2 link2 "new
line2" "tab	2"; do
		case "$p" in
		*1*) printf "100644 %s 1\t%s\000" $one "$p" ;;
		esac
		case "$p" in
		*2*) printf "100644 %s 2\t%s\000" $two "$p" ;;
		esac
		case "$p" in
		*3*) printf "100644 %s 3\t%s\000" $three "$p" ;;
		esac
	done >../info &&
	git update-index -z --index-info <../info &&
	for p in s123 s12 s13 s2 s3 s23 "new
line2" "tab	2"; do
		echo "work $p" >"$p" || return 1
	done &&
	echo two >s12 &&
	ln -s somewhere link2 &&
	ls-files -s >../stages &&
	test $(wc -l <../stages) = 16
'

test_expect_success 'name-status: U, then the work tree against stage 2' '
	cd r &&
	show-diff -s >../ours &&
	git diff-files --name-status >../theirs &&
	test_cmp ../theirs ../ours &&
	test_grep "^U	s3$" ../ours &&
	show-diff -z >../ours &&
	git diff-files -z --name-status >../theirs &&
	test_cmp ../theirs ../ours
'

test_expect_success 'patch: "* Unmerged path", then the patch against stage 2' '
	cd r &&
	for p in s12 s13 s2 s3 gone2 link2 "new
line2" "tab	2" keep; do
		show-diff -- "$p" >../ours &&
		git diff-files -p -- "$p" >../theirs &&
		test_cmp ../theirs ../ours || return 1
	done &&
	show-diff -- s2 >../ours &&
	test_grep "^\* Unmerged path s2$" ../ours &&
	test_grep "^+work s2$" ../ours
'

test_expect_success 'stages 2 and 3: the line git replaces by a combined diff' '
	cd r &&
	show-diff -- s23 >../ours &&
	echo "* Unmerged path s23" >../expect &&
	test_cmp ../expect ../ours &&
	git diff-files -p -- s23 >../theirs &&
	test_grep "^diff --cc s23$" ../theirs
'

test_expect_success 'quiet: an unmerged path is a difference' '
	cd r &&
	test_expect_code 1 show-diff -q -- s3
'

test_done
