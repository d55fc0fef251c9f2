#!/bin/sh
test_description='log-tree: what it prints comes only from objects that passed their checks'
. "$(dirname "$0")/test-lib.sh"

# log-tree reads the trees and blobs of its diffs unverified and
# checks them on another core (check-later.c), holding each commit's
# output until the objects it came from have passed.  An object whose
# content is not its id must fail the command, and nothing of the diff
# it was read for may be printed; the commits before it are.

. "$TEST_DIRECTORY/lib-corrupt.sh"

# upto FILE N: FILE's lines before the Nth commit's diff: the commits
# before it, then its header and message.
upto() {
	awk -v n=$2 '/^commit / { c++ }
		c < n { print; next }
		c == n { if (msg && ($0 == "" || $0 == "---")) exit; if (/^    /) msg = 1; print }
	' "$1"
}

# fails_before OPTIONS OLD OTHER N: with the object OLD names swapped
# for OTHER's, log-tree OPTIONS exits 128 naming it and prints the
# commits before the Nth, then that one's header and message alone.
fails_before() {
	rm -rf c && cp -R r c &&
	old=$(GIT_DIR=c/.git git rev-parse "$2") &&
	other=$(GIT_DIR=c/.git git rev-parse "$3") &&
	GIT_DIR=c/.git COLUMNS=80 log-tree $1 >good &&
	swap c $old $other &&
	test_expect_code 128 env GIT_DIR=c/.git COLUMNS=80 \
		log-tree $1 >out 2>err &&
	test_grep "hash mismatch $old" err &&
	upto good $4 >before &&
	test_cmp before out
}

test_expect_success 'setup: five commits changing files at two depths' '
	git init -q r &&
	(
		cd r &&
		mkdir -p d/e &&
		echo one >a && echo two >d/b && echo three >d/e/c &&
		git add . && git commit -q -m one &&
		echo ONE >a && echo TWO >d/b &&
		git commit -q -a -m two &&
		echo again >a && git commit -q -a -m three &&
		echo deep >>d/e/c && git commit -q -a -m four &&
		echo last >>a && git commit -q -a -m five
	)
'

test_expect_success 'a good store: --stat and -p are git'"'"'s' '
	for o in --stat -p "--stat -p" "--stat --oneline"; do
		GIT_DIR=r/.git COLUMNS=80 log-tree $o >ours &&
		GIT_DIR=r/.git COLUMNS=80 git log --no-renames $o >theirs &&
		test_cmp theirs ours || return 1
	done
'

test_expect_success 'a blob not its id: --stat fails, that diff unprinted' '
	fails_before "--stat" "HEAD~4:d/b" "HEAD~4:d/e/c" 4
'

test_expect_success 'a blob not its id: -p fails, no patch of it printed' '
	fails_before "-p" "HEAD~3:a" "HEAD~4:a" 3
'

test_expect_success 'a subtree not its id: --stat fails, that diff unprinted' '
	fails_before "--stat" "HEAD~1:d/e" "HEAD~2:d/e" 2
'

test_expect_success 'a root tree not its id: -p --stat fails at its child' '
	fails_before "-p --stat" "HEAD~2^{tree}" "HEAD~3^{tree}" 2
'

test_expect_success 'a missing blob: the commits before it, then 128' '
	rm -rf c && cp -R r c &&
	old=$(GIT_DIR=c/.git git rev-parse HEAD~3:a) &&
	GIT_DIR=c/.git COLUMNS=80 log-tree --stat >good &&
	rm -f "$(loose c $old)" &&
	test_expect_code 128 env GIT_DIR=c/.git COLUMNS=80 \
		log-tree --stat >out 2>err &&
	test_grep "$old" err &&
	upto good 3 >before &&
	test_cmp before out
'

test_expect_success 'output past the held bound comes out whole and in order' '
	git init -q big &&
	(
		cd big &&
		echo a >x && git add . && git commit -q -m one &&
		seq 1 700000 >f && echo b >x && git add . &&
		git commit -q -m two &&
		seq 2 700001 >f && git commit -q -a -m three
	) &&
	GIT_DIR=big/.git log-tree -p --stat >ours &&
	GIT_DIR=big/.git git log --no-renames -p --stat >theirs &&
	test $(wc -c <theirs) -gt 4194304 &&
	test_cmp theirs ours
'

test_expect_success 'the porcelain: dircache log --stat fails too' '
	rm -rf c && cp -R r c &&
	old=$(GIT_DIR=c/.git git rev-parse HEAD~4:d/b) &&
	other=$(GIT_DIR=c/.git git rev-parse HEAD~4:d/e/c) &&
	swap c $old $other &&
	(
		cd c &&
		test_must_fail dircache log --stat >../out 2>../err
	) &&
	test_grep "hash mismatch $old" err
'

test_expect_success 'a long history: held output comes out whole and in order' '
	git init -q h &&
	(
		cd h &&
		for d in $(seq 1 20); do
			mkdir -p d$d/sub && echo $d >d$d/f && echo $d >d$d/sub/g
		done &&
		git add . && git commit -q -m base &&
		for i in $(seq 1 60); do
			d=$((i * 7 % 20 + 1)) &&
			seq 1 $((i * 50)) >>d$d/sub/g && echo $i >>d$((i % 20 + 1))/f &&
			git commit -q -a -m c$i || return 1
		done
	) &&
	for o in "--stat" "-p --stat" "-n 7 -p"; do
		GIT_DIR=h/.git COLUMNS=80 log-tree $o >ours &&
		GIT_DIR=h/.git COLUMNS=80 git log --no-renames $o >theirs &&
		test_cmp theirs ours || return 1
	done
'

test_expect_success 'a full disk past the stdio buffer: exit 128, said once' '
	test -w /dev/full || return 0
	git init -q mid &&
	(
		cd mid &&
		echo a >f && git add f && git commit -q -m one &&
		seq 1 5000 >g && git add g && git commit -q -m two
	) &&
	test_expect_code 128 env GIT_DIR=mid/.git log-tree -p >/dev/full 2>err &&
	test_grep "No space left on device" err &&
	test $(wc -l <err) = 1
'

test_done
