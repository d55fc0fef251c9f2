#!/bin/sh
test_description='hash.c: SHA-1 and SHA-256 through one interface

The repository'"'"'s hash is SHA-1 or SHA-256 (git'"'"'s
extensions.objectformat); hash.c gives both, with their sizes and the
empty tree'"'"'s id.  sha1sum and sha256sum are the oracles.'
. "$(dirname "$0")/test-lib.sh"

TT="$TEST_DIRECTORY/helper/test-tool"

test_expect_success 'both algorithms agree with sha1sum and sha256sum' '
	for n in 0 1 55 56 63 64 65 119 120 4095 65536 65537 1000003; do
		head -c $n /dev/urandom >f$n || return 1
	done &&
	"$TT" hash sha1 f* >ours1 &&
	"$TT" hash sha256 f* >ours256 &&
	sha1sum f* | cut -d" " -f1 >want1 &&
	sha256sum f* | cut -d" " -f1 >want256 &&
	test_cmp want1 ours1 &&
	test_cmp want256 ours256
'

test_expect_success 'sizes, format ids and the empty trees are git'"'"'s' '
	printf "tree 0\000" >empty &&
	echo "sha1 73686131 20 40 $(sha1sum <empty | cut -d" " -f1)" >expect &&
	echo "sha256 73323536 32 64 $(sha256sum <empty | cut -d" " -f1)" >>expect &&
	{ "$TT" hash sha1 --info && "$TT" hash sha256 --info; } >actual &&
	test_cmp expect actual &&
	git init -q --object-format=sha256 g &&
	git -C g hash-object -t tree --stdin </dev/null >git-empty &&
	cut -d" " -f5 actual | tail -n 1 >ours-empty &&
	test_cmp git-empty ours-empty
'

test_expect_success 'SHA-1 keeps its collision detection; SHA-256 has none to do' '
	VEC="$TEST_DIRECTORY/t1430" &&
	test_expect_code 1 "$TT" hash sha1 "$VEC/shattered-1.head" 2>err &&
	test_grep "collision attack detected" err &&
	"$TT" hash sha256 "$VEC/shattered-1.head" "$VEC/shattered-2.head" >two &&
	test $(sort -u two | wc -l) = 2
'

test_expect_success 'an unknown algorithm is refused' '
	test_must_fail "$TT" hash md5 empty 2>err &&
	test_grep "usage: test-tool hash" err
'

test_done
