#!/bin/sh
test_description='index-pack: the idx git writes, and hostile packs refused'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-pack.sh"

GIT_DIR=.git
export GIT_DIR
MP="python3 $TEST_DIRECTORY/make-pack.py"

# No file but what the test made: no idx, no temporary pack or idx.
only_files() {
	(cd "$1" && find . -type f | sort) >found &&
	printf '%s\n' $2 | sort >wanted &&
	test_cmp wanted found
}

test_expect_success 'setup: packs with OFS_DELTA and with REF_DELTA' '
	pack_make_history repo 12 &&
	(cd repo && git rev-list --objects --all >../objs) &&
	test $(wc -l <objs) -gt 60 &&
	mkdir ofs ref &&
	(cd repo && git pack-objects -q --window=50 --depth=20 ../ofs/p <../objs) \
		>ofs.hex &&
	(cd repo && git pack-objects -q --no-delta-base-offset --window=50 \
		--depth=20 ../ref/p <../objs) >ref.hex &&
	git verify-pack --object-format=$test_hash_algo -v ofs/p-*.idx | grep -q " 1 [0-9a-f]\{$OID_HEXSZ\}\$" &&
	git verify-pack --object-format=$test_hash_algo -v ref/p-*.idx | grep -q " 1 [0-9a-f]\{$OID_HEXSZ\}\$"
'

test_expect_success 'the idx is byte for byte git index-pack'"'"'s' '
	for k in ofs ref; do
		h=$(cat $k.hex) &&
		mkdir -p mine-$k && cp $k/p-$h.pack mine-$k/x.pack &&
		index-pack --object-format=$test_hash_algo mine-$k/x.pack >out &&
		echo $h >expect && test_cmp expect out &&
		git index-pack --object-format=$test_hash_algo -o git-$k.idx mine-$k/x.pack >/dev/null &&
		cmp git-$k.idx mine-$k/x.idx &&
		cmp $k/p-$h.idx mine-$k/x.idx || exit 1
	done
'

test_expect_success 'REF_DELTA and OFS_DELTA packs both hold deltas' '
	h=$(cat ref.hex) &&
	python3 -c "
