#!/bin/sh
test_description='write-tree uses the index cache tree (TREE) and writes it back as git does'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

old_files() {
	touch -d "2020-01-01 00:00:00" "$@"
}

# The TREE extension's payload, as hex, or nothing.
tree_ext() {
	od -A n -v -t x1 .git/index | tr -d " \n" |
	sed -n "s/.*54524545\(.*\)/\1/p" | cut -c 9-
}

# git write-tree and ours, each on a copy of the index as it is now:
# the same tree, and the same index bytes (TREE extension and all).
both_write_tree() {
	cp -p .git/index ../base &&
	git write-tree >../expect && cp -p .git/index ../gits &&
	cp -p ../base .git/index &&
	write-tree >../actual &&
	test_cmp ../expect ../actual &&
	cmp ../gits .git/index
}

test_expect_success 'setup: directories, no cache tree yet' '
	git init -q r && cd r &&
	mkdir -p a/b c d/e/f && for f in x a/y a/b/z c/w d/e/f/v d/e/u
	do
		echo $f >$f || return 1
	done &&
	old_files x a/y a/b/z c/w d/e/f/v d/e/u &&
	git add . && test -z "$(tree_ext)"
'

test_expect_success 'a new cache tree is written as git writes it' '
	cd r &&
	both_write_tree && test -n "$(tree_ext)" &&
	git ls-files -s --debug >/dev/null && git status --short >/dev/null
'

test_expect_success 'a valid cache tree: the index is not rewritten' '
	cd r &&
	ls -i .git/index >../before &&
	write-tree >../actual && git write-tree >../expect &&
	test_cmp ../expect ../actual &&
	ls -i .git/index >../after && test_cmp ../before ../after
'

test_expect_success 'a change: its directories rehashed, the rest kept' '
	cd r &&
	echo changed >d/e/f/v && old_files d/e/f/v &&
	update-cache d/e/f/v &&
	both_write_tree
'

test_expect_success 'a directory removed is dropped from the cache tree' '
	cd r &&
	rm -r a/b c && update-cache --remove a/b/z c/w &&
	both_write_tree
'

test_expect_success 'a file where a directory was, and the other way' '
	cd r &&
	rm -r d/e/f && echo file >d/e/f && mkdir -p x2 && echo y >x2/z &&
	old_files d/e/f x2/z &&
	git update-index --force-remove d/e/f/v &&
	update-cache --add d/e/f x2/z &&
	both_write_tree
'

blob_file() {
	echo .git/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-)
}

test_expect_success 'valid directories are not read: their blobs may be gone' '
	cd r &&
	write-tree >/dev/null &&
	rm $(blob_file $(git rev-parse :d/e/u)) &&
	echo new >x && old_files x && update-cache x &&
	both_write_tree
'

test_expect_success 'without a cache tree the missing blob is refused' '
	cd r &&
	git ls-files -s >../ls && rm .git/index &&
	git update-index --index-info <../ls && test -z "$(tree_ext)" &&
	test_must_fail write-tree 2>err &&
	grep "d/e/u.*does not exist" err &&
	git hash-object -w d/e/u >/dev/null && both_write_tree
'

test_expect_success 'cache-tree nodes whose trees are missing are rewritten' '
	cd r &&
	root=$(write-tree) && d=$(git rev-parse $root:d) &&
	de=$(git rev-parse $root:d/e) &&
	rm $(blob_file $root) $(blob_file $d) $(blob_file $de) &&
	both_write_tree &&
	git cat-file -e $root && git cat-file -e $d && git cat-file -e $de
'

