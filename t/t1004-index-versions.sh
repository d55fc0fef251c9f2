#!/bin/sh
test_description='the index written back as git wrote it: v2, v3, v4, TREE, gitlinks'
. "$(dirname "$0")/test-lib.sh"

# Our tools and git on the same .git; work files dated in the past, so
# that no entry is racy and both write the same stat data.
GIT_DIR=.git
export GIT_DIR

# The version in the index header.
index_version() {
	od -A n -t u1 -j 7 -N 1 .git/index | tr -d " "
}

# The TREE extension's payload, as hex, or nothing.
tree_ext() {
	od -A n -v -t x1 .git/index | tr -d " \n" |
	sed -n "s/.*54524545\(.*\)/\1/p" | cut -c 9-200
}

old_files() {
	touch -d "2020-01-01 00:00:00" "$@"
}

# run_both "git cmd" "our cmd": each on a copy of the index as it is
# now; the two indexes must be the same bytes.
run_both() {
	cp -p .git/index ../base &&
	eval "git $1" && cp -p .git/index ../gits &&
	cp -p ../base .git/index &&
	eval "$2" && cmp ../gits .git/index
}

test_expect_success 'setup: a tree of directories, and git cache tree' '
	git init -q r && cd r &&
	mkdir -p a/b c && echo 1 >a/b/f && echo 2 >a/g && echo 3 >c/h &&
	echo 4 >top && old_files a/b/f a/g c/h top &&
	git add . && git commit -qm base && git write-tree >/dev/null &&
	test -n "$(tree_ext)"
'

test_expect_success 'v2: a change invalidates its directories as in git' '
	cd r &&
	echo five >c/h && old_files c/h &&
	run_both "update-index c/h" "update-cache c/h" &&
	test "$(index_version)" = 2 &&
	test -n "$(tree_ext)" &&
	write-tree >actual && git write-tree >expect && test_cmp expect actual
'

test_expect_success 'v4 stays v4, names compressed as git does' '
	cd r &&
	git update-index --index-version 4 && git write-tree >/dev/null &&
	echo six >a/g && old_files a/g &&
	run_both "update-index a/g" "update-cache a/g" &&
	test "$(index_version)" = 4 &&
	git ls-files -s --debug >/dev/null &&
	write-tree >actual && git write-tree >expect && test_cmp expect actual
'

test_expect_success 'v4: --add and --remove as git' '
	cd r &&
	echo 7 >a/new && old_files a/new &&
	run_both "update-index --add a/new" "update-cache --add a/new" &&
	rm a/new &&
	run_both "update-index --remove a/new" "update-cache --remove a/new" &&
	test "$(index_version)" = 4
'

test_expect_success 'v3: skip-worktree and intent-to-add keep v3' '
	cd r &&
	git update-index --index-version 2 &&
	git update-index --skip-worktree top &&
	echo n >n && old_files n && git add -N n &&
	test "$(index_version)" = 3 &&
	echo eight >c/h && old_files c/h &&
	run_both "update-index c/h" "update-cache c/h" &&
	test "$(index_version)" = 3 &&
	git ls-files -t >out && test_grep "^S top" out &&
	git rm -q --cached n && rm n &&
	git update-index --no-skip-worktree top
'

test_expect_success 'v3 without extended flags is written as v2, as git' '
	cd r &&
	git update-index --index-version 3 &&
	test "$(index_version)" = 2 &&
	echo nine-nine >c/h && old_files c/h &&
	run_both "update-index c/h" "update-cache c/h" &&
	test "$(index_version)" = 2
'

test_expect_success 'a new index: v2, or GIT_INDEX_VERSION, or index.version' '
	cd r &&
	cp -p .git/index ../keep &&
	rm .git/index && update-cache --add top &&
	test "$(index_version)" = 2 &&
	rm .git/index && GIT_INDEX_VERSION=4 update-cache --add top &&
	test "$(index_version)" = 4 &&
	git ls-files -s >out && test_grep "	top$" out &&
	rm .git/index && git config index.version 4 &&
	update-cache --add top && test "$(index_version)" = 4 &&
	git config --unset index.version &&
	cp -p ../keep .git/index
'

test_expect_success 'the untracked cache is kept when no path changes (t1009)' '
	cd r &&
	git config core.untrackedCache true && git status >/dev/null &&
	grep -q UNTR .git/index &&
	echo 10 >c/h && update-cache c/h &&
	grep -q UNTR .git/index && grep -q TREE .git/index &&
	git status --porcelain --untracked-files=no >actual &&
	git diff --cached --name-only >expect &&
	test_grep "^M  c/h" actual && test_must_fail grep "^.M" actual &&
	git config core.untrackedCache false && git commit -qm ten
'

test_expect_success 'write-tree trusts a valid cache tree, as git write-tree' '
	cd r &&
	git write-tree >/dev/null &&
	write-tree >actual && git write-tree >expect &&
	test_cmp expect actual &&
	blob=$(git rev-parse HEAD:a/b/f) &&
	obj=.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	mv $obj ../saved &&
	write-tree >actual && test_cmp expect actual &&
	git write-tree >expect && test_cmp expect actual &&
	echo 11 >top && update-cache top &&
	write-tree >actual && git write-tree >expect && test_cmp expect actual &&
	mv ../saved $obj && git reset -q --hard
'

test_expect_success 'setup: a clone whose submodule is not checked out' '
	git init -q sub && (cd sub && echo s >s && git add s &&
	git commit -qm s) &&
	(cd r && git -c protocol.file.allow=always submodule add -q \
		../sub sub && git commit -qm sub) &&
	git clone -q r cl && test -d cl/sub && ! test -e cl/sub/s
'

test_expect_success 'an empty submodule directory is not modified' '
	cd cl &&
	ls-files -m >actual && git ls-files -m >expect &&
	test_cmp expect actual && ! test -s actual &&
	show-diff -s >actual && ! test -s actual &&
	update-cache --refresh
'

test_expect_success 'a missing one is deleted, as git says' '
	cd cl && rmdir sub &&
	ls-files -m >actual && git ls-files -m >expect &&
	test_cmp expect actual &&
	ls-files -d >actual && git ls-files -d >expect &&
	test_cmp expect actual &&
	mkdir sub
'

test_done
