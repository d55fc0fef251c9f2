#!/bin/sh
test_description='apply: a file is replaced by a new one, never written through'
. "$(dirname "$0")/test-lib.sh"

# apply puts each new content in a temporary file beside the file and
# renames it over the file.  The old file is never written: another
# name for it (a hard link) keeps the old content; nothing is left
# under a temporary name; an empty directory where a new file goes is
# replaced by it.

test_expect_success 'setup' '
	git init -q repo &&
	seq 1 50 >repo/file &&
	seq 1 5 >repo/other &&
	git -C repo add file other &&
	git -C repo commit -q -m base &&
	seq 1 50 | sed "s/^25$/twenty-five/" >repo/file &&
	echo new >repo/created &&
	git -C repo add created &&
	git -C repo diff HEAD >change.patch &&
	git -C repo reset -q --hard &&
	rm -f repo/created
'

test_expect_success 'a hard link to the file keeps the old content' '
	rm -rf work && cp -R repo work && rm -rf work/.git &&
	ln work/file link &&
	(cd work && apply ../change.patch) &&
	seq 1 50 >expect &&
	cmp link expect &&
	grep -x twenty-five work/file &&
	test "$(stat -c %h link)" = 1 &&
	echo new >expect && cmp work/created expect
'

test_expect_success 'nothing is left under a temporary name' '
	ls -a work >names &&
	! grep "^\.apply-" names
'

test_expect_success 'and back with -R' '
	(cd work && apply -R ../change.patch) &&
	seq 1 50 >expect &&
	cmp work/file expect &&
	! test -e work/created &&
	ls -a work >names &&
	! grep "^\.apply-" names
'

test_expect_success 'an empty directory where a new file goes' '
	mkdir work/created &&
	(cd work && apply ../change.patch) &&
	test -f work/created &&
	echo new >expect && cmp work/created expect &&
	ls -a work >names &&
	! grep "^\.apply-" names
'

test_expect_success 'a directory that is not empty stays, and nothing changes' '
	(cd work && apply -R ../change.patch) &&
	mkdir work/created && echo keep >work/created/inside &&
	cp work/file before &&
	(cd work && test_must_fail apply ../change.patch) &&
	cmp work/file before &&
	echo keep >expect && cmp work/created/inside expect &&
	ls -a work >names &&
	! grep "^\.apply-" names
'

test_done
