#!/bin/sh
test_description='show-diff: an index with a byte flipped prints nothing

show-diff lstats the paths while the index checksum is computed on a
thread of its own.  A wrong byte anywhere in the index (an entry, the
extensions, the checksum itself) must fail the command with an error
and exit 128 before anything reaches stdout, in every output mode,
for a small index (checksum before the parse) and a big one (checksum
beside the parse and the lstat pass).'
. "$(dirname "$0")/test-lib.sh"

HASH=$test_hash_algo
RAWSZ=$((OID_HEXSZ / 2))
export HASH RAWSZ

# flip_byte OFFSET: the index byte at OFFSET (negative: from the end)
# inverted, the checksum left as it was.
flip_byte() {
	python3 - "$1" <<'PY'
import sys
off = int(sys.argv[1])
p = '.dircache/index'
b = bytearray(open(p, 'rb').read())
b[off] ^= 0xff
open(p, 'wb').write(bytes(b))
PY
}

# entry_offset NAME: where the entry of NAME starts in the index (v2).
entry_offset() {
	python3 - "$1" <<'PY'
import os, sys
name = sys.argv[1].encode()
b = open('.dircache/index', 'rb').read()
fixed = 42 + int(os.environ['RAWSZ'])
off, nr = 12, int.from_bytes(b[8:12], 'big')
for i in range(nr):
    n = int.from_bytes(b[off + fixed - 2:off + fixed], 'big') & 0xfff
    if b[off + fixed:off + fixed + n] == name:
        print(off)
        break
    off += (fixed + n + 8) & ~7
PY
}

# refused OFFSET: with the byte at OFFSET flipped, show-diff fails in
# every mode, says why on stderr and writes nothing on stdout.
refused() {
	cp good .dircache/index &&
	flip_byte "$1" &&
	! cmp -s good .dircache/index &&
	for mode in "" -s -z -q "-s --" "-M"; do
		test_expect_code 128 show-diff $mode >out 2>err &&
		test_grep "corrupt\|bad checksum" err &&
		! test -s out || return 1
	done &&
	cp good .dircache/index
}

# refused_at OFFSET...: refused with a byte flipped at each in turn.
refused_at() {
	for off; do
		refused "$off" || return 1
	done
}

test_expect_success 'setup: a small index, a file changed' '
	init-db 2>/dev/null &&
	echo a >a && echo b >b && mkdir d && echo c >d/c &&
	update-cache --add a b d/c &&
	cp .dircache/index good &&
	echo changed >b &&
	show-diff -s >out &&
	echo "M	b" >expect &&
	test_cmp expect out
'

test_expect_success 'small index: a flipped byte anywhere is refused' '
	size=$(wc -c <good) &&
	b=$(entry_offset b) &&
	refused_at 20 $((b + 8)) $((b + 40)) \
		$((size - RAWSZ - 1)) $((size - RAWSZ)) $((size - 1))
'

test_expect_success 'setup: a big index (checksum on its own thread)' '
	mkdir -p many &&
	for i in $(seq 1 4000); do echo $i >many/file-$i; done &&
	update-cache --add many/* &&
	test $(wc -c <.dircache/index) -gt 262144 &&
	cp .dircache/index good &&
	echo changed >many/file-7 &&
	echo changed >many/file-3999 &&
	show-diff -s >out &&
	printf "M\tb\nM\tmany/file-3999\nM\tmany/file-7\n" >expect &&
	test_cmp expect out &&
	show-diff >patch &&
	test -s patch
'

# A byte of a changed entry's stat data (it would still show as
# changed), of its id (the patch would show another blob), of the last
# entry (met last by the checksum), and of the checksum.
test_expect_success 'big index: a flipped byte anywhere is refused' '
	size=$(wc -c <good) &&
	e7=$(entry_offset many/file-7) &&
	e9=$(entry_offset many/file-999) &&
	last=$(entry_offset many/file-3999) &&
	refused_at 30 $((e7 + 12)) $((e7 + 40)) $((e9 + 4)) $((last + 8)) \
		$((size - RAWSZ - 1)) $((size - RAWSZ)) $((size - 1))
'

test_expect_success 'the good index still shows the changes' '
	cp good .dircache/index &&
	show-diff -s >out &&
	test_cmp expect out &&
	show-diff >patch2 &&
	test_cmp patch patch2
'

test_done
