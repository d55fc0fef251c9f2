#!/bin/sh
test_description='read-tree <tree> fills the cache tree (TREE) as git read-tree does'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# git read-tree and ours, each with the index as it is now: the same
# index bytes after, TREE extension and all.
both_read_tree() {
	cp .git/index ../base &&
	git read-tree "$@" && cp .git/index ../gits &&
	cp ../base .git/index &&
	read-tree "$@" &&
	cmp ../gits .git/index
}

test_expect_success 'setup: nested directories, an empty tree, a gitlink' '
	git init -q r && cd r &&
	mkdir -p a/b c d/e/f && for f in x a/y a/b/z c/w d/e/f/v d/e/u
	do
		echo $f >$f || return 1
	done &&
	git add . &&
	empty=$(git mktree </dev/null) &&
	c0=$(git commit-tree -m sub $empty) &&
	git update-index --add --cacheinfo 160000,$c0,sub &&
	t1=$(git write-tree) &&
	t2=$( (git ls-tree $t1; printf "040000 tree %s\tnone\n" $empty) |
	     git mktree) &&
	git commit-tree -m one $t1 >../c1 &&
	echo $t1 >../t1 && echo $t2 >../t2
'

test_expect_success 'read-tree <tree> on no index writes git'"'"'s index' '
	cd r && rm -f .git/index ../base && : >../base &&
	git read-tree $(cat ../t1) && cp .git/index ../gits &&
	rm .git/index && read-tree $(cat ../t1) &&
	cmp ../gits .git/index
'

test_expect_success 'read-tree <tree> over an index with changes' '
	cd r && git update-index --add --cacheinfo 100644,$(git hash-object x),new &&
	both_read_tree $(cat ../t2)
'

test_expect_success 'read-tree <commit> primes with the commit'"'"'s tree' '
	cd r && both_read_tree $(cat ../c1)
'

test_expect_success 'read-tree -m <tree>: the one-way merge primes it too' '
	cd r && git read-tree $(cat ../t2) &&
	git update-index --add --cacheinfo 100644,$(git hash-object x),new &&
	both_read_tree -m $(cat ../t1)
'

test_expect_success 'write-tree after it: the tree, nothing hashed, git agrees' '
	cd r && git read-tree $(cat ../t2) && read-tree $(cat ../t2) &&
	write-tree >../actual && echo $(cat ../t2) >../expect &&
	test_cmp ../expect ../actual && git write-tree >../actual &&
	test_cmp ../expect ../actual &&
	git ls-files -s >../expect && ls-files -s >../actual &&
	test_cmp ../expect ../actual
'

test_expect_success 'checkout-cache -a -u keeps the cache tree, as git checkout-index' '
	cd r && rm -rf ../co && mkdir ../co &&
	read-tree $(cat ../t1) &&
	cp .git/index ../base &&
	GIT_WORK_TREE=../co git checkout-index -a -u &&
	cp .git/index ../gits &&
	cp ../base .git/index &&
	rm -rf ../co && mkdir ../co && cp .git/index ../co.index &&
	(GIT_INDEX_FILE=$PWD/../co.index && export GIT_INDEX_FILE &&
	 cd ../co && GIT_DIR=../r/.git checkout-cache -a -u) &&
	GIT_INDEX_FILE=../co.index git ls-files -s >ours &&
	git ls-files -s >theirs &&
	test_cmp theirs ours &&
	od -An -tx1 -v ../gits | tr -d " \n" | sed -n "s/.*54524545//p" | sed "s/\(.*\)\(.\)\{$OID_HEXSZ\}/\1/" >tree.git &&
	od -An -tx1 -v ../co.index | tr -d " \n" | sed -n "s/.*54524545//p" | sed "s/\(.*\)\(.\)\{$OID_HEXSZ\}/\1/" >tree.ours &&
	test -s tree.git && test_cmp tree.git tree.ours
'

test_done
