#!/bin/sh
test_description='read-tree --prefix: a tree read under a directory, as git binds it'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# both ARGS: git read-tree ARGS in a copy g of r, ours in a copy o: the
# same exit code, index entries and work tree, and the same tree from
# write-tree (ours after ours, git's after git's).
both() {
	rm -rf g o && cp -R r g && cp -R r o &&
	{ (cd g && git read-tree "$@") 2>git.err; gc=$?; } &&
	{ (cd o && read-tree "$@") 2>our.err; oc=$?; } &&
	echo $gc >expect && echo $oc >actual && test_cmp expect actual &&
	(cd g && git ls-files -s) >expect &&
	(cd o && git ls-files -s) >actual && test_cmp expect actual &&
	(cd g && git write-tree) >expect &&
	(cd o && write-tree) >actual && test_cmp expect actual &&
	diff -r -x .git g o
}

test_expect_success 'setup: a tree T and an index of another' '
	git init -q r && cd r &&
	mkdir -p s/t && echo a >a && echo b >s/b && echo c >s/t/c &&
	git add . && git write-tree >../T &&
	git rm -q --cached -r s && echo top >top && git add top
'

T=$(cat T 2>/dev/null)

test_expect_success 'the tree joins the index under the prefix' '
	both --prefix=sub/ $T &&
	(cd o && git ls-files) >actual && grep -qx sub/s/t/c actual
'

test_expect_success 'without the slash, and nested, the same' '
	both --prefix=sub $T && both --prefix=d/e/f $T
'

test_expect_success 'an entry already there: refused, the index kept' '
	both --prefix= $T &&
	test_grep "overlaps with .a." our.err &&
	cp r/.git/index before &&
	(cd r && test_must_fail read-tree --prefix= $T 2>/dev/null) &&
	cmp before r/.git/index
'

test_expect_success '-u writes the files, the work tree otherwise kept' '
	both -u --prefix=w/ $T && test -f o/w/s/t/c && test -f o/s/b
'

test_expect_success '-u with an untracked file in the way: refused, nothing changed' '
	mkdir -p r/w/s && echo mine >r/w/s/b &&
	both -u --prefix=w/ $T &&
	test_grep "untracked working tree file .w/s/b." our.err &&
	echo mine >expect && test_cmp expect o/w/s/b && rm -r r/w
'

test_expect_success 'a file where the prefix needs a directory: refused (git makes a D/F index)' '
	cp r/.git/index before &&
	(cd r && test_expect_code 128 read-tree --prefix=top/ $T 2>../err) &&
	test_grep "overlaps with .top." err && cmp before r/.git/index
'

test_expect_success 'a prefix leaving the tree, or with -m: refused' '
	both --prefix=/abs/ $T && both --prefix=../up/ $T &&
	both -m --prefix=x/ $T && test_grep "Which one" our.err &&
	(cd r && test_expect_code 128 read-tree --prefix=x/ $T $T 2>../err) &&
	test_grep "one tree" err
'

test_done
