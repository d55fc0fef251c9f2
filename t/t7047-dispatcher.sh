#!/bin/sh
test_description='dircache --version, help <command>, typos and symlinks'
. "$(dirname "$0")/test-lib.sh"

test_expect_success '--version' '
	dircache --version >out &&
	test_grep "^dircache version [0-9]" out
'

test_expect_success 'help <command> gives its usage when it has no manual page' '
	mkdir nopage &&
	cp "$TOP/dircache" "$TOP/dircache-reset" "$TOP/dircache-lib.sh" nopage/ &&
	MANPATH="$PWD" nopage/dircache help reset >out &&
	dircache reset -h >expect &&
	test_cmp expect out &&
	test_expect_code 129 dircache help nosuch 2>err &&
	test_grep "not a dircache command" err
'

test_expect_success 'a typo: the most similar command, as git words it' '
	test_expect_code 129 dircache sttus 2>err &&
	printf "%s\n" "dircache: '"'sttus'"' is not a dircache command; see '"'dircache help'"'" \
		"" "The most similar command is" "	status" >expect &&
	test_cmp expect err &&
	test_expect_code 129 dircache lgo 2>err &&
	test_grep "^	log$" err &&
	test_expect_code 129 dircache comit 2>err &&
	test_grep "^	commit$" err
'

test_expect_success 'a prefix: every command it starts, sorted' '
	test_expect_code 129 dircache rese 2>err &&
	test_grep "^	reset$" err &&
	test_expect_code 129 dircache re 2>err &&
	test_grep "The most similar commands are" err &&
	sed -n "s/^	//p" err >names &&
	LC_ALL=C sort names >sorted &&
	test_cmp sorted names &&
	test_grep "^remote$" names && test_grep "^restore$" names
'

test_expect_success 'nothing near: no list' '
	test_expect_code 129 dircache xyzzyq 2>err &&
	! test_grep "similar" err
'

test_expect_success 'reached through a symlink, it finds its commands' '
	mkdir bin && ln -s "$TOP/dircache" bin/dircache &&
	mkdir r && (cd r && ../bin/dircache init 2>/dev/null &&
	 echo a >a && ../bin/dircache add a &&
	 ../bin/dircache commit -m one >/dev/null &&
	 ../bin/dircache log --oneline) >out &&
	test_grep " one$" out
'

test_done