test_expect_success 'a big index whose cache tree names lost trees' '
	git init -q big && cd big &&
	for d in $(seq 0 69); do
		mkdir -p d$d/s && seq 0 59 | sed "s|^|d$d/s/f|" | xargs touch &&
		echo $d >d$d/s/f0 || return 1
	done &&
	git add . && test $(git ls-files | wc -l) -ge 4096 &&
	write-tree >../first && test -n "$(tree_ext)" &&
	rm -f .git/objects/pack/pack-* &&
	test_must_fail git cat-file -e $(cat ../first) &&
	both_write_tree &&
	git ls-tree -r -t $(cat ../first) | grep -c " tree " >../n &&
	test $(cat ../n) -eq 140 &&
	git fsck --strict
'

test_expect_success 'the index written beside the pack: -N entries put back' '
	cd big &&
	echo new >d3/s/new && git add -N d3/s/new &&
	echo changed >d5/s/f1 && git add d5/s/f1 &&
	root=$(cat ../first) &&
	for t in $root $(git ls-tree -r -d $root | awk "{ print \$3 }"); do
		rm -f $(blob_file $t) || return 1
	done &&
	cp .git/index ../base &&
	write-tree >../actual && cp .git/index ../ours &&
	ls .git/objects/pack/*.pack >../packs && test $(wc -l <../packs) -eq 1 &&
	cp ../base .git/index && git write-tree >../expect &&
	test_cmp ../expect ../actual && cmp .git/index ../ours &&
	git ls-files --debug d3/s/new >/dev/null && git fsck --strict
'

test_expect_success 'intent-to-add entries: out of the tree, in the index' '
	cd r &&
	mkdir -p c o && echo n >c/n && echo m >m && echo o >o/o &&
	old_files c/n m o/o &&
	git add -N c/n m o/o &&
	both_write_tree &&
	git ls-files >out && grep "^o/o\$" out
'

test_expect_success 'v4 index: the cache tree written as git does' '
	cd r &&
	git rm -q --cached c/n m o/o &&
	git update-index --index-version 4 &&
	echo four >x && old_files x && update-cache x &&
	both_write_tree &&
	echo five >d/e/u && old_files d/e/u && update-cache d/e/u &&
	both_write_tree
'

test_expect_success 'after read-tree and merge-cache, git agrees' '
	cd r &&
	one=$(write-tree) &&
	echo other >a/y && old_files a/y && update-cache a/y &&
	two=$(write-tree) &&
	read-tree $one && both_write_tree &&
	read-tree -m $one $two && test -n "$(tree_ext)" && both_write_tree &&
	read-tree -m $one $one $two &&
	merge-cache -o -a merge-one-file >/dev/null 2>&1;
	both_write_tree
'

test_expect_success 'read-tree -m keeps the cache tree where nothing changed' '
	cd r &&
	root=$(write-tree) && d=$(git rev-parse $root:d) &&
	read-tree -m $root &&
	tree_ext | grep -q $d && both_write_tree
'

test_expect_success 'read-tree -m: the directories it takes paths from are rehashed' '
	cd r &&
	one=$(write-tree) &&
	cp .git/index ../keep &&
	GIT_INDEX_FILE=../two git read-tree $one &&
	GIT_INDEX_FILE=../two git update-index --force-remove d/e/u a/y &&
	GIT_INDEX_FILE=../two git write-tree >../expect &&
	read-tree $one && checkout-cache -f -a && old_files $(git ls-files) &&
	update-cache --refresh && test -n "$(tree_ext)" &&
	read-tree -m $one $(cat ../expect) &&
	write-tree >../actual &&
	test_cmp ../expect ../actual &&
	cp ../keep .git/index
'

test_expect_success 'a held index.lock makes write-tree fail, as git' '
	cd r &&
	>.git/index.lock &&
	test_must_fail write-tree 2>err &&
	test_must_fail git write-tree &&
	rm .git/index.lock &&
	grep "index.lock" err
'

test_expect_success 'an empty index: the empty tree, and an index file' '
	git init -q e && cd e &&
	write-tree >actual &&
	test_oid empty_tree >expect &&
	test_cmp expect actual &&
	git ls-files --debug && test -n "$(tree_ext)"
'

test_done
