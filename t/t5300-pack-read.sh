#!/bin/sh
test_description='packed repositories: every tool reads them as git does'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-pack.sh"

GIT_DIR=.git
export GIT_DIR

test_expect_success 'setup: a history, loose' '
	pack_make_history repo 12 &&
	cd repo && pack_compare_all
'

test_expect_success 'git gc --aggressive: deep chains read as git' '
	cd repo &&
	git gc -q --aggressive &&
	! ls .git/objects/?? 2>/dev/null | grep . &&
	git verify-pack --object-format=$test_hash_algo -v .git/objects/pack/*.idx >../v &&
	test_grep "chain length = " ../v &&
	pack_compare_all
'

test_expect_success 'verify-pack -v lists the pack as git does' '
	cd repo &&
	for p in .git/objects/pack/*.idx; do
		verify-pack -v $p >../ours &&
		git verify-pack --object-format=$test_hash_algo -v $p >../theirs &&
		test_cmp ../theirs ../ours &&
		verify-pack $p >../ours &&
		! test -s ../ours || exit 1
	done
'

test_expect_success 'verify-pack takes the pack as x.idx, x.pack or x, as git' '
	cd repo &&
	for p in .git/objects/pack/*.idx; do
		b=${p%.idx} &&
		git verify-pack --object-format=$test_hash_algo -v $p >../theirs &&
		for name in $b.pack $b; do
			git verify-pack --object-format=$test_hash_algo -v $name >../gits &&
			test_cmp ../theirs ../gits &&
			verify-pack -v $name >../ours &&
			test_cmp ../theirs ../ours || exit 1
		done
	done
'

test_expect_success 'repack -adf --window=250 --depth=250, idx v1 too' '
	cd repo &&
	git repack -q -adf --window=250 --depth=250 &&
	pack_compare_all &&
	git -c pack.indexVersion=1 repack -q -adf &&
	od -An -tx1 -N4 .git/objects/pack/*.idx | grep -v "ff 74 4f 63" &&
	pack_compare_all &&
	verify-pack -v .git/objects/pack/*.idx >../ours &&
	git verify-pack --object-format=$test_hash_algo -v .git/objects/pack/*.idx >../theirs &&
	test_cmp ../theirs ../ours
'

test_expect_success '64-bit offsets in an idx v2' '
	cd repo &&
	git -c pack.indexVersion=2 repack -q -adf &&
	p=$(ls .git/objects/pack/*.pack) &&
	git index-pack --object-format=$test_hash_algo --index-version=2,0x40 -o ../big.idx $p &&
	cp ../big.idx ${p%.pack}.idx &&
	pack_cat_all &&
	verify-pack -v ${p%.pack}.idx >../ours &&
	git verify-pack --object-format=$test_hash_algo -v ${p%.pack}.idx >../theirs &&
	test_cmp ../theirs ../ours
'

test_expect_success 'loose, packed and an alternate, mixed' '
	git clone -q --shared repo mixed &&
	cd mixed &&
	test -s .git/objects/info/alternates &&
	echo new >newfile && git add newfile && git commit -q -m new &&
	git tag t13 &&
	ls .git/objects/?? >/dev/null &&
	( cd ../repo && echo more >>big && git commit -q -a -m loose-in-alt &&
	  git tag t14 ) &&
	git fetch -q ../repo t14:refs/tags/t14 &&
	pack_compare_all
'

test_expect_success 'abbreviations and cat-file -e see packed objects' '
	cd repo &&
	id=$(git rev-parse t5) &&
	short=$(git rev-parse --short=7 t5) &&
	cat-file -t $short >../ours && echo commit >../expect &&
	test_cmp ../expect ../ours &&
	cat-file -e $id &&
	test_expect_code 1 cat-file -e $(echo $ZERO_OID | tr 0 5)
'

test_expect_success 'writing an object that is packed compares with it' '
	cd repo &&
	id=$(git rev-parse t5:big) &&
	git cat-file blob $id >../blob &&
	! test -f .git/objects/$(echo $id | sed "s|^..|&/|") &&
	mkdir ../w && cp ../blob ../w/big &&
	(cd ../w && GIT_DIR=../repo/.git GIT_INDEX_FILE=../w.idx \
	 update-cache --add big) &&
	echo different >../w/big &&
	id2=$(git hash-object ../w/big) &&
	(cd ../w && GIT_DIR=../repo/.git GIT_INDEX_FILE=../w.idx \
	 update-cache big) &&
	test -f .git/objects/$(echo $id2 | sed "s|^..|&/|") &&
	! test -f .git/objects/$(echo $id | sed "s|^..|&/|")
'

test_expect_success 'writing over a corrupt packed copy is refused' '
	git init -q crc && cd crc &&
	seq 1 3000 >f && git add f && git commit -q -m f &&
	git gc -q &&
	id=$(git rev-parse HEAD:f) &&
	p=$(ls .git/objects/pack/*.pack) && chmod u+w $p &&
	size=$(wc -c <$p) &&
	printf "\\125" | dd of=$p bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null &&
	test_must_fail update-cache --add f 2>../err &&
	test_grep "$id exists" ../err &&
	test_grep "not overwriting it" ../err &&
	! test -f .git/objects/$(echo $id | sed "s|^..|&/|")
'

test_expect_success 'alternates: relative, nested as deep as git reads' '
	git init -q a0 &&
	i=0 && while [ $i -le 7 ]; do
		git init -q a$((i + 1)) &&
		echo "../../../a$((i + 1))/.git/objects" \
			>a$i/.git/objects/info/alternates &&
		echo "object $i" | (cd a$((i + 1)) && git hash-object -w --stdin) \
			>id$i || exit 1
		i=$((i + 1))
	done &&
	cd a0 &&
	for n in 0 1 2 3 4 5 6 7; do
		git cat-file -e $(cat ../id$n) 2>/dev/null; g=$? &&
		cat-file -e $(cat ../id$n) 2>../err; o=$? &&
		test $g = $o || { echo "depth $n: git $g, ours $o"; exit 1; }
	done &&
	test_grep "nesting too deep" ../err &&
	cat-file -p $(cat ../id5) >../ours && echo "object 5" >../expect &&
	test_cmp ../expect ../ours
'

test_expect_success 'a git index with extensions, rewritten over a packed store' '
	git clone -q repo ext && cd ext &&
	git config core.untrackedCache true && git config core.fsmonitor false &&
	git config index.threads 2 && git config index.recordEndOfIndexEntries true &&
	git config index.recordOffsetTable true &&
	echo junk >untracked && git status --porcelain >/dev/null &&
	git gc -q &&
	echo changed >>big && update-cache big &&
	git ls-files -s >../theirs && git status --porcelain >../gst &&
	test_grep "^ M big" ../gst &&
	git fsck 2>&1 | grep -v -e ^dangling -e ^notice >../fsck;
	! test -s ../fsck &&
	git ls-files -s >../ls-after &&
	test_cmp ../theirs ../ls-after &&
	git diff --cached --stat >../dc && test_grep big ../dc
'

test_expect_success 'two packs: objects found in the second' '
	git init -q late && cd late &&
	echo a >a && git add a && git commit -q -m a &&
	git gc -q && echo b >b && git add b && git commit -q -m b &&
	id=$(git rev-parse HEAD:b) &&
	git repack -q -d &&
	cat-file -p $id >../ours && echo b >../expect &&
	test_cmp ../expect ../ours
'

# The first deltified blob of verify-pack -v ../v, its base, and the
# base's size in the pack and offset, in $delta $base $base_len $base_at.
first_delta() {
	set -- $(awk '$2 == "blob" && NF == 7 { print $1, $7; exit }' ../v) &&
	delta=$1 base=$2 &&
	set -- $(awk -v b=$base '$1 == b { print $4, $5 }' ../v) &&
	base_len=$1 base_at=$2 &&
	test -n "$base_at"
}

test_expect_success 'cat-file -t and -s of a delta read headers only, as git' '
	git init -q hdr && cd hdr &&
	seq 1 3000 >f && git add f && git commit -q -m one &&
	seq 2 3001 >f && git add f && git commit -q -m two &&
	git gc -q &&
	git verify-pack --object-format=$test_hash_algo -v .git/objects/pack/*.idx >../v &&
	first_delta &&
	for opt in -t -s; do
		cat-file $opt $delta >../ours &&
		git cat-file $opt $delta >../theirs &&
		test_cmp ../theirs ../ours || exit 1
	done &&
	# Spoil the middle of the base: the delta cannot be read any
	# more, but its type and size are still in the headers.
	p=$(ls .git/objects/pack/*.pack) && chmod u+w $p &&
	printf "\\377\\377\\377\\377" | dd of=$p bs=1 conv=notrunc \
		seek=$((base_at + base_len / 2)) 2>/dev/null &&
	test_must_fail cat-file -p $delta >/dev/null 2>../err &&
	test_must_fail git cat-file -p $delta >/dev/null 2>&1 &&
	for opt in -t -s; do
		cat-file $opt $delta >../ours &&
		git cat-file $opt $delta >../theirs &&
		test_cmp ../theirs ../ours || exit 1
	done
'

test_expect_success 'a pack that comes while a reader runs is found on a miss' '
	git init -q late && cd late &&
	echo one >a && git add a && git commit -q -m one && git gc -q &&
	a=$(git rev-parse HEAD:a) &&
	mkfifo ../in ../out &&
	{ "$TEST_DIRECTORY/helper/test-tool" read-ids <../in >../out 2>../err & } &&
	exec 8>../in 9<../out &&
	echo $a >&8 && read got <&9 &&
	test "$got" = "blob 4 blob 4" &&
	# b only in a second pack, made after the reader listed the packs
	echo three >b && git add b && git commit -q -m two &&
	b=$(git rev-parse HEAD:b) &&
	git repack -q -d && ! test -f .git/objects/$(echo $b |
		sed "s|..|&/|") &&
	test $(ls .git/objects/pack/*.pack | wc -l) = 2 &&
	echo $b >&8 && read got <&9 &&
	echo $a >&8 && read again <&9 &&
	echo $ZERO_OID >&8 && read none <&9 &&
	exec 8>&- 9<&- && wait &&
	test "$got" = "blob 6 blob 6" &&
	test "$again" = "blob 4 blob 4" &&
	test "$none" = missing
'

# 40 incompressible blobs of 256 KiB: a 10 MiB pack, read whole.
test_expect_success 'a reader going through a pack keeps little of it mapped' '
	test -r /proc/self/smaps || exit 0
	git init -q big && cd big &&
	for i in $(seq 40); do
		head -c 262144 /dev/urandom >f$i || exit 1
	done &&
	git add . && git commit -q -m big && git gc -q &&
	kept=$("$TEST_DIRECTORY/helper/test-tool" pack-rss 0) &&
	trimmed=$("$TEST_DIRECTORY/helper/test-tool" pack-rss 1048576) &&
	echo "resident: $kept KB untrimmed, $trimmed KB trimmed" &&
	test "$kept" -ge 9000 &&
	test "$trimmed" -le 2600
'

# 100 incompressible blobs of 128 KiB, each followed in the pack by a
# small one: reading the small ones only touches a 64 KiB block each,
# and the kernel maps the whole block (its fault-around).
test_expect_success 'a reader of scattered small entries keeps little mapped' '
	test -r /proc/self/smaps || exit 0
	git init -q scattered && cd scattered &&
	for i in $(seq 100); do
		n=$(printf %03d $i) &&
		head -c 131072 /dev/urandom >f$n-a &&
		echo "small $i" >f$n-b || exit 1
	done &&
	git add . && git commit -q -m scattered && git gc -q &&
	kept=$("$TEST_DIRECTORY/helper/test-tool" pack-rss 0 1000) &&
	trimmed=$("$TEST_DIRECTORY/helper/test-tool" pack-rss 1048576 1000) &&
	echo "resident: $kept KB untrimmed, $trimmed KB trimmed" &&
	test "$kept" -ge 5000 &&
	test "$trimmed" -le 2600
'

test_done
