#!/bin/sh
test_description='SHA-1 collision detection: the public attacks, no false
alarm, and every path that hashes refuses an attack and leaves nothing'
. "$(dirname "$0")/test-lib.sh"

TT="$TEST_DIRECTORY/helper/test-tool"
VEC="$TEST_DIRECTORY/t1430"
GIT_DIR=.git
export GIT_DIR

# Collision detection is SHA-1's: every store this script makes is a
# SHA-1 store, on a sha256 run too (git's and ours), but the last,
# which shows that a sha256 store never asks the detector.
GIT_DEFAULT_HASH=sha1
export GIT_DEFAULT_HASH

# The colliding pairs: the identical-prefix SHAttered PDFs (their first
# 320 bytes, which hold both near-collision blocks; what follows is the
# same in both files) and the chosen-prefix SHA-mbles messages, whole.
test_expect_success 'the four attack vectors are detected, raw' '
	for f in shattered-1.head shattered-2.head sha-mbles-1.bin \
		 sha-mbles-2.bin; do
		test_expect_code 1 "$TT" sha1 "$VEC/$f" >out 2>err &&
		test_grep "$f.: SHA-1 collision attack detected" err &&
		test_must_fail test -s out || return 1
	done
'

test_expect_success 'each pair collides without detection (sha1sum)' '
	for p in shattered-%.head sha-mbles-%.bin; do
		one=$VEC/$(echo $p | sed s/%/1/) &&
		two=$VEC/$(echo $p | sed s/%/2/) &&
		sha1sum <"$one" >a && sha1sum <"$two" >b &&
		test_cmp a b && test_must_fail cmp -s "$one" "$two" || return 1
	done
'

# The whole files, where the project's shared vectors are at hand.
if [ -r "$SHARED_DIR/vectors/sha1-collisions/shattered-1.pdf" ]; then
	test_expect_success 'the whole SHAttered PDFs are detected' '
		V="$SHARED_DIR/vectors/sha1-collisions" &&
		head -c 320 "$V/shattered-1.pdf" >head &&
		cmp head "$VEC/shattered-1.head" &&
		test_expect_code 1 "$TT" sha1 "$V/shattered-1.pdf" \
			"$V/shattered-2.pdf" 2>err &&
		test $(grep -c "SHA-1 collision attack detected" err) = 2
	'
fi

# flip_bit FILE: FILE with bit 2 of byte 300 flipped, on stdout.
flip_bit() {
	_byte=$(od -An -tu1 -j300 -N1 "$1") &&
	head -c 300 "$1" &&
	printf "\\$(printf %o $((_byte ^ 4)))" &&
	tail -c +302 "$1"
}

# One bit changed in the last near-collision block breaks the attack.
test_expect_success 'a broken attack block is hashed as any other' '
	for f in shattered-1.head sha-mbles-1.bin; do
		flip_bit "$VEC/$f" >broken &&
		test $(cmp -l broken "$VEC/$f" | wc -l) = 1 &&
		"$TT" sha1 broken >out &&
		sha1sum <broken | cut -d" " -f1 >want &&
		test_cmp want out || return 1
	done
'

# Sizes around the padding's edges and the batch boundaries of the UBC
# check, random bytes: the same ids as sha1sum, and nothing detected,
# though some blocks are flagged for the DV test (about 1 in 20).
test_expect_success 'random data: ids as sha1sum, flagged blocks, no alarm' '
	head -c 4194304 /dev/urandom >rand &&
	for n in 0 1 55 56 63 64 65 119 120 127 128 191 192 255 256 257 \
		 447 448 511 512 513 4095 4097 65536 1000001; do
		head -c $n rand >f$n || return 1
	done &&
	"$TT" sha1 --stats rand f* >out 2>stats &&
	for f in rand f*; do
		sha1sum <$f | cut -d" " -f1 || return 1
	done >want &&
	test_cmp want out &&
	flagged=$(sed -n "s/.* blocks, \([0-9]*\) flagged/\1/p" stats) &&
	test "$flagged" -gt 100
'

