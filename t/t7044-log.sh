#!/bin/sh
test_description='dircache log formats and options against git log'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

test_expect_success 'setup: a history with a merge, binaries and odd names' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	(cd r && seq 1 200 >big && seq 1 7 >small &&
	 deep=very/long/directory/name/that/goes/on/and/on/forever/and/ever/still &&
	 mkdir -p $deep && seq 1 3 >$deep/file.txt &&
	 printf "\0bin" >bin && dircache add . &&
	 dircache commit -m one >/dev/null &&
	 seq 1 150 >big && echo x >>small && printf "\0bin22" >bin &&
	 printf "a\nb\n" >"sp ace" && printf "x\n" >"ta	b" &&
	 printf "q\n" >"q\"uote" &&
	 dircache add "sp ace" "ta	b" "q\"uote" &&
	 dircache commit -a -m "two
with more

body here" >/dev/null &&
	 dircache branch side && seq 5 220 >big &&
	 dircache commit -a -m three >/dev/null &&
	 dircache checkout side 2>/dev/null && echo s >>small &&
	 dircache commit -a -m side >/dev/null &&
	 dircache checkout master 2>/dev/null && dircache merge side 2>/dev/null &&
	 dircache rm bin && dircache commit -m "rm bin" >/dev/null &&
	 chmod +x small && dircache add small &&
	 dircache commit -m "mode only" >/dev/null)
'

while read -r opts; do
	test_expect_success "log $opts: byte for byte git log's" '
		(cd r && git --git-dir=.dircache log $opts) >expect &&
		(cd r && dircache log $opts) >out &&
		test_cmp expect out
	'
done <<'LIST'

--oneline
--stat
-p
--stat -p
-p --stat --oneline
--oneline --stat
--oneline -p
-n 2
-n2 --oneline
-3 -p
--max-count=1 --stat
--oneline side
side --stat -n 1
small
-p -- big
--oneline -n 1 -- small
--stat -- very
LIST

test_expect_success 'COLUMNS sets the diffstat width, as in git' '
	(cd r && COLUMNS=50 git --git-dir=.dircache log --stat) >expect &&
	(cd r && COLUMNS=50 dircache log --stat) >out &&
	test_cmp expect out
'

test_expect_success 'log <path> in a subdirectory takes a relative path' '
	(cd r && git --git-dir=.dircache log --oneline -- very/long) >expect &&
	(cd r/very && dircache log --oneline long) >out &&
	test_cmp expect out
'

test_expect_success 'log | head leaves no temporary directory' '
	(cd r && dircache log -p | head -n 1 >/dev/null &&
	 dircache log --stat | head -n 1 >/dev/null) &&
	ls r/.dircache >out &&
	! grep tmp- out
'

test_expect_success 'a bad option or count is a usage error' '
	(cd r && test_expect_code 129 dircache log --bogus &&
	 test_expect_code 129 dircache log -n x)
'

test_done
