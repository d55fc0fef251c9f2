#!/bin/sh
test_description='SHA-1 with collision detection under OPENSSL_ia32cap

CPU=baseline hides AVX, AVX2 and the SHA extensions from OpenSSL
(OPENSSL_ia32cap); our UBC check must then not use them either, and
whatever code each takes, every digest is OpenSSL'"'"'s plain SHA-1.'
. "$(dirname "$0")/test-lib.sh"

TT="$TEST_DIRECTORY/helper/test-tool"
BASELINE="~0x1000000000000000:~0x20000020"

# The objects of this script are SHA-1 ones, on a sha256 run too.
GIT_DEFAULT_HASH=sha1
export GIT_DEFAULT_HASH

# avx2_kept: 0 unless the capabilities OpenSSL ends up with ("openssl
# info -cpusettings" prints them as OPENSSL_ia32cap=<a>:<b>, 64-bit hex
# numbers, too big for the shell's arithmetic) keep AVX (a, bit 60, the
# low bit of the first of a's 16 hex digits) and AVX2 (b, bit 5).
avx2_kept() {
	_hex="0x\([0-9a-f]*\)" &&
	_caps=$(openssl info -cpusettings |
		sed -n "s/^OPENSSL_ia32cap=$_hex:$_hex.*/\1 \2/p") &&
	test -n "$_caps" &&
	set -- $_caps &&
	_a=$(printf "%016s" "$1" | tr " " 0 | cut -c1) &&
	_b=$(printf "%s" "$2" | tail -c 2) &&
	echo $(( (0x$_a & 1) & ((0x$_b >> 5) & 1) ))
}

# expect_simd: what our UBC check may use: AVX2 where OpenSSL may, as
# set and as the CPU is.
expect_simd() {
	_set=$(avx2_kept) && _cpu=$(unset OPENSSL_ia32cap; avx2_kept) &&
	if [ "$_set$_cpu" = 11 ]; then
		echo avx2
	else
		echo sse2
	fi
}

if openssl info -cpusettings 2>/dev/null | grep -q "^OPENSSL_ia32cap="
then
	test_expect_success 'the UBC check takes AVX2 only where OpenSSL may' '
		case "$(uname -m)" in
		x86_64) ;;
		*) test "$("$TT" sha1 --simd)" != avx2; return ;;
		esac &&
		for cap in - "$BASELINE" "~0x1000000000000000" "~0x0" \
			   ":~0x20" ":~0x20000000" "~0x0:0x0" "0x0" \
			   ":0xffffffff" ""; do
			if [ "$cap" = - ]; then
				expect_simd >want && "$TT" sha1 --simd >got
			else
				OPENSSL_ia32cap="$cap" expect_simd >want &&
				OPENSSL_ia32cap="$cap" "$TT" sha1 --simd >got
			fi &&
			echo "$cap: $(cat got)" >>log &&
			test_cmp want got || return 1
		done &&
		OPENSSL_ia32cap="$BASELINE" "$TT" sha1 --simd >got &&
		echo sse2 >want &&
		test_cmp want got
	'
fi

# inflate.c's BMI2 loop follows the same mask: CPU=baseline's CPU has
# neither AVX2 nor BMI2 (they came together), and ":~0x100" hides BMI2.
test_expect_success 'BMI2 only where AVX2 and BMI2 are both kept' '
	OPENSSL_ia32cap="$BASELINE" "$TT" cpu >got &&
	printf "avx2 0\nbmi2 0\n" >want &&
	test_cmp want got &&
	OPENSSL_ia32cap="~0x0:~0x100" "$TT" cpu >got &&
	grep "^bmi2 0$" got &&
	"$TT" cpu >got &&
	if grep -q "^avx2 1$" got && grep -qw bmi2 /proc/cpuinfo
	then
		grep "^bmi2 1$" got
	else
		grep "^bmi2 0$" got
	fi
'

# Every length from 0 to 300 bytes (padding in one block or two, the
# UBC check's short groups of one to three blocks, whole groups) and a
# few sizes past a megabyte, random bytes: openssl dgst's SHA-1.
test_expect_success 'setup: random files of every length to 300' '
	head -c 4194304 /dev/urandom >rand &&
	n=0 &&
	while [ $n -le 300 ]; do
		head -c $n rand >f$n && n=$((n + 1)) || return 1
	done &&
	for n in 1048575 1048576 1048577 2097215 3000001 4194304; do
		head -c $n rand >f$n || return 1
	done &&
	ls f[0-9]* | sort -t f -k 2 -n >list &&
	test $(wc -l <list) = 307 &&
	openssl dgst -sha1 -r $(cat list) | cut -d" " -f1 >want &&
	test $(sort -u want | wc -l) = 307
'

test_expect_success 'OpenSSL'"'"'s digests, with all the CPU offers' '
	"$TT" sha1 $(cat list) >out &&
	test_cmp want out
'

test_expect_success 'OpenSSL'"'"'s digests, CPU=baseline'"'"'s mask' '
	OPENSSL_ia32cap="$BASELINE" "$TT" sha1 $(cat list) >out &&
	test_cmp want out
'

test_expect_success 'OpenSSL'"'"'s digests, every extension hidden' '
	OPENSSL_ia32cap="~0xffffffffffffffff:~0xffffffffffffffff" \
		"$TT" sha1 $(cat list) >out &&
	test_cmp want out
'

# As objects, their header first ("blob <n>\0", so the content starts
# mid-block): git's ids, with and without the mask.
test_expect_success GIT 'as objects: git'"'"'s ids, with and without the mask' '
	git init -q --bare objs.git &&
	git --git-dir=objs.git hash-object -w $(cat list) >ids &&
	test $(sort -u ids | wc -l) = 307 &&
	git --git-dir=objs.git cat-file --batch <ids >batch &&
	"$TT" sha1-batch <batch >stats &&
	test "$(cut -d" " -f1 stats)" = 307 &&
	OPENSSL_ia32cap="$BASELINE" "$TT" sha1-batch <batch >stats2 &&
	test_cmp stats stats2
'

test_done
