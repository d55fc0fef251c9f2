#!/bin/sh
test_description='dircache log, show and diff: a pager and colour on a terminal only'
. "$(dirname "$0")/test-lib.sh"

if ! command -v script >/dev/null 2>&1; then
	echo "1..0 # SKIP script(1) is not installed"
	exit 0
fi

# on_tty CMD: CMD run on a pseudo-terminal (script from util-linux),
# its output (the terminal's, with CRs dropped) on stdout.
on_tty() {
	script -qec "$1" /dev/null </dev/null | tr -d '\r'
}

ESC=$(printf '\033')
unset NO_COLOR PAGER DIRCACHE_PAGER COLUMNS

test_expect_success 'setup: a repository and a pager that notes it ran' '
	mkdir r && (cd r && dircache init 2>/dev/null &&
	 printf "a\nb\n" >f && dircache add f &&
	 dircache commit -m one >/dev/null &&
	 printf "a\nc\n" >f && dircache commit -a -m two >/dev/null &&
	 echo d >>f) &&
	mkdir bin &&
	printf "#!/bin/sh\necho \"ran \$0 LESS=\$LESS\" >>\"%s/pager.log\"\ncat\n" \
		"$PWD" >bin/pager &&
	cp bin/pager bin/less && chmod +x bin/pager bin/less
'

test_expect_success 'log on a terminal goes through DIRCACHE_PAGER, with LESS=FRX' '
	rm -f pager.log &&
	(cd r && unset LESS &&
	 DIRCACHE_PAGER=../bin/pager on_tty "dircache log --oneline") >out &&
	test_grep "ran ../bin/pager LESS=FRX" pager.log &&
	test_grep "two" out
'

test_expect_success 'a LESS of the user is kept' '
	rm -f pager.log &&
	(cd r && LESS=-S DIRCACHE_PAGER=../bin/pager on_tty "dircache log") &&
	test_grep "LESS=-S" pager.log
'

test_expect_success 'PAGER when DIRCACHE_PAGER is unset; DIRCACHE_PAGER first' '
	rm -f pager.log &&
	(cd r && unset DIRCACHE_PAGER &&
	 PAGER=../bin/pager on_tty "dircache show") >out &&
	test_grep "ran ../bin/pager" pager.log &&
	rm -f pager.log &&
	(cd r && PAGER=false DIRCACHE_PAGER=../bin/pager on_tty "dircache diff") &&
	test_grep "ran ../bin/pager" pager.log
'

test_expect_success 'less by default' '
	rm -f pager.log &&
	(cd r && unset DIRCACHE_PAGER PAGER &&
	 PATH="$TRASH_DIRECTORY/bin:$PATH" on_tty "dircache log") &&
	test_grep "ran .*bin/less" pager.log
'

test_expect_success 'an empty pager or cat is none; --no-pager and -P too' '
	rm -f pager.log &&
	(cd r && unset PAGER &&
	 DIRCACHE_PAGER= on_tty "dircache log" &&
	 DIRCACHE_PAGER=cat on_tty "dircache log" &&
	 PAGER=../bin/pager DIRCACHE_PAGER=cat on_tty "dircache log" &&
	 DIRCACHE_PAGER=../bin/pager on_tty "dircache --no-pager log" &&
	 DIRCACHE_PAGER=../bin/pager on_tty "dircache -P show") >out &&
	! test -f pager.log &&
	test_grep "two" out
'

test_expect_success 'no pager and no colour when stdout is not a terminal' '
	rm -f pager.log &&
	(cd r && DIRCACHE_PAGER=../bin/pager dircache log -p &&
	 DIRCACHE_PAGER=../bin/pager dircache diff) >out &&
	! test -f pager.log &&
	! grep "$ESC" out
'

test_expect_success 'colour on a terminal: commit line, headers, lines' '
	(cd r && DIRCACHE_PAGER=../bin/pager on_tty "dircache log -p -1") >out &&
	test_grep "^${ESC}\[33mcommit " out &&
	test_grep "^${ESC}\[1mdiff --git a/f b/f" out &&
	test_grep "^${ESC}\[31m-b${ESC}\[m" out &&
	test_grep "^${ESC}\[32m+${ESC}\[m${ESC}\[32mc${ESC}\[m" out &&
	(cd r && on_tty "dircache -P diff") >out &&
	test_grep "^${ESC}\[32m+${ESC}\[m${ESC}\[32md${ESC}\[m" out &&
	(cd r && on_tty "dircache -P show --stat") >out &&
	test_grep "${ESC}\[32m+${ESC}\[m${ESC}\[31m-${ESC}\[m" out
'

test_expect_success 'NO_COLOR (any value), --no-color, --color=never: none' '
	(cd r && NO_COLOR= on_tty "dircache -P log -p" &&
	 NO_COLOR=1 on_tty "dircache -P diff" &&
	 on_tty "dircache -P log --no-color -p" &&
	 on_tty "dircache -P show --color=never" &&
	 on_tty "dircache -P diff --no-color") >out &&
	test_grep "diff --git" out &&
	! grep "$ESC" out
'

test_expect_success '--color=always colours into a pipe, even with NO_COLOR' '
	(cd r && NO_COLOR=1 dircache log --color=always -1 &&
	 dircache diff --color &&
	 dircache show --color=always --oneline) >out &&
	test_grep "^${ESC}\[33mcommit " out &&
	test_grep "^${ESC}\[1mdiff --git" out &&
	test_grep "^${ESC}\[33m[0-9a-f]*${ESC}\[m two" out
'

test_expect_success 'the status of the command comes through the pager' '
	(cd r && DIRCACHE_PAGER=../bin/pager \
	 on_tty "dircache log --bogus; echo status=\$?") >out &&
	test_grep "status=129" out &&
	test_grep "usage: dircache log" out &&
	(cd r && DIRCACHE_PAGER=../bin/pager \
	 on_tty "dircache log; echo status=\$?") >out &&
	test_grep "status=0" out &&
	test_expect_code 129 dircache log --color=sometimes
'

test_expect_success 'the pager gets the terminal width in COLUMNS' '
	rm -f pager.log &&
	printf "#!/bin/sh\necho \"cols=\$COLUMNS\" >>\"%s/pager.log\"\ncat\n" \
		"$PWD" >bin/colpager && chmod +x bin/colpager &&
	(cd r && unset COLUMNS &&
	 DIRCACHE_PAGER=../bin/colpager on_tty "stty cols 123; dircache log") &&
	test_grep "cols=123" pager.log
'

test_done
