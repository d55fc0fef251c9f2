# t/lib-big.sh: helpers of the big-object tests (t1420, t5360).  Source
# it after test-lib.sh.  A big object is a sparse file of zeros with a
# few words in it: its store and packs are small, each pass over it
# costs CPU alone.  Peak memory is checked with /usr/bin/time when it
# is there; the bound leaves room for a sanitizer's own.

FIVE_GIB=5368709120
MAX_RSS_KB=65536

# rss_below CMD...: run CMD; its peak memory (that of any process it
# waited for, a script's tools too) must stay under MAX_RSS_KB (when
# /usr/bin/time can say), whatever the object's size.
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

# big_tests_or_done: the 5 GiB tests after it run only when asked for
# (DIRCACHE_TEST_BIG=1) and when the trash directory has room (a pack
# over 4 GiB takes some 330 MB of it, sparse as it is): each
# pass over 5 GiB costs seconds of CPU (git's tools most of a minute),
# too much for every run.
big_tests_or_done() {
	if test -z "$DIRCACHE_TEST_BIG"; then
		echo "# the 5 GiB tests are skipped: set DIRCACHE_TEST_BIG=1 to run them"
		test_done
	fi
	_free_kb=$(df -Pk "$TRASH_DIRECTORY" | awk 'NR == 2 { print $4 }')
	if test "${_free_kb:-0}" -lt 1048576; then
		echo "# the 5 GiB tests are skipped: less than 1 GB free here"
		test_done
	fi
}
