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
	echo $FIVE_GIB >five && head -n 1 got | test_cmp five -
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
	id=$(git hash-object mid) &&
	rss_below cat-file blob $id >out &&
	cmp out mid &&
	rss_below cat-file -p $id >out &&
	cmp out mid &&
	rss_below cat-file -e $id &&
	printf "object %s\ntype blob\ntag t\ntagger T <t@example.com> 0 +0000\n\nt\n" \
		$id >tag &&
	tag=$(GIT_DIR=.dircache git mktag <tag) &&
	rss_below cat-file blob $tag >out &&
	cmp out mid &&
	rm out
'

test_done
