#!/bin/sh
test_description='checkout-cache: a free name gets a nameless file linked in'
. "$(dirname "$0")/test-lib.sh"

# No temporary name is left anywhere under $1.
no_temp_left() {
	find "$1" -name ".*.tmp-*" >"$TRASH_DIRECTORY/temps" &&
	! test -s "$TRASH_DIRECTORY/temps"
}

test_expect_success 'setup: files, an executable, links, deep directories' '
	mkdir src && (
		cd src &&
		init-db 2>/dev/null &&
		mkdir -p d/e/f g &&
		echo top >top && echo run >exe && chmod +x exe &&
		seq 1 5000 >d/e/f/big && echo g >g/one &&
		ln -s d/e/f/big link && ln -s ../top g/up &&
		find . -path ./.dircache -prune -o \( -type f -o -type l \) \
			-print | sed "s|^\./||" | sort >../list &&
		update-cache --add $(cat ../list) &&
		write-tree >../tree &&
		git init -q && git add . && git commit -q -m one
	)
'

test_expect_success 'into an empty directory: the same files as git, no temp' '
	mkdir ours theirs &&
	(cd ours && init-db 2>/dev/null &&
	 SHA1_FILE_DIRECTORY=../src/.dircache/objects &&
	 export SHA1_FILE_DIRECTORY &&
	 read-tree $(cat ../tree) && checkout-cache -a) &&
	(cd theirs && GIT_DIR=../src/.git GIT_INDEX_FILE=../gidx \
		GIT_WORK_TREE=. git read-tree HEAD &&
	 GIT_DIR=../src/.git GIT_INDEX_FILE=../gidx GIT_WORK_TREE=. \
		git checkout-index -a) &&
	diff -r --no-dereference -x .dircache ours theirs &&
	test -x ours/exe && ! test -x ours/top &&
	test -h ours/link && test "$(readlink ours/g/up)" = ../top &&
	no_temp_left ours
'

test_expect_success 'strace: free names are linked, never renamed' '
	if ! command -v strace >/dev/null; then
		echo "# no strace: checked by the other tests only"; exit 0
	fi &&
	mkdir traced && (
		cd traced && init-db 2>/dev/null &&
		SHA1_FILE_DIRECTORY=../src/.dircache/objects &&
		export SHA1_FILE_DIRECTORY &&
		read-tree $(cat ../tree) &&
		strace -f -o ../trace -e trace=rename,renameat,renameat2 \
			-e trace=linkat,openat,symlink,symlinkat \
			checkout-cache -a
	) &&
	! grep -E "rename(at2?)?\(" trace &&
	test $(grep -c "linkat(.* = 0" trace) = 4 &&
	test $(grep -c "O_TMPFILE.* = [0-9]" trace) = 4 &&
	grep "symlink.*\"d/e/f/big\", \"link\") *= 0" trace &&
	grep "symlink.*\"../top\", \"g/up\") *= 0" trace &&
	diff -r --no-dereference -x .dircache ours traced
'

test_expect_success 'a file in the way: kept without -f, replaced with -f' '
	(cd ours &&
	 echo changed >top && echo changed >d/e/f/big &&
	 SHA1_FILE_DIRECTORY=../src/.dircache/objects &&
	 export SHA1_FILE_DIRECTORY &&
	 test_must_fail checkout-cache top 2>../err &&
	 test_grep "already exists" ../err &&
	 echo changed >expect && test_cmp expect top &&
	 checkout-cache -f top d/e/f/big && rm expect) &&
	diff -r --no-dereference -x .dircache ours theirs &&
	no_temp_left ours
'

test_expect_success 'the same path twice: the second sees it there (-u)' '
	mkdir twice && (
		cd twice && init-db 2>/dev/null &&
		SHA1_FILE_DIRECTORY=../src/.dircache/objects &&
		export SHA1_FILE_DIRECTORY &&
		read-tree $(cat ../tree) &&
		checkout-cache -u d/e/f/big d/e/f/big 2>../err &&
		! test -s ../err &&
		test_must_fail checkout-cache g/one g/one 2>../err &&
		test_grep "g/one.*already exists" ../err
	) &&
	cmp src/d/e/f/big twice/d/e/f/big && cmp src/g/one twice/g/one
'

test_expect_success 'killed while writing: a file is whole or absent, no temp' '
	mkdir huge && (
		cd huge && init-db 2>/dev/null &&
		mkdir sub && seq 1 3000000 >sub/big && echo small >sub/small &&
		update-cache --add sub/big sub/small &&
		write-tree >../huge-tree
	) &&
	seq 1 3000000 >expect-big &&
	mkdir killed && (
		cd killed && init-db 2>/dev/null &&
		SHA1_FILE_DIRECTORY=../huge/.dircache/objects &&
		export SHA1_FILE_DIRECTORY &&
		read-tree $(cat ../huge-tree) &&
		{ checkout-cache -a & } &&
		pid=$! && sleep 0.05 && kill -9 $pid; wait $pid; :
	) &&
	no_temp_left killed &&
	if test -e killed/sub/big; then cmp expect-big killed/sub/big; fi
'

test_done
