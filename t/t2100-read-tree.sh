#!/bin/sh
test_description='read-tree: trees into the index, refusals, -m keeps stat data'
. "$(dirname "$0")/test-lib.sh"

# write-tree is ours once it exists; git writes the same tree until then.
git_ls() {
	GIT_DIR=.dircache git ls-files -s
}

# The work tree matches the index: git's view (stat data included), and
# show-diff's (it must print nothing).
assert_clean() {
	GIT_DIR=.dircache git diff-files --quiet &&
	show-diff >"$TRASH_DIRECTORY/sd.out" &&
	test ! -s "$TRASH_DIRECTORY/sd.out"
}

# mktree_raw "<mode> <name> <hex>"...: store a tree of exactly these
# entries, in this order and with these bytes (no checks), print its id.
mktree_raw() {
	python3 -c '
import sys
out = b""
for arg in sys.argv[1:]:
    mode, name, hexid = arg.split(" ")
    out += mode.encode() + b" " + name.encode() + b"\0" + bytes.fromhex(hexid)
sys.stdout.buffer.write(out)
' "$@" | GIT_DIR=.dircache git hash-object -t tree --literally -w --stdin
}

# fake_id: an id of the store's size that names no object.
fake_id() {
	echo 1234567890123456789012345678901234567890123456789012345678901234 |
	cut -c1-$OID_HEXSZ
}

test_expect_success 'setup: a tree of every kind of entry' '
	init-db 2>/dev/null &&
	mkdir -p deep/er/and/deeper foo &&
	echo regular >file &&
	echo run >exe && chmod +x exe &&
	ln -s deep/er/and/deeper/leaf link &&
	echo leaf >deep/er/and/deeper/leaf &&
	echo space >"with space" &&
	cafe=$(printf "caf\303\251") && echo cafe >"$cafe" &&
	echo a >foo.c && echo b >foo/x && echo c >foo-bar && echo d >foo0 &&
	update-cache --add file exe link deep/er/and/deeper/leaf \
		"with space" "$cafe" foo.c foo/x foo-bar foo0 &&
	update-cache --refresh &&
	cp .dircache/index index.orig &&
	tree=$(write-tree) &&
	echo "$tree" >tree &&
	commit=$(GIT_DIR=.dircache git commit-tree "$tree" -m one) &&
	echo "$commit" >commit
'

test_expect_success 'make-index.py --stat writes the bytes update-cache writes' '
	git_ls | sed "s/	/ /" >spec &&
	python3 "$TEST_DIRECTORY/make-index.py" --stat made-index <spec &&
	cmp index.orig made-index
'

test_expect_success 'read-tree writes the index git read-tree writes' '
	rm .dircache/index &&
	read-tree "$(cat tree)" &&
	git_ls >actual &&
	GIT_INDEX_FILE=git-index GIT_DIR=.dircache git read-tree "$(cat tree)" &&
	GIT_INDEX_FILE=git-index GIT_DIR=.dircache git ls-files -s >expect &&
	test_cmp expect actual
'

test_expect_success 'entries are in index order (foo-bar, foo.c, foo/x, foo0)' '
	git_ls | sed "s/.*	//" | grep "^foo" >actual &&
	printf "%s\n" foo-bar foo.c foo/x foo0 >expect &&
	test_cmp expect actual
'

test_expect_success 'read-tree without -m leaves all stat data zero' '
	git_ls | sed "s/	/ /" >spec &&
	python3 "$TEST_DIRECTORY/make-index.py" zero-stat <spec &&
	n=$(($(wc -c <zero-stat) - OID_HEXSZ / 2)) &&
	head -c $n zero-stat >expect && head -c $n .dircache/index >actual &&
	cmp expect actual
'

test_expect_success 'and its cache tree (TREE) is primed, as git'"'"'s' '
	GIT_INDEX_FILE=expect-index GIT_DIR=.dircache \
		git read-tree "$(cat tree)" &&
	cmp expect-index .dircache/index
'

test_expect_success 'a commit id means its tree' '
	rm .dircache/index &&
	read-tree "$(cat commit)" &&
	cmp expect-index .dircache/index
'

