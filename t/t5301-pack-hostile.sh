#!/bin/sh
test_description='hostile packs made byte by byte: refused with a message'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR
MP="python3 $TEST_DIRECTORY/make-pack.py"

# refuses CMD...: fails on purpose (1 to 128), within 20 seconds, and
# says why on stderr.
refuses() {
	timeout 20 "$@" >"$TRASH_DIRECTORY/out" 2>"$TRASH_DIRECTORY/err"
	code=$?
	if [ $code -eq 0 ] || [ $code -gt 128 ] || [ $code -eq 124 ] ||
	   [ $code -eq 120 ]; then
		echo >&2 "refuses: '$*' exited $code"
		return 1
	fi
	test -s "$TRASH_DIRECTORY/err"
}

# hostile CASE PATTERN [headers]: in a fresh repository holding only
# that pack, cat-file, fsck-cache and verify-pack refuse it, saying
# PATTERN.  With "headers" the fault is in a delta's instructions,
# which cat-file -s does not read (it takes the size from the delta's
# header, as git does): it gives git's answer.
hostile() {
	rm -rf "$TRASH_DIRECTORY/$1" && git init -q "$TRASH_DIRECTORY/$1" &&
	cd "$TRASH_DIRECTORY/$1" &&
	id=$($MP $1 .git/objects/pack) &&
	refuses cat-file -p $id &&
	test_grep -e "$2" "$TRASH_DIRECTORY/err" &&
	if test "$3" = headers; then
		cat-file -s $id >"$TRASH_DIRECTORY/ours" &&
		git cat-file -s $id >"$TRASH_DIRECTORY/theirs" &&
		test_cmp "$TRASH_DIRECTORY/theirs" "$TRASH_DIRECTORY/ours"
	else
		refuses cat-file -s $id
	fi &&
	refuses fsck-cache &&
	test_grep -e "$2" "$TRASH_DIRECTORY/err" &&
	refuses verify-pack -v .git/objects/pack/*.idx &&
	test_grep -e "$2" "$TRASH_DIRECTORY/err"
}

test_expect_success 'the pack maker makes packs git reads' '
	git init -q good && cd good &&
	id=$($MP good .git/objects/pack) &&
	git cat-file -p $id >../expect &&
	cat-file -p $id >../ours &&
	test_cmp ../expect ../ours &&
	git verify-pack --object-format=$test_hash_algo -v .git/objects/pack/*.idx >../expect &&
	verify-pack -v .git/objects/pack/*.idx >../ours &&
	test_cmp ../expect ../ours &&
	fsck-cache
'

test_expect_success 'a chain 300 deep, OFS and REF in turn, read as git' '
	git init -q deep && cd deep &&
	id=$($MP deep .git/objects/pack) &&
	git cat-file -p $id >../expect &&
	cat-file -p $id >../ours &&
	test_cmp ../expect ../ours &&
	test_grep "^line 299" ../ours &&
	git verify-pack --object-format=$test_hash_algo -v .git/objects/pack/*.idx >../expect &&
	verify-pack -v .git/objects/pack/*.idx >../ours &&
	test_cmp ../expect ../ours &&
	test_grep "chain length = 300: 1 object" ../ours &&
	fsck-cache >../out &&
	git fsck 2>/dev/null | grep ^dangling | sort >../expect &&
	sort ../out >../ours &&
	test_cmp ../expect ../ours
'

test_expect_success 'a truncated pack' '
	hostile truncated "does not match index"
'

test_expect_success 'an idx offset past the end of the pack' '
	hostile idx_past_end "points past the end of the pack"
'

test_expect_success 'two idx entries for one id' '
	hostile dup_idx "duplicated or out of order"
'

test_expect_success 'idx ids out of order: each lookup checks its path' '
	hostile idx_unsorted "out of order\|fan-out table does not match"
'

test_expect_success 'an OFS_DELTA base where no entry starts' '
	git init -q middle && cd middle &&
	id=$($MP ofs_middle .git/objects/pack) &&
	refuses cat-file -p $id &&
	test_grep "unknown object type 0 at offset 13" ../err &&
	refuses fsck-cache &&
	test_grep "no object starts at offset 13" ../err &&
	refuses verify-pack .git/objects/pack/*.idx &&
	test_grep "no object starts at offset 13" ../err
'

test_expect_success 'bytes after an entry: read as git, refused by the checks' '
	git init -q garbage && cd garbage &&
	id=$($MP trailing_garbage .git/objects/pack) &&
	git cat-file -p $id >../expect &&
	cat-file -p $id >../ours &&
	test_cmp ../expect ../ours &&
	refuses fsck-cache &&
	test_grep "garbage after the zlib stream" ../err &&
	refuses verify-pack .git/objects/pack/*.idx &&
	test_grep "garbage after the zlib stream" ../err
'

test_expect_success 'a delta copying beyond its base' '
	hostile copy_beyond "delta copies beyond its base" headers
'

test_expect_success 'a delta whose result is not the size it says' '
	hostile result_size "shorter than its header says" headers
'

test_expect_success 'a delta to a missing base' '
	hostile missing_base "delta base [0-9a-f]* is missing"
'

test_expect_success 'a delta cycle' '
	hostile cycle "delta chain loops"
'

test_expect_success 'an OFS_DELTA pointing to itself' '
	hostile ofs_self "points to the delta itself"
'

test_expect_success 'an OFS_DELTA pointing forward, past the start' '
	hostile ofs_forward "out of bound"
'

test_expect_success 'a size that overflows' '
	hostile size_overflow "size overflows"
'

test_expect_success 'a size its data cannot hold' '
	hostile size_lie "claims more bytes"
'

test_expect_success 'an entry of type 5' '
	hostile bad_type "unknown object type 5"
'

test_expect_success 'a bad CRC: fsck-cache and verify-pack say so, as git' '
	git init -q crc && cd crc &&
	id=$($MP bad_crc .git/objects/pack) &&
	cat-file -p $id >/dev/null &&
	refuses fsck-cache &&
	test_grep "index CRC mismatch for object $id" ../err &&
	refuses verify-pack .git/objects/pack/*.idx &&
	test_must_fail git verify-pack --object-format=$test_hash_algo .git/objects/pack/*.idx 2>../gerr &&
	test_must_fail git fsck 2>../gerr &&
	test_grep "index CRC mismatch for object $id" ../gerr
'

test_expect_success 'a wrong zlib checksum: fsck-cache says so, as git fsck' '
	git init -q adler && cd adler &&
	id=$($MP bad_adler .git/objects/pack) &&
	cat-file -p $id >../ours &&
	test_must_fail git verify-pack --object-format=$test_hash_algo .git/objects/pack/*.idx 2>../gerr &&
	refuses verify-pack .git/objects/pack/*.idx &&
	test_grep "adler32" ../err &&
	test_must_fail git fsck 2>../gerr &&
	refuses fsck-cache &&
	test_grep "object $id is corrupt" ../err &&
	test_grep "adler32" ../err &&
	test $(grep -c "is corrupt" ../err) = 2
'

case $test_hash_algo in
sha1)	other_hash=sha256 ;;
*)	other_hash=sha1 ;;
esac

test_expect_success 'a pack and idx of the other hash in the store: refused, told why' '
	git init -q --object-format=$other_hash oh &&
	(cd oh && echo one >f && git add f && git commit -q -m one &&
	 git repack -q -ad) &&
	git init -q mixed && cd mixed &&
	cp ../oh/.git/objects/pack/* .git/objects/pack/ &&
	oid=$(git -C ../oh rev-parse HEAD:f) &&
	refuses cat-file -p $(echo one | git hash-object --stdin) &&
	test_grep "has $other_hash ids, the store is $test_hash_algo" \
		../err &&
	refuses fsck-cache &&
	test_grep "has $other_hash ids" ../err &&
	verify-pack .git/objects/pack/*.idx
'

test_expect_success 'a flipped byte in a real pack: refused, never read' '
	git init -q real && cd real &&
	seq 1 2000 >f && git add f && git commit -q -m one &&
	git gc -q &&
	id=$(git rev-parse HEAD:f) &&
	p=$(ls .git/objects/pack/*.pack) &&
	chmod u+w $p && size=$(wc -c <$p) &&
	printf "\\125" | dd of=$p bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null &&
	refuses cat-file -p $id &&
	test_grep "$id" ../err &&
	refuses fsck-cache &&
	test_grep "pack checksum mismatch" ../err
'

test_done
