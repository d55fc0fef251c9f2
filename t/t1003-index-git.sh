#!/bin/sh
test_description='indexes written by git: extensions, v4, intent-to-add, skip-worktree'
. "$(dirname "$0")/test-lib.sh"

# git on the repository in the current directory.
g() {
	GIT_DIR=.dircache git -c core.quotepath=on "$@"
}

test_expect_success 'setup: a repository git and we both use' '
	test_create_repo r && cd r &&
	mkdir d && echo a >a && echo b >b && echo c >d/c &&
	g add a b d/c && g commit -qm base &&
	g tag base
'

test_expect_success 'intent-to-add: left out of the tree, shown as new, not fresh' '
	cd r &&
	echo new >n && mkdir e && echo x >e/only &&
	g add -N n e/only &&
	write-tree >actual && g write-tree >expect && test_cmp expect actual &&
	show-diff -s >actual && g diff-files --name-status >expect &&
	test_cmp expect actual &&
	show-diff >actual && g diff-files -p >expect && test_cmp expect actual &&
	test_expect_code 1 update-cache --refresh >actual &&
	test_grep "^n: needs update" actual &&
	update-cache n && write-tree >actual && g write-tree >expect &&
	test_cmp expect actual &&
	g rm -q --cached n e/only && rm -rf n e
'

test_expect_success 'skip-worktree: its absence is no change, and it is not checked out' '
	cd r &&
	g update-index --skip-worktree b && rm b &&
	show-diff -s >actual && test_must_fail test -s actual &&
	update-cache --refresh &&
	rm -rf ../co && checkout-cache -a --prefix=../co/ &&
	test_must_fail test -e ../co/b && test -f ../co/a &&
	g ls-files -v >actual && test_grep "^S b$" actual &&
	g update-index --no-skip-worktree b && g checkout b
'

test_expect_success 'REUC survives our rewrite: git checkout -m still recreates the conflict' '
	cd r &&
	g checkout -q -b side && echo side >a && g commit -qam side &&
	g checkout -q master && echo ours >a && g commit -qam ours &&
	test_must_fail g merge -q side >/dev/null 2>&1 &&
	echo resolved >a && g add a &&
	echo b2 >b && update-cache b &&
	g checkout -m a &&
	g ls-files -u >actual && test $(wc -l <actual) = 3 &&
	test_grep "^<<<<<<<" a &&
	echo resolved >a && g add a && g commit -qm merged
'

test_expect_success 'the caches and offset tables are dropped, never left stale' '
	cd r &&
	g config core.untrackedCache true &&
	g config index.recordEndOfIndexEntries true &&
	g config index.recordOffsetTable true &&
	g config index.threads 2 &&
	g status >/dev/null && g write-tree >/dev/null &&
	echo changed >d/c && update-cache d/c &&
	g ls-files -s >actual && test_grep "d/c" actual &&
	g write-tree >expect && write-tree >actual && test_cmp expect actual &&
	g status --porcelain --untracked-files=no >actual &&
	echo "M  d/c" >expect && test_cmp expect actual &&
	g fsck --no-dangling >out 2>&1 &&
	test_must_fail grep -v "^notice" out &&
	g commit -qm changed
'

test_expect_success 'index v4 is read' '
	cd r &&
	g update-index --index-version 4 &&
	echo v4 >a &&
	show-diff -s >actual && g diff-files --name-status >expect &&
	test_cmp expect actual &&
	write-tree >actual && g write-tree >expect && test_cmp expect actual &&
	update-cache a && g ls-files -s >actual &&
	g checkout -q a 2>/dev/null; g diff-files --name-status >out &&
	test_must_fail test -s out
'

test_expect_success 'a split index is read, and written back whole' '
	cd r &&
	g update-index --split-index &&
	g ls-files -s >expect &&
	ls-files -s >actual && test_cmp expect actual &&
	echo split >b && update-cache b &&
	g ls-files -s >expect &&
	test_grep "$(g hash-object b)" expect &&
	g diff-files --name-only >out && test_must_fail test -s out
'

test_done
