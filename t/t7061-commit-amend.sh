#!/bin/sh
test_description='dircache commit --amend, -q, <paths> (git commit --only) and a failed commit -a, against git commit'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

GIT_EDITOR=false
export GIT_EDITOR

# Two copies of the repository g: git works in g, we work in o.
copy() {
	rm -rf o && cp -R g o
}

# HEAD, the index and the short status of g and o are the same.
same() {
	git -C g rev-parse HEAD >expect &&
	git -C o rev-parse HEAD >actual &&
	test_cmp expect actual &&
	git -C g ls-files -s >expect &&
	git -C o ls-files -s >actual &&
	test_cmp expect actual &&
	git -C g status -s >expect &&
	git -C o status -s >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: two commits' '
	git init -q g && cd g &&
	echo a >a && echo b >b && mkdir d && echo x >d/x && echo y >d/y &&
	git add . && git commit -q -m one &&
	echo a2 >>a && git add a &&
	GIT_AUTHOR_NAME=Other GIT_AUTHOR_EMAIL=o@example.com \
	GIT_AUTHOR_DATE="1112999999 +0130" git commit -q -m "two" -m "body" &&
	cd .. && copy
'

test_expect_success 'commit --amend --no-edit: parents, author and message kept' '
	echo z >g/z && git -C g add z &&
	GIT_COMMITTER_DATE="1113000000 +0000" git -C g commit -q --amend --no-edit &&
	echo z >o/z && (cd o && dircache add z &&
	GIT_COMMITTER_DATE="1113000000 +0000" dircache commit --amend --no-edit >../id) &&
	same && git -C o rev-parse HEAD >expect && test_cmp expect id
'

test_expect_success 'commit --amend -m: a new message, the author kept; -q prints nothing' '
	git -C g commit -q --amend -m new -m para &&
	(cd o && dircache commit -q --amend -m new -m para >../out) &&
	test_cmp /dev/null out && same &&
	echo msg >msg &&
	git -C g commit -q --amend -F ../msg &&
	(cd o && dircache commit --quiet --amend -F ../msg >../out) &&
	test_cmp /dev/null out && same
'

test_expect_success 'commit --amend -a, and from a subdirectory' '
	echo more >>g/d/x && echo more >>o/d/x &&
	git -C g commit -q --amend -a --no-edit &&
	(cd o/d && dircache commit -q --amend -a) && same
'

test_expect_success 'commit --amend to the parent tree is refused unless --allow-empty' '
	copy && (cd o && echo c >c && dircache add c &&
	dircache commit -q -m three && dircache reset -q HEAD~1 -- c &&
	test_must_fail dircache commit --amend --no-edit 2>../err &&
	dircache commit -q --amend --allow-empty -m empty &&
	git diff --quiet HEAD~1 HEAD) &&
	grep "nothing to commit" err
'

test_expect_success 'commit --amend with nothing to amend, or during a merge' '
	git init -q e && (cd e &&
	test_expect_code 128 dircache commit --amend -m x 2>../err) &&
	grep "nothing to amend" err &&
	copy && git -C o rev-parse HEAD >o/.git/MERGE_HEAD &&
	(cd o && test_expect_code 128 dircache commit --amend -m x 2>../err) &&
	grep "merge" err
'

test_expect_success 'commit <paths>: those files on top of HEAD, the rest staged as it was' '
	rm -rf g2 && cp -R g g2 && rm -rf g && mv g2 g &&
	for t in g o; do
		echo a3 >>$t/a && echo b2 >>$t/b && echo y2 >>$t/d/y &&
		rm $t/d/x && echo new >$t/d/new || return 1
	done &&
	copy &&
	git -C g add b && echo b3 >>g/b && echo a4 >>g/a &&
	(cd o && dircache add b) && echo b3 >>o/b && echo a4 >>o/a &&
	git -C g commit -q -m only a d &&
	(cd o && dircache commit -q -m only a d) && same &&
	git -C o ls-tree -r HEAD >actual && ! grep d/new actual
'

test_expect_success 'commit <paths> from a subdirectory, and with "--"' '
	echo y3 >>g/d/y && echo y3 >>o/d/y &&
	(cd g/d && git commit -q -m sub -- y) &&
	(cd o/d && dircache commit -q -m sub -- y) && same
'

test_expect_success 'commit <paths>: a path no file matches, and -a with paths' '
	(cd o && test_expect_code 128 dircache commit -m x nope 2>../err) &&
	grep "did not match" err &&
	(cd o && test_expect_code 128 dircache commit -a -m x b 2>../err) &&
	grep "make no sense" err && same
'

test_expect_success 'a failed commit -a leaves the index as it was' '
	echo c >>o/b && echo c >>o/d/y && (cd o && dircache add d/y) &&
	cp o/.git/index before &&
	(cd o && GIT_AUTHOR_DATE=garbage test_must_fail dircache commit -a -m x) &&
	cmp before o/.git/index
'

test_expect_success 'a failed commit <paths> leaves the index as it was' '
	(cd o && GIT_AUTHOR_DATE=garbage test_must_fail dircache commit -m x b) &&
	cmp before o/.git/index && ! ls o/.git | grep tmp-
'

test_done
