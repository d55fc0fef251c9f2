#!/bin/sh
test_description='applymbox: a bad patch stops the run; --continue, --skip, --abort; kill -9'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

# Mail 10 changes a line of src/f3.c; its first context line is
# spoiled so that it applies nowhere.
test_expect_success 'setup: a series of 30 with a bad mail 10' '
	am_history hist 30 &&
	git -C hist format-patch -q -M --stdout HEAD~30 >good.mbox &&
	awk "/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001\$/{n++} n==10&&/^@@/{h=1} n==10&&h&&/^ /{print \" SPOILED\"; h=0; next} {print}" \
		good.mbox >bad.mbox &&
	test $(grep -c "^ SPOILED" bad.mbox) = 1 &&
	mkdir mails &&
	mailsplit -omails good.mbox >/dev/null &&
	mailinfo msg fix.patch <mails/0010 >info &&
	test_grep "^diff --git" fix.patch
'

test_expect_success 'both stop at mail 10 with the tree at mail 9' '
	am_git hist HEAD~30 gitstop &&
	(cd gitstop && test_must_fail git am -q ../bad.mbox >/dev/null 2>&1) &&
	am_start hist HEAD~30 ours &&
	(cd ours && test_expect_code 1 applymbox ../bad.mbox >../out 2>../err) &&
	test $(grep -c "^Applying: " out) = 10 &&
	test_grep "^Patch failed at 0010 area0: change number 10$" out &&
	test_grep "src/f3.c" err &&
	test_grep "hunk #1" err &&
	test_grep "applymbox --continue" err &&
	test "$(cat ours/.dircache/refs/heads/master)" = \
		"$(git -C gitstop rev-parse HEAD)" &&
	(cd ours && GIT_DIR=.dircache git status --porcelain -uno) >status &&
	test_must_fail test -s status &&
	test -f ours/.dircache/applymbox/0030 &&
	echo 10 >expect &&
	test_cmp expect ours/.dircache/applymbox/next
'

test_expect_success 'a new run is refused while one is stopped' '
	(cd ours && test_expect_code 128 applymbox ../good.mbox 2>../err) &&
	test_grep "in progress" err
'

test_expect_success '--continue with nothing fixed is refused' '
	(cd ours && test_expect_code 128 applymbox --continue 2>../err) &&
	test_grep "still matches HEAD" err &&
	test -d ours/.dircache/applymbox
'

test_expect_success 'fixed by hand, --continue gives git am --continue'\''s commits' '
	cp -R ours ours-skip && cp -R ours ours-abort &&
	cp -R gitstop git-skip && cp -R gitstop git-abort &&
	(cd gitstop && git apply --index ../fix.patch && git am -q --continue) &&
	(cd ours && apply --index ../fix.patch &&
		applymbox --continue >../out) &&
	test $(grep -c "^Applying: " out) = 20 &&
	am_log gitstop .git >expect &&
	am_log ours .dircache >actual &&
	test_cmp expect actual &&
	test ! -e ours/.dircache/applymbox
'

test_expect_success '--skip drops the mail, as git am --skip does' '
	(cd git-skip && git am -q --skip) &&
	(cd ours-skip && applymbox --skip >/dev/null) &&
	am_log git-skip .git >expect &&
	am_log ours-skip .dircache >actual &&
	test_cmp expect actual &&
	(cd ours-skip && GIT_DIR=.dircache git status --porcelain -uno) >status &&
	test_must_fail test -s status
'

test_expect_success '--abort goes back to where the run started' '
	(cd ours-abort && echo scribble >>src/f3.c && applymbox --abort) &&
	test "$(cat ours-abort/.dircache/refs/heads/master)" = \
		"$(cat ours.base)" &&
	test ! -e ours-abort/.dircache/applymbox &&
	(cd ours-abort && GIT_DIR=.dircache git status --porcelain -uno) >status &&
	test_must_fail test -s status &&
	(cd git-abort && git am --abort) &&
	test "$(cd ours-abort && write-tree)" = "$(git -C git-abort write-tree)"
'

# Killed at a random moment, HEAD is one of git am's commits, the index
# is HEAD's tree or, inside a checkpoint, the tree of the commit its
# journal names (t4310 kills at each step), and --continue ends where
# git am ends; --abort goes back.
test_expect_success 'kill -9 during a run, then --continue or --abort' '
	git -C hist format-patch -q -M --stdout HEAD~30 >series.mbox &&
	am_git hist HEAD~30 gitall &&
	(cd gitall && git am -q ../series.mbox) &&
	git -C gitall rev-list HEAD >commits &&
	git -C gitall rev-parse HEAD >expect &&
	am_start hist HEAD~30 start &&
	for delay in 0.01 0.03 0.06 0.1 0.15 0.2 0.3; do
		for how in continue abort; do
			rm -rf k && cp -R start k || exit 1
			(cd k && exec applymbox ../series.mbox >/dev/null 2>&1) &
			pid=$!
			sleep $delay &&
			kill -9 $pid 2>/dev/null
			wait $pid
			head=$(cat k/.dircache/refs/heads/master) &&
			grep -q "$head" commits start.base -h &&
			# A kill inside the instant the index or the branch
			# is locked leaves the lock, as it does for git: the
			# user removes it (before write-tree, which takes it).
			rm -f k/.dircache/index.lock \
				k/.dircache/refs/heads/master.lock &&
			idx=$(cd k && write-tree) &&
			ok= &&
			cp= &&
			if test -f k/.dircache/applymbox/checkpoint; then
				cp=$(cut -d" " -f2 k/.dircache/applymbox/checkpoint)
			fi &&
			for c in $head $cp; do
				if test "$idx" = "$(git --git-dir=k/.dircache rev-parse $c^{tree})"
				then
					ok=1
				fi
			done &&
			test -n "$ok" || {
				echo >&2 "index $idx at $head after $delay" &&
				cat k/.dircache/applymbox/checkpoint >&2; exit 1; }
			# Killed in the split, the run never began:
			# --continue refuses, --abort removes the state.
			if test -d k/.dircache/applymbox &&
			   test ! -f k/.dircache/applymbox/next; then
				(cd k && test_must_fail applymbox --continue \
					2>/dev/null) || exit 1
				how=abort
			fi &&
			if test -d k/.dircache/applymbox; then
				(cd k && applymbox --$how >/dev/null 2>&1) || exit 1
			fi &&
			(cd k && GIT_DIR=.dircache git status --porcelain -uno) >status &&
			test_must_fail test -s status &&
			if test $how = abort && test -d k/.dircache/applymbox
			then
				exit 1
			fi &&
			# Whatever was left, a new run from here works.
			if test $how = abort && test "$head" != "$(cat expect)"
			then
				(cd k && applymbox ../series.mbox >/dev/null &&
				 test_cmp ../expect .dircache/refs/heads/master)
			fi || exit 1
		done
	done &&
	rm -rf k && cp -R start k &&
	(cd k && applymbox ../series.mbox >/dev/null) &&
	cat k/.dircache/refs/heads/master >actual &&
	test_cmp expect actual
'

test_done