test_expect_success 'the same without AVX2 and SHA-NI (OPENSSL_ia32cap)' '
	OPENSSL_ia32cap="~0x1000000000000000:~0x20000020" \
		"$TT" sha1 rand f* >out &&
	test_cmp want out
'

test_expect_success 'setup: a history, by git' '
	git init -q . &&
	mkdir d && printf "%s\n" one two three >d/small &&
	head -c 2000000 rand >big && head -c 70000 rand >mid &&
	printf "" >empty && echo "MARKER-x" >stored &&
	git add . && git commit -q -m first &&
	echo more >>d/small && git commit -q -a -m second &&
	git tag -a -m tag v1 &&
	git repack -adq && echo more >>d/small && git commit -q -a -m third
'

test_expect_success 'every object of the history: ids as git, no alarm' '
	git cat-file --batch-all-objects --batch >batch &&
	"$TT" sha1-batch <batch >out &&
	read objs blocks flagged <out &&
	git cat-file --batch-all-objects --batch-check >all &&
	test $objs = $(wc -l <all) &&
	fsck-cache --strict >out 2>&1 &&
	test_must_fail test -s out
'

test_expect_success 'update-cache --add: ids as git, small and streamed' '
	rm -f .git/index &&
	update-cache --add d/small big mid empty stored &&
	ls-files -s >ours &&
	git ls-files -s d/small big mid empty stored >theirs &&
	test_cmp theirs ours
'

# The state a refused command must leave as it found: every file of the
# store (objects, packs, refs) and the index.
state() {
	(find .git/objects .git/refs -type f | sort &&
	 cat .git/index .git/HEAD) | cksum
}

# refused NAME COMMAND...: COMMAND fails with the detection's message,
# and the store and the index are as before.
refused() {
	_name=$1 &&
	shift &&
	state >before &&
	test_must_fail "$@" >out 2>err &&
	test_grep "$_name.*SHA-1 collision attack detected" err &&
	state >after &&
	test_cmp before after
}

test_expect_success 'update-cache --add refuses an attack, writes nothing' '
	echo "new MARKER" >new &&
	id=$(git hash-object new) &&
	DIRCACHE_TEST_SHA1DC_FIRE=data:MARKER refused $id \
		update-cache --add new &&
	test_grep "unable to add .new." err &&
	test_must_fail test -e "$(obj_file $id .git/objects)"
'

test_expect_success 'a streamed big file is refused, no temporary left' '
	{ echo MARKER && head -c 1500000 rand; } >bigger &&
	DIRCACHE_TEST_SHA1DC_FIRE=data:MARKER refused "bigger" \
		update-cache --add bigger &&
	id=$(git hash-object bigger) &&
	test_must_fail test -e "$(obj_file $id .git/objects)" &&
	test -z "$(find .git/objects -name "tmp*")"
'

# The blob is no attack and may be stored; the index is refused.
test_expect_success 'the index written: refused, the old one kept' '
	echo x >path-MARKER &&
	cp .git/index index.before &&
	DIRCACHE_TEST_SHA1DC_FIRE=data:path-MARKER \
		test_must_fail update-cache --add path-MARKER 2>err &&
	test_grep "the index: SHA-1 collision attack detected" err &&
	cmp .git/index index.before &&
	test_must_fail test -e .git/index.lock
'

test_expect_success 'write-tree and commit-tree refuse a tree, a commit' '
	mkdir sub && echo s >sub/file &&
	update-cache --add sub/file &&
	rm -rf copy.git && cp -r .git copy.git &&
	sub=$(GIT_DIR=copy.git git write-tree --prefix=sub/) &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$sub refused $sub write-tree &&
	tree=$(git rev-parse HEAD^{tree}) &&
	echo "a MARKER commit" >msg &&
	DIRCACHE_TEST_SHA1DC_FIRE=data:MARKER refused "" \
		commit-tree $tree <msg
'

test_expect_success 'an object read back is refused: cat-file, fsck-cache' '
	id=$(git rev-parse HEAD:stored) &&
	DIRCACHE_TEST_SHA1DC_FIRE=data:MARKER refused $id \
		cat-file blob $id &&
	DIRCACHE_TEST_SHA1DC_FIRE=data:MARKER refused $id fsck-cache &&
	bid=$(git rev-parse HEAD:big) &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$bid refused $bid cat-file blob $bid
