#!/bin/sh
test_description='ids looked up in an idx: found wherever they lie in their bucket'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# bunched-pack DIR: a pack of small blobs whose idx lists made-up ids,
# bunched where a search that guesses from the ids' values goes wrong:
# most at the bottom of bucket 00, a few spread over it, a bunch at the
# top of bucket ff (its upper end is the end of the id space), and
# pairs that differ only past their first eight bytes.  The blobs are
# read by their headers only (cat-file -t), as git reads them, so the
# ids need not be their hashes.  Prints the ids, and ids not there.
bunched_pack() {
	python3 - "$1" "$TEST_DIRECTORY" <<-\EOF
	import struct, sys, zlib
	sys.path.insert(0, sys.argv[2])
	from packlib import H, entry_header, idx_v2
	RAWSZ = H(b"").digest_size

	def mk(head, tail=0):
	    return head.to_bytes(8, "big") + tail.to_bytes(RAWSZ - 8, "big")

	ids = [mk(i) for i in range(1, 301)]
	ids += [mk((i * 0x00ffffffffffffff) // 60) for i in range(1, 60)]
	ids += [mk(0xff << 56 | (0xffffffffffffff - i)) for i in range(40)]
	ids += [mk(0x0000100000000000, t) for t in (1, 2, 3, 1 << 40)]
	ids = sorted(set(ids))
	absent = [mk(0x1000), mk(0xff << 56), mk(0x0000100000000000, 4),
	          mk(0xffffffffffffff00), mk(0x80 << 56)]
	pack = bytearray(b"PACK" + struct.pack(">II", 2, len(ids)))
	rows = []
	for n, oid in enumerate(ids):
	    data = b"blob %d\n" % n
	    ent = entry_header(3, len(data)) + zlib.compress(data)
	    rows.append((oid, zlib.crc32(ent) & 0xffffffff, len(pack)))
	    pack += ent
	pack += H(bytes(pack)).digest()
	idx = idx_v2(rows, pack[-RAWSZ:])
	name = sys.argv[1] + "/pack-" + pack[-RAWSZ:].hex()
	open(name + ".pack", "wb").write(pack)
	open(name + ".idx", "wb").write(idx)
	for oid in ids:
	    print("there", oid.hex())
	for oid in absent:
	    print("absent", oid.hex())
	EOF
}

# types IDS-FILE TOOL...: "id type" for each id, or "id none".
types() {
	list=$1
	shift
	while read -r what id; do
		t=$("$@" -t $id 2>/dev/null) || t=none
		echo "$id $t"
	done <"$list"
}

test_expect_success 'ids bunched in their bucket are all found, as git finds them' '
	git init -q bunched && cd bunched &&
	bunched_pack .git/objects/pack >../ids &&
	grep -c "^there" ../ids >../count && test "$(cat ../count)" -gt 400 &&
	types ../ids git cat-file >../expect &&
	types ../ids cat-file >../ours &&
	test_cmp ../expect ../ours &&
	test "$(grep -c " blob$" ../ours)" = "$(cat ../count)" &&
	test "$(grep -c " none$" ../ours)" = 5
'

test_expect_success 'a pack git made: ids spread as hashes are, each found' '
	git init -q spread && cd spread &&
	for i in $(seq 1500); do echo "file $i"; done |
		split -l 1 - f. &&
	git add . && git commit -q -m spread && git gc -q &&
	git verify-pack -v .git/objects/pack/*.idx |
		awk "NF >= 5 && \$2 != \"commit\" { print \"there\", \$1 }" |
		awk "NR % 7 == 1" >../ids &&
	test "$(wc -l <../ids)" -gt 200 &&
	types ../ids git cat-file >../expect &&
	types ../ids cat-file >../ours &&
	test_cmp ../expect ../ours &&
	! grep " none$" ../ours
'

test_done
