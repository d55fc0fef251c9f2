#!/bin/sh
test_description='rev-list: history in git rev-list order, compared with git'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.dircache
export GIT_DIR

same_as_git() {
	rev-list "$@" >ours &&
	git rev-list "$@" >theirs &&
	test_cmp theirs ours
}

test_expect_success 'setup: a line, a merge, equal dates' '
	test_create_repo line &&
	(cd line &&
	 t=$(git mktree </dev/null) &&
	 GIT_COMMITTER_DATE="1000000000 +0000" && export GIT_COMMITTER_DATE &&
	 a=$(echo a | git commit-tree $t) &&
	 b=$(echo b | git commit-tree $t -p $a) &&
	 c=$(echo c | git commit-tree $t -p $a) &&
	 d=$(echo d | git commit-tree $t -p $b -p $c) &&
	 echo "$a $b $c $d" >../line-ids)
'

test_expect_success 'equal dates: the order of the command line, then parents' '
	cd line &&
	read a b c d <../line-ids &&
	same_as_git $d &&
	printf "%s\n" $d $b $c $a >expect &&
	test_cmp expect ours &&
	same_as_git $c $b &&
	same_as_git $b $c &&
	same_as_git $a $c $b &&
	same_as_git --topo-order $c $b $d &&
	same_as_git --parents $d
'

test_expect_success 'exclusions and ranges' '
	cd line &&
	read a b c d <../line-ids &&
	same_as_git $d ^$b &&
	same_as_git $b..$d &&
	same_as_git $d ^$d &&
	test ! -s ours &&
	same_as_git ^$c $d $b
'

# both_to_all ARGS: ours and git's rev-list ARGS, added to ours-all and
# theirs-all under a line naming them, for one test_cmp at the end.
both_to_all() {
	echo "== rev-list $*" >>ours-all &&
	echo "== rev-list $*" >>theirs-all &&
	rev-list "$@" >>ours-all &&
	git rev-list "$@" >>theirs-all
}

for seed in 1 2 3 4; do
	test_expect_success "setup: random history $seed" "
		test_create_repo r$seed &&
		(cd r$seed && python3 '$TEST_DIRECTORY/make-history.py' $seed 45 >../ids$seed)
	"
	for o in "" --topo-order --parents --objects --max-count=3 \
		--max-age=1000000350 --min-age=1000000250 \
		"--topo-order --max-age=1000000300" "--objects --topo-order" \
		"--parents --min-age=1000000300 --max-count=4" "--max-count=0"
	do
		test_expect_success "random history $seed: rev-list $o" "
			cd r$seed &&
			n=\$(wc -l <../ids$seed) &&
			t=\$(tail -n 1 ../ids$seed) &&
			: >ours-all && : >theirs-all &&
			both_to_all $o \$t &&
			for pick in 1 2 3; do
				a=\$(sed -n \"\$(( ($seed * 7 + pick * 13) % n + 1 ))p\" ../ids$seed) &&
				b=\$(sed -n \"\$(( ($seed * 3 + pick * 29) % n + 1 ))p\" ../ids$seed) &&
				both_to_all $o \$a \$b &&
				both_to_all $o \$t ^\$a &&
				both_to_all $o \$a \$b ^\$t &&
				both_to_all $o \$t ^\$a ^\$b || return 1
			done &&
			test_cmp theirs-all ours-all
		"
	done
done

test_expect_success '--objects lists hostile paths as git does' '
	cd r1 &&
	same_as_git --objects $(tail -n 1 ../ids1) &&
	grep "	" ours | grep -q "tab" &&
	grep -q " new$" ours
'

test_expect_success 'a tag names its commit; --objects lists the tag' '
	cd r2 &&
	tag=$(printf "object %s\ntype commit\ntag v1\ntagger T <t@e> 0 +0000\n\nv1\n" \
		$(tail -n 1 ../ids2) | git hash-object -t tag -w --stdin) &&
	same_as_git $tag &&
	same_as_git --objects $tag &&
	grep -q "^$tag v1$" ours
'

test_expect_success 'refusals' '
	cd r1 &&
	test_expect_code 129 rev-list &&
	test_expect_code 129 rev-list --bogus HEAD &&
	test_expect_code 128 rev-list $(echo $ZERO_OID | sed "s/0$/1/") &&
	tree=$(git rev-parse $(tail -n 1 ../ids1)^{tree}) &&
	rev-list $tree >out &&
	git rev-list $tree >expect &&
	test_cmp expect out &&
	rev-list -h >out && test_grep usage out
'

test_expect_success 'a missing parent is an error, not a crash' '
	test_create_repo broken &&
	(cd broken &&
	 t=$(git mktree </dev/null) &&
	 c=$(printf "tree %s\nparent %s\nauthor A <a> 1 +0000\ncommitter C <c> 1 +0000\n\nx\n" \
		$t $(echo $ZERO_OID | tr 0 7) |
		git hash-object -t commit -w --stdin --literally) &&
	 test_expect_code 128 rev-list $c 2>err &&
	 test_grep "cannot walk" err)
'

test_expect_success '--objects refuses a bad subtree, read ahead or not' '
	rm -rf bad && mkdir bad && cd bad &&
	test_create_repo . &&
	blob=$(echo x | $WO blob) &&
	sub=$(printf "100644 a $blob\n100644 a $blob\n" | $WO --tree-spec tree) &&
	top=$(printf "40000 d $sub\n100644 f $blob\n" | $WO --tree-spec tree) &&
	c1=$(echo one | commit-tree $top) &&
	c2=$(echo two | commit-tree $top -p $c1) &&
	other=$(printf "100644 g $blob\n" | $WO --tree-spec tree) &&
	c0=$(echo zero | commit-tree $other) &&
	test_expect_code 128 rev-list --objects $c2 >out 2>err &&
	test_grep "tree $sub is corrupt" err &&
	test_expect_code 128 rev-list --objects $c2 ^$c0 >out 2>err &&
	test_grep "tree $sub is corrupt" err
'

test_expect_success '--objects refuses a tree read ahead that is not its id' '
	rm -rf mismatch && test_create_repo mismatch && cd mismatch &&
	mkdir d && echo x >d/a && echo y >f &&
	git add d f && git commit -q -m one &&
	echo z >d/b && git add d && git commit -q -m two &&
	old=$(git rev-parse HEAD~1:d) new=$(git rev-parse HEAD:d) &&
	file=$GIT_DIR/objects/$(echo $old | sed "s|^..|&/|") &&
	chmod u+w $file &&
	cp $GIT_DIR/objects/$(echo $new | sed "s|^..|&/|") $file &&
	test_expect_code 128 rev-list --objects HEAD >out 2>err &&
	test_grep "hash mismatch $old" err &&
	test_grep "bad tree object $old" err &&
	! grep "^$old" out
'

test_done
