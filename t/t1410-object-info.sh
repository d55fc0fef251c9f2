#!/bin/sh
test_description='object_info: a loose header from the first bytes of its file'
. "$(dirname "$0")/test-lib.sh"

# object_info (cat-file -t and -s, the type checks of verify-objects)
# reads only the first bytes of a loose file, where zlib puts the
# header.  A stream that says nothing in those bytes (here: 200 empty
# stored blocks, 1000 bytes, before the data) must still be read
# right: the whole file is read when the prefix holds no header.

# write_padded TYPE FILE: a loose object of FILE's bytes as TYPE, its
# zlib stream padded in front; prints its id.
write_padded() {
	python3 - "$1" "$2" $test_hash_algo <<'PY'
import hashlib, os, sys, zlib
kind, path, algo = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(path, 'rb').read()
raw = kind.encode() + b' ' + str(len(data)).encode() + b'\0' + data
oid = hashlib.new(algo, raw).hexdigest()
c = zlib.compressobj(1, zlib.DEFLATED, -15)
body = b'\x00\x00\x00\xff\xff' * 200 + c.compress(raw) + c.flush()
z = b'\x78\x01' + body + zlib.adler32(raw).to_bytes(4, 'big')
assert zlib.decompress(z) == raw
d = os.path.join('.dircache/objects', oid[:2])
os.makedirs(d, exist_ok=True)
open(os.path.join(d, oid[2:]), 'wb').write(z)
print(oid)
PY
}

test_expect_success 'setup: a padded blob and a padded bad header' '
	init-db 2>/dev/null &&
	seq 1 500 >file &&
	id=$(write_padded blob file) && echo $id >id &&
	test "$id" = "$(git hash-object file)" &&
	f=.dircache/objects/$(cut -c1-2 id)/$(cut -c3- id) &&
	test $(wc -c <"$f") -gt 1000 &&
	bad=$(write_padded blurb file) && echo $bad >bad
'

test_expect_success 'its type and size come from the whole file' '
	test "$(cat-file -t $(cat id))" = blob &&
	test "$(cat-file -s $(cat id))" = $(wc -c <file) &&
	cat-file blob $(cat id) >out &&
	test_cmp file out
'

test_expect_success 'a bad header past the prefix is still a bad header' '
	test_must_fail cat-file -t $(cat bad) 2>err &&
	test_grep "object $(cat bad) is corrupt: bad header" err
'

test_expect_success 'a header in the first bytes of a big object' '
	seq 1 100000 >big &&
	update-cache --add big &&
	big=$(git hash-object big) &&
	test "$(cat-file -t $big)" = blob &&
	test "$(cat-file -s $big)" = $(wc -c <big)
'

test_done
