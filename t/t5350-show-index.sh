#!/bin/sh
test_description='show-index: an idx listed as git show-index lists it'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-pack.sh"

GIT_DIR=.git
export GIT_DIR

test_expect_success 'setup: a pack and its idx v2, v1 and v2 with 64-bit offsets' '
	pack_make_history repo 6 &&
	(cd repo && git rev-list --objects --all >../objs) &&
	(cd repo && git pack-objects -q ../p <../objs) >hex &&
	cp p-$(cat hex).pack x.pack &&
	git index-pack --object-format=$test_hash_algo -o v2.idx x.pack >/dev/null &&
	git index-pack --object-format=$test_hash_algo --index-version=1 -o v1.idx x.pack >/dev/null &&
	git index-pack --object-format=$test_hash_algo --index-version=2,0x40 -o big.idx x.pack >/dev/null &&
	! cmp -s v2.idx big.idx
'

test_expect_success 'the lines are git show-index'"'"'s, for each kind of idx' '
	for k in v2 v1 big; do
		git show-index --object-format=$test_hash_algo <$k.idx >expect &&
		show-index <$k.idx >out &&
		test_cmp expect out || exit 1
	done &&
	test $(wc -l <out) = $(wc -l <objs)
'

# Byte $2 of file $1 set to $3 (octal).
poke() {
	printf "\\$3" | dd of="$1" bs=1 seek=$2 conv=notrunc 2>/dev/null
}

test_expect_success 'a corrupt idx is refused, nothing printed' '
	cp v2.idx bad.idx &&
	poke bad.idx 1100 377 &&
	test_must_fail show-index <bad.idx >out 2>err &&
	test_cmp /dev/null out &&
	grep "does not match" err &&
	head -c 1000 v2.idx >short.idx &&
	test_must_fail show-index <short.idx >out &&
	test_cmp /dev/null out
'

# The other hash than the store's, for an idx of the other kind.
case $test_hash_algo in
sha1)	other_hash=sha256 ;;
*)	other_hash=sha1 ;;
esac

test_expect_success 'an idx of the other hash: told by its sizes, as git --object-format' '
	git init -q --object-format=$other_hash other &&
	(cd other && echo one >a && echo two >b && git add a b &&
	 git commit -q -m one && git repack -q -ad) &&
	oidx=$(ls other/.git/objects/pack/*.idx) &&
	git show-index --object-format=$other_hash <$oidx >expect &&
	test $(head -n 1 expect | cut -d" " -f2 | wc -c) != $((OID_HEXSZ + 1)) &&
	show-index <$oidx >out &&
	test_cmp expect out &&
	show-index --object-format=$other_hash <$oidx >out &&
	test_cmp expect out &&
	test_must_fail show-index --object-format=$test_hash_algo <$oidx \
		>out 2>err &&
	test_cmp /dev/null out &&
	grep "has $other_hash ids" err &&
	test_must_fail show-index --object-format=sha3 <$oidx 2>err &&
	grep "unknown hash algorithm" err
'

test_expect_success 'usage: no argument' '
	test_expect_code 129 show-index x <v2.idx
'

test_done
