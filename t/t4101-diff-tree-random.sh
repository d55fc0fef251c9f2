#!/bin/sh
test_description='diff-tree against git on random pairs of trees'
. "$(dirname "$0")/test-lib.sh"

# t/mutate-tree.py changes the work tree w/ at random in rounds (round
# i seeded "SEED-i") and stores each state as a tree with our
# update-cache and write-tree (the last one checked against git's), all
# in one store.
# Each tree is compared with the one before it (a few changes) and,
# every tenth, with the first (many changes), in the four raw formats,
# byte for byte with git; every fourth pair also with a few paths (from
# the pool of names) limiting the output.  DIFF_TREE_SEED picks another run; a failing
# case names its seed and round, and
#   mutate-tree.py --populate 60 --rounds I --run CMD SEED DIR 5
# replays the series up to round I.

seed=${DIFF_TREE_SEED:-4101}
pairs=${DIFF_TREE_PAIRS:-200}
MUTATE="$TEST_DIRECTORY/mutate-tree.py"

# four_modes A B [PATH...]: ours and git's output in all four raw
# formats.
four_modes() {
	for opts in "" -r -z "-r -z"; do
		GIT_DIR=.dircache git diff-tree $opts "$@" >>expect &&
		diff-tree $opts "$@" >>actual || return 1
	done
}

test_expect_success "setup: a series of $pairs random trees (seed $seed)" '
	test_create_repo . &&
	mkdir trees &&
	python3 "$MUTATE" --populate 60 --rounds $pairs --run "
		rm -f .dircache/index &&
		(cd w && find . \\( -type f -o -type l \\) -print0 |
			GIT_DIR=../.dircache update-cache --add --stdin -z) &&
		write-tree >trees/\$ROUND" \
		"$seed" w 5 >ops-log &&
	test -s trees/$pairs &&
	read t0 <trees/0 &&
	test $(GIT_DIR=.dircache git ls-tree -r $t0 | wc -l) -gt 30 &&
	(cd w && GIT_DIR=../.dircache git add -A) &&
	GIT_DIR=.dircache git write-tree >expect &&
	test_cmp expect trees/$pairs
'

i=1
while [ $i -le $pairs ]; do
	test_expect_success "random pair $i (seed $seed-$i)" '
		read t0 <trees/0 && read prev <trees/$((i - 1)) &&
		read next <trees/$i &&
		: >expect && : >actual &&
		four_modes $prev $next &&
		if [ $((i % 10)) = 0 ]; then
			four_modes $t0 $next
		fi &&
		if [ $((i % 4)) = 0 ]; then
			four_modes $prev $next -- a a0 z/ ab/a c/ d.txt/z
		fi &&
		test_cmp expect actual &&
		diff-tree $prev $next | cut -f1 >>seen
	'
	i=$((i + 1))
done

test_expect_success 'the random pairs covered every kind of change' '
	cut -d" " -f5 seen | sort -u >statuses &&
	printf "A\\nD\\nM\\nT\\n" >expect &&
	test_cmp expect statuses &&
	test $(grep -c "^:040000 040000" seen) -gt 10 &&
	for op in add delete "delete dir" modify chmod file-\>symlink \
		symlink-\>file file-\>dir dir-\>file move deep
	do
		test_grep -q "^[0-9]*: $op " ops-log || return 1
	done
'

test_done