test_expect_success 'a ref and an abbreviated id are taken' '
	cat commit >.dircache/refs/heads/master &&
	rm .dircache/index &&
	read-tree HEAD &&
	cmp expect-index .dircache/index &&
	rm .dircache/index &&
	read-tree "$(cut -c1-10 tree)" &&
	cmp expect-index .dircache/index
'

test_expect_success 'read-tree replaces the index, dropping other entries' '
	cp index.orig .dircache/index &&
	echo new >new && update-cache --add new &&
	git_ls | grep "	new$" &&
	read-tree "$(cat tree)" &&
	cmp expect-index .dircache/index
'

test_expect_success 'the empty tree empties the index' '
	t=$(GIT_DIR=.dircache git hash-object -t tree -w --stdin </dev/null) &&
	test "$t" = $(test_oid empty_tree) &&
	read-tree $(test_oid empty_tree) &&
	git_ls >actual &&
	test ! -s actual &&
	read-tree "$(cat tree)"
'

test_expect_success 'usage: no tree, unknown option, -h' '
	test_expect_code 129 read-tree 2>err &&
	test_grep "^usage: read-tree (--empty | \[(-m | --reset | --prefix=<dir>/) \[-u | -i\]\] <tree-ish> \[<tree-ish> \[<tree-ish>\]\])$" err &&
	test_expect_code 129 read-tree -x "$(cat tree)" 2>err &&
	test_grep "^usage: read-tree (--empty | \[(-m | --reset | --prefix=<dir>/) \[-u | -i\]\] <tree-ish> \[<tree-ish> \[<tree-ish>\]\])$" err &&
	read-tree -h >out &&
	test_grep "^usage: read-tree (--empty | \[(-m | --reset | --prefix=<dir>/) \[-u | -i\]\] <tree-ish> \[<tree-ish> \[<tree-ish>\]\])$" out
'

test_expect_success 'two or three trees without -m, four trees: refused, index unchanged' '
	cp .dircache/index before &&
	t=$(cat tree) &&
	test_expect_code 128 read-tree "$t" "$t" 2>err &&
	test_grep "^read-tree: 2 trees given: -m is needed to merge them$" err &&
	test_expect_code 128 read-tree "$t" "$t" "$t" 2>err &&
	test_grep "3 trees given" err &&
	test_expect_code 129 read-tree -m "$t" "$t" "$t" "$t" 2>err &&
	cmp before .dircache/index
'

test_expect_success 'a name that is no object, or a blob: refused' '
	cp .dircache/index before &&
	test_expect_code 128 read-tree nosuchref 2>err &&
	test_grep "not a valid object name" err &&
	blob=$(GIT_DIR=.dircache git hash-object file) &&
	test_expect_code 128 read-tree "$blob" 2>err &&
	test_grep "is a blob, not a tree or a commit" err &&
	cmp before .dircache/index &&
	! test -f .dircache/index.lock
'

test_expect_success 'an annotated tag, and a tag of a tag, read as git peels them' '
	t=$(cat tree) &&
	c=$(echo tagged | commit-tree "$t") &&
	tag1=$(printf "object %s\ntype commit\ntag v1\ntagger T <t@x> 1 +0000\n\nv1\n" "$c" |
		GIT_DIR=.dircache git hash-object -t tag -w --stdin) &&
	tag2=$(printf "object %s\ntype tag\ntag v2\ntagger T <t@x> 1 +0000\n\nv2\n" "$tag1" |
		GIT_DIR=.dircache git hash-object -t tag -w --stdin) &&
	read-tree "$tag2" &&
	ls-files -s >ours &&
	GIT_DIR=.dircache GIT_INDEX_FILE=git-index git read-tree "$tag2" &&
	GIT_DIR=.dircache GIT_INDEX_FILE=git-index git ls-files -s >theirs &&
	test_cmp theirs ours &&
	read-tree "$t"
'

# Each hostile tree: read-tree exits 128, names tree and reason, and the
# index stays byte for byte as it was.
refuse_tree() {
	id=$1 && why=$2 &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree "$id" 2>err &&
	test_grep "^read-tree: tree $id.*: $why" err &&
	cmp before .dircache/index &&
	! test -f .dircache/index.lock &&
	test_expect_code 128 read-tree -m "$id" 2>err &&
	cmp before .dircache/index
}

