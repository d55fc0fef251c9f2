#!/bin/sh
test_description='apply --reject and -v: what applies is written, the rest in .rej'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-apply.sh"

test_expect_success 'setup: a tree where one hunk of three no longer applies' '
	apply_setup &&
	pair &&
	for d in ours theirs; do
		sed -i "s/^line 50\$/line fifty, changed here/" $d/text ||
		return 1
	done
'

test_expect_success '--reject writes the good hunks and text.rej as git does' '
	(cd ours && test_expect_code 1 apply --reject ../patches/modify \
		2>../err) &&
	(cd theirs && test_must_fail git apply --reject ../patches/modify \
		2>../git-err) &&
	tree_of ours >got &&
	tree_of theirs >want &&
	test_cmp want got &&
	test_cmp theirs/text.rej ours/text.rej &&
	test_grep "^Rejected hunk #2.\$" err &&
	grep -v "^error: \|^apply: " git-err >git-said &&
	grep -v "^error: \|^apply: " err >we-said &&
	test_cmp git-said we-said &&
	test_grep "text: hunk #2 (line 47) does not apply" err
'

test_expect_success '--reject with nothing rejected: exit 0, no .rej' '
	pair &&
	(cd ours && apply --reject ../patches/add 2>../err) &&
	(cd theirs && git apply --reject ../patches/add 2>../git-err) &&
	test_cmp git-err err &&
	! test -e ours/added.rej &&
	tree_of ours >got &&
	tree_of theirs >want &&
	test_cmp want got
'

test_expect_success '--reject still refuses what is not a hunk failure' '
	pair &&
	state_of ours >before &&
	sed "s|text|no-such|g" patches/modify >bad &&
	(cd ours && test_must_fail apply --reject ../bad 2>../err) &&
	state_of ours >after &&
	test_cmp before after
'

test_expect_success '-v says what git apply -v says' '
	pair &&
	for p in modify rename quoted; do
		pair &&
		(cd ours && apply -v ../patches/$p 2>../err) &&
		(cd theirs && git apply -v ../patches/$p 2>../git-err) &&
		test_cmp git-err err || return 1
	done
'

test_expect_success '--check -v checks every file, writes nothing' '
	pair &&
	state_of ours >before &&
	(cd ours && apply --check -v ../patches/rename 2>../err) &&
	(cd theirs && git apply --check -v ../patches/rename 2>../git-err) &&
	test_cmp git-err err &&
	state_of ours >after &&
	test_cmp before after
'

test_done
