#!/bin/sh
test_description='objects over 4 GiB, streamed'
. "$(dirname "$0")/test-lib.sh"

# git stores objects of any size; so do we, a piece at a time, never
# holding one whole.  The sizes in headers (loose and packed) are read
# in 64 bits, from objects that are headers alone.  A 128 MiB blob
# (a sparse file with a few bytes) shows what memory each tool takes.
# Peak memory is checked with /usr/bin/time when it is there; the bound
# leaves room for a sanitizer's own.

FIVE_GIB=5368709120
MAX_RSS_KB=65536

# rss_below CMD...: run CMD; its peak memory must stay under
# MAX_RSS_KB (when /usr/bin/time can say), whatever the object's size.
rss_below() {
	if ! test -x /usr/bin/time; then
		"$@"
		return
	fi
	/usr/bin/time -f %M -o "$TRASH_DIRECTORY/.rss" "$@" || return 1
	_kb=$(tail -n 1 "$TRASH_DIRECTORY/.rss")
	echo "# peak RSS $_kb KB: $*" >&2
	if test "$_kb" -gt $MAX_RSS_KB; then
		echo >&2 "peak RSS $_kb KB over $MAX_RSS_KB KB: $*"
		return 1
	fi
}

# stream_cmp FILE CMD...: CMD must succeed and write FILE's bytes (its
# output is compared as it comes, never stored).
stream_cmp() {
	_file=$1
	shift
	rm -f "$TRASH_DIRECTORY/.failed"
	{ "$@" || echo $? >"$TRASH_DIRECTORY/.failed"; } | cmp - "$_file" &&
	test ! -f "$TRASH_DIRECTORY/.failed"
}

# blocks_kb FILE: the space FILE takes, in KB.
blocks_kb() {
	du -k "$1" | cut -f1
}

# sparse_file NAME SIZE: SIZE bytes, zeros but for a few words at the
# start, the middle, past 4 GiB (when it is that big) and the end.
sparse_file() {
	python3 -c "import sys
name, size = sys.argv[1], int(sys.argv[2])
f = open(name, \"wb\")
f.truncate(size)
for at, text in ((0, b\"start\"), (size // 2, b\"middle\"),
		 ((4 << 30) + 4096, b\"past 4 GiB\"), (size - 4, b\"end\\n\")):
	if at + len(text) <= size:
		f.seek(at)
		f.write(text)" "$1" "$2"
}

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
# about 7 MB, its checkout writes holes, no output is stored.  Each
# pass over 5 GiB costs seconds of CPU (git fsck and git pack-objects
# most of a minute each), too much for every run.
if test -z "$DIRCACHE_TEST_BIG"; then
	echo "# the 5 GiB tests are skipped: set DIRCACHE_TEST_BIG=1 to run them"
	test_done
fi
free_kb=$(df -Pk "$TRASH_DIRECTORY" | awk 'NR == 2 { print $4 }')
if test "${free_kb:-0}" -lt 262144; then
	echo "# the 5 GiB tests are skipped: less than 256 MB free here"
	test_done
fi

test_expect_success 'big: a 5 GiB sparse file, its id from SHA-1 itself' '
	rm -rf .dircache && init-db 2>/dev/null &&
	sparse_file big $FIVE_GIB &&
	test $(blocks_kb big) -lt 1024 &&
	python3 -c "import hashlib
h = hashlib.sha1(b\"blob %d\0\" % $FIVE_GIB)
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