import sys, zlib
d = open(sys.argv[1], \"rb\").read()
n = int.from_bytes(d[8:12], \"big\"); off = 12; kinds = set()
for i in range(n):
    c = d[off]; t = (c >> 4) & 7; off += 1
    while c & 0x80:
        c = d[off]; off += 1
    if t == 7: off += $((OID_HEXSZ / 2))
    if t == 6:
        c = d[off]; off += 1
        while c & 0x80:
            c = d[off]; off += 1
    kinds.add(t)
    z = zlib.decompressobj(); z.decompress(d[off:]); off = len(d) - len(z.unused_data)
print(\" \".join(str(k) for k in sorted(kinds)))
" ref/p-$h.pack >kinds &&
	grep -q 7 kinds && ! grep -q 6 kinds
'

test_expect_success '-o names the idx' '
	h=$(cat ofs.hex) &&
	index-pack --object-format=$test_hash_algo -o other.idx ofs/p-$h.pack >out &&
	cmp ofs/p-$h.idx other.idx
'

test_expect_success '--stdin stores the pack in the store, readable' '
	git init -q st && h=$(cat ref.hex) &&
	(cd st && index-pack --stdin <../ref/p-$h.pack >../out) &&
	printf "pack\t%s\n" $h >expect && test_cmp expect out &&
	cmp ref/p-$h.pack st/.git/objects/pack/pack-$h.pack &&
	cmp ref/p-$h.idx st/.git/objects/pack/pack-$h.idx &&
	only_files st/.git/objects "./pack/pack-$h.pack ./pack/pack-$h.idx" &&
	cp -R repo/.git/refs st/.git/ && cp repo/.git/HEAD st/.git/HEAD &&
	cp repo/.git/packed-refs st/.git/ 2>/dev/null;
	cd st && pack_compare_all
'

test_expect_success '--stdin --keep, and a pack file named' '
	git init -q kp && h=$(cat ofs.hex) &&
	(cd kp && index-pack --stdin --keep="being fetched" \
		<../ofs/p-$h.pack >../out) &&
	printf "keep\t%s\n" $h >expect && test_cmp expect out &&
	echo "being fetched" >expect &&
	test_cmp expect kp/.git/objects/pack/pack-$h.keep &&
	mkdir named &&
	index-pack --stdin --object-format=$test_hash_algo named/n.pack \
		<ofs/p-$h.pack >out &&
	printf "pack\t%s\n" $h >expect && test_cmp expect out &&
	cmp ofs/p-$h.idx named/n.idx && only_files named "./n.idx ./n.pack"
'

test_expect_success 'few bases held: made again, the same ids' '
	h=$(cat ofs.hex) && mkdir deep &&
	$MP deep deep >/dev/null && rm deep/*.idx &&
	for p in ofs/p-$h.pack deep/*.pack; do
		"$TEST_DIRECTORY"/helper/test-tool pack-resolve 0 $p | sort >few &&
		"$TEST_DIRECTORY"/helper/test-tool pack-resolve 100000000 $p | sort >many &&
		test_cmp many few &&
		index-pack --object-format=$test_hash_algo -o x.idx $p >/dev/null &&
		git index-pack --object-format=$test_hash_algo -o gx.idx $p >/dev/null &&
		cmp gx.idx x.idx &&
		git show-index --object-format=$test_hash_algo <x.idx | cut -d" " -f2 | sort >idx-ids &&
		test_cmp idx-ids few || exit 1
	done
'

# A copy of pack $1 with byte $2 xored with $3.
flip() {
	python3 -c "
import sys
d = bytearray(open(sys.argv[1], \"rb\").read())
d[int(sys.argv[2])] ^= int(sys.argv[3])
open(sys.argv[4], \"wb\").write(d)
" "$1" "$2" "$3" "$4"
}

# index-pack refuses pack $1 as git does (unless $2 says git takes
# it): one line, exit 128, no file left.
refused() {
	rm -rf rf && mkdir rf && cp "$1" rf/bad.pack &&
	if test "$2" != git-takes; then
		test_must_fail git index-pack --object-format=$test_hash_algo -o rf/git.idx rf/bad.pack \
			2>/dev/null
	fi &&
	rm -f rf/git.idx &&
	test_expect_code 128 index-pack --object-format=$test_hash_algo \
		rf/bad.pack >out 2>err &&
	! test -s out && test $(wc -l <err) = 1 &&
	grep "^index-pack: rf/bad.pack: " err &&
	only_files rf ./bad.pack &&
	rm -rf rs && git init -q rs &&
	(cd rs && test_expect_code 128 index-pack --stdin <../rf/bad.pack \
		>../out 2>../err) &&
	! test -s out && test $(wc -l <err) = 1 &&
	! find rs/.git/objects -type f | grep .
}

test_expect_success 'flipped bytes and cut packs are refused' '
	h=$(cat ofs.hex) && p=ofs/p-$h.pack &&
	size=$(wc -c <$p) &&
	for at in 0 5 9 12 13 40 200 $((size / 2)) $((size - 30)) $((size - 1))
	do
		flip $p $at 1 bad.pack && refused bad.pack || exit 1
	done &&
	for cut in 0 11 31 $((size / 3)) $((size - 1)); do
		head -c $cut $p >cut.pack && refused cut.pack || exit 1
	done
'

test_expect_success 'hostile packs: cycles, missing bases, lying sizes' '
	for c in copy_beyond missing_base cycle ofs_self ofs_forward \
		 ofs_middle size_overflow size_lie bad_type result_size \
		 trailing_garbage bad_adler; do
		rm -rf hp && mkdir hp && $MP $c hp >/dev/null && rm hp/*.idx &&
		refused hp/*.pack || { echo "case $c"; exit 1; }
	done
'

test_expect_success 'an object twice, and a thin pack, are refused' '
	python3 -c "
import hashlib, struct, zlib
b = b\"twice\n\"
e = bytes([0x30 | len(b)]) + zlib.compress(b)
p = b\"PACK\" + struct.pack(\">II\", 2, 2) + e + e
open(\"dup.pack\", \"wb\").write(p + hashlib.new(\"$test_hash_algo\", p).digest())
" &&
	refused dup.pack git-takes && grep "twice" err &&
	(cd repo && seq 1 300 >f && git add f && git commit -q -m a &&
	 seq 1 301 >f && git add f && git commit -q -m b &&
	 printf "HEAD\n^HEAD~1\n" |
		git pack-objects -q --revs --thin --stdout) >thin.pack &&
	rm -rf th && git init -q th &&
	(cd th && test_expect_code 128 index-pack --stdin <../thin.pack \
		2>../err) && grep unresolved err
'

test_expect_success 'the smallest entries: an empty blob and tree' '
	python3 -c "
import hashlib, struct, zlib
z = zlib.compressobj(9)
e = z.compress(b\"\") + z.flush()
assert len(e) == 8
p = b\"PACK\" + struct.pack(\">II\", 2, 2) + bytes([0x30]) + e + bytes([0x20]) + e
open(\"small.pack\", \"wb\").write(p + hashlib.new(\"$test_hash_algo\", p).digest())
" &&
	git index-pack --object-format=$test_hash_algo -o small-git.idx small.pack >/dev/null &&
	index-pack --object-format=$test_hash_algo small.pack >/dev/null && cmp small-git.idx small.idx
'

test_expect_success '--strict refuses a bad tree the plain run takes' '
	git init -q sr && (cd sr &&
	blob=$(echo x | git hash-object -w --stdin) &&
	tree=$(printf "100644 blob $blob\tb\n100644 blob $blob\ta\n" |
		python3 -c "
import sys, binascii
out = b\"\"
for l in sys.stdin.read().splitlines():
    meta, name = l.split(\"\t\")
    mode, _, h = meta.split()
    out += mode.encode() + b\" \" + name.encode() + b\"\0\" + binascii.unhexlify(h)
sys.stdout.buffer.write(out)
" | git hash-object -t tree -w --literally --stdin) &&
	printf "%s\n%s\n" $blob $tree | git pack-objects -q --stdout >../st.pack) &&
	rm -rf s1 && mkdir s1 && cp st.pack s1/a.pack &&
	index-pack --object-format=$test_hash_algo s1/a.pack >/dev/null &&
	rm s1/a.idx &&
	test_expect_code 128 index-pack --strict \
		--object-format=$test_hash_algo s1/a.pack 2>err &&
	grep "treeNotSorted" err && only_files s1 ./a.pack
'

case $test_hash_algo in
sha1)	other_hash=sha256 ;;
*)	other_hash=sha1 ;;
esac

test_expect_success 'a pack of the other hash: refused in one line, told why' '
	git init -q --object-format=$other_hash oh &&
	(cd oh && seq 1 300 >f && git add f && git commit -q -m one &&
	 seq 1 301 >f && git commit -q -a -m two &&
	 git rev-list --objects --all | git pack-objects -q --stdout) \
		>oh.pack &&
	rm -rf os && git init -q os &&
	(cd os && test_expect_code 128 index-pack --stdin <../oh.pack \
		>../out 2>../err) &&
	! test -s out && test $(wc -l <err) = 1 &&
	grep "is a $other_hash pack, the store is $test_hash_algo" err &&
	! find os/.git/objects -type f | grep . &&
	rm -rf of && mkdir of && cp oh.pack of/x.pack &&
	test_expect_code 128 index-pack --object-format=$test_hash_algo \
		of/x.pack 2>err &&
	grep "is a $other_hash pack" err && only_files of ./x.pack &&
	index-pack --object-format=$other_hash of/x.pack >hex &&
	git index-pack --object-format=$other_hash -o of/git.idx of/x.pack \
		>/dev/null &&
	cmp of/git.idx of/x.idx
'

test_expect_success 'usage' '
	index-pack -h >out && grep "^usage: index-pack" out &&
	test_expect_code 129 index-pack &&
	test_expect_code 129 index-pack --bogus x.pack &&
	test_expect_code 129 index-pack --keep x.pack
'

test_done
