#!/bin/sh
test_description='the porcelain options no other script exercised, against git where the output is git'"'"'s'
. "$(dirname "$0")/test-lib.sh"

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
	git -C g status --porcelain >expect &&
	git -C o status --porcelain >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: two branches that diverge' '
	git init -q g && cd g &&
	echo a >a && echo b >b && git add . && git commit -q -m one &&
	git branch side && echo a2 >>a && git commit -q -a -m two &&
	git checkout -q side && echo b2 >>b && git commit -q -a -m side &&
	git checkout -q master && cd .. && copy
'

test_expect_success 'commit --allow-empty-message: the commit git makes' '
	echo c >g/c && git -C g add c && echo c >o/c && (cd o && dircache add c) &&
	git -C g commit -q --allow-empty-message -m "" &&
	(cd o && dircache commit -q --allow-empty-message -m "") && same
'

test_expect_success 'merge -m: the merge commit git makes, with that message' '
	git -C g merge -q -m "join the side" side &&
	(cd o && dircache merge -m "join the side" side >/dev/null 2>&1) &&
	same && git -C o log -1 --format=%s >actual &&
	echo "join the side" >expect && test_cmp expect actual
'

test_expect_success 'reset --mixed and reset --merge as git' '
	head=$(git -C g rev-parse HEAD) &&
	echo a3 >>g/a && git -C g add a && echo b3 >>g/b &&
	echo a3 >>o/a && (cd o && dircache add a) && echo b3 >>o/b &&
	git -C g reset -q --mixed HEAD~1 && (cd o && dircache reset -q --mixed HEAD~1) &&
	same && git -C g reset -q --hard $head && (cd o && dircache reset -q --hard $head) &&
	same && echo a4 >>g/a && echo a4 >>o/a &&
	git -C g reset -q --merge HEAD~1 && (cd o && dircache reset -q --merge HEAD~1) &&
	same && test_cmp g/a o/a && test_cmp g/b o/b &&
	git -C g reset -q --hard $head && (cd o && dircache reset -q --hard $head)
'

test_expect_success 'status --short, --branch, -b, -z alone: git status'"'"'s' '
	echo new >g/new && echo new >o/new && echo a5 >>g/a && echo a5 >>o/a &&
	for f in "--short" "--short --branch" "--porcelain -b" "-z" "-z -b"; do
		git -C g status $f >expect &&
		git -C o status $f >/dev/null && (cd o && dircache status $f) >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'switch --create: a new branch at a start, checked out' '
	(cd o && git stash -q -u && dircache switch --create topic HEAD~1 2>/dev/null) &&
	test "$(git -C o symbolic-ref HEAD)" = refs/heads/topic &&
	test "$(git -C o rev-parse topic)" = "$(git -C o rev-parse master~1)" &&
	(cd o && dircache switch master 2>/dev/null && git stash pop -q)
'

test_expect_success 'tag -F: the annotated tag git makes from the file' '
	printf "release\n\nnotes\n" >msg &&
	git -C g tag -a -F ../msg v1 && (cd o && dircache tag -a -F ../msg v1) &&
	git -C g rev-parse v1 >expect && git -C o rev-parse v1 >actual &&
	test_cmp expect actual
'

test_expect_success 'init --quiet says nothing' '
	dircache init --quiet q >out 2>err && test_cmp /dev/null out &&
	test_cmp /dev/null err && test -d q/.dircache
'

test_expect_success 'show -p, --no-color, --no-decorate: git show'"'"'s patch' '
	cd o && git show --no-decorate -p HEAD~1 >expect &&
	dircache show -p --no-color --no-decorate HEAD~1 >actual &&
	test_cmp expect actual &&
	dircache show --color --no-color HEAD~1 >actual && test_cmp expect actual &&
	git log -p -3 >expect && dircache log -p -3 >actual && test_cmp expect actual &&
	git log -3 >expect && dircache log -3 >actual && test_cmp expect actual
'

test_expect_success 'repack --window and --depth: one pack, every object kept' '
	(cd o && dircache repack -a -d -q --window=5 --depth=3) &&
	ls o/.git/objects/pack/*.pack >packs && test_line_count_1=$(wc -l <packs) &&
	test "$test_line_count_1" -eq 1 &&
	git -C o fsck --strict --no-dangling >/dev/null &&
	test_expect_code 129 dircache repack --window=x
'

test_expect_success 'pull --no-merge: fetched, not merged' '
	rm -rf up down && mkdir up && (cd up && dircache init -q &&
	echo u >u && dircache add u && dircache commit -q -m up) &&
	dircache clone up down 2>/dev/null && (cd up && echo u2 >>u &&
	dircache commit -q -a -m up2) &&
	before=$(cd down && rev-parse HEAD) &&
	(cd down && dircache pull --no-merge 2>/dev/null) &&
	test "$(cd down && rev-parse HEAD)" = "$before" &&
	(cd up && rev-parse HEAD) >expect &&
	(cd down && rev-parse refs/remotes/origin/master) >actual &&
	test_cmp expect actual
'

test_done
