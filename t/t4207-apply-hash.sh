#!/bin/sh
test_description='apply: the ids of "index" lines in the store'"'"'s hash, as git apply'
. "$(dirname "$0")/test-lib.sh"

# The stores here name their hash (sha1 and sha256), whatever the
# suite's default: each patch is applied by us and by git apply in a
# copy of the same work tree, and both must agree on what they do
# (the tree, or the refusal and its message).  A text patch needs no
# ids; a binary one needs both, whole and of the store's hash.

# repo DIR HASH: a git repository of HASH with a text and a binary file
# committed, then changed in the work tree; DIR.text and DIR.bin are
# the full-index patches of the change (--binary implies --full-index),
# DIR.short the binary one with its ids cut to 7 digits.
repo() {
	git init -q --object-format=$2 $1 &&
	(
		cd $1 &&
		seq 1 20 >text && printf "\000old\n" >bin &&
		git add text bin &&
		git commit -q -m base &&
		seq 1 20 | sed "s/^7\$/seven/" >text &&
		printf "\000new\n" >bin &&
		git diff --full-index text >../$1.text &&
		git diff --full-index --binary bin >../$1.bin &&
		git checkout -q -- .
	) &&
	sed "s/^index \([0-9a-f]\{7\}\)[0-9a-f]*\.\.\([0-9a-f]\{7\}\)[0-9a-f]*/index \1..\2/" \
		$1.bin >$1.short
}

# same DIR PATCH: our apply and git apply do the same with PATCH in
# copies of DIR (exit code, message, files).
same() {
	rm -rf ours theirs &&
	cp -a $1 ours && cp -a $1 theirs &&
	(cd ours && GIT_DIR=.git apply ../$2 2>../our.err; echo $? >../our.rc) &&
	(cd theirs && git apply ../$2 2>../git.err; echo $? >../git.rc) &&
	test_cmp git.rc our.rc &&
	if test -s git.err; then
		head -n 1 git.err | sed "s/^error: /apply: /" >want &&
		test_cmp want our.err
	fi &&
	cmp ours/text theirs/text &&
	cmp ours/bin theirs/bin
}

test_expect_success 'setup: a sha1 and a sha256 repository' '
	repo one sha1 &&
	repo two sha256 &&
	grep "^index [0-9a-f]\{40\}\.\.[0-9a-f]\{40\} " one.bin &&
	grep "^index [0-9a-f]\{64\}\.\.[0-9a-f]\{64\} " two.bin &&
	grep "^index [0-9a-f]\{7\}\.\.[0-9a-f]\{7\} " two.short
'

test_expect_success 'each store takes its own patches, text and binary' '
	same one one.text && grep "^seven$" ours/text &&
	same one one.bin && printf "\000new\n" >want && cmp want ours/bin &&
	same two two.text && grep "^seven$" ours/text &&
	same two two.bin && cmp want ours/bin &&
	(cd two && apply --check --index ../two.bin)
'

test_expect_success 'a binary patch with abbreviated ids is refused' '
	same one one.short && test_grep "without full index line" our.err &&
	same two two.short && test_grep "without full index line" our.err
'

test_expect_success 'a text patch of the other hash applies' '
	same one two.text && grep "^seven$" ours/text &&
	same two one.text && grep "^seven$" ours/text
'

test_expect_success 'a binary patch of the other hash is refused' '
	same one two.bin && test_grep "without full index line" our.err &&
	same two one.bin && test_grep "without full index line" our.err &&
	printf "\000old\n" >want && cmp want ours/bin
'

test_expect_success '--stat and --numstat of the other hash, as git' '
	for p in two.bin two.text; do
		(cd one && apply --stat --numstat ../$p) >our.out &&
		(cd one && git apply --stat --numstat ../$p) >git.out &&
		test_cmp git.out our.out || return 1
	done
'

test_done
