#!/bin/sh
test_description='apply, applymbox and read-tree -m -u against FIFOs, symlinks and signals'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

# Every command that could block on a FIFO runs under timeout: a hang
# is a failure (exit 124), not a stuck suite.
T="timeout 20"

# series NAME N: a git history NAME of N changes mailed to NAME.mbox, a
# dircache repository NAME-start at its base, and NAME-git, the base
# with the series applied by git am.
series() {
	am_history $1 $2 &&
	git -C $1 format-patch -q --stdout HEAD~$2 >$1.mbox &&
	am_start $1 HEAD~$2 $1-start &&
	am_git $1 HEAD~$2 $1-git &&
	(cd $1-git && git am -q ../$1.mbox)
}

# A repository r/ with f and d/g at version 1, a git diff p1-to-2 that
# changes both, and trees T1 (version 1) and T2 (version 2).
test_expect_success 'setup' '
	mkdir outside &&
	test_create_repo r && (
		cd r &&
		mkdir d && echo 1 >f && echo 1 >d/g &&
		update-cache --add f d/g &&
		write-tree >../T1 &&
		echo 2 >f && echo 2 >d/g &&
		update-cache f d/g &&
		write-tree >../T2 &&
		GIT_DIR=.dircache git diff-tree -p $(cat ../T1) $(cat ../T2) \
			>../p &&
		read-tree $(cat ../T1) && checkout-cache -f -a &&
		update-cache --refresh
	) &&
	test -s p && cp -R r pristine
'

T1=$(cat T1 2>/dev/null) T2=$(cat T2 2>/dev/null)

# fresh: r/ back at version 1, clean.
fresh() {
	rm -rf r && cp -R pristine r && (cd r && update-cache --refresh)
}

test_expect_success 'apply: a FIFO where the patch writes is refused, not opened' '
	fresh && (
		cd r &&
		rm f && mkfifo f &&
		test_expect_code 1 $T apply ../p 2>../err &&
		test -p f && test "$(cat d/g)" = 1
	) &&
	test_grep "f" err
'

test_expect_success 'apply --index: a FIFO is refused, the index untouched' '
	fresh && (
		cd r &&
		cp .dircache/index ../index.before &&
		rm f && mkfifo f &&
		test_must_fail $T apply --index ../p 2>/dev/null &&
		test -p f && cmp .dircache/index ../index.before
	)
'

test_expect_success 'apply: a leading directory replaced by a symlink out' '
	fresh && (
		cd r &&
		rm -rf d && ln -s ../outside d &&
		test_must_fail $T apply ../p 2>../err &&
		test "$(cat f)" = 1
	) &&
	test_grep "symbolic link" err &&
	test_must_fail ls outside/g 2>/dev/null
'

test_expect_success 'read-tree -m -u: a FIFO in place of a changed entry' '
	fresh && (
		cd r &&
		cp .dircache/index ../index.before &&
		rm f && mkfifo f &&
		test_must_fail $T read-tree -m -u $T1 $T2 2>../err &&
		test -p f && test "$(cat d/g)" = 1 &&
		cmp .dircache/index ../index.before
	) &&
	test_grep "not up to date" err
'

test_expect_success 'read-tree -m -u: a tracked directory made a symlink out' '
	fresh && (
		cd r &&
		rm -rf d && ln -s ../outside d &&
		$T read-tree -m -u $T1 $T2 2>/dev/null
		test ! -e ../outside/g
	) &&
	test -z "$(ls outside)"
'

test_expect_success 'read-tree -m -u: an untracked symlink where a directory comes' '
	fresh && (
		cd r &&
		cp .dircache/index ../index.before &&
		mkdir h && echo new >h/x &&
		GIT_INDEX_FILE=../t3.index update-cache --add f d/g h/x &&
		GIT_INDEX_FILE=../t3.index write-tree >../T3 &&
		rm -rf h && ln -s ../outside h &&
		test_must_fail $T read-tree -m -u $T1 $(cat ../T3) 2>../err &&
		test -h h && cmp .dircache/index ../index.before
	) &&
	test -z "$(ls outside)" &&
	test_grep "untracked" err
'

test_expect_success 'applymbox: the mbox may be a FIFO' '
	series hist 6 &&
	cp -R hist-start fifo && (
		cd fifo &&
		mkfifo ../mbox.fifo &&
		(cat ../hist.mbox >../mbox.fifo &) &&
		$T applymbox ../mbox.fifo >/dev/null
	) &&
	test "$(cd fifo && write-tree)" = \
		"$(git -C hist-git rev-parse HEAD^{tree})"
'

test_expect_success 'applymbox: a directory or a device is not a mailbox' '
	(
		cd fifo &&
		test_must_fail $T applymbox ../outside 2>../err &&
		test_grep "not a regular file" ../err &&
		test_must_fail $T applymbox /dev/zero 2>../err &&
		test_grep "not a regular file" ../err &&
		test ! -d .dircache/applymbox
	)
'

test_expect_success 'applymbox: a FIFO in the work tree is a refusal to start' '
	cp -R hist-start wfifo && (
		cd wfifo &&
		f=$(ls src/f*.c | head -n 1) &&
		rm "$f" && mkfifo "$f" &&
		before=$(cat .dircache/refs/heads/master) &&
		test_must_fail $T applymbox ../hist.mbox >/dev/null 2>../err &&
		test -p "$f" &&
		test "$(cat .dircache/refs/heads/master)" = "$before" &&
		test ! -d .dircache/applymbox
	)
'

# SIGTERM and SIGINT, unlike kill -9, run the lock cleanup: whenever
# the signal lands, no lock is left behind, and --continue (or a new
# run, if the signal came before the state was made) ends at git am's
# tree.
test_expect_success 'applymbox: SIGTERM or SIGINT at any moment' '
	series long 60 &&
	want=$(git -C long-git rev-parse HEAD^{tree}) &&
	for sig in TERM INT; do
		for delay in 0.02 0.05 0.1 0.2; do
			rm -rf s && cp -R long-start s || exit 1
			(cd s && exec applymbox ../long.mbox >/dev/null 2>&1) &
			pid=$!
			sleep $delay
			kill -$sig $pid 2>/dev/null
			wait $pid
			test ! -e s/.dircache/index.lock &&
			test ! -e s/.dircache/refs/heads/master.lock || {
				echo >&2 "lock left after SIG$sig at $delay"; exit 1; }
			(
				cd s &&
				# A signal before the run began leaves state
				# that --continue refuses, naming --abort,
				# which removes it.
				if test -d .dircache/applymbox; then
					$T applymbox --continue >/dev/null 2>../cerr || {
					test_grep "never began" ../cerr &&
					$T applymbox --abort 2>/dev/null; }
				fi &&
				if test "$(write-tree)" != "$want"; then
					$T applymbox ../long.mbox >/dev/null 2>&1
				fi
			) &&
			test "$(cd s && write-tree)" = "$want" || {
				echo >&2 "wrong tree after SIG$sig at $delay"; exit 1; }
		done
	done
'

test_done
