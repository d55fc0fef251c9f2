#!/bin/sh
test_description='the index: a directory entry needs the sdir extension

A sparse index holds directory entries ("a/", mode 040000), which git
announces with the "sdir" extension.  Without it, reading the index
must fail, whether or not the entries are looked at again after the
parse (a clean index skips that pass when the parse met no directory
entry).'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR
HASH=$test_hash_algo
RAWSZ=$((OID_HEXSZ / 2))
export HASH RAWSZ

# rename_ext FROM TO: rename an extension of .git/index, checksum fixed.
rename_ext() {
	python3 - "$1" "$2" <<'PY'
import hashlib, os, sys
n = int(os.environ['RAWSZ'])
b = bytearray(open('.git/index', 'rb').read())[:-n]
frm, to = sys.argv[1].encode(), sys.argv[2].encode()
at = b.rfind(frm)
assert at > 0 and b.count(frm) == 1
b[at:at + 4] = to
open('.git/index', 'wb').write(bytes(b) + hashlib.new(os.environ['HASH'], bytes(b)).digest())
PY
}

test_expect_success 'setup: a sparse index (cone c)' '
	sparse_repo s && cd s &&
	cp .git/index ../sparse &&
	ls-files --sparse -s >actual &&
	test_grep "^040000 .*	a/$" actual &&
	show-diff -s >out && ! test -s out
'

test_expect_success 'without sdir, the directory entry is refused' '
	cd s &&
	cp ../sparse .git/index &&
	rename_ext sdir Sdir &&
	test_expect_code 128 ls-files -s >out 2>err &&
	test_grep "directory entry .a/. without the sdir extension" err &&
	test_expect_code 128 show-diff -s >out 2>err &&
	test_grep "without the sdir extension" err &&
	! test -s out &&
	test_expect_code 128 update-cache --refresh 2>err &&
	test_grep "without the sdir extension" err &&
	cp ../sparse .git/index
'

test_expect_success 'an index without directory entries needs no sdir' '
	cd s &&
	git sparse-checkout disable &&
	git ls-files --sparse -s >out && ! test_grep "^040000" out &&
	cp .git/index full &&
	ls-files -s >actual && git ls-files -s >expect &&
	test_cmp expect actual
'

test_done
