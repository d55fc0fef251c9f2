#!/bin/sh
test_description='read-tree -m with two or three trees leaves the cache tree (TREE) as git does'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# both_read_tree ARGS: git read-tree and ours, each from ../base (no
# index when it is empty): the same index bytes after, TREE and all.
both_read_tree() {
	from_base && git read-tree "$@" && cp .git/index ../gits &&
	from_base && read-tree "$@" &&
	python3 "$TEST_DIRECTORY/dump-cache-tree.py" ../gits \
		$((OID_HEXSZ / 2)) >../expect &&
	python3 "$TEST_DIRECTORY/dump-cache-tree.py" .git/index \
		$((OID_HEXSZ / 2)) >../actual &&
	test_cmp ../expect ../actual &&
	cmp ../gits .git/index
}

from_base() {
	rm -f .git/index &&
	if test -s ../base
	then
		cp ../base .git/index
	fi
}

# base_with ENTRIES...: ../base is the index of tree $T (A unless
# set) with the "<mode>,<id>,<path>" entries added (index only, so
# no file is in the way of a merge).
base_with() {
	git read-tree ${T:-$A} &&
	for e in "$@"
	do
		git update-index --add --cacheinfo "$e" || return 1
	done &&
	cp .git/index ../base
}

test_expect_success 'setup: trees A, B (a/b and c change), O (d changes), C' '
	git init -q r && cd r &&
	mkdir -p a/b c d && for f in x a/y a/b/z c/w d/v
	do
		echo $f >$f || return 1
	done &&
	git add . && git write-tree >../A &&
	echo changed >a/b/z && echo new >c/n && git add . &&
	git write-tree >../B &&
	git read-tree $(cat ../A) && echo o >d/v && git add d/v &&
	git write-tree >../O &&
	git read-tree $(cat ../A) && echo c1 >c/w && git add c/w &&
	git write-tree >../C1 &&
	git read-tree $(cat ../A) && echo c2 >c/w && git add c/w &&
	git write-tree >../C2 &&
	git hash-object -w x >../blob
'

A=$(cat A 2>/dev/null) B=$(cat B 2>/dev/null) O=$(cat O 2>/dev/null)
C1=$(cat C1 2>/dev/null) C2=$(cat C2 2>/dev/null)
X=$(cat blob 2>/dev/null)

test_expect_success 'two trees, clean: every directory valid' '
	cd r && base_with && both_read_tree -m -i $A $B &&
	! grep -e " -1 " ../actual
'

test_expect_success 'two trees, no index: every directory valid' '
	cd r && : >../base && both_read_tree -m -i $A $B
'

test_expect_success 'a stale TREE in the index is not kept' '
	cd r && base_with && git write-tree >/dev/null &&
	cp .git/index ../base && both_read_tree -m -i $A $B
'

test_expect_success 'a kept local entry: its directories invalid, the rest valid' '
	cd r && base_with "100644,$X,a/local" && both_read_tree -m -i $A $B &&
	grep "^a/ -1 " ../actual && grep "^c/ 2 0 " ../actual
'

test_expect_success 'a nested new tree: the directories after it are not made' '
	cd r && base_with "100644,$X,a/b/local" && both_read_tree -m -i $A $B &&
	grep "^a/b/ -1 " ../actual && ! grep "^c/" ../actual
'

test_expect_success 'three trees, merged clean: a new root, old subtrees' '
	cd r && T=$O base_with && both_read_tree -m -i $A $O $B &&
	grep "^/ -1 " ../actual && grep "^d/ 1 0 " ../actual
'

test_expect_success 'three trees, a conflict: no TREE at all' '
	cd r && T=$C1 base_with && both_read_tree -m -i $A $C1 $C2 &&
	echo "no TREE" >../expect && test_cmp ../expect ../actual
'

test_expect_success 'without -i, over a clean work tree: the same' '
	cd r && git read-tree $O && git checkout-index -a -f &&
	rm -f c/n && git update-index --refresh &&
	cp .git/index ../base && both_read_tree -m $A $O $B
'

test_expect_success 'write-tree after it: the tree git writes' '
	cd r && base_with "100644,$X,a/local" && both_read_tree -m -i $A $B &&
	git write-tree >../expect && cp ../gits .git/index &&
	write-tree >../actual && test_cmp ../expect ../actual &&
	cp .git/index ../ours && cp ../gits .git/index &&
	git write-tree >/dev/null && cmp .git/index ../ours
'

test_expect_success 'a resolve-undo record (REUC) is dropped, as git drops it' '
	cd r && git read-tree $C1 && git checkout-index -a -f &&
	git update-index --refresh && a=$(git commit-tree -m a $A) &&
	c1=$(git commit-tree -m c1 -p $a $C1) &&
	c2=$(git commit-tree -m c2 -p $a $C2) && git update-ref HEAD $c1 &&
	test_must_fail git merge -q $c2 >/dev/null 2>&1 &&
	echo resolved >c/w && git add c/w && grep REUC .git/index &&
	git write-tree >../R && cp .git/index ../base &&
	both_read_tree -m $(cat ../R) && ! grep REUC .git/index &&
	both_read_tree -m $(cat ../R) $(cat ../R)
'

test_expect_success '--empty: no entries, the empty tree'"'"'s TREE, as git' '
	cd r && base_with "100644,$X,a/local" && both_read_tree --empty &&
	test ! -f .git/objects/$(git hash-object -t tree /dev/null |
				 sed "s|^..|&/|") &&
	test_must_fail read-tree --empty $A 2>err &&
	test_grep "contradicts --empty" err
'

test_done