'

test_expect_success 'index-pack and unpack-objects refuse, leave nothing' '
	pack=$(ls .git/objects/pack/*.pack) &&
	cp "$pack" in.pack &&
	DIRCACHE_TEST_SHA1DC_FIRE=data:MARKER refused "" \
		index-pack -o in.idx in.pack &&
	test_must_fail test -e in.idx &&
	git init -q --bare other.git &&
	(cd other.git && find objects -type f | sort >../other-before &&
	 DIRCACHE_TEST_SHA1DC_FIRE=data:MARKER GIT_DIR=. \
		test_must_fail unpack-objects <../in.pack 2>../err &&
	 find objects -type f | sort >../other-after) &&
	test_grep "SHA-1 collision attack detected" err &&
	test_cmp other-before other-after
'

hex_tail() {
	tail -c 20 "$1" | od -An -tx1 | tr -d " \n"
}

test_expect_success 'pack and idx checksums: verify-pack, fsck-cache' '
	pack=$(ls .git/objects/pack/*.pack) &&
	idx=${pack%.pack}.idx &&
	verify-pack "$idx" &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail "$pack") refused "$pack" \
		verify-pack "$idx" &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail "$idx") refused \
		"index of $pack" verify-pack "$idx" &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail "$pack") refused "$pack" \
		fsck-cache &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail "$idx") refused \
		"index file" show-index <"$idx"
'

test_expect_success 'index-pack refuses a pack whose checksum fires' '
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail in.pack) refused "pack" \
		index-pack -o in.idx in.pack &&
	test_must_fail test -e in.idx
'

test_expect_success 'the index read: refused with its name' '
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail .git/index) refused \
		".git/index" ls-files
'

test_expect_success 'a big index read while its checksum runs on: refused too' '
	mkdir many &&
	(cd many && i=0 && while [ $i -lt 4000 ]; do : >f$i; i=$((i + 1)); done) &&
	git add many && git write-tree >/dev/null &&
	test $(wc -c <.git/index) -gt 262144 &&
	show-diff >out && test_must_fail test -s out &&
	echo x >>many/f7 &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail .git/index) refused \
		".git/index" show-diff &&
	test_must_fail test -s out &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$(hex_tail .git/index) refused \
		".git/index" ls-files
'

test_expect_success 'rev-list --objects: a tree whose hash fires is refused' '
	t=$(git rev-parse HEAD^{tree}) &&
	rev-list --objects --all >/dev/null &&
	DIRCACHE_TEST_SHA1DC_FIRE=id:$t refused "$t" rev-list --objects --all
'

# A sha256 store has no SHA-1 to check: the switch that makes the
# detector fire on every hash changes nothing there, for objects, the
# index, packs or fsck-cache.
test_expect_success 'a sha256 store: the detector is never asked' '
	git init -q --object-format=sha256 s256 &&
	(cd s256 &&
	 mkdir d && echo "MARKER" >d/f && echo two >g &&
	 DIRCACHE_TEST_SHA1DC_FIRE=all update-cache --add d/f g &&
	 git ls-files -s >want && ls-files -s >got && test_cmp want got &&
	 tree=$(DIRCACHE_TEST_SHA1DC_FIRE=all write-tree) &&
	 test "$tree" = "$(git write-tree)" &&
	 c=$(echo MARKER | DIRCACHE_TEST_SHA1DC_FIRE=all commit-tree $tree) &&
	 test "$c" = "$(echo MARKER | git commit-tree $tree)" &&
	 echo $c >.git/refs/heads/master &&
	 git repack -adq &&
	 DIRCACHE_TEST_SHA1DC_FIRE=all cat-file -p $c >got &&
	 git cat-file -p $c >want && test_cmp want got &&
	 DIRCACHE_TEST_SHA1DC_FIRE=all verify-pack .git/objects/pack/*.idx &&
	 DIRCACHE_TEST_SHA1DC_FIRE=all fsck-cache --strict >out 2>&1 &&
	 test_must_fail test -s out &&
	 git fsck --strict)
'

test_done
