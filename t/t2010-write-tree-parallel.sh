#!/bin/sh
test_description='write-tree: trees hashed in one pass, stored on every core'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-wt.sh"

GIT_DIR=.dircache
export GIT_DIR

# N directories (default 150) of 3 levels.  Directories aN/same hold
# the same files: one tree id queued many times.  150 make 451 trees,
# stored as one pack (100 new trees or more are); 30 make 92, more than
# the thread pool's minimum of 64, stored loose by several threads at
# once, the repeated one by whichever thread comes first.
make_tree() {
	i=0 &&
	while [ $i -lt ${1:-150} ]; do
		mkdir -p a$i/b/c a$i/same &&
		echo "$i" >a$i/f &&
		echo "$i deep" >a$i/b/c/g &&
		echo same >a$i/same/s || return 1
		i=$((i + 1))
	done
}

# The distinct trees of tree $1 (its root too) into ../trees.
list_trees() {
	{
		echo $1 &&
		git ls-tree -r -t $1 | awk "\$2 == \"tree\" { print \$3 }"
	} | sort -u >../trees
}

test_expect_success 'many trees, one tree many times: one pack, as git hashes' '
	test_create_repo many &&
	cd many &&
	make_tree &&
	wt_check_tree &&
	git ls-tree -r -t $(cat ../tree) | grep -c " tree " >../n &&
	test $(cat ../n) -eq 600 &&
	list_trees $(cat ../tree) &&
	test $(wc -l <../trees) -eq 452 &&
	while read -r t; do
		test_must_fail test -f "$(obj_file $t)" || exit 1
	done <../trees &&
	ls .dircache/objects/pack/*.idx >../idx &&
	test $(wc -l <../idx) -eq 1 &&
	git show-index <$(cat ../idx) | cut -d" " -f2 | sort >../packed &&
	test_cmp ../trees ../packed &&
	git verify-pack $(cat ../idx)
'

test_expect_success 'fewer than 100 new trees are stored loose, on every core' '
	test_create_repo few &&
	cd few &&
	make_tree 30 &&
	wt_check_tree &&
	list_trees $(cat ../tree) &&
	test $(wc -l <../trees) -eq 92 &&
	while read -r t; do
		test -f "$(obj_file $t)" || exit 1
	done <../trees &&
	test_must_fail ls .dircache/objects/pack/*.idx
'

test_expect_success 'a second write-tree of the same index packs nothing again' '
	cd many &&
	rm -f .dircache/index &&
	update-cache --add -z --stdin <../files &&
	write-tree >../again &&
	test_cmp ../tree ../again &&
	ls .dircache/objects/pack/*.idx >../idx2 &&
	test_cmp ../idx ../idx2
'

# A repository NAME (entered) of make_tree's files, all added.
add_tree_repo() {
	test_create_repo "$1" &&
	cd "$1" &&
	make_tree &&
	wt_files >"$TRASH_DIRECTORY/files" &&
	update-cache --add -z --stdin <"$TRASH_DIRECTORY/files"
}

# The id a directory of the tree will have, from a git repository of
# the same files that is not ours.
tree_id_of() {
	git --git-dir="$TRASH_DIRECTORY/oracle/.git" rev-parse \
		"$(cat "$TRASH_DIRECTORY/git-own"):$1"
}

test_expect_success 'a tree id holding other bytes is refused, and named' '
	add_tree_repo refused &&
	env -u GIT_DIR git init -q ../oracle &&
	git --git-dir=../oracle/.git --work-tree=. update-index --add -z \
		--stdin <../files &&
	git --git-dir=../oracle/.git write-tree >../git-own &&
	id=$(tree_id_of a77/b) &&
	echo "100644 impostor $(git hash-object -w --stdin </dev/null)" |
		$WO --tree-spec --name $id tree >/dev/null &&
	cp "$(obj_file $id)" ../saved &&
	test_expect_code 128 write-tree >../out 2>../err &&
	test_grep "object $id exists with different content" ../err &&
	test_grep "unable to write the tree of .a77/b." ../err &&
	test_must_fail test -s ../out &&
	cmp ../saved "$(obj_file $id)"
'

test_expect_success 'a refused index writes no tree at all' '
	add_tree_repo none &&
	rm "$(obj_file $(git hash-object a149/b/c/g))" &&
	wt_objects >../before &&
	test_expect_code 128 write-tree 2>../err &&
	test_grep "a149/b/c/g. names object" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after
'

test_done
