#!/bin/sh
test_description='big objects through the pack tools, streamed'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-big.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# A blob too big to hold goes into a pack, out of it and through the
# porcelain a piece at a time: pack-objects deflates it as it reads it
# (no delta tried on it), index-pack and verify-pack hash it as they
# inflate it, unpack-objects deflates it into a loose file as it
# inflates it.  A 128 MiB sparse blob in the default run, 5 GiB ones
# when DIRCACHE_TEST_BIG=1 (lib-big.sh); peak memory under 64 MiB.

# packs_of DIR: the packs in DIR, one a line.
packs_of() {
	ls "$1"/pack-*.pack 2>/dev/null
}

test_expect_success 'setup: a commit of a 128 MiB blob and a small file' '
	init-db 2>/dev/null &&
	sparse_file mid $((128 << 20)) &&
	echo small >small &&
	update-cache --add mid small &&
	echo "mid and small" | commit-tree $(write-tree) >commit &&
	update-ref refs/heads/master $(cat commit) &&
	GIT_DIR=.dircache git rev-list --objects master >list &&
	test $(wc -l <list) = 4
'

test_expect_success 'pack-objects streams it: the bytes git writes' '
	mkdir ours theirs &&
	rss_below pack-objects ours/pack <list >hex &&
	GIT_DIR=.dircache git pack-objects -q theirs/pack <list >git-hex &&
	test_cmp git-hex hex &&
	cmp ours/pack-$(cat hex).pack theirs/pack-$(cat hex).pack &&
	cmp ours/pack-$(cat hex).idx theirs/pack-$(cat hex).idx
'

test_expect_success 'index-pack and verify-pack read it a piece at a time' '
	cp ours/pack-$(cat hex).pack p.pack &&
	rss_below index-pack --object-format=$test_hash_algo p.pack >out &&
	test_cmp hex out &&
	cmp p.idx ours/pack-$(cat hex).idx &&
	rss_below verify-pack -v p.idx >out &&
	id=$(sed -n "s/ mid\$//p" list) &&
	test_grep "^$id blob   $((128 << 20)) " out &&
	test_grep "^non delta: 4 objects" out
'

test_expect_success 'unpack-objects writes it loose, a piece at a time' '
	mkdir u &&
	(cd u && init-db 2>/dev/null && rss_below unpack-objects <../p.pack) &&
	GIT_DIR=u/.dircache git cat-file --batch-all-objects \
		--batch-check="%(objectname)" >got &&
	cut -c1-$OID_HEXSZ list | sort >want &&
	test_cmp want got &&
	id=$(sed -n "s/ mid\$//p" list) &&
	(cd u && stream_cmp ../mid cat-file blob $id) &&
	test -z "$(find u/.dircache/objects -name "tmp_*")"
'

# A store where the blob is broken half-way through its zlib stream:
# its header reads, its content does not.
test_expect_success 'a blob that breaks while streamed: no pack left' '
	mkdir bad && (cd bad && init-db 2>/dev/null) &&
	mkdir -p bad/.dircache/objects/pack &&
	id=$(sed -n "s/ mid\$//p" list) &&
	file=$(obj_file $id bad/.dircache/objects) &&
	mkdir -p $(dirname $file) &&
	python3 -c "import sys
