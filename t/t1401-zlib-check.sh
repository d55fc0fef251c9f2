#!/bin/sh
test_description='the zlib checksum of a loose object: where it is checked'
. "$(dirname "$0")/test-lib.sh"

# A loose object's content is checked against its SHA-1 id on every
# read, so the readers leave zlib's adler32 of the same bytes out (a
# fifth of inflate's time), as does the collision check, which compares
# every byte.  fsck-cache still checks it, as git fsck does.  The four
# bytes must be there in any case.  (An object whose zlib stream ends
# within the bytes inflated with its header is checked whole at open.)

# damage_adler FILE: flip a bit in the last byte (the adler32's).
damage_adler() {
	chmod u+w "$1" &&
	python3 -c "import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[-1] ^= 1
open(p, 'wb').write(b)" "$1"
}

test_expect_success 'setup: a blob whose adler32 is wrong' '
	init-db 2>/dev/null &&
	seq 1 3000 >file &&
	update-cache --add file &&
	id=$(git hash-object file) && echo $id >id &&
	f=.dircache/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	cp "$f" good &&
	damage_adler "$f" &&
	! cmp -s good "$f"
'

test_expect_success 'cat-file reads it: every content byte hashes to the id' '
	cat-file blob $(cat id) >out &&
	test_cmp file out
'

test_expect_success 'the collision check accepts the same bytes' '
	rm .dircache/index &&
	update-cache --add file
'

test_expect_success 'fsck-cache calls it corrupt, as git fsck does' '
	test_must_fail fsck-cache >out 2>err &&
	test_grep "object $(cat id) is corrupt" err &&
	test_must_fail env GIT_DIR=.dircache git fsck >/dev/null 2>&1
'

test_expect_success 'without its last bytes it is refused everywhere' '
	f=.dircache/objects/$(cut -c1-2 id)/$(cut -c3- id) &&
	head -c $(($(wc -c <good) - 2)) good >"$f" &&
	test_must_fail cat-file blob $(cat id) 2>err &&
	test_grep "corrupt" err &&
	rm .dircache/index &&
	test_must_fail update-cache --add file 2>err &&
	test_grep "cannot be verified" err
'

test_done
