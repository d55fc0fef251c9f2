#!/bin/sh
test_description='dircache branch and tag refuse HEAD and @ as new names'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

test_expect_success 'setup: a repository with one commit' '
	mkdir d &&
	(cd d && dircache init 2>/dev/null && echo one >one &&
	 dircache add one && dircache commit -m one >/dev/null) &&
	git init -q g &&
	(cd g && git commit -q --allow-empty -m one)
'

test_expect_success 'git branch refuses HEAD (the reference)' '
	(cd g && test_expect_code 128 git branch HEAD 2>../err) &&
	test_grep "not a valid branch name" err &&
	test_expect_code 128 git check-ref-format --branch HEAD 2>err
'

# "git branch @", "git tag HEAD" and "git tag @" pass in git 2.39 and
# leave HEAD ambiguous ever after ("warning: refname 'HEAD' is
# ambiguous"); we refuse them as we refuse "branch HEAD".
for cmd in branch tag; do
	for name in HEAD @; do
		test_expect_success "$cmd $name is refused, nothing created" "
			repo_state d >before &&
			(cd d && test_expect_code 128 dircache $cmd $name 2>../err) &&
			test_grep \"'$name' is not a valid $cmd name\" err &&
			repo_state d >after &&
			test_cmp before after
		"
	done
done

test_expect_success 'an annotated tag HEAD stores no tag object' '
	repo_state d >before &&
	(cd d && test_expect_code 128 dircache tag -a -m msg HEAD 2>../err) &&
	test_grep "not a valid tag name" err &&
	repo_state d >after &&
	test_cmp before after
'

test_expect_success 'names that merely hold HEAD or @ still work, as in git' '
	(cd d && dircache branch x/HEAD && dircache branch a@b &&
	 dircache tag head && dircache tag v@1) &&
	test -f d/.dircache/refs/heads/x/HEAD &&
	test -f d/.dircache/refs/heads/a@b &&
	test -f d/.dircache/refs/tags/head &&
	test -f d/.dircache/refs/tags/v@1 &&
	git_accepts d
'

test_done
