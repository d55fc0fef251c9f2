#!/bin/sh
test_description='applymbox against a hostile user: two runs at once, a
directory replaced by a file or a symlink, --continue after a kill in
the split'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

# A history of 300 files (so that the check of the work tree before the
# state is made takes a while) and two mails: the first applies, the
# second does not (its context is spoiled), so that a run stops there.
test_expect_success 'setup: a series that stops at mail 2' '
	git init -q hist &&
	(
		cd hist &&
		mkdir many &&
		for i in $(seq 1 300); do
			echo "file $i" >many/f$i || exit 1
		done &&
		seq 1 20 >a &&
		git add -A &&
		git commit -q -m base &&
		sed -i "s/^5\$/five/" a &&
		git commit -q -a -m "one" &&
		sed -i "s/^15\$/fifteen/" a &&
		git commit -q -a -m "two"
	) &&
	git -C hist format-patch -q --stdout HEAD~2 |
		sed "s/^ 13\$/ SPOILED/" >stop.mbox &&
	test $(grep -c "^ SPOILED" stop.mbox) = 1 &&
	am_start hist HEAD~2 race
'

# Whichever wins, it stops at mail 2 (exit 1) with its state whole; the
# other refuses (exit 128) and removes nothing of it: it finds the
# state, or loses the mkdir, or finds the work tree the winner's
# checkpoint is changing.
test_expect_success 'two runs started together: the loser removes nothing' '
	for try in $(seq 1 20); do
		(cd race && applymbox ../stop.mbox >/dev/null 2>../err1;
		 echo $? >../rc1) &
		(cd race && applymbox ../stop.mbox >/dev/null 2>../err2;
		 echo $? >../rc2) &
		wait &&
		sort rc1 rc2 | tr "\n" " " >rcs &&
		printf "1 128 " >expect &&
		test_cmp expect rcs &&
		cat err1 err2 >err &&
		test_grep -e "in progress" -e "differs from HEAD" err &&
		for f in 0001 0002 start last next stopped; do
			test -f race/.dircache/applymbox/$f || exit 1
		done &&
		echo 2 >expect &&
		test_cmp expect race/.dircache/applymbox/next &&
		(cd race && applymbox --abort) &&
		test_cmp race.base race/.dircache/refs/heads/master || exit 1
	done
'

# What a kill -9 in the split leaves: the state directory with some of
# the mails and no "next".
test_expect_success '--continue after a kill in the split fails' '
	rm -rf split && cp -R race split &&
	mkdir split/.dircache/applymbox &&
	mailsplit -osplit/.dircache/applymbox stop.mbox >/dev/null &&
	rm split/.dircache/applymbox/0002 &&
	: >split/.dircache/applymbox/0002.lock &&
	(cd split && test_expect_code 128 applymbox --continue 2>../err) &&
	test_grep "never began" err &&
	test_grep "applymbox --abort" err &&
	test -f split/.dircache/applymbox/0001 &&
	test -f split/.dircache/applymbox/0002.lock &&
	(cd split && test_expect_code 128 applymbox --skip 2>../err) &&
	test_grep "never began" err &&
	test_cmp race.base split/.dircache/refs/heads/master &&
	(cd split && applymbox --abort 2>../err) &&
	test_grep "removed" err &&
	test ! -e split/.dircache/applymbox &&
	(cd split && test_expect_code 1 applymbox ../stop.mbox >/dev/null 2>&1) &&
	echo 2 >expect &&
	test_cmp expect split/.dircache/applymbox/next
'

# git apply and git am let a patch replace a directory by a file or a
# symlink ("new file d" and "deleted file d/passwd" in one patch).
test_expect_success 'setup: directories replaced by a file, a symlink' '
	git init -q dirs &&
	(
		cd dirs &&
		mkdir -p d e/sub &&
		echo secret >d/passwd &&
		echo one >e/one && echo two >e/sub/two &&
		echo keep >keep &&
		git add -A &&
		git commit -q -m base &&
		git rm -q -r d &&
		echo "now a file" >d &&
		git add d &&
		git commit -q -m "d: a file" &&
		git rm -q -r e &&
		ln -s keep e &&
		git add e &&
		git commit -q -m "e: a symlink" &&
		git rm -q d &&
		mkdir d && echo again >d/x &&
		git add d &&
		git commit -q -m "d: a directory again"
	) &&
	git -C dirs format-patch -q --stdout HEAD~3 >dirs.mbox &&
	test_grep "^deleted file mode" dirs.mbox
'

test_expect_success 'a directory replaced by a file or a symlink applies' '
	am_git dirs HEAD~3 dirs-git &&
	(cd dirs-git && git am -q ../dirs.mbox) &&
	for n in 1 2 3; do
		rm -rf dirs-ours &&
		am_start dirs HEAD~3 dirs-ours &&
		(cd dirs-ours && DIRCACHE_AM_CHECKPOINT=$n \
			applymbox ../dirs.mbox >/dev/null) &&
		test ! -e dirs-ours/.dircache/applymbox &&
		git -C dirs-git log --format="%T %s" >expect &&
		git --git-dir=dirs-ours/.dircache log --format="%T %s" >actual &&
		test_cmp expect actual &&
		test -L dirs-ours/e &&
		test "$(readlink dirs-ours/e)" = keep &&
		ls dirs-ours/d >actual &&
		echo x >expect &&
		test_cmp expect actual &&
		(cd dirs-ours && GIT_DIR=.dircache git status --porcelain -uno) >status &&
		test_must_fail test -s status || exit 1
	done
'

test_expect_success 'an untracked file in the directory stops the run' '
	rm -rf dirs-ours &&
	am_start dirs HEAD~3 dirs-ours &&
	echo mine >dirs-ours/d/untracked &&
	(cd dirs-ours && test_expect_code 1 applymbox ../dirs.mbox \
		>/dev/null 2>../err) &&
	test_grep "d: already exists in working directory" err &&
	echo mine >expect &&
	test_cmp expect dirs-ours/d/untracked &&
	test_cmp dirs-ours.base dirs-ours/.dircache/refs/heads/master
'

test_done
