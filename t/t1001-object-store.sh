#!/bin/sh
test_description='the object store: git loose format, atomic writes, env'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	init-db 2>/dev/null &&
	printf "hello\n" >h && : >empty &&
	update-cache --add h empty
'

test_expect_success 'a blob is zlib of "blob <size>", NUL and the data, named by its hash' '
	id=$(git hash-object h) &&
	python3 -c "
import zlib, hashlib, sys
raw = zlib.decompress(open(sys.argv[1], \"rb\").read())
assert raw == b\"blob 6\0hello\n\", raw
assert hashlib.new(sys.argv[3], raw).hexdigest() == sys.argv[2]
" "$(obj_file $id)" "$id" "$test_hash_algo" &&
	test ${#id} = $OID_HEXSZ
'

test_expect_success 'the empty blob has git id e69de29 (sha256: 473a0f4)' '
	test -f "$(obj_file $EMPTY_BLOB)"
'

test_expect_success 'objects are read-only and no temporary file is left' '
	id=$(git hash-object h) &&
	test "$(stat -c %a "$(obj_file $id)")" = 444 &&
	! find .dircache/objects -name "tmp_*" | grep .
'

test_expect_success 'an existing object is not rewritten' '
	id=$(git hash-object h) &&
	f=$(obj_file $id) &&
	touch -d 2001-01-01 "$f" && before=$(stat -c %Y "$f") &&
	update-cache h && touch h && update-cache h &&
	test "$(stat -c %Y "$f")" = "$before"
'

# Objects are deflated by deflate.c, a chunk of 64 KiB at a time: not
# the bytes zlib would write, but a stream every inflater reads, marked
# "fastest" as git's level 1 is, and on source code about as small;
# random bytes are stored.  Files over 1 MiB take the streamed path.
test_expect_success 'objects are zlib streams any inflater reads, level 1 in size' '
	seq 1 20000 >seq && cat "$TOP"/*.c >source &&
	head -c 300000 /dev/urandom >random && : >nothing &&
	seq 1 300000 >text && head -c 3000000 /dev/urandom >noise &&
	cat source source source >sources &&
	update-cache --add seq source random nothing text noise sources &&
	for f in seq source random nothing text noise sources; do
		id=$(git hash-object $f) &&
		GIT_DIR=.dircache git cat-file blob $id >out && cmp $f out &&
		python3 -c "
import zlib, sys
data = open(sys.argv[1], \"rb\").read()
raw = zlib.decompress(data)
body = open(sys.argv[2], \"rb\").read()
assert raw == b\"blob %d\\0\" % len(body) + body
assert data[:2] == b\"\\x78\\x01\", data[:2]
level1 = len(zlib.compress(raw, 1))
if sys.argv[2].startswith(\"source\"):
	assert len(data) <= level1 * 1.05, (len(data), level1)
assert len(data) <= len(raw) + len(raw) // 1000 + 16
" "$(obj_file $id)" $f || return 1
	done &&
	GIT_DIR=.dircache git fsck --strict --no-dangling >out 2>err &&
	! grep -v "^notice:" err && ! test -s out
'

test_expect_success 'a file over 1 MiB is stored as git stores it, in content' '
	git init -q oracle &&
	for f in text noise sources; do
		id=$(git --git-dir=oracle/.git hash-object -w $f) &&
		test -f "$(obj_file $id)" &&
		python3 -c "import zlib, sys; a, b = (zlib.decompress(open(f, \"rb\").read()) for f in sys.argv[1:]); assert a == b" \
			"$(obj_file $id)" "$(obj_file $id oracle/.git/objects)" ||
		return 1
	done
'

test_expect_success 'GIT_OBJECT_DIRECTORY moves the store, GIT_INDEX_FILE the index' '
	mkdir -p shared &&
	echo s >s &&
	GIT_OBJECT_DIRECTORY=$PWD/shared GIT_INDEX_FILE=$PWD/other-index \
		update-cache --add s &&
	test -f "$(obj_file $(git hash-object s) shared)" &&
	test -f other-index &&
	! test -f "$(obj_file $(git hash-object s))" &&
	GIT_INDEX_FILE=$PWD/other-index GIT_DIR=.dircache git ls-files >actual &&
	echo s >expect && test_cmp expect actual
'

test_expect_success 'SHA1_FILE_DIRECTORY wins over GIT_OBJECT_DIRECTORY' '
	mkdir -p first second && echo w >w &&
	SHA1_FILE_DIRECTORY=$PWD/first GIT_OBJECT_DIRECTORY=$PWD/second \
		GIT_INDEX_FILE=$PWD/idx2 update-cache --add w &&
	test -f "$(obj_file $(git hash-object w) first)" &&
	! test -d second/$(git hash-object w | cut -c1-2)
'

test_expect_success 'an unwritable store is an error and the index is kept' '
	mkdir -p ro && echo r >r &&
	cp .dircache/index before &&
	SHA1_FILE_DIRECTORY=$PWD/ro/missing/deeper test_must_fail \
		update-cache --add r 2>err &&
	test_grep "update-cache: object directory .*ro/missing/deeper.: No such file or directory" err &&
	cmp before .dircache/index &&
	# A file where the fan-out directory of the object must go.
	mkdir -p ro/objects && id=$(git hash-object r) &&
	: >ro/objects/$(echo $id | cut -c1-2) &&
	SHA1_FILE_DIRECTORY=$PWD/ro/objects test_must_fail \
		update-cache --add r 2>err &&
	test_grep "update-cache: unable to create temporary object" err &&
	cmp before .dircache/index
'

# update-cache lstats its paths on every core (runs of 256, so the
# threads start from 64 runs: 16,384 paths) and then checks them in
# the order given: the first refusal wins, the index stays as it was.
test_expect_success 'many paths: stat on every core, refused in order' '
	mkdir many && (
		cd many && init-db 2>/dev/null &&
		for i in $(seq 0 99); do echo $i >f$i || return 1; done &&
		mkdir d && echo x >d/x && ln -s d l &&
		seq 0 16999 |
			awk "{ print \"f\" (NR % 100) }" >list &&
		update-cache --add --stdin <list &&
		git --git-dir=.dircache ls-files -s >expect &&
		test $(wc -l <expect) = 100 &&
		cp .dircache/index before &&
		awk "NR == 16000 { print \"l/x\" } NR == 16500 { print \"d\" }
			{ print }" list >bad &&
		test_expect_code 128 update-cache --add --stdin <bad 2>err &&
		test_grep "^update-cache: .l/x. is beyond a symbolic link" err &&
		awk "NR == 16000 { print \"nothere\" } NR == 16500 { print \"d\" }
			{ print }" list >bad &&
		test_expect_code 128 update-cache --add --stdin <bad 2>err &&
		test_grep "does not exist and --remove not passed" err &&
		awk "NR == 16000 { print \"d\" } NR == 16500 { print \"../x\" }
			{ print }" list >bad &&
		test_expect_code 128 update-cache --add --stdin <bad 2>err &&
		test_grep "^update-cache: .d. is a directory" err &&
		cmp before .dircache/index &&
		awk "NR == 16000 { print \"nothere\" } { print }" list >gone &&
		update-cache --add --remove --stdin <gone &&
		git --git-dir=.dircache ls-files -s >actual &&
		test_cmp expect actual
	)
'

# The collision check reads an existing loose object in one read(2)
# into a buffer of the most a deflater writes for it; an object file
# longer than that (a valid stream padded with empty stored blocks) is
# compared by the streamed way, and is the same object.
test_expect_success 'a padded loose object is read back and found equal' '
	echo padded >p &&
	id=$(git hash-object p) &&
	f=$(obj_file $id) && rm -f "$f" && mkdir -p "${f%/*}" &&
	python3 -c "
import zlib, sys
body = open(sys.argv[2], \"rb\").read()
raw = b\"blob %d\\0\" % len(body) + body
c = zlib.compressobj(1, zlib.DEFLATED, -15)
out = b\"\\x78\\x01\" + b\"\\0\\0\\0\\xff\\xff\" * 100
out += c.compress(raw) + c.flush() + zlib.adler32(raw).to_bytes(4, \"big\")
assert zlib.decompress(out) == raw
open(sys.argv[1], \"wb\").write(out)
assert len(out) > 500
" "$f" p &&
	chmod 444 "$f" && size=$(stat -c %s "$f") &&
	update-cache --add p &&
	test "$(stat -c %s "$f")" = "$size" &&
	git --git-dir=.dircache cat-file blob $id >out && test_cmp p out
'

# The collision check reads every object a re-add finds: opened with
# O_NOATIME (as root or the owner), so that it costs no inode write.
test_expect_success 'reading an object back leaves its access time' '
	echo atime >a &&
	update-cache --add a &&
	f=$(obj_file $(git hash-object a)) &&
	touch -a -d 2001-01-01 "$f" &&
	before=$(stat -c %X "$f") &&
	update-cache --add a &&
	test "$(stat -c %X "$f")" = "$before"
'

test_done
