#!/bin/sh
test_description='the porcelain with stderr closed or full: work done means exit 0, as git'
. "$(dirname "$0")/test-lib.sh"

# run_both HOW CMD...: CMD with stderr closed (HOW=closed) or on
# /dev/full (HOW=full); its exit status on stdout.
run_both() {
	how=$1
	shift
	if [ "$how" = closed ]; then
		"$@" 2>&-
	else
		"$@" 2>/dev/full
	fi
	echo $?
}

for how in closed full; do

test_expect_success "$how stderr: switch, switch -c, checkout -b exit 0 after switching" '
	rm -rf r && git init -q r && cd r &&
	echo a >a && git add a && git commit -q -m one &&
	git branch other &&
	test "$(run_both '$how' dircache switch other)" = 0 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/other &&
	test "$(run_both '$how' dircache switch -c new)" = 0 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/new &&
	test "$(run_both '$how' dircache checkout -b newer)" = 0 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/newer &&
	test "$(run_both '$how' dircache checkout other)" = 0 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/other &&
	test "$(run_both '$how' git switch new)" = 0
'

test_expect_success "$how stderr: reset, restore, add, rm, commit, branch -d" '
	cd r && echo b >>a &&
	test "$(run_both '$how' dircache add a)" = 0 &&
	test "$(run_both '$how' dircache reset -q)" = 0 &&
	test "$(run_both '$how' dircache restore a)" = 0 &&
	git diff --quiet &&
	echo c >c && dircache add c &&
	test "$(run_both '$how' dircache commit -q -m two)" = 0 &&
	test "$(run_both '$how' dircache rm c 2>/dev/null | tail -n 1)" = 0 &&
	test "$(run_both '$how' dircache reset --hard | tail -n 1)" = 0 &&
	test -f c &&
	test "$(run_both '$how' dircache branch -d newer | tail -n 1)" = 0 &&
	test_must_fail git rev-parse --verify -q refs/heads/newer
'

test_expect_success "$how stderr: a refusal still fails, before doing anything" '
	cd r && head=$(git rev-parse HEAD) &&
	test "$(run_both '$how' dircache switch nope)" = 128 &&
	test "$(run_both '$how' dircache commit -m nothing)" = 128 &&
	test "$(git rev-parse HEAD)" = "$head"
'

done

test_done
