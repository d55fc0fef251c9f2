#!/bin/sh
test_description='SHA-1 collision detection: the staged UBC check is the table

sha1dc.c checks the unavoidable bit conditions in four stages and stops
a group of blocks whose DV masks are all empty.  Its masks must be, block
by block, those of the table read in one piece (in scalar code), on
every vector path; and the detection with the UBC filter must give what
it gives without (every DV'"'"'s twin tested on every block): the same
digests, the same attacks found.'
. "$(dirname "$0")/test-lib.sh"

TT="$TEST_DIRECTORY/helper/test-tool"
VEC="$TEST_DIRECTORY/t1430"
BASELINE="~0x1000000000000000:~0x20000020"
NONE="~0xffffffffffffffff:~0xffffffffffffffff"

# Random blocks, blocks of zeros, text (our sources), the attack files.
test_expect_success 'setup: random, zero, text and attack blocks' '
	head -c 2097152 /dev/urandom >rand &&
	head -c 65536 /dev/zero >zero &&
	cat "$TEST_DIRECTORY"/../*.c >text &&
	head -c 65536 rand >pre &&
	cat pre "$VEC/shattered-1.head" >late-attack &&
	cat "$VEC/shattered-1.head" pre >early-attack &&
	for n in 1 63 64 65 191 192 193 255 256 257 447 511 513 4097; do
		head -c $n rand >f$n || return 1
	done &&
	cp "$VEC"/* . &&
	ls >files
'

# check_ubc CAP: every whole block of the files, the staged check's mask
# against the table's, under OPENSSL_ia32cap=CAP ("-": unset).
check_ubc() {
	if [ "$1" = - ]; then
		"$TT" sha1 --check-ubc $(cat files) >out
	else
		OPENSSL_ia32cap="$1" "$TT" sha1 --check-ubc $(cat files) >out
	fi &&
	read blocks flagged bad <out &&
	test "$bad" = 0 &&
	test "$blocks" -gt 40000 &&
	test "$flagged" -gt 1000
}

test_expect_success 'the staged masks are the table'"'"'s, all the CPU offers' '
	check_ubc -
'

test_expect_success 'the staged masks are the table'"'"'s, CPU=baseline' '
	OPENSSL_ia32cap="$BASELINE" "$TT" sha1 --simd >simd &&
	echo sse2 >want &&
	test_cmp want simd &&
	check_ubc "$BASELINE"
'

test_expect_success 'the staged masks are the table'"'"'s, every extension hidden' '
	check_ubc "$NONE"
'

# same_as_unfiltered CAP: digests and exit codes with the UBC filter and
# without it agree; where no attack is found, the digest is sha1sum'"'"'s.
same_as_unfiltered() {
	for f in $(cat files); do
		if [ "$1" = - ]; then
			"$TT" sha1 $f >got 2>/dev/null
		else
			OPENSSL_ia32cap="$1" "$TT" sha1 $f >got 2>/dev/null
		fi
		echo "$f $?" >>codes &&
		if [ "$1" = - ]; then
			DIRCACHE_TEST_SHA1DC_NO_UBC=1 "$TT" sha1 $f >ref 2>/dev/null
		else
			OPENSSL_ia32cap="$1" DIRCACHE_TEST_SHA1DC_NO_UBC=1 \
				"$TT" sha1 $f >ref 2>/dev/null
		fi
		echo "$f $?" >>ref-codes &&
		test_cmp ref got &&
		if [ -s got ]; then
			sha1sum <$f | cut -d" " -f1 >want &&
			test_cmp want got
		fi || return 1
	done &&
	test_cmp ref-codes codes &&
	grep "^shattered-1.head 1$" codes &&
	grep "^sha-mbles-2.bin 1$" codes &&
	grep "^early-attack 1$" codes &&
	grep "^rand 0$" codes &&
	grep "^text 0$" codes
}

test_expect_success 'filtered and unfiltered detection agree, all the CPU offers' '
	rm -f codes ref-codes &&
	same_as_unfiltered -
'

test_expect_success 'filtered and unfiltered detection agree, CPU=baseline' '
	rm -f codes ref-codes &&
	same_as_unfiltered "$BASELINE"
'

test_done
