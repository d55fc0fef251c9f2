#!/bin/sh
test_description='diff-tree --stdin: many diffs in one process, as git'"'"'s'
. "$(dirname "$0")/test-lib.sh"

# A history made with git (a root, changes, a merge, a commit that
# changes nothing) is fed to our diff-tree --stdin and git's, line for
# line the same input; the outputs must be the same bytes.

# same OPTIONS...: both read the file "in" and print the same.
same() {
	GIT_DIR=r/.git diff-tree --stdin "$@" <in >ours &&
	GIT_DIR=r/.git git diff-tree --stdin "$@" <in >theirs &&
	test_cmp theirs ours
}

test_expect_success 'setup: a history with a root, a merge, an empty commit' '
	git init -q r &&
	(
		cd r &&
		mkdir dir &&
		echo one >a && echo two >dir/b && echo three >dir/c &&
		git add . && git commit -q -m root &&
		echo changed >a && git rm -q dir/c &&
		git commit -q -a -m change &&
		git checkout -q -b side HEAD~1 &&
		echo side >dir/new && git add dir/new &&
		git commit -q -m side &&
		git checkout -q - &&
		git merge -q --no-edit side &&
		git commit -q --allow-empty -m empty &&
		echo last >>dir/b && git commit -q -a -m last
	) &&
	GIT_DIR=r/.git git rev-list --all >in &&
	wc -l <in >count &&
	echo 6 >want &&
	test_cmp want count
'

test_expect_success 'commits: each id, then its changes; roots, merges, empty ones print nothing' '
	same -r &&
	same -r -p &&
	same &&
	grep -c "^[0-9a-f]\{$OID_HEXSZ\}\$" ours >count &&
	echo 3 >want &&
	test_cmp want count
'

test_expect_success '-z ends the id with a NUL' '
	same -r -z
'

test_expect_success 'paths limit the diffs, and so which ids are printed' '
	same -r -- dir &&
	same -r -p -- a
'

test_expect_success 'parents given on the line replace the commit'"'"'s' '
	GIT_DIR=r/.git git rev-parse HEAD HEAD~3 >ids &&
	echo "$(sed -n 1p ids) $(sed -n 2p ids)" >in &&
	GIT_DIR=r/.git git rev-parse side >>in &&
	same -r
'

test_expect_success 'two trees on a line; other lines copied through' '
	{
		echo "a line that is not an id" &&
		echo "$(GIT_DIR=r/.git git rev-parse HEAD~3^{tree}) $(GIT_DIR=r/.git git rev-parse HEAD^{tree})" &&
		echo "" &&
		GIT_DIR=r/.git git rev-parse HEAD
	} >in &&
	same -r -p
'

test_expect_success 'a last line without its newline is dropped, as git drops it' '
	printf "%s" "$(GIT_DIR=r/.git git rev-parse HEAD)" >in &&
	same -r &&
	: >empty &&
	test_cmp empty ours
'

test_done
