#!/bin/sh
test_description='checkout-cache: blobs inflated whole, one write a file'
. "$(dirname "$0")/test-lib.sh"

# Blobs of up to 1 MiB, inflated whole, are written from there with
# one write(2) a run of pieces that are not all zeros, which stay
# holes; bigger ones are still read a piece at a time.  Every check of
# a piece-at-a-time read is made either way.

WO="python3 $TEST_DIRECTORY/write-object.py"

obj() {
	echo .dircache/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-)
}

# text KIB: KIB KiB of numbered lines (compressible, not zeros).
text() {
	seq 1 $(($1 * 200)) | head -c $(($1 << 10))
}

test_expect_success 'setup: 960 KiB, 832 KiB with zero pieces, 40 MiB' '
	init-db 2>/dev/null &&
	text 960 >big &&
	{ text 256 && head -c 196608 /dev/zero && text 256 &&
	  head -c 131072 /dev/zero; } >zeros &&
	{ text 8192 && head -c $((32 << 20)) /dev/zero; } >huge &&
	update-cache --add big zeros huge &&
	for f in big zeros huge; do
		git hash-object $f >$f.id || return 1
	done
'

test_expect_success 'checked out byte for byte, zero pieces as holes' '
	mkdir out && (cd out && GIT_INDEX_FILE=../.dircache/index \
		SHA1_FILE_DIRECTORY=../.dircache/objects checkout-cache -a) &&
	cmp big out/big && cmp zeros out/zeros && cmp huge out/huge &&
	truncate -s 2M sparse && echo x >>sparse &&
	if test $(du -k sparse | cut -f1) -lt 1024; then
		test $(du -k out/zeros | cut -f1) -le 600 &&
		test $(du -k out/huge | cut -f1) -lt 10000
	fi
'

# One write for the 960 KiB file, two around the holes of the other
# (the last piece, a hole, is a truncate): a piece at a time, it took
# 15 and 8.
test_expect_success STRACE 'one write a run of data' '
	rm -rf out && mkdir out && (cd out &&
		checkout_traced write,pwrite64,ftruncate big zeros) &&
	cmp big out/big && cmp zeros out/zeros &&
	grep -c "^[0-9]* *write(" trace >writes &&
	echo 3 | test_cmp - writes &&
	grep -c "ftruncate(" trace >truncates &&
	echo 1 | test_cmp - truncates
'

test_expect_success 'a big blob that does not hash to its id is refused' '
	id=$(cat big.id) &&
	cp $(obj $id) saved && chmod u+w $(obj $id) &&
	sed s/^12345$/12346/ big >other && ! cmp -s other big &&
	$WO --name $id blob <other >/dev/null &&
	rm -rf out && mkdir out && (cd out &&
		GIT_INDEX_FILE=../.dircache/index \
		SHA1_FILE_DIRECTORY=../.dircache/objects \
		test_must_fail checkout-cache big 2>../err) &&
	test_grep "hash mismatch $id" err &&
	! test -e out/big && ls -A out >left && test_cmp /dev/null left &&
	chmod u+w $(obj $id) && cp saved $(obj $id)
'

test_expect_success 'a byte after its zlib stream is refused, big or huge' '
	for f in big huge; do
		id=$(cat $f.id) &&
		cp $(obj $id) saved && chmod u+w $(obj $id) &&
		printf x >>$(obj $id) &&
		rm -rf out && mkdir out && (cd out &&
			GIT_INDEX_FILE=../.dircache/index \
			SHA1_FILE_DIRECTORY=../.dircache/objects \
			test_must_fail checkout-cache $f 2>../err) &&
		test_grep "garbage after the zlib stream" err &&
		! test -e out/$f &&
		chmod u+w $(obj $id) && cp saved $(obj $id) || return 1
	done
'

test_expect_success 'a cut stream is refused, whole or in pieces' '
	for f in big huge; do
		id=$(cat $f.id) &&
		cp $(obj $id) saved && chmod u+w $(obj $id) &&
		size=$(wc -c <saved) &&
		head -c $((size - 100)) saved >$(obj $id) &&
		rm -rf out && mkdir out && (cd out &&
			GIT_INDEX_FILE=../.dircache/index \
			SHA1_FILE_DIRECTORY=../.dircache/objects \
			test_must_fail checkout-cache $f 2>../err) &&
		! test -e out/$f &&
		chmod u+w $(obj $id) && cp saved $(obj $id) || return 1
	done
'

test_done
