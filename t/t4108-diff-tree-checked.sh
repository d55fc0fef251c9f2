#!/bin/sh
test_description='diff-tree: what it prints comes only from objects that passed their checks'
. "$(dirname "$0")/test-lib.sh"

# diff-tree reads objects unverified and checks them on another core
# (check-later.c), holding its output until the checks pass.  An
# object whose content is not its id must stop it before it prints
# anything of that diff, even the lines that came before the object.

. "$TEST_DIRECTORY/lib-corrupt.sh"

test_expect_success 'setup: two commits changing a file before a directory' '
	git init -q r &&
	(
		cd r &&
		mkdir d &&
		echo one >a && echo two >d/b && echo three >d/c &&
		git add . && git commit -q -m one &&
		echo ONE >a && echo TWO >d/b &&
		git commit -q -a -m two &&
		echo again >a && git commit -q -a -m three
	)
'

test_expect_success 'a good store: the output is git'"'"'s' '
	GIT_DIR=r/.git diff-tree -r -p HEAD~2 HEAD~1 >ours &&
	GIT_DIR=r/.git git diff-tree -r -p HEAD~2 HEAD~1 >theirs &&
	test_cmp theirs ours
'

test_expect_success 'a subtree not its id: refused, nothing printed' '
	rm -rf c && cp -R r c &&
	old=$(GIT_DIR=c/.git git rev-parse HEAD~2:d) &&
	new=$(GIT_DIR=c/.git git rev-parse HEAD~1:d) &&
	swap c $old $new &&
	test_expect_code 128 env GIT_DIR=c/.git \
		diff-tree -r HEAD~2 HEAD~1 >out 2>err &&
	test_grep "hash mismatch $old" err &&
	test ! -s out
'

test_expect_success 'a blob not its id: refused, no patch printed' '
	rm -rf c && cp -R r c &&
	old=$(GIT_DIR=c/.git git rev-parse HEAD~2:d/b) &&
	other=$(GIT_DIR=c/.git git rev-parse HEAD~2:d/c) &&
	swap c $old $other &&
	test_expect_code 128 env GIT_DIR=c/.git \
		diff-tree -p HEAD~2 HEAD~1 >out 2>err &&
	test_grep "hash mismatch $old" err &&
	test ! -s out
'

test_expect_success '--stdin: the diffs before the bad object are printed' '
	rm -rf c && cp -R r c &&
	GIT_DIR=c/.git git rev-parse HEAD HEAD~1 >in &&
	GIT_DIR=c/.git diff-tree --stdin -r -p <in >want &&
	GIT_DIR=c/.git git rev-parse HEAD >in1 &&
	GIT_DIR=c/.git diff-tree --stdin -r -p <in1 >first &&
	test -s first &&
	old=$(GIT_DIR=c/.git git rev-parse HEAD~2:d) &&
	new=$(GIT_DIR=c/.git git rev-parse HEAD~1:d) &&
	swap c $old $new &&
	test_expect_code 128 env GIT_DIR=c/.git \
		diff-tree --stdin -r -p <in >out 2>err &&
	test_grep "hash mismatch $old" err &&
	test_cmp first out
'

test_expect_success 'output past the held bound comes out whole and in order' '
	git init -q big &&
	(
		cd big &&
		echo a >x && git add . && git commit -q -m one &&
		seq 1 700000 >f && echo b >x && git add . &&
		git commit -q -m two
	) &&
	GIT_DIR=big/.git diff-tree -p HEAD~1 HEAD >ours &&
	GIT_DIR=big/.git git diff-tree -p HEAD~1 HEAD >theirs &&
	test $(wc -c <theirs) -gt 4194304 &&
	test_cmp theirs ours
'

test_expect_success '--stdin down a history: trees kept between diffs' '
	git init -q h &&
	(
		cd h &&
		for d in $(seq 1 40); do
			mkdir -p d$d/sub && echo $d >d$d/f && echo $d >d$d/sub/g
		done &&
		git add . && git commit -q -m base &&
		for i in $(seq 1 80); do
			d=$((i * 7 % 40 + 1)) &&
			echo $i >>d$d/sub/g && echo $i >>d$((i % 40 + 1))/f &&
			git commit -q -a -m c$i || return 1
		done
	) &&
	GIT_DIR=h/.git git rev-list --first-parent --parents HEAD |
		awk "NF > 1 { print \$1, \$2 }" >in &&
	GIT_DIR=h/.git diff-tree --stdin -r -p <in >ours &&
	GIT_DIR=h/.git git diff-tree --stdin -r -p <in >theirs &&
	test_cmp theirs ours &&
	GIT_DIR=h/.git git rev-list HEAD >in &&
	GIT_DIR=h/.git diff-tree --stdin -r <in >ours &&
	GIT_DIR=h/.git git diff-tree --stdin -r <in >theirs &&
	test_cmp theirs ours
'

test_expect_success 'wide trees: the far end read ahead, output git'"'"'s' '
	git init -q w &&
	(
		cd w &&
		for d in $(seq 1 12); do
			for e in $(seq 1 6); do
				mkdir -p d$d/e$e/f &&
				echo $d$e >d$d/e$e/x && echo $e >d$d/e$e/f/y ||
				return 1
			done
		done &&
		git add . && git commit -q -m one &&
		for d in $(seq 1 12); do
			for e in 2 4 5; do
				echo changed >>d$d/e$e/f/y || return 1
			done &&
			rm -r d$d/e6 && mkdir d$d/new && echo n >d$d/new/z ||
			return 1
		done &&
		git add -A . && git commit -q -m two
	) &&
	GIT_DIR=w/.git diff-tree -r HEAD~1 HEAD >ours &&
	GIT_DIR=w/.git git diff-tree -r HEAD~1 HEAD >theirs &&
	test_cmp theirs ours &&
	GIT_DIR=w/.git diff-tree -r -p HEAD HEAD~1 >ours &&
	GIT_DIR=w/.git git diff-tree -r -p HEAD HEAD~1 >theirs &&
	test_cmp theirs ours
'

test_expect_success 'wide trees: a bad tree far from the start is refused' '
	rm -rf c && cp -R w c &&
	old=$(GIT_DIR=c/.git git rev-parse HEAD~1:d9/e4/f) &&
	new=$(GIT_DIR=c/.git git rev-parse HEAD:d9/e4/f) &&
	swap c $old $new &&
	test_expect_code 128 env GIT_DIR=c/.git \
		diff-tree -r HEAD~1 HEAD >out 2>err &&
	test_grep "hash mismatch $old" err &&
	test ! -s out
'

test_expect_success 'a full disk past the stdio buffer: exit 128, said once' '
	test -w /dev/full || return 0
	git init -q mid &&
	(
		cd mid &&
		echo a >f && git add f && git commit -q -m one &&
		seq 1 5000 >g && git add g && git commit -q -m two
	) &&
	test_expect_code 128 env GIT_DIR=mid/.git diff-tree -p HEAD~1 HEAD >/dev/full 2>err &&
	test_grep "No space left on device" err &&
	test $(wc -l <err) = 1
'

test_done
