#!/bin/sh
test_description='pack-write: new objects as one pack and its idx

write_pack_objects stores objects as whole (undeltified) entries of a
new pack, deflated a batch at a time, and its idx v2, written last.
git reads the pack (verify-pack, fsck --strict, cat-file), and the idx
is byte for byte the one git index-pack makes of the pack.  applymbox
stores a checkpoint of many objects that way, and a checkpoint of a
few as loose objects.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"
TT="$TEST_DIRECTORY/helper/test-tool"

test_expect_success 'setup: objects of every type and size' '
	git init -q g &&
	: >empty &&
	echo hello >small &&
	head -c 3000000 /dev/urandom >random &&
	seq 1 200000 >numbers &&
	i=0 &&
	while test $i -lt 300; do
		echo "object $i" >many$i || exit 1
		i=$((i + 1))
	done &&
	(cd g && echo x >x && git add x && git commit -q -m one) &&
	git -C g cat-file tree HEAD^{tree} >tree &&
	git -C g cat-file commit HEAD >commit &&
	set -- blob empty blob small blob random blob numbers \
		tree tree commit commit &&
	i=0 &&
	while test $i -lt 300; do
		set -- "$@" blob many$i || exit 1
		i=$((i + 1))
	done &&
	GIT_DIR=g/.git "$TT" write-pack "$@" >ids &&
	test $(wc -l <ids) = 306 &&
	ls g/.git/objects/pack >packdir &&
	test $(wc -l <packdir) = 2 &&
	grep "^pack-[0-9a-f]\{$OID_HEXSZ\}\.pack\$" packdir &&
	grep "^pack-[0-9a-f]\{$OID_HEXSZ\}\.idx\$" packdir
'

test_expect_success 'git verify-pack and fsck --strict accept it' '
	idx=$(ls g/.git/objects/pack/*.idx) &&
	git verify-pack --object-format=$test_hash_algo -v "$idx" >verify &&
	grep "^non delta: 306 objects" verify &&
	GIT_DIR=g/.git git fsck --strict --no-dangling >fsck.out 2>&1 &&
	test ! -s fsck.out
'

test_expect_success 'the idx is the one git index-pack makes, named by the pack id' '
	pack=$(ls g/.git/objects/pack/*.pack) &&
	cp "$pack" copy.pack &&
	id=$(git index-pack --object-format=$test_hash_algo -o copy.idx copy.pack) &&
	test "$pack" = "g/.git/objects/pack/pack-$id.pack" &&
	cmp copy.idx g/.git/objects/pack/pack-$id.idx
'

test_expect_success 'every object reads back, by git and by cat-file' '
	set -- empty small random numbers tree commit &&
	i=0 &&
	while test $i -lt 300; do
		set -- "$@" many$i || exit 1
		i=$((i + 1))
	done &&
	for f in "$@"
	do
		read id &&
		type=blob &&
		case $f in tree|commit) type=$f ;; esac &&
		test "$(git -C g cat-file -t $id)" = $type &&
		git -C g cat-file $type $id >git.out &&
		cmp git.out $f &&
		GIT_DIR=g/.git cat-file $type $id >ours.out &&
		cmp ours.out $f || exit 1
	done <ids
'

test_expect_success 'an object given twice is refused, and no idx is left' '
	git init -q twice &&
	test_must_fail env GIT_DIR=twice/.git "$TT" write-pack \
		blob small blob numbers blob small >/dev/null 2>err &&
	grep "twice in one pack" err &&
	test -z "$(ls twice/.git/objects/pack)"
'

test_expect_success 'setup: a series of 40 for applymbox' '
	am_history hist 40 &&
	git -C hist format-patch -q -M --stdout HEAD~40 >series.mbox &&
	am_git hist HEAD~40 gitall &&
	(cd gitall && git am -q ../series.mbox) &&
	am_start hist HEAD~40 start
'

test_expect_success 'a checkpoint of many objects is one pack, fsck --strict clean' '
	rm -rf w && cp -R start w &&
	(cd w && find .dircache/objects -type f | sort >../before) &&
	(cd w && DIRCACHE_AM_CHECKPOINT=20 applymbox ../series.mbox >/dev/null) &&
	test "$(git --git-dir=w/.dircache rev-parse HEAD^{tree})" = \
		"$(git -C gitall rev-parse HEAD^{tree})" &&
	(cd w && find .dircache/objects -type f | sort >../after) &&
	comm -13 before after >new &&
	test $(grep -c "/pack/pack-.*\.pack\$" new) = 2 &&
	test $(grep -c "/pack/pack-.*\.idx\$" new) = 2 &&
	test $(grep -vc "/pack/" new) = 0 &&
	for idx in w/.dircache/objects/pack/*.idx
	do
		git verify-pack --object-format=$test_hash_algo "$idx" || exit 1
	done &&
	GIT_DIR=w/.dircache git fsck --strict --no-dangling >fsck.out 2>&1 &&
	test ! -s fsck.out
'

test_expect_success 'checkpoints of a few objects write them loose' '
	rm -rf l && cp -R start l &&
	(cd l && DIRCACHE_AM_CHECKPOINT=1 applymbox ../series.mbox >/dev/null) &&
	test "$(git --git-dir=l/.dircache rev-parse HEAD^{tree})" = \
		"$(git -C gitall rev-parse HEAD^{tree})" &&
	test -z "$(ls l/.dircache/objects/pack 2>/dev/null)" &&
	GIT_DIR=l/.dircache git fsck --strict --no-dangling >fsck.out 2>&1 &&
	test ! -s fsck.out
'

test_done
