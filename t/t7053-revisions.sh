#!/bin/sh
test_description='git revision syntax in the porcelain, from a subdirectory, against git'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# git on the repository r, run from where we are.
git_r() {
	git --git-dir="$TRASH_DIRECTORY/r/.dircache" \
		--work-tree="$TRASH_DIRECTORY/r" "$@"
}

test_expect_success 'setup: two commits touching d/e/a' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	mkdir -p r/.dircache/info && echo /.dircache >r/.dircache/info/exclude &&
	mkdir -p r/d/e && echo a >r/d/e/a && echo b >r/b && echo c >r/d/c &&
	(cd r && dircache add . && dircache commit -m one >/dev/null) &&
	echo a2 >>r/d/e/a && echo c2 >>r/d/c &&
	(cd r && dircache commit -a -m two >/dev/null) &&
	echo a3 >>r/d/e/a
'

test_expect_success 'show <rev>:<path>, relative with ./ and ../, as git' '
	for rev in HEAD:./e/a HEAD~1:./e/a @:../b HEAD:d/c "HEAD^{tree}:b"; do
		(cd r/d && git_r show "$rev") >expect &&
		(cd r/d && dircache show "$rev") >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'show :<path> and :0:<path> from the index, as git' '
	for rev in :./e/a :../b :0:d/c; do
		(cd r/d && git_r show "$rev") >expect &&
		(cd r/d && dircache show "$rev") >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'diff between <rev>:<dir> trees and with @, as git' '
	(cd r/d && git_r diff HEAD~1:d HEAD:./) >expect &&
	(cd r/d && dircache diff HEAD~1:d HEAD:./) >actual &&
	test_cmp expect actual &&
	(cd r/d && git_r diff @~1 @) >expect &&
	(cd r/d && dircache diff @~1 @) >actual &&
	test_cmp expect actual
'

test_expect_success 'diff takes a path without --, in any place git does' '
	(cd r/d && git_r diff e/a) >expect &&
	(cd r/d && dircache diff e/a) >actual &&
	test_cmp expect actual &&
	(cd r/d && git_r diff HEAD~1 e/a) >expect &&
	(cd r/d && dircache diff HEAD~1 e/a) >actual &&
	test_cmp expect actual &&
	(cd r/d && git_r diff --cached HEAD~1 c) >expect &&
	(cd r/d && dircache diff HEAD~1 --cached c) >actual &&
	test_cmp expect actual &&
	test -s actual
'

test_expect_success 'diff --name-only and --name-status in every form, as git' '
	echo staged >>r/d/c && (cd r && dircache add d/c) &&
	for args in "--name-only" "--name-status" "--cached --name-only" \
		"--name-status HEAD" "HEAD~1 HEAD --name-status" \
		"--name-only -- e" "--name-status ../b" "HEAD --name-only c"; do
		# shellcheck disable=SC2086
		(cd r/d && git_r diff $args) >expect &&
		(cd r/d && dircache diff $args) >actual &&
		test_cmp expect actual || return 1
	done &&
	(cd r && dircache reset -q) &&
	test -z "$(ls -d r/.dircache/tmp-* 2>/dev/null)"
'

test_expect_success 'diff of a word that is neither: refused in git words' '
	(cd r/d && test_expect_code 128 dircache diff nosuch 2>../../err) &&
	test_grep "ambiguous argument .nosuch.: unknown revision or path" err
'

test_expect_success 'branch, tag, reset and checkout take HEAD~1, @ and <rev>:<path>' '
	(cd r/d && dircache branch old @~1 && dircache tag t1 HEAD~1 &&
	 dircache tag blob HEAD:./c) &&
	test "$(git_r rev-parse old)" = "$(git_r rev-parse HEAD~1)" &&
	test "$(git_r rev-parse t1)" = "$(git_r rev-parse HEAD~1)" &&
	test "$(git_r rev-parse blob)" = "$(git_r rev-parse HEAD:d/c)" &&
	(cd r/d && dircache checkout @~1 -- e/a) &&
	git_r show HEAD~1:d/e/a >expect &&
	test_cmp expect r/d/e/a &&
	(cd r/d && dircache reset -q @~1) &&
	test "$(git_r rev-parse HEAD)" = "$(git_r rev-parse old)"
'

test_expect_success 'a path outside the tree or missing: refused, nothing changed' '
	repo_state r >before &&
	(cd r/d && test_must_fail dircache show HEAD:../../b 2>../../err) &&
	(cd r/d && test_must_fail dircache diff HEAD:nosuch HEAD 2>>../../err) &&
	(cd r/d && test_must_fail dircache branch x HEAD:nosuch 2>>../../err) &&
	repo_state r >after &&
	test_cmp before after &&
	(cd r && test_must_fail rev-parse HEAD:nosuch 2>../err) &&
	test_grep "path .nosuch. does not exist in .HEAD." err
'

test_expect_success 'paths with .. from a subdirectory, as git reads them' '
	echo b2 >>r/b &&
	(cd r/d && git_r diff ../b) >expect &&
	(cd r/d && dircache diff ../b) >actual &&
	test_cmp expect actual && test -s actual &&
	(cd r/d && git_r diff HEAD -- e/../../b) >expect &&
	(cd r/d && dircache diff HEAD -- e/../../b) >actual &&
	test_cmp expect actual &&
	(cd r/d/e && dircache add ../../b) &&
	(cd r/d && dircache status -s) >actual &&
	(cd r/d && git_r status -s) >expect &&
	test_cmp expect actual &&
	(cd r/d/e && dircache reset -q -- ../../b) &&
	(cd r/d && git_r diff --cached --stat) >actual &&
	test_must_fail test -s actual
'

test_expect_success 'a path above the top: refused in git words, nothing changed' '
	repo_state r >before &&
	(cd r/d && test_expect_code 128 dircache diff -- ../../b 2>../../err) &&
	test_grep "../../b. is outside the repository" err &&
	(cd r/d && test_expect_code 128 dircache restore ../../b 2>../../err) &&
	test_grep "../../b. is outside the repository" err &&
	(cd r/d && test_must_fail dircache add ../../b 2>../../err) &&
	test_grep "outside the repository" err &&
	repo_state r >after &&
	test_cmp before after
'

test_expect_success 'options after the paths, as git takes them' '
	echo "*.o" >r/.gitignore && echo o >r/d/x.o &&
	(cd r/d && dircache add x.o -f) &&
	git_r ls-files -s d/x.o >actual &&
	test -s actual &&
	(cd r/d && dircache restore x.o --staged) &&
	git_r ls-files d/x.o >actual &&
	test_must_fail test -s actual &&
	echo changed >>r/d/c &&
	(cd r/d && dircache restore c -s HEAD) &&
	git_r show HEAD:d/c >expect &&
	test_cmp expect r/d/c &&
	echo changed >>r/d/c &&
	(cd r/d && dircache restore c -W --source @) &&
	test_cmp expect r/d/c
'

test_expect_success 'rm: ../ paths, -f after them, the refusal changes nothing' '
	echo t >r/top && (cd r && dircache add top) &&
	echo more >>r/top &&
	repo_state r >before &&
	(cd r/d && test_expect_code 128 dircache rm ../top 2>../../err) &&
	test_grep "has changes not in the index" err &&
	repo_state r >after &&
	test_cmp before after &&
	(cd r/d && dircache rm ../top -f) &&
	test ! -e r/top &&
	test_must_fail git_r ls-files --error-unmatch top
'

test_done
