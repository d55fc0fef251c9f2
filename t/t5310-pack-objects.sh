#!/bin/sh
test_description='pack-objects: packs with deltas, as git makes them

pack-objects writes the objects listed (or walked with --revs) as one
pack with OFS_DELTA entries and its idx v2.  git is the oracle: its
verify-pack, index-pack (the same idx bytes) and fsck --strict accept
what we write, and every object reads back.  Deltas come from the
window search and from packs already there (reuse); bad input stops
it with one line, exit 128 and nothing left behind.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-pack.sh"

GIT_DIR=.git
export GIT_DIR

# The (id, base) pairs of the deltas of a pack, sorted.
delta_pairs() {
	git verify-pack --object-format=$test_hash_algo -v "$1" |
	awk 'NF == 7 && $3 ~ /^[0-9]+$/ { print $1, $7 }' | sort
}

# "<id> <sha1 of its delta inflated>" for each delta of pack $1 (no .pack).
delta_data() {
	git verify-pack --object-format=$test_hash_algo -v "$1.idx" |
	awk "NF == 7 && \$3 ~ /^[0-9]+\$/ { print \$1, \$5, \$4 }" |
	python3 -c "
import hashlib, sys, zlib
pack = open(sys.argv[1] + \".pack\", \"rb\").read()
for line in sorted(sys.stdin):
    oid, off, length = line.split()
    entry = pack[int(off):int(off) + int(length)]
    i = 1
    while entry[i - 1] & 0x80:
        i += 1
    if (entry[0] >> 4) & 7 == 7:
        i += $((OID_HEXSZ / 2))
    else:
        while entry[i] & 0x80:
            i += 1
        i += 1
    print(oid, hashlib.sha1(zlib.decompress(entry[i:])).hexdigest())
" "$1"
}

# The ids a pack holds, sorted.
pack_ids() {
	git verify-pack --object-format=$test_hash_algo -v "$1" | awk '$2 ~ /^(commit|tree|blob|tag)$/ { print $1 }' |
	sort
}

test_expect_success 'setup: a history of files edited a little, loose' '
	pack_make_history repo 12 &&
	cd repo &&
	seq 1 3000 >text &&
	i=0 &&
	while [ $i -lt 40 ]; do
		i=$((i + 1)) &&
		sed "$((i * 50))s/.*/edit $i/" text >text+ && mv text+ text &&
		seq 1 $((1000 + i * 13)) | sed "s/^/row /" >rows &&
		git add text rows && git commit -q -m "edit $i" &&
		git tag "e$i" || exit 1
	done &&
	git rev-list --objects --all >../list &&
	test $(wc -l <../list) -gt 200
'

test_expect_success 'a pack and its idx, named by the pack id' '
	cd repo &&
	pack-objects ../p <../list >../out &&
	hex=$(cat ../out) &&
	test $(wc -l <../out) = 1 &&
	test -f ../p-$hex.pack && test -f ../p-$hex.idx &&
	! ls .. | grep tmp_ &&
	git verify-pack --object-format=$test_hash_algo -v ../p-$hex.idx >../v &&
	test_grep "^chain length = " ../v &&
	test_grep "p-$hex.pack: ok" ../v &&
	test $(grep -c -E " (commit|tree|blob|tag) " ../v) = $(wc -l <../list)
'

test_expect_success 'the idx is the one git index-pack makes' '
	cd repo &&
	hex=$(cat ../out) &&
	cp ../p-$hex.pack ../copy.pack &&
	test "$(git index-pack --object-format=$test_hash_algo -o ../copy.idx ../copy.pack)" = "$hex" &&
	cmp ../copy.idx ../p-$hex.idx
'

test_expect_success 'a store holding only the pack: fsck --strict, cat-file' '
	hex=$(cat out) &&
	rm -rf only && cp -R repo only &&
	rm -rf only/.git/objects/?? &&
	cp p-$hex.pack p-$hex.idx only/.git/objects/pack/ &&
	(cd only && mv .git/objects/pack/p-$hex.pack .git/objects/pack/pack-$hex.pack &&
	 mv .git/objects/pack/p-$hex.idx .git/objects/pack/pack-$hex.idx &&
	 git fsck --strict --no-dangling >../fsck.out 2>&1 &&
	 test ! -s ../fsck.out &&
	 pack_cat_all)
'

test_expect_success '--stdout writes the same pack, nothing else' '
	cd repo &&
	hex=$(cat ../out) &&
	pack-objects --stdout <../list >../stdout.pack &&
	cmp ../p-$hex.pack ../stdout.pack
'

test_expect_success 'deltas: much smaller than whole objects, depth kept' '
	cd repo &&
	pack-objects --window=0 ../whole <../list >/dev/null &&
	whole=$(wc -c <$(ls ../whole-*.pack)) &&
	ours=$(wc -c <../p-$(cat ../out).pack) &&
	test $((ours * 4)) -lt $whole &&
	pack-objects --depth=2 ../shallow <../list >/dev/null &&
	git verify-pack --object-format=$test_hash_algo -v ../shallow-*.idx >../v2 &&
	test_grep "^chain length = 2" ../v2 &&
	! grep "^chain length = [3-9]" ../v2
'

test_expect_success 'about the size of git pack-objects on the same list' '
	cd repo &&
	git pack-objects -q ../git <../list >/dev/null &&
	theirs=$(wc -c <$(ls ../git-*.pack)) &&
	ours=$(wc -c <../p-$(cat ../out).pack) &&
	test $((ours * 10)) -le $((theirs * 12))
'

test_expect_success 'threads: one or four, the same objects' '
	cd repo &&
	pack-objects --threads=1 ../t1 <../list >/dev/null &&
	pack-objects --threads=4 ../t4 <../list >/dev/null &&
	git verify-pack --object-format=$test_hash_algo ../t1-*.idx && git verify-pack --object-format=$test_hash_algo ../t4-*.idx &&
	pack_ids ../t1-*.idx >../ids1 && pack_ids ../t4-*.idx >../ids4 &&
	test_cmp ../ids1 ../ids4
'

test_expect_success '--window-memory: past it, only the newest base is kept' '
	cd repo &&
	pack-objects --window=1 ../w1 <../list >/dev/null &&
	! cmp -s ../w1-*.pack ../p-$(cat ../out).pack &&
	pack-objects --window-memory=1 ../wm1 <../list >/dev/null &&
	cmp ../w1-*.pack ../wm1-*.pack &&
	pack-objects --window-memory=0 ../wm0 <../list >/dev/null &&
	pack-objects --window-memory=1g ../wmg <../list >/dev/null &&
	cmp ../p-$(cat ../out).pack ../wm0-*.pack &&
	cmp ../p-$(cat ../out).pack ../wmg-*.pack &&
	for bad in -1 1x 1kk ""; do
		test_expect_code 128 pack-objects --window-memory=$bad \
			--stdout <../list >/dev/null || exit 1
	done
'

test_expect_success '--revs walks as rev-list --objects' '
	cd repo &&
	git rev-list --objects e30 ^t10 | cut -c1-$OID_HEXSZ | sort >../want &&
	printf "e30\n^t10\n" | pack-objects --revs ../r >/dev/null &&
	git verify-pack --object-format=$test_hash_algo ../r-*.idx &&
	pack_ids ../r-*.idx >../got &&
	test_cmp ../want ../got &&
	git rev-list --objects --all | cut -c1-$OID_HEXSZ | sort >../want &&
	pack-objects --revs --all --stdout </dev/null >../all.pack &&
	git index-pack --object-format=$test_hash_algo -o ../all.idx ../all.pack &&
	pack_ids ../all.idx >../got &&
	test_cmp ../want ../got
'

test_expect_success 'reuse: git deltas copied, REF_DELTA made OFS_DELTA, no more tried' '
	rm -rf packed && cp -R repo packed && cd packed &&
	git repack -q -adf --window=50 --depth=20 &&
	git pack-objects -q --all --no-delta-base-offset --stdout \
		</dev/null >../ref.pack &&
	git index-pack --object-format=$test_hash_algo -o .git/objects/pack/pack-ref.idx ../ref.pack &&
	cp ../ref.pack .git/objects/pack/pack-ref.pack &&
	rm -f $(ls .git/objects/pack/pack-*.* | grep -v pack-ref) &&
	delta_pairs .git/objects/pack/pack-ref.idx >../git-pairs &&
	test $(wc -l <../git-pairs) -gt 40 &&
	delta_data .git/objects/pack/pack-ref >../git-deltas &&
	pack-objects ../reused <../list >/dev/null &&
	git verify-pack --object-format=$test_hash_algo ../reused-*.idx &&
	delta_pairs ../reused-*.idx >../our-pairs &&
	test_cmp ../git-pairs ../our-pairs &&
	delta_data $(ls ../reused-*.pack | sed "s/.pack$//") >../our-deltas &&
	join ../git-deltas ../our-deltas | awk "\$2 != \$3" >../changed &&
	test_cmp /dev/null ../changed &&
	pack-objects --no-reuse-delta ../fresh <../list >/dev/null &&
	git verify-pack --object-format=$test_hash_algo ../fresh-*.idx &&
	delta_data $(ls ../fresh-*.pack | sed "s/.pack$//") >../fresh-deltas &&
	join ../git-deltas ../fresh-deltas | awk "\$2 != \$3" >../changed &&
	test -s ../changed &&
	pack-objects --no-reuse-object ../noreuse <../list >/dev/null &&
	git verify-pack --object-format=$test_hash_algo ../noreuse-*.idx &&
	cp ../reused-*.pack ../copy2.pack &&
	git index-pack --object-format=$test_hash_algo -o ../copy2.idx ../copy2.pack &&
	cmp ../copy2.idx ../reused-*.idx
'

test_expect_success 'reuse: bad bytes in the old pack are never copied' '
	rm -rf crc && cp -R packed crc && cd crc &&
	cp -R ../repo/.git/objects/?? .git/objects/ &&
	pack=.git/objects/pack/pack-ref.pack &&
	git verify-pack --object-format=$test_hash_algo -v .git/objects/pack/pack-ref.idx |
	awk "\$2 == \"blob\" && NF == 5 && \$4 > 100 { print \$5 + int(\$4 / 2); exit }" >../at &&
	test -s ../at &&
	chmod u+w $pack &&
	printf "\377\377\377\377" |
	dd of=$pack bs=1 seek=$(cat ../at) conv=notrunc 2>/dev/null &&
	mkdir ../crcout &&
	if pack-objects --window=0 ../crcout/p <../list >/dev/null 2>../err
	then
		git verify-pack --object-format=$test_hash_algo ../crcout/p-*.idx
	else
		test $(wc -l <../err) = 1 && test -z "$(ls ../crcout)"
	fi
'

test_expect_success 'an unknown id: one line, exit 128, nothing left' '
	cd repo &&
	mkdir ../bad &&
	{ cat ../list; echo 1234567890123456789012345678901234567890; } |
	test_expect_code 128 pack-objects ../bad/p >../bad.out 2>../bad.err &&
	test $(wc -l <../bad.err) = 1 &&
	test_grep 1234567890123456789012345678901234567890 ../bad.err &&
	test ! -s ../bad.out &&
	test -z "$(ls ../bad)"
'

test_expect_success 'garbage on stdin: exit 128' '
	cd repo &&
	echo "not an id" | test_expect_code 128 pack-objects ../bad/p 2>../err &&
	test $(wc -l <../err) = 1 &&
	test -z "$(ls ../bad)"
'

test_expect_success 'a corrupt loose object: exit 128, no pack nor temp file' '
	rm -rf corrupt && cp -R repo corrupt && cd corrupt &&
	blob=$(git rev-parse e40:text) &&
	f=.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	chmod u+w $f &&
	printf "blob 5\0hello" | python3 -c "import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))" >$f &&
	test_expect_code 128 pack-objects ../bad/c <../list 2>../err &&
	test $(wc -l <../err) = 1 &&
	test_grep $blob ../err &&
	test -z "$(ls ../bad)" &&
	echo junk >$f &&
	test_expect_code 128 pack-objects ../bad/c <../list 2>../err &&
	test $(wc -l <../err) = 1 &&
	test -z "$(ls ../bad)"
'

test_expect_success 'progress: with --progress only (stderr is no tty), never with -q' '
	cd repo &&
	pack-objects --stdout <../list >/dev/null 2>../err &&
	test ! -s ../err &&
	pack-objects --progress --stdout <../list >/dev/null 2>../err &&
	test_grep "Counting objects" ../err &&
	test_grep "Compressing objects" ../err &&
	test_grep "Writing objects" ../err &&
	pack-objects --progress -q --stdout <../list >/dev/null 2>../err &&
	test ! -s ../err
'

# A sha256 store whatever the suite's hash: its packs and idx files
# are the bytes git writes, both ways, with OFS and REF deltas.
test_expect_success 'a sha256 store: our pack and idx, git reads them byte for byte' '
	git init -q --object-format=sha256 s256 && cd s256 &&
	for i in 1 2 3 4 5 6 7 8; do
		seq 1 $((300 + i * 40)) >text && seq $i 500 >rows &&
		git add text rows && git commit -q -m "edit $i" || exit 1
	done &&
	git rev-list --objects --all >../l256 &&
	test $(head -n 1 ../l256 | cut -d" " -f1 | wc -c) = 65 &&
	pack-objects ../o256 <../l256 >../o256.hex &&
	hex=$(cat ../o256.hex) && test ${#hex} = 64 &&
	git verify-pack --object-format=sha256 -v ../o256-$hex.idx >../gv &&
	test_grep "^chain length = " ../gv &&
	verify-pack -v ../o256-$hex.idx >../ov &&
	test_cmp ../gv ../ov &&
	cp ../o256-$hex.pack ../c256.pack &&
	test "$(git index-pack --object-format=sha256 -o ../c256.idx \
		../c256.pack)" = $hex &&
	cmp ../c256.idx ../o256-$hex.idx &&
	pack-objects --stdout <../l256 | cmp - ../o256-$hex.pack &&
	git init -q --bare --object-format=sha256 ../onlyours &&
	cp ../o256-$hex.pack ../onlyours/objects/pack/pack-$hex.pack &&
	cp ../o256-$hex.idx ../onlyours/objects/pack/pack-$hex.idx &&
	git --git-dir=../onlyours fsck --strict --no-dangling >../fsck.out 2>&1 &&
	! grep -v "^notice" ../fsck.out
'

test_expect_success 'a sha256 store: git'"'"'s packs, OFS and REF, read as git' '
	cd s256 &&
	for opt in --delta-base-offset --no-delta-base-offset; do
		rm -rf ../g256 && mkdir ../g256 &&
		git pack-objects -q $opt --window=50 ../g256/p <../l256 \
			>../g.hex &&
		h=$(cat ../g.hex) &&
		cp ../g256/p-$h.pack ../g256/x.pack &&
		test "$(index-pack ../g256/x.pack)" = $h &&
		cmp ../g256/p-$h.idx ../g256/x.idx &&
		git verify-pack --object-format=sha256 -v ../g256/x.idx >../gv &&
		verify-pack -v ../g256/x.idx >../ov &&
		test_cmp ../gv ../ov &&
		show-index <../g256/x.idx >../os &&
		git show-index --object-format=sha256 <../g256/x.idx >../gs &&
		test_cmp ../gs ../os || exit 1
	done &&
	grep -q " 1 [0-9a-f]\{64\}\$" ../gv &&
	python3 -c "
import sys, zlib
d = open(sys.argv[1], \"rb\").read()
n = int.from_bytes(d[8:12], \"big\"); off = 12; kinds = set()
for i in range(n):
    c = d[off]; t = (c >> 4) & 7; off += 1
    while c & 0x80:
        c = d[off]; off += 1
    if t == 7: off += 32
    if t == 6:
        c = d[off]; off += 1
        while c & 0x80:
            c = d[off]; off += 1
    kinds.add(t)
    z = zlib.decompressobj(); z.decompress(d[off:]); off = len(d) - len(z.unused_data)
assert off == len(d) - 32, off
print(\" \".join(str(k) for k in sorted(kinds)))
" ../g256/x.pack >../kinds &&
	grep -q 7 ../kinds
'

test_expect_success 'usage: exit 129' '
	test_expect_code 129 pack-objects </dev/null &&
	test_expect_code 129 pack-objects --stdout base </dev/null &&
	test_expect_code 129 pack-objects --bogus --stdout </dev/null
'

test_done
