#!/bin/sh
test_description='init-db: the layout, and running it twice'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'init-db creates a layout git accepts' '
	init-db 2>err &&
	test_grep "^init-db: initialized empty dircache in .*/\.dircache/$" err &&
	test -d .dircache/objects && test -d .dircache/refs/heads &&
	test -d .dircache/refs/tags &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect .dircache/HEAD &&
	GIT_DIR=.dircache git fsck --strict 2>err &&
	! grep -v "^notice" err &&
	GIT_DIR=.dircache git rev-parse --git-dir
'

test_expect_success 'a second run says it reinitialized and loses nothing' '
	echo data >f && update-cache --add f &&
	echo "ref: refs/heads/other" >.dircache/HEAD &&
	cp .dircache/index index.before &&
	init-db 2>err &&
	test_grep "reinitialized existing dircache" err &&
	cmp index.before .dircache/index &&
	echo "ref: refs/heads/other" >expect &&
	test_cmp expect .dircache/HEAD &&
	test -f "$(echo .dircache/objects/$(git hash-object f | sed "s|^..|&/|"))"
'

test_expect_success 'stdout stays empty' '
	rm -rf q && mkdir q && cd q &&
	init-db >out 2>/dev/null &&
	test_must_fail test -s out
'

test_expect_success 'GIT_DIR names the directory' '
	rm -rf g && mkdir g && cd g &&
	GIT_DIR=meta init-db 2>/dev/null &&
	test -f meta/HEAD && test -d meta/objects && ! test -d .dircache
'

test_expect_success 'SHA1_FILE_DIRECTORY moves the object store' '
	rm -rf s && mkdir s && cd s &&
	SHA1_FILE_DIRECTORY=$PWD/store init-db 2>/dev/null &&
	test -d store && test -f .dircache/HEAD &&
	echo x >x && SHA1_FILE_DIRECTORY=$PWD/store update-cache --add x &&
	test -f store/$(git hash-object x | sed "s|^..|&/|")
'

test_expect_success 'extra arguments are a usage error' '
	test_expect_code 129 init-db extra 2>err &&
	test_grep "^usage: init-db" err
'

test_done
