#!/bin/sh
test_description='loose objects inflated whole or through zlib: the same bytes, the same refusals'
. "$(dirname "$0")/test-lib.sh"

# A loose object of up to 1 MiB whose bytes are all in memory is
# inflated by inflate.c in one call when its content is first read;
# a bigger one goes through zlib, as does any the whole inflation does
# not accept.  Both ways must give git's bytes and refuse the same.

WO="python3 $TEST_DIRECTORY/write-object.py"
SIZES="0 1 20 31 32 33 100 4095 65535 65536 65537 1048575 1048576 1048577 3000000"

test_expect_success 'setup: random and repetitive blobs around each boundary' '
	init-db 2>/dev/null &&
	python3 -c "
import random, sys
r = random.Random(7)
for n in map(int, sys.argv[1:]):
    open(\"r%d\" % n, \"wb\").write(r.randbytes(n))
    open(\"t%d\" % n, \"wb\").write((b\"line of text %d\\n\" * (n // 8 + 1))[:n])
" $SIZES
'

for level in 0 1 6 9; do
	test_expect_success "zlib level $level: cat-file gives git's bytes" '
		files=$(for n in $SIZES; do echo r$n t$n; done) &&
		$WO --level '$level' blob $files >ids &&
		for f in $files; do
			read -r id &&
			cat-file blob $id >out &&
			cmp $f out &&
			GIT_DIR=.dircache git cat-file blob $id >gout &&
			cmp $f gout || return 1
		done <ids &&
		test $(wc -l <ids) = $(echo $files | wc -w) &&
		fsck-cache
	'
done

test_expect_success 'a bit flipped in the stream: refused by every reader' '
	for f in r4095 r65536 r1048576 r1048577 t4095 t65536 t1048576 t1048577
	do
		case $f in r*) at=1000 ;; t*) at=20 ;; esac &&
		id=$($WO --flip $at blob <$f) &&
		test_must_fail cat-file blob $id >out 2>err &&
		test_grep "$id" err &&
		test_must_fail fsck-cache 2>err &&
		test_grep "$id" err &&
		rm .dircache/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) ||
		return 1
	done
'

test_expect_success 'a size that is not the content'"'"'s: refused, saying which' '
	n=65536 &&
	id=$($WO --size $((n + 1)) --name $(git hash-object t$n) blob <t$n) &&
	test_must_fail cat-file blob $id >out 2>err &&
	test_grep "shorter than its header says" err &&
	id=$($WO --size $((n - 1)) --name $id blob <t$n) &&
	test_must_fail cat-file blob $id >out 2>err &&
	test_grep "longer than its header says" err
'

test_expect_success 'bytes after the stream: refused' '
	id=$($WO --append 00 blob <r65536) &&
	test_must_fail cat-file blob $id >out 2>err &&
	test_grep "garbage after the zlib stream" err &&
	rm .dircache/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-)
'

test_expect_success 'a wrong adler32 in an object read whole: read, but fsck-cache refuses' '
	id=$($WO blob <t65536) &&
	f=.dircache/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	size=$(wc -c <$f) &&
	id=$($WO --flip $((size - 1)) blob <t65536) &&
	cat-file blob $id >out &&
	cmp t65536 out &&
	test_must_fail fsck-cache 2>err &&
	test_grep "object $id is corrupt" err
'

test_done