data = bytearray(open(sys.argv[1], \"rb\").read())
data[len(data) // 8] ^= 0x55
open(sys.argv[2], \"wb\").write(data)" $(obj_file $id) $file &&
	(cd bad && cat-file -s $id >size && echo $((128 << 20)) | test_cmp - size &&
	 echo $id | test_expect_code 128 pack-objects .dircache/objects/pack/pack \
		>out 2>err) &&
	test_cmp /dev/null bad/out &&
	test_grep $id bad/err &&
	test -z "$(ls bad/.dircache/objects/pack)"
'

# Two blobs of 2 MiB that differ in a few bytes: a delta, unless the
# threshold says they are too big to try.
test_expect_success 'core.bigFileThreshold: no delta tried past it' '
	mkdir thr && (cd thr && init-db 2>/dev/null &&
	sparse_file a $((2 << 20)) && sparse_file b $((2 << 20)) &&
	echo other >>b &&
	for f in a b; do
		update-cache --add $f && git hash-object $f || return 1
	done >ids &&
	pack-objects .dircache/objects/pack/pack <ids >hex &&
	verify-pack -v .dircache/objects/pack/pack-$(cat hex).idx >out &&
	test_grep "chain length = 1: 1 object" out &&
	rm .dircache/objects/pack/* &&
	git config -f .dircache/config core.bigFileThreshold 1m &&
	pack-objects .dircache/objects/pack/pack <ids >hex &&
	verify-pack -v .dircache/objects/pack/pack-$(cat hex).idx >out &&
	test_grep "non delta: 2 objects" out &&
	! grep "chain length" out &&
	git config -f .dircache/config core.bigFileThreshold 1x &&
	test_expect_code 128 pack-objects .dircache/objects/pack/pack <ids 2>err &&
	test_grep "bigfilethreshold" err)
'

test_expect_success 'dircache clone carries it' '
	rss_below dircache clone . c 2>/dev/null &&
	cmp c/mid mid && cmp c/small small &&
	test $(packs_of c/.dircache/objects/pack | wc -l) = 1
'

big_tests_or_done

# Each step of these passes over the blob a few times: the 128 MiB one
# is enough, but not for every run.
test_expect_success 'big: push and repack carry the 128 MiB blob' '
	git_accepts c &&
	mkdir a && (cd a && dircache init 2>/dev/null && cp ../mid ../small . &&
	 dircache add mid small && dircache commit -m big >/dev/null) &&
	mkdir r && (cd r && dircache init --shared 2>/dev/null) &&
	(cd a && rss_below dircache push ../r 2>/dev/null) &&
	git_accepts r &&
	(cd c && rss_below dircache repack -q -a -d && fsck-cache --strict) &&
	test $(packs_of c/.dircache/objects/pack | wc -l) = 1 &&
	git_accepts c
'

test_expect_success 'big: a commit of a 5 GiB sparse blob' '
	rm -rf .dircache && init-db 2>/dev/null &&
	sparse_file big $FIVE_GIB &&
	update-cache --add big &&
	echo big | commit-tree $(write-tree) >commit &&
	GIT_DIR=.dircache git rev-list --objects $(cat commit) >list &&
	test $(wc -l <list) = 3
'

test_expect_success 'big: pack-objects writes it streamed, as git would' '
	rm -rf ours && mkdir ours &&
	rss_below pack-objects ours/pack <list >hex &&
	cp ours/pack-$(cat hex).pack p.pack &&
	GIT_DIR=.dircache git index-pack --object-format=$test_hash_algo -o g.idx p.pack >git-hex &&
	test_cmp hex git-hex &&
	cmp g.idx ours/pack-$(cat hex).idx
'

test_expect_success 'big: index-pack and verify-pack on it' '
	rm -f p.idx &&
	rss_below index-pack --object-format=$test_hash_algo p.pack >out &&
	test_cmp hex out &&
	cmp p.idx g.idx &&
	rss_below verify-pack -v p.idx >out &&
	id=$(sed -n "s/ big\$//p" list) &&
	test_grep "^$id blob   $FIVE_GIB " out
'

test_expect_success 'big: unpack-objects writes it loose, streamed' '
	rm -rf u && mkdir u &&
	(cd u && init-db 2>/dev/null && rss_below unpack-objects <../p.pack) &&
	id=$(sed -n "s/ big\$//p" list) &&
	GIT_DIR=u/.dircache git cat-file -s $id >size &&
	echo $FIVE_GIB | test_cmp - size &&
	(cd u && stream_cmp ../big rss_below cat-file blob $id)
'

# A pack whose second entry starts past 4 GiB: its first holds 5 GiB
# of zeros as they are (zlib stored blocks), written sparse, about
# 330 MB of it real (big-pack.py).  Its idx needs the table of 64-bit
# offsets; index-pack streams the entry, its pages given back.
test_expect_success 'big: a pack over 4 GiB, its idx with 64-bit offsets' '
	python3 "$TEST_DIRECTORY/big-pack.py" $FIVE_GIB wide.pack >ids &&
	rss_below index-pack --object-format=$test_hash_algo wide.pack >hex &&
	GIT_DIR=.dircache git index-pack --object-format=$test_hash_algo -o git-wide.idx wide.pack >git-hex &&
	test_cmp git-hex hex &&
	cmp git-wide.idx wide.idx &&
	git show-index --object-format=$test_hash_algo <wide.idx >offsets &&
	test_grep "^5369118754 $(sed -n 2p ids) " offsets
'

test_expect_success 'big: read through that table, verified streamed' '
	rm -rf .dircache && init-db 2>/dev/null &&
	mv wide.pack .dircache/objects/pack/pack-$(cat hex).pack &&
	mv wide.idx .dircache/objects/pack/pack-$(cat hex).idx &&
	echo "after the big one" >want &&
	rss_below cat-file blob $(sed -n 2p ids) >got &&
	test_cmp want got &&
	cat-file -s $(sed -n 1p ids) >got &&
	echo $FIVE_GIB | test_cmp - got &&
	rss_below verify-pack -v .dircache/objects/pack/pack-$(cat hex).idx >out &&
	test_grep "^$(sed -n 2p ids) blob   18 28 5369118754\$" out &&
	test_grep "^$(sed -n 1p ids) blob   $FIVE_GIB 5369118742 12\$" out &&
	rm -rf .dircache
'

test_done