test_expect_success 'hostile names in a tree are refused' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	refuse_tree $(mktree_raw "100644 .. $b") hasDotdot &&
	refuse_tree $(mktree_raw "100644 . $b") hasDot &&
	refuse_tree $(mktree_raw "100644 .git $b") hasDotgit &&
	refuse_tree $(mktree_raw "100644 .GiT $b") hasDotgit &&
	refuse_tree $(mktree_raw "100644 .dircache $b") hasDotdircache &&
	refuse_tree $(mktree_raw "100644 .DIRCACHE $b") hasDotdircache &&
	refuse_tree $(mktree_raw "100644 a/b $b") fullPathname &&
	refuse_tree $(mktree_raw "100644 $(printf "\\057etc") $b") fullPathname
'

test_expect_success 'an empty name, a truncated entry: refused as unparsable' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	refuse_tree $(mktree_raw "100644  $b") badTree &&
	t=$(printf "100644 x\0abc" |
	    GIT_DIR=.dircache git hash-object -t tree --literally -w --stdin) &&
	refuse_tree $t badTree
'

test_expect_success 'a tree of the other hash'"'"'s id size: refused, not misread' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	case $test_hash_algo in
	sha1) other=$b$(printf %.24s $b) ;;
	*) other=$(printf %.40s $b) ;;
	esac &&
	t=$(mktree_raw "100644 a $other" "100644 b $other") &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree $t 2>err &&
	test_grep "^read-tree: tree $t" err &&
	cmp before .dircache/index &&
	test_expect_code 128 read-tree -m $t 2>err &&
	cmp before .dircache/index &&
	t=$(mktree_raw "100644 a $other") &&
	test_expect_code 128 read-tree $t 2>err &&
	test_grep "^read-tree: tree $t" err &&
	cmp before .dircache/index
'

test_expect_success 'unsorted and duplicate entries: refused' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	refuse_tree $(mktree_raw "100644 b $b" "100644 a $b") treeNotSorted &&
	refuse_tree $(mktree_raw "100644 a $b" "100644 a $b") duplicateEntries &&
	sub=$(mktree_raw "100644 x $b") &&
	refuse_tree $(mktree_raw "100644 a $b" "100644 a.b $b" "40000 a $sub") \
		duplicateEntries
'

# Trees from 2005 hold 100664 and zero-padded modes: git reads them,
# canonicalised, and so must we.
test_expect_success 'old and odd modes are read as git reads them' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	sub=$(mktree_raw "100644 x $b") &&
	for spec in "040000 d $sub" "100664 f $b" "100600 f $b" \
		    "100775 f $b" "0100644 f $b"; do
		t=$(mktree_raw "$spec") &&
		rm -f .dircache/index &&
		read-tree $t &&
		GIT_DIR=.dircache git ls-files -s >actual &&
		GIT_DIR=.dircache GIT_INDEX_FILE=git-index git read-tree $t &&
		GIT_DIR=.dircache GIT_INDEX_FILE=git-index git ls-files -s >expect &&
		test_cmp expect actual &&
		cat-file -p $t >actual &&
		GIT_DIR=.dircache git cat-file -p $t >expect &&
		test_cmp expect actual &&
		diff-tree -r $(test_oid empty_tree) $t >actual &&
		GIT_DIR=.dircache git diff-tree -r $(test_oid empty_tree) $t >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'a hostile subtree is refused, naming the tree and its path' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	bad=$(mktree_raw "100644 .git $b") &&
	mid=$(mktree_raw "100644 ok $b" "40000 sub $bad") &&
	top=$(mktree_raw "40000 dir $mid" "100644 zz $b") &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree "$top" 2>err &&
	test_grep "^read-tree: tree $bad at '\''dir/sub'\'': hasDotgit" err &&
	cmp before .dircache/index
'

test_expect_success 'a missing blob is refused, naming the path' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	missing=$(fake_id) &&
	sub=$(mktree_raw "100644 gone $missing") &&
	top=$(mktree_raw "100644 a $b" "40000 d $sub") &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree "$top" 2>err &&
	test_grep "^read-tree: tree $sub at '\''d'\'': entry '\''d/gone'\'' names blob $missing, which is missing$" err &&
	cmp before .dircache/index
