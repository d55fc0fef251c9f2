#!/bin/sh
test_description='pull: every way a loose object'"'"'s zlib stream can be damaged is refused'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# verify-objects is the gate of a pull: it must refuse every fault of a
# zlib stream that the readers refuse, the adler32 too (the store must
# pass fsck-cache), each with nothing changed here.  The blob is a few
# KB, the tree and commit tiny.

# rewrite FILE PYTHON-EXPR: the file's bytes b become EXPR (zlib in scope).
rewrite() {
	chmod u+w "$1" &&
	python3 -c "import sys, zlib
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
raw = zlib.decompress(bytes(b))
b = $2
open(p, 'wb').write(bytes(b))" "$1"
}

# The loose objects come by rsync, as they are (the remote's
# dircache-upload would not pack a damaged object).
pull_refused() {
	state=$(repo_state b) &&
	(cd b && DIRCACHE_UPLOAD=none \
		test_expect_code 128 dircache fetch "../$1" 2>../err) &&
	test_grep "$2" err &&
	test "$state" = "$(repo_state b)"
}

test_expect_success 'setup: an origin, a clone, and a next commit' '
	mkdir a && (cd a && dircache init 2>/dev/null) &&
	echo one >a/file &&
	(cd a && dircache add . && dircache commit -m first >/dev/null) &&
	dircache clone a b 2>/dev/null &&
	seq 1 3000 >a/file &&
	(cd a && dircache commit -a -m second >/dev/null) &&
	git_in a rev-parse HEAD:file >blob &&
	git_in a rev-parse HEAD^{tree} >tree
'

# damage NAME OBJECT EXPR MESSAGE: a copy of a whose OBJECT is rewritten.
damage() {
	rm -rf "$1" && cp -a a "$1" &&
	rewrite "$1/$(obj_file $2)" "$3" &&
	pull_refused "$1" "bad object $2: $4"
}

test_expect_success 'a wrong adler32 is refused (fsck-cache would be)' '
	damage h1 $(cat blob) "b[:-1] + bytes([b[-1] ^ 1])" "truncated or damaged zlib stream"
'

test_expect_success 'a stream without its last bytes is refused' '
	damage h2 $(cat blob) "b[:-2]" "truncated or damaged zlib stream"
'

test_expect_success 'bytes after the stream are refused' '
	damage h3 $(cat blob) "b + b\"x\"" "garbage after the zlib stream"
'

test_expect_success 'content longer than the header says is refused' '
	damage h4 $(cat blob) "zlib.compress(raw + b\"x\", 1)" \
		"longer than its header says"
'

test_expect_success 'content shorter than the header says is refused' '
	damage h5 $(cat blob) "zlib.compress(raw[:-1], 1)" \
		"shorter than its header says"
'

test_expect_success 'a damaged tree is refused' '
	damage h6 $(cat tree) "b[:-1] + bytes([b[-1] ^ 1])" "truncated or damaged zlib stream"
'

test_expect_success 'the good objects pass, and fsck-cache and git agree' '
	(cd b && dircache fetch ../a >/dev/null 2>&1 && fsck-cache) &&
	git_in b fsck --strict 2>err &&
	test ! -s err
'

test_done
