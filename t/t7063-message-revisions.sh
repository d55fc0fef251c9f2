#!/bin/sh
test_description=':/<text> and <rev>^{/<text>}: commits named by their message, against git rev-parse'
. "$(dirname "$0")/test-lib.sh"

commit_at() {
	GIT_COMMITTER_DATE="$((1112900000 + $1)) +0000" git commit -q --allow-empty -m "$2"
}

# Our id of name $1 is git's.
same_id() {
	git rev-parse --verify -q "$1" >expect &&
	rev-parse "$1" >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: branches, a merge, tags, equal dates' '
	git init -q r && cd r &&
	commit_at 1000 "root: start" &&
	commit_at 2000 "fix: first bug" &&
	git checkout -q -b side &&
	commit_at 3000 "side: feature" &&
	commit_at 3000 "side: same second" &&
	git checkout -q - &&
	commit_at 2500 "fix: second bug
body line with needle" &&
	GIT_COMMITTER_DATE="1112904000 +0000" git merge -q --no-edit side &&
	git checkout -q --orphan lone && commit_at 500 "!bang lone root" &&
	git tag -a -m "a tag" v1 HEAD && git checkout -q master &&
	git tag -a -m "old" v0 HEAD~2
'

test_expect_success ':/<text>: the youngest match from every ref' '
	cd r &&
	for n in ":/fix" ":/side" ":/root" ":/^fix: f" ":/needle" \
		 ":/Merge" ":/lone" ":/[a-z]+: s" ":/!-fix" ":/!!bang"; do
		same_id "$n" || return 1
	done
'

test_expect_success '<rev>^{/<text>}: the youngest match from rev' '
	cd r &&
	for n in "HEAD^{/fix}" "side^{/side}" "HEAD~1^{/root}" \
		 "v0^{/fix}" "master^{/same}" "HEAD^2^{/feature}"; do
		same_id "$n" || return 1
	done
'

test_expect_success 'no match: git'"'"'s "not a valid object name", exit 128' '
	cd r &&
	test_expect_code 128 rev-parse ":/no such message" 2>err &&
	test_grep "not a valid object name: '"'"':/no such message'"'"'" err &&
	test_expect_code 128 rev-parse "side^{/needle}" 2>err &&
	test_grep "not a valid object name" err &&
	test_expect_code 128 rev-parse ":/!x" 2>err &&
	test_grep "unknown :/! modifier" err &&
	test_expect_code 128 rev-parse ":/[" 2>err &&
	test_grep "not a regular expression" err
'

test_expect_success 'the porcelain takes them: show, log, diff' '
	cd r &&
	dircache show --oneline ":/second" >actual &&
	git show --oneline ":/second" >expect &&
	test_cmp expect actual &&
	git log --oneline -n 2 ":/feature" >expect &&
	dircache log --oneline -n 2 ":/feature" >actual &&
	test_cmp expect actual &&
	dircache diff ":/root" ":/side: feature" >actual &&
	git diff ":/root" ":/side: feature" >expect &&
	test_cmp expect actual
'

test_done