'

test_expect_success 'a missing subtree is refused, naming the path' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	missing=$(fake_id) &&
	top=$(mktree_raw "100644 a $b" "40000 d $missing") &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree "$top" 2>err &&
	test_grep "object $missing not found" err &&
	test_grep "^read-tree: tree $top: cannot read subtree '\''d'\''$" err &&
	cmp before .dircache/index
'

test_expect_success 'a path longer than 4095 bytes is refused' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	name=$(printf "%0250d" 0) &&
	t=$(mktree_raw "100644 $name $b") &&
	for i in $(seq 1 16); do
		t=$(mktree_raw "40000 $name $t") || return 1
	done &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree "$t" 2>err &&
	test_grep "makes a path longer than 4095 bytes" err &&
	cmp before .dircache/index
'

test_expect_success 'a subtree entry naming a blob is refused' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	top=$(mktree_raw "40000 d $b") &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree "$top" 2>err &&
	test_grep "is a blob, not a tree" err &&
	cmp before .dircache/index
'

test_expect_success 'a gitlink names a commit elsewhere: not looked for' '
	b=$(GIT_DIR=.dircache git hash-object file) &&
	missing=$(fake_id) &&
	top=$(mktree_raw "100644 a $b" "160000 sub $missing") &&
	read-tree "$top" &&
	git_ls >actual &&
	printf "100644 %s 0\ta\n160000 %s 0\tsub\n" $b $missing >expect &&
	test_cmp expect actual
'

test_expect_success 'a locked index is not touched' '
	cp .dircache/index before &&
	: >.dircache/index.lock &&
	test_expect_code 128 read-tree "$(cat tree)" 2>err &&
	test_grep "index.lock.*File exists" err &&
	rm .dircache/index.lock &&
	cmp before .dircache/index
'

test_expect_success '-m of the checked-out tree keeps stat data: git diff-files clean' '
	cp index.orig .dircache/index &&
	assert_clean &&
	read-tree -m "$(cat tree)" &&
	cp index.orig git-index &&
	GIT_INDEX_FILE=git-index GIT_DIR=.dircache \
		git read-tree -m "$(cat tree)" &&
	cmp git-index .dircache/index &&
	assert_clean
'

test_expect_success 'without -m the same tree has no stat data: not clean' '
	read-tree "$(cat tree)" &&
	test_must_fail env GIT_DIR=.dircache git diff-files --quiet &&
	cp index.orig .dircache/index
'

test_expect_success '-m keeps stat data only for unchanged path, mode and id' '
	cp index.orig .dircache/index &&
	echo changed >file &&
	chmod -x exe &&
	update-cache file exe &&
	t2=$(write-tree) &&
	update-cache --refresh &&
	cp .dircache/index index2 &&
	read-tree -m "$(cat tree)" &&
	GIT_DIR=.dircache git diff-files --name-only >actual &&
	printf "%s\n" exe file >expect &&
	test_cmp expect actual &&
	GIT_DIR=.dircache git ls-files --debug file exe >debug &&
	test_grep "mtime: 0:0" debug &&
	cp index2 .dircache/index &&
	read-tree -m "$t2" &&
	cmp index2 .dircache/index
'

test_expect_success '-m with a corrupt index: refused, index unchanged' '
	cp .dircache/index good &&
	printf "DIRC garbage" >.dircache/index &&
	cp .dircache/index before &&
	test_expect_code 128 read-tree -m "$(cat tree)" 2>err &&
	test_grep "is corrupt" err &&
	cmp before .dircache/index &&
	read-tree "$(cat tree)" &&
	cmp expect-index .dircache/index
'

test_expect_success 'read-tree into a fresh index sharing the store' '
	mkdir other && (
		cd other &&
		init-db 2>/dev/null &&
		GIT_OBJECT_DIRECTORY=../.dircache/objects &&
		export GIT_OBJECT_DIRECTORY &&
		read-tree "$(cat ../tree)" &&
		cmp ../expect-index .dircache/index
	)
'

test_done
