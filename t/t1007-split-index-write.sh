#!/bin/sh
test_description='a split index is written back split, and git reads it'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

old_files() {
	touch -d "2020-01-01 00:00:00" "$@"
}

# Is the index split (has a link extension)?
has_link() {
	od -A n -v -t x1 .git/index | tr -d " \n" | grep -q 6c696e6b
}

shared_count() {
	ls .git/sharedindex.* 2>/dev/null | wc -l | tr -d " "
}

# git's view of an index, stat data and all; not the in-memory flags,
# which say which entries came from the shared index.
git_view() {
	git ls-files -s --debug | sed "s/flags: .*//"
}

# Our command on the split index, git's on an unsplit copy of it: the
# two must list the same entries, stat data and all; git must find
# the split one sound.
same_as_git() {
	git ls-files -s --debug >/dev/null &&
	cp .git/index ../whole &&
	(
		GIT_INDEX_FILE=../whole &&
		export GIT_INDEX_FILE &&
		git -c core.splitIndex=false update-index --no-split-index &&
		eval "git $2"
	) &&
	eval "$1" &&
	git_view >../ours &&
	GIT_INDEX_FILE=../whole git_view >../gits &&
	test_cmp ../gits ../ours &&
	git status --porcelain >../st-ours &&
	GIT_INDEX_FILE=../whole git status --porcelain >../st-gits &&
	test_cmp ../st-gits ../st-ours &&
	git fsck --no-dangling >../fsck 2>&1 &&
	! grep -v "^notice" ../fsck
}

test_expect_success 'setup: a split index made by git' '
	git init -q r && cd r &&
	mkdir -p a b &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12
	do
		echo $i >a/f$i && echo $i >b/g$i || return 1
	done &&
	old_files a/* b/* &&
	git add . && git commit -qm base &&
	git -c core.splitIndex=true update-index --split-index &&
	has_link && test "$(shared_count)" = 1
'

test_expect_success 'a change is written as a replacement, still split' '
	cd r &&
	echo changed >a/f3 && old_files a/f3 &&
	same_as_git "update-cache a/f3" "update-index a/f3" &&
	has_link && test "$(shared_count)" = 1
'

test_expect_success 'added and removed entries' '
	cd r &&
	echo new >a/new && old_files a/new && rm b/g5 &&
	same_as_git "update-cache --add a/new && update-cache --remove b/g5" \
		"update-index --add a/new && git update-index --remove b/g5" &&
	has_link && test "$(shared_count)" = 1
'

test_expect_success 'write-tree: the cache tree goes in the split file' '
	cd r &&
	same_as_git "write-tree >../ours-tree" "write-tree >../gits-tree" &&
	test_cmp ../gits-tree ../ours-tree &&
	has_link && git write-tree >../again && test_cmp ../gits-tree ../again
'

test_expect_success 'git goes on with the index we wrote' '
	cd r &&
	echo more >b/g1 && old_files b/g1 && git add b/g1 &&
	git -c core.splitIndex=true update-index --split-index &&
	ls-files -s >../ours && git ls-files -s >../gits &&
	test_cmp ../gits ../ours
'

test_expect_success 'read-tree -m keeps the index split' '
	cd r &&
	n=$(shared_count) &&
	same_as_git "read-tree -m \$(git write-tree)" \
		"read-tree -m \$(git write-tree)" &&
	has_link && test "$(shared_count)" = $n
'

test_expect_success 'many changes: a new shared index, as git makes' '
	cd r &&
	n=$(shared_count) &&
	for i in 1 2 4 6 7 8
	do
		echo x$i >a/f$i || return 1
	done &&
	old_files a/* &&
	same_as_git "update-cache a/f1 a/f2 a/f4 a/f6 a/f7 a/f8" \
		"update-index a/f1 a/f2 a/f4 a/f6 a/f7 a/f8" &&
	has_link && test "$(shared_count)" = $((n + 1))
'

test_expect_success 'splitIndex.maxPercentChange=100 keeps the shared one' '
	cd r &&
	git config splitIndex.maxPercentChange 100 && n=$(shared_count) &&
	echo yyy >a/f9 && echo yyy >a/f10 && echo yyy >a/f11 && echo yyy >a/f12 &&
	old_files a/* &&
	same_as_git "update-cache a/f9 a/f10 a/f11 a/f12" \
		"update-index a/f9 a/f10 a/f11 a/f12" &&
	test "$(shared_count)" = $n &&
	git config --unset splitIndex.maxPercentChange
'

test_expect_success 'v4: written split, names compressed' '
	cd r &&
	git update-index --index-version 4 &&
	git update-index --split-index && has_link &&
	echo v4 >b/g2 && old_files b/g2 &&
	same_as_git "update-cache b/g2" "update-index b/g2" &&
	has_link &&
	test "$(od -A n -t u1 -j 7 -N 1 .git/index | tr -d " ")" = 4
'

test_expect_success 'core.splitIndex=false: written whole' '
	cd r &&
	git config core.splitIndex false &&
	echo www >b/g3 && old_files b/g3 &&
	same_as_git "update-cache b/g3" "update-index b/g3" &&
	! has_link
'

test_expect_success 'core.splitIndex=true: a whole index is split' '
	cd r &&
	git config core.splitIndex true &&
	rm -f .git/sharedindex.* &&
	echo ttt >b/g4 && old_files b/g4 &&
	same_as_git "update-cache b/g4" "update-index b/g4" &&
	has_link && test "$(shared_count)" = 1
'

test_expect_success 'a link to no shared index (all zeros) reads empty' '
	cd r &&
	git config core.splitIndex false &&
	git update-index --no-split-index &&
	rawsz=$((OID_HEXSZ / 2)) &&
	printf "DIRC\0\0\0\2\0\0\0\0link\0\0\0\\$(printf %o $rawsz)" >../z &&
	head -c $rawsz /dev/zero >>../z &&
	cp ../z ../zi && openssl $test_hash_algo -binary ../z >>../zi &&
	GIT_INDEX_FILE=../zi ls-files -s >out &&
	test ! -s out
'

test_done
