#!/bin/sh
test_description='merge-base: best common ancestors, compared with git'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.dircache
export GIT_DIR

same_as_git() {
	merge-base "$@" >ours
	echo $? >>ours
	git merge-base "$@" >theirs
	echo $? >>theirs
	test_cmp theirs ours
}

# commit NAME DATE PARENT...: a commit with an empty tree, its id in NAME.
commit() {
	_name=$1 _date=$2
	shift 2
	_args=
	for _p in "$@"; do
		eval "_args=\"\$_args -p \$$_p\""
	done
	eval "$_name=\$(echo $_name | GIT_COMMITTER_DATE=\"$_date +0000\" \
		git commit-tree \$(git mktree </dev/null) $_args)"
}

test_expect_success 'criss-cross: two bases, newest first' '
	test_create_repo cc && cd cc &&
	commit r 1000000000 &&
	commit a1 1000000100 r && commit b1 1000000200 r &&
	commit a2 1000000300 a1 b1 && commit b2 1000000400 b1 a1 &&
	commit a3 1000000500 a2 && commit b3 1000000600 b2 &&
	same_as_git $a3 $b3 &&
	same_as_git --all $a3 $b3 &&
	printf "%s\n" $b1 $a1 0 >expect &&
	test_cmp expect ours &&
	same_as_git --all $b3 $a3 &&
	same_as_git --all $a2 $b2
'

test_expect_success 'criss-cross with equal dates keeps git order' '
	test_create_repo cce && cd cce &&
	commit r 1000000000 &&
	commit a1 1000000100 r && commit b1 1000000100 r &&
	commit a2 1000000100 a1 b1 && commit b2 1000000100 b1 a1 &&
	same_as_git --all $a2 $b2 &&
	same_as_git --all $b2 $a2 &&
	same_as_git $b2 $a2
'

test_expect_success 'ancestor, self, unrelated, and more than two' '
	test_create_repo misc && cd misc &&
	commit r 1000000000 && commit a 1000000100 r && commit b 1000000200 a &&
	commit c 1000000150 r && commit u 1000000300 &&
	same_as_git $b $a && same_as_git $a $b && same_as_git $a $a &&
	same_as_git --all $b $u &&
	test_expect_code 1 merge-base $b $u &&
	same_as_git $b $c $a &&
	same_as_git --all $c $b $u
'

test_expect_success 'clock skew: a child older than its parent' '
	test_create_repo skew && cd skew &&
	commit r 1000000500 && commit a 1000000100 r && commit b 1000000050 a &&
	commit c 1000000600 r && commit d 1000000700 b c &&
	commit e 1000000010 a &&
	same_as_git --all $d $e && same_as_git --all $e $c
'

# Every pair's answers, ours and git's, are gathered in r$seed/ours-all
# and r$seed/theirs-all ("== X Y", the bases, the exit status) and
# compared at once.
for seed in 11 12 13 14 15; do
	test_expect_success "random history $seed: every pair among 12" "
		test_create_repo r$seed && cd r$seed &&
		python3 '$TEST_DIRECTORY/make-history.py' $seed 40 >ids &&
		sed -n '3~3p' ids >some &&
		: >ours-all && : >theirs-all &&
		for x in \$(cat some); do
			for y in \$(cat some); do
				echo \"== \$x \$y\" >>ours-all &&
				echo \"== \$x \$y\" >>theirs-all &&
				{ merge-base --all \$x \$y; echo \$?; } >>ours-all &&
				{ git merge-base --all \$x \$y; echo \$?; } >>theirs-all ||
				return 1
			done
		done &&
		n=\$(wc -l <some) &&
		test \$(grep -c '^== ' ours-all) = \$((n * n)) &&
		test_cmp theirs-all ours-all
	"
done

# The bases merge-base --all printed for each pair above.
test_expect_success 'random histories give several bases somewhere' '
	for seed in 11 12 13 14 15; do
		awk "/^== / { if (n) print n - 2; n = 0 } { n++ }
		     END { if (n) print n - 2 }" r$seed/ours-all || return 1
	done >counts &&
	test $(wc -l <counts) = $(cat r1[1-5]/ours-all | grep -c "^== ") &&
	grep -q "^[2-9]" counts
'

test_expect_success 'refusals' '
	cd misc &&
	test_expect_code 129 merge-base &&
	test_expect_code 129 merge-base $(git mktree </dev/null) &&
	test_expect_code 128 merge-base $(git mktree </dev/null) HEAD 2>err &&
	test_expect_code 129 merge-base --bogus a b &&
	merge-base -h >out && test_grep usage out
'

test_done
