#!/bin/sh
test_description='objects over 4 GiB, streamed'
. "$(dirname "$0")/test-lib.sh"

# git stores objects of any size; so do we, a piece at a time, never
# holding one whole.  The sizes in headers (loose and packed) are read
# in 64 bits, from objects that are headers alone.  A 128 MiB blob
# (a sparse file with a few bytes) shows what memory each tool takes
# (the helpers: lib-big.sh).  The pack tools: t5360.

. "$TEST_DIRECTORY/lib-big.sh"

test_expect_success 'setup' '
	init-db 2>/dev/null
'

test_expect_success 'cat-file -s and -t read a loose header over 4 GiB' '
	id=$(python3 "$TEST_DIRECTORY/big-header.py" loose $FIVE_GIB \
		.dircache/objects) &&
	cat-file -s $id >got && cat-file -t $id >>got &&
	GIT_DIR=.dircache git cat-file -s $id >want &&
	GIT_DIR=.dircache git cat-file -t $id >>want &&
	test_cmp want got &&
	echo $FIVE_GIB >five && head -n 1 got | test_cmp five - &&
	rm -f $(obj_file $id)
'

test_expect_success 'and a pack entry size of 64 bits, as git does' '
	for size in 4294967296 $((FIVE_GIB + 1)); do
		id=$(python3 "$TEST_DIRECTORY/big-header.py" pack $size \
			.dircache/objects/pack) &&
		cat-file -s $id >got && cat-file -t $id >>got &&
		GIT_DIR=.dircache git cat-file -s $id >want &&
		GIT_DIR=.dircache git cat-file -t $id >>want &&
		test_cmp want got &&
		test "$(head -n 1 got)" = $size &&
		rm -f .dircache/objects/pack/* || return 1
	done
'

test_expect_success 'a 128 MiB blob: cat-file streams it, a tag peeled' '
	sparse_file mid $((128 << 20)) &&
	rss_below update-cache --add mid &&
	id=$(cat mid | git hash-object --stdin) &&
	stream_cmp mid rss_below cat-file blob $id &&
	stream_cmp mid rss_below cat-file -p $id &&
	rss_below cat-file -e $id &&
	printf "object %s\ntype blob\ntag t\ntagger T <t@example.com> 0 +0000\n\nt\n" \
		$id >tag &&
	tag=$(GIT_DIR=.dircache git mktag <tag) &&
	stream_cmp mid rss_below cat-file blob $tag
'

# A checkout writes all-zero pieces as holes where the file system has
# them (the sparse file above says whether it does).  Nothing may map
# the sparse files: on tmpfs, a page mapped is a page filled (hence
# git hash-object --stdin from a pipe).
test_expect_success 'checkout-cache writes it back, zeros as holes' '
	mv mid mid.orig &&
	rss_below checkout-cache -u mid &&
	cmp mid mid.orig &&
	if test $(blocks_kb mid.orig) -lt 1024; then
		test $(blocks_kb mid) -lt 1024
	fi &&
	show-diff >out && test_cmp /dev/null out &&
	GIT_DIR=.dircache git diff-files >out && test_cmp /dev/null out
'

test_expect_success 'fsck-cache checks it a piece at a time' '
	rss_below fsck-cache --strict
'

# The 5 GiB run needs sparse files and a little room: its object is
# about 7 MB, its checkout writes holes, no output is stored.
big_tests_or_done

test_expect_success 'big: a 5 GiB sparse file, its id from the hash itself' '
	rm -rf .dircache && init-db 2>/dev/null &&
	sparse_file big $FIVE_GIB &&
	test $(blocks_kb big) -lt 1024 &&
	python3 -c "import hashlib
h = hashlib.new(\"$test_hash_algo\", b\"blob %d\0\" % $FIVE_GIB)
f = open(\"big\", \"rb\")
for piece in iter(lambda: f.read(1 << 20), b\"\"):
	h.update(piece)
print(h.hexdigest())" >id
'

test_expect_success 'big: update-cache --add stores it as git would' '
	rss_below update-cache --add big &&
	id=$(cat id) &&
	printf "100644 %s 0\tbig\n" $id >want &&
	GIT_DIR=.dircache git ls-files -s >got &&
	test_cmp want got &&
	ls-files -s >got &&
	test_cmp want got &&
	GIT_DIR=.dircache git cat-file -s $id >got &&
	echo $FIVE_GIB | test_cmp - got &&
	test $(blocks_kb $(obj_file $id)) -lt 65536
'

test_expect_success 'big: the index holds its size cut to 32 bits, as git' '
	GIT_DIR=.dircache git ls-files --debug >debug &&
	test_grep "size: $((FIVE_GIB % 4294967296))	" debug &&
	show-diff >out && test_cmp /dev/null out &&
	GIT_DIR=.dircache git diff-files >out && test_cmp /dev/null out
'

test_expect_success 'big: cat-file -s, -t, -e and blob stream it' '
	id=$(cat id) &&
	cat-file -s $id >got && cat-file -t $id >>got &&
	printf "%s\nblob\n" $FIVE_GIB >want && test_cmp want got &&
	rss_below cat-file -e $id &&
	stream_cmp big rss_below cat-file blob $id
'

test_expect_success 'big: fsck-cache checks it a piece at a time' '
	rss_below fsck-cache --strict
'

test_expect_success 'big: write-tree, commit-tree and read-tree carry it' '
	tree=$(write-tree) &&
	test $tree = $(GIT_DIR=.dircache git write-tree) &&
	commit=$(echo big | commit-tree $tree) &&
	rm .dircache/index &&
	read-tree $commit &&
	rss_below show-diff >out && test_cmp /dev/null out &&
	update-cache --refresh &&
	GIT_DIR=.dircache git diff-files >out && test_cmp /dev/null out
'

test_expect_success 'big: checkout-cache writes the same bytes, zeros as holes' '
	mv big orig &&
	rss_below checkout-cache -u -a &&
	cmp big orig &&
	test $(blocks_kb big) -lt 65536 &&
	show-diff >out && test_cmp /dev/null out &&
	GIT_DIR=.dircache git ls-files --debug >debug &&
	test_grep "size: $((FIVE_GIB % 4294967296))	" debug &&
	GIT_DIR=.dircache git diff-files >out && test_cmp /dev/null out
'

test_expect_success 'big: git fsck --strict finds our store clean' '
	GIT_DIR=.dircache git fsck --strict >out 2>&1 &&
	! grep -i "error\|warning\|bad\|missing\|broken" out
'

test_expect_success 'big: a pack git made of it is read a piece at a time' '
	id=$(cat id) &&
	echo $id | GIT_DIR=.dircache git pack-objects .dircache/objects/pack/pack &&
	rm -f $(obj_file $id) &&
	cat-file -s $id >got &&
	echo $FIVE_GIB | test_cmp - got &&
	stream_cmp orig rss_below cat-file blob $id &&
	rss_below fsck-cache --strict
'

test_done
