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
# other refuses (exit 128) and removes nothing of it.
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
		test_grep "in progress" err &&
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

test_done
