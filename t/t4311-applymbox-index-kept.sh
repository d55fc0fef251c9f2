#!/bin/sh
test_description='applymbox --abort and --skip keep the index as git would: its version, split, a whole cache tree'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# The index file's version (its bytes 5-8).
index_version() {
	od -A n -t u1 -j 7 -N 1 .git/index | tr -d " "
}

# Has the index file this extension (4 letters, at an entry's end)?
has_ext() {
	od -A n -v -c .git/index | tr -d " \n" | grep -q "$1"
}

# The TREE extension's payload, as hex.
tree_ext() {
	od -A n -v -t x1 .git/index | tr -d " \n" |
	sed -n "s/.*54524545\(.*\)/\1/p" | cut -c 9-
}

test_expect_success 'setup: a patch that does not apply' '
	git init -q r && cd r &&
	mkdir -p a/b c && echo one >a/b/f && echo two >c/g && echo 3 >top &&
	git add . && git commit -qm base &&
	echo changed >>c/g && git commit -qam change &&
	git format-patch -1 --stdout >../change.mbox &&
	git reset -q --hard HEAD~1 &&
	echo other >c/g && git commit -qam other &&
	git rev-parse HEAD >../head
'

test_expect_success '--abort: version 4 and a split index kept, TREE whole' '
	cd r && git update-index --index-version 4 && git update-index --split-index &&
	test $(index_version) = 4 && has_ext link &&
	test_must_fail applymbox ../change.mbox >/dev/null 2>&1 &&
	applymbox --abort &&
	test $(git rev-parse HEAD) = $(cat ../head) &&
	test $(index_version) = 4 && has_ext link &&
	tree_ext >../ours-tree && test -s ../ours-tree &&
	git write-tree >../expect && git rev-parse HEAD^{tree} >../actual &&
	test_cmp ../expect ../actual &&
	git status --porcelain -uno >../status && test_must_fail test -s ../status
'

test_expect_success 'the cache tree is the one git read-tree makes' '
	cd r && cp .git/index ../saved &&
	GIT_INDEX_FILE=../gits git read-tree HEAD &&
	od -A n -v -t x1 ../gits | tr -d " \n" |
		sed -n "s/.*54524545\(.*\)/\1/p" | cut -c 9- >../git-tree &&
	n=$(($(wc -c <../git-tree) - 1 - OID_HEXSZ)) &&
	head -c $n ../git-tree >../expect && head -c $n ../ours-tree >../actual &&
	test_cmp ../expect ../actual
'

test_expect_success '--skip: the same, version 2 and no split kept too' '
	cd r && git update-index --index-version 2 --no-split-index &&
	test $(index_version) = 2 &&
	test_must_fail applymbox ../change.mbox >/dev/null 2>&1 &&
	applymbox --skip >/dev/null &&
	test $(index_version) = 2 && ! has_ext link &&
	test -n "$(tree_ext)" &&
	git status --porcelain -uno >../status && test_must_fail test -s ../status
'

test_done
