#!/bin/sh
test_description='read-tree --reset: -m that keeps no local change, as git'"'"'s'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# both CHANGES -- ARGS: copies g (git) and o (ours) of r, the same
# shell CHANGES made in each, then git read-tree ARGS in g and ours in
# o: the same exit code, index entries, dirty paths and work tree.
both() {
	changes=$1 && shift 2 &&
	rm -rf g o && cp -R r g && cp -R r o &&
	(cd g && eval "$changes") && (cd o && eval "$changes") &&
	{ (cd g && git read-tree "$@") 2>git.err; gc=$?; } &&
	{ (cd o && read-tree "$@") 2>our.err; oc=$?; } &&
	echo $gc >expect && echo $oc >actual && test_cmp expect actual &&
	(cd g && git ls-files -s) >expect &&
	(cd o && git ls-files -s) >actual && test_cmp expect actual &&
	(cd g && git diff-files --name-status) >expect &&
	(cd o && git diff-files --name-status) >actual &&
	test_cmp expect actual &&
	diff -r -x .git g o
}

test_expect_success 'setup: trees A and B, and a conflict of three' '
	git init -q r && cd r &&
	mkdir d && for f in a b c d/e; do echo $f >$f || return 1; done &&
	git add . && git write-tree >../A &&
	echo b2 >b && echo n >d/n && rm c && git add -A &&
	git write-tree >../B &&
	git read-tree $(cat ../A) && echo ours >a && echo o >new &&
	git add . && git write-tree >../OURS &&
	git read-tree $(cat ../A) && echo theirs >a && echo t >new &&
	git add . && git write-tree >../THEIRS &&
	git read-tree $(cat ../A) && git checkout-index -f -a
'

A=$(cat A 2>/dev/null) B=$(cat B 2>/dev/null)
OURS=$(cat OURS 2>/dev/null) THEIRS=$(cat THEIRS 2>/dev/null)
changes="echo x >>a && rm b && echo u >u && git update-index --add u"

test_expect_success 'one tree: the index is the tree, the work tree is kept' '
	both "$changes" -- --reset $A &&
	test_grep "^x" o/a && test -f o/u
'

test_expect_success 'one tree with -u: local changes and index-only adds go' '
	both "$changes" -- --reset -u $A &&
	echo a >expect && test_cmp expect o/a && test ! -e o/u
'

test_expect_success 'an untracked file in the way is overwritten' '
	both "echo mine >d/n" -- --reset -u $B &&
	echo n >expect && test_cmp expect o/d/n
'

test_expect_success 'unmerged paths: the tree entry, or gone with -u' '
	both "git read-tree $OURS && git read-tree -i -m $A $OURS $THEIRS &&
	      git ls-files -u | grep -q \" 3	new\" &&
	      echo conflict >a && echo conflict >new" -- --reset -u $A &&
	test ! -e o/new && echo a >expect && test_cmp expect o/a
'

test_expect_success 'unmerged paths without --reset: refused, as git' '
	both "git read-tree $OURS && git read-tree -i -m $A $OURS $THEIRS" \
		-- -m $A &&
	test_grep "unmerged" our.err
'

test_expect_success 'two trees: what moves overwrites local changes' '
	both "$changes && echo y >>d/e" -- --reset -u $A $B &&
	echo b2 >expect && test_cmp expect o/b && test_grep "^y" o/d/e
'

test_expect_success '-m with --reset, or three trees: refused' '
	(cd r && test_expect_code 128 read-tree -m --reset $A 2>../err) &&
	test_grep "Which one" err &&
	(cd r && test_expect_code 128 read-tree --reset $A $A $B 2>../err) &&
	test_grep "one or two trees" err
'

test_done
