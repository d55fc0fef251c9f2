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

test_expect_success 'the ref file is the bytes git update-ref writes' '
	cd r &&
	update-ref refs/heads/ours HEAD &&
	git update-ref refs/heads/theirs HEAD &&
	cmp .git/refs/heads/theirs .git/refs/heads/ours &&
	test $(wc -c <.git/refs/heads/ours) = $((OID_HEXSZ + 1)) &&
	update-ref refs/tags/ours v1 &&
	git update-ref refs/tags/theirs v1 &&
	cmp .git/refs/tags/theirs .git/refs/tags/ours
'

test_expect_success '<old-id>: the whole id of the store, all zeros for a new ref' '
	cd r &&
	c=$(git rev-parse HEAD) &&
	update-ref refs/heads/new HEAD $ZERO_OID &&
	test_expect_code 128 update-ref refs/heads/new HEAD $ZERO_OID 2>err &&
	test_grep "moved while it was being updated" err &&
	update-ref refs/heads/new HEAD $c &&
	test_expect_code 128 update-ref refs/heads/new HEAD ${c%?} 2>err &&
	test_grep "not an object id" err &&
	test_expect_code 128 update-ref refs/heads/new HEAD ${c}0 2>err &&
	test_grep "not an object id" err
'

test_expect_success 'refs of the other size: read by neither tool' '
	cd r &&
	c=$(git rev-parse HEAD) &&
	case $test_hash_algo in
	sha1) other=$c$(printf %.24s $c) ;;
	*) other=$(printf %.40s $c) ;;
	esac &&
	echo $other >.git/refs/heads/odd &&
	test_must_fail git rev-parse -q --verify refs/heads/odd &&
	test_expect_code 128 rev-parse refs/heads/odd 2>err &&
	test_grep "not a valid object name" err &&
	rm .git/refs/heads/odd &&
	git pack-refs --all &&
	cp .git/packed-refs packed-refs.before &&
	printf "%s refs/heads/podd\n" $other >>.git/packed-refs &&
	test_must_fail git rev-parse -q --verify refs/heads/podd 2>/dev/null &&
	test_expect_code 128 rev-parse refs/heads/podd 2>err &&
	test_grep "not a valid object name" err &&
	mv packed-refs.before .git/packed-refs
'

test_expect_success 'packed refs and their peel lines are read as git reads them' '
	cd r &&
	git pack-refs --all &&
	grep "^\^" .git/packed-refs &&
	for n in v1 v2 ours theirs refs/heads/b refs/keep/tree v1^{} ours^{tree}; do
		rev-parse $n >actual &&
		git rev-parse $n >expect &&
		test_cmp expect actual || return 1
	done &&
	update-ref refs/heads/b HEAD^{} &&
	test "$(git rev-parse b)" = "$(git rev-parse HEAD)"
'

test_done
