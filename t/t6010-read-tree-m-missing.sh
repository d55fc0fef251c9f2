#!/bin/sh
test_description='read-tree -m looks for the blobs it brings into the index, not the others'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-merge.sh"

# A merge reads its trees without looking for every blob (the index
# keeps what it holds): an entry the merge brings in, at stage 0 or as
# a stage of an unmerged path, must exist; one it leaves out is not
# looked for, as in git.  Without -m every blob is still looked for.

# mk_tree_missing_ok: mk_tree for entries whose blobs may be missing.
mk_tree_missing_ok() {
	rm -f "$TRASH_DIRECTORY/mk.idx" &&
	printf '%s\n' "$@" |
	GIT_INDEX_FILE="$TRASH_DIRECTORY/mk.idx" gd update-index --index-info &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/mk.idx" gd write-tree --missing-ok
}

test_expect_success 'setup: trees with a blob that is missing' '
	setup_store && cd repo &&
	K=$(blob keep) && B=$(blob b-ours) && C=$(blob c-theirs) &&
	M=$(echo 1234567890123456789012345678901234567890123456789012345678901234 |
	    cut -c1-$OID_HEXSZ) &&
	k="100644 $K	keep" &&
	echo $M >../M &&
	mk_tree "$k" "100644 $B	p" >../TB &&
	mk_tree "$k" "100644 $C	p" >../TC &&
	mk_tree_missing_ok "$k" "100644 $M	p" >../TM
'

M=$(cat M 2>/dev/null)
TB=$(cat TB 2>/dev/null)
TC=$(cat TC 2>/dev/null)
TM=$(cat TM 2>/dev/null)

# index_of TREE: the index holds TREE (read by git: it does not look).
index_of() {
	rm -f .dircache/index && gd read-tree "$1" && cp .dircache/index ../before
}

test_expect_success 'a missing blob theirs brings in is refused' '
	cd repo && index_of $TB &&
	test_expect_code 128 read-tree -m $TB $TB $TM 2>err &&
	test_grep "^read-tree: entry '\''p'\'' names blob $M, which is missing$" err &&
	cmp ../before .dircache/index
'

test_expect_success 'a missing stage of an unmerged path is refused' '
	cd repo && index_of $TB &&
	test_expect_code 128 read-tree -m $TM $TB $TC 2>err &&
	test_grep "names blob $M, which is missing" err &&
	cmp ../before .dircache/index
'

test_expect_success 'a two-way merge to a missing blob is refused' '
	cd repo && index_of $TB &&
	test_expect_code 128 read-tree -m $TB $TM 2>err &&
	test_grep "names blob $M, which is missing" err &&
	cmp ../before .dircache/index
'

test_expect_success 'a missing base the merge leaves out is not looked for, as in git' '
	cd repo && index_of $TB &&
	read-tree -m $TM $TB $TM &&
	gd ls-files --stage >actual &&
	index_of $TB &&
	gd read-tree -m $TM $TB $TM &&
	gd ls-files --stage >expect &&
	test_cmp expect actual &&
	grep "$B	p" actual
'

test_expect_success 'without -m every blob is looked for' '
	cd repo && index_of $TB &&
	test_expect_code 128 read-tree $TM 2>err &&
	test_grep "names blob $M, which is missing" err &&
	cmp ../before .dircache/index
'

test_done
