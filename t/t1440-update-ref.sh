#!/bin/sh
test_description='update-ref writes what git update-ref writes and refuses what it refuses'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

test_expect_success 'setup' '
	git init -q r && cd r &&
	echo a >a && git add a && git commit -q -m one &&
	git tag -a -m t v1
'

test_expect_success 'a commit to a branch, a tag to refs/tags' '
	cd r &&
	update-ref refs/heads/b HEAD &&
	test "$(git rev-parse refs/heads/b)" = "$(git rev-parse HEAD)" &&
	update-ref refs/tags/v2 "$(git rev-parse v1)" &&
	test "$(git rev-parse refs/tags/v2)" = "$(git rev-parse v1)"
'

test_expect_success 'a tree, a blob or a tag to a branch: refused, as git refuses' '
	cd r &&
	for obj in HEAD^{tree} HEAD:a v1
	do
		id=$(git rev-parse "$obj") &&
		test_must_fail git update-ref refs/heads/c "$id" 2>/dev/null &&
		test_expect_code 128 update-ref refs/heads/c "$id" 2>err &&
		test_grep "^update-ref: trying to write non-commit object $id to branch .refs/heads/c.$" err &&
		test_must_fail git rev-parse --verify -q refs/heads/c || return 1
	done
'

test_expect_success 'a tree outside refs/heads is written, as git writes it' '
	cd r &&
	id=$(git rev-parse HEAD^{tree}) &&
	update-ref refs/keep/tree "$id" &&
	test "$(git rev-parse refs/keep/tree)" = "$id"
'

test_done
