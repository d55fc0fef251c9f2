#!/bin/sh
test_description='the index: git format v2/v3, verified on read'
. "$(dirname "$0")/test-lib.sh"

# The store's hash (hashlib's name for it), an id's bytes, and where in
# an entry its name starts (after stat data, id and flags); the first
# entry below ("a") takes NAME_OFF + 2 bytes padded to 8.
HASH=$test_hash_algo
RAWSZ=$((OID_HEXSZ / 2))
NAME_OFF=$((42 + RAWSZ))
ENTRY1=$(((NAME_OFF + 9) / 8 * 8))
export HASH RAWSZ

# patch_index OFFSET HEXBYTES [nofix]: overwrite bytes of the index,
# then recompute the trailing checksum unless "nofix" is given.
patch_index() {
	python3 - "$1" "$2" "${3:-fix}" <<'PY'
import hashlib, os, sys
off, data, fix = int(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3]
n = int(os.environ['RAWSZ'])
p = '.dircache/index'
b = bytearray(open(p, 'rb').read())
b[off:off + len(data)] = data
if fix == 'fix':
    b[-n:] = hashlib.new(os.environ['HASH'], b[:-n]).digest()
open(p, 'wb').write(bytes(b))
PY
}

# rewrite_index PYTHON-EXPR: b is the body without the checksum.
rewrite_index() {
	python3 - "$1" <<'PY'
import hashlib, os, sys
n = int(os.environ['RAWSZ'])
p = '.dircache/index'
b = bytearray(open(p, 'rb').read())[:-n]
exec(sys.argv[1])
open(p, 'wb').write(bytes(b) + hashlib.new(os.environ['HASH'], bytes(b)).digest())
PY
}

# The index is refused: message on stderr, exit 128, file untouched.
index_refused() {
	cp .dircache/index bad &&
	test_expect_code 128 update-cache --refresh 2>err &&
	test_grep "$1" err &&
	cmp bad .dircache/index &&
	! test -f .dircache/index.lock
}

test_expect_success 'setup' '
	init-db 2>/dev/null &&
	echo a >a && echo b >b && mkdir d && echo c >d/c &&
	update-cache --add a b d/c &&
	cp .dircache/index good
'

test_expect_success 'header is DIRC, version 2, entry count' '
	printf "DIRC\000\000\000\002\000\000\000\003" >expect &&
	head -c 12 .dircache/index >actual &&
	cmp expect actual
'

test_expect_success 'the trailer is the hash of the rest' '
	size=$(wc -c <.dircache/index) &&
	head -c $((size - RAWSZ)) .dircache/index | $HASH""sum >sum &&
	tail -c $RAWSZ .dircache/index | od -An -tx1 -v | tr -d " \n" >tail &&
	test "$(cut -d" " -f1 sum)" = "$(cat tail)"
'

test_expect_success 'git ls-files -s reads it' '
	GIT_DIR=.dircache git ls-files -s >actual &&
	cat >expect <<-EOF &&
	100644 $(GIT_DIR=.dircache git hash-object a) 0	a
	100644 $(GIT_DIR=.dircache git hash-object b) 0	b
	100644 $(GIT_DIR=.dircache git hash-object d/c) 0	d/c
	EOF
	test_cmp expect actual
'

test_expect_success 'a bad signature is refused' '
	patch_index 0 44495244 &&
	index_refused "index .*corrupt: bad signature"
'

test_expect_success 'version 5, and v2 entries under a v4 header, are refused' '
	cp good .dircache/index &&
	patch_index 4 00000005 &&
	index_refused "has version 5; only 2, 3 and 4" &&
	cp good .dircache/index &&
	patch_index 4 00000004 &&
	index_refused "is corrupt: entry 0 is truncated or malformed"
'

test_expect_success 'a count too large for the file is refused' '
	cp good .dircache/index &&
	patch_index 8 7fffffff &&
	index_refused "entries cannot fit"
'

test_expect_success 'a count too small leaves bytes that are no extension' '
	cp good .dircache/index &&
	patch_index 8 00000002 &&
	index_refused "corrupt"
'

test_expect_success 'a bad checksum is refused' '
	cp good .dircache/index &&
	patch_index 20 ff nofix &&
	index_refused "bad checksum"
'

# Past 256 KiB the checksum is computed on a second thread while the
# entries are parsed: a byte wrong in the first entry or in the checksum must count.
test_expect_success 'a big index: a bad checksum is refused, a good one read' '
	cp good .dircache/index &&
	mkdir -p many && for i in $(seq 1 4000); do echo $i >many/file-$i; done &&
	update-cache --add many/* &&
	test $(wc -c <.dircache/index) -gt 262144 &&
	cp .dircache/index big-good &&
	show-diff -s many >out && ! test -s out &&
	patch_index 52 ff nofix &&
	index_refused "bad checksum" &&
	cp big-good .dircache/index &&
	size=$(wc -c <.dircache/index) &&
	patch_index $((size - 1)) $(tail -c 1 big-good | od -An -tx1 |
		tr -d " " | tr 0-9a-f 1-9a-f0) nofix &&
	index_refused "bad checksum" &&
	cp big-good .dircache/index && show-diff -s many >out &&
	! test -s out
'

# show-diff lstats the paths while a big index's checksum is computed:
# it must still refuse a bad one, before it prints anything, and find
# a changed file in a good one.
test_expect_success 'show-diff: a big index with a bad checksum is refused' '
	cp big-good .dircache/index &&
	echo changed >many/file-7 &&
	patch_index 52 ff nofix &&
	test_expect_code 128 show-diff -s >out 2>err &&
	test_grep "bad checksum" err &&
	! test -s out &&
	cp big-good .dircache/index &&
	size=$(wc -c <.dircache/index) &&
	patch_index $((size - 1)) $(tail -c 1 big-good | od -An -tx1 |
		tr -d " " | tr 0-9a-f 1-9a-f0) nofix &&
	test_expect_code 128 show-diff -q 2>err &&
	test_grep "bad checksum" err &&
	cp big-good .dircache/index &&
	show-diff -s >out &&
	echo "M	many/file-7" >expect &&
	test_cmp expect out &&
	echo 7 >many/file-7
'

test_expect_success 'a truncated index is refused' '
	cp good .dircache/index &&
	head -c 50 good >.dircache/index &&
	index_refused "corrupt"
'

test_expect_success 'an unterminated name is refused' '
	cp good .dircache/index &&
	rewrite_index "b[12+$NAME_OFF:12+$NAME_OFF+2] = b\"zz\"" &&
	index_refused "corrupt"
'

test_expect_success 'unsorted entries are refused' '
	cp good .dircache/index &&
	rewrite_index "b[12+$NAME_OFF] = ord(\"c\")" &&
	index_refused "unsorted or duplicated"
'

test_expect_success 'duplicate entries are refused' '
	cp good .dircache/index &&
	rewrite_index "b[12+$ENTRY1+$NAME_OFF] = ord(\"a\")" &&
	index_refused "unsorted or duplicated at .a."
'

test_expect_success 'paths that break the rules are refused' '
	for name in "../x" "/abs" ".git/x" ".DIRCACHE" "a//b" "x/./y"; do
		rm -f .dircache/index &&
		python3 "$TEST_DIRECTORY/make-index.py" -o .dircache/index <<-EOF &&
		100644 $(test_oid empty_blob) 0 $name
		EOF
		index_refused "invalid path" || return 1
	done
'

# The load checks only what a path does not share with the entry before
# it: each bad component here follows a good entry with the same start.
test_expect_success 'a bad path after a good one with the same start is refused' '
	for pair in "a/b a/b/.git/x" "d/x d/x/git~1" "d/x/y d/x/y/.." \
		    "d/g d/gIt~1" "d/.d d/.diRCache." "e/.g e/.Git::x" \
		    "f/x f/x//y" "h/a h/a/." "dircac~1x dircac~1x/dircac~1"; do
		set -- $pair &&
		rm -f .dircache/index &&
		python3 "$TEST_DIRECTORY/make-index.py" -o .dircache/index <<-EOF &&
		100644 $(test_oid empty_blob) 0 $1
		100644 $(test_oid empty_blob) 0 $2
		EOF
		index_refused "invalid path" || return 1
	done
'

test_expect_success 'a sparse file that claims gigabytes is refused quickly' '
	cp good .dircache/index &&
	truncate -s 3G .dircache/index &&
	test_expect_code 128 update-cache --refresh 2>err &&
	test_grep "corrupt" err &&
	rm -f .dircache/index
'

test_expect_success 'the cache tree (TREE) is kept through a refresh' '
	rm -rf g && mkdir g && cd g && git init -q &&
	echo x >x && mkdir s && echo y >s/y && git add . &&
	git write-tree >/dev/null &&
	grep -q TREE .git/index &&
	GIT_DIR=.git update-cache --refresh &&
	grep -q TREE .git/index &&
	git ls-files >actual && printf "s/y\nx\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a required (lowercase) extension is refused' '
	cp good .dircache/index &&
	rewrite_index "b += b\"qrst\" + (4).to_bytes(4, \"big\") + b\"abcd\"" &&
	index_refused "extension .qrst."
'

test_expect_success 'a bad cache tree is dropped, as git drops it' '
	cp good .dircache/index &&
	rewrite_index "b += b\"TREE\" + (5).to_bytes(4, \"big\") + b\"\\0-1 9\"" &&
	update-cache --refresh &&
	! grep -q TREE .dircache/index && cmp good .dircache/index
'

test_expect_success 'a cache tree whose id is the other hash'"'"'s is dropped' '
	cp good .dircache/index &&
	other=$((52 - RAWSZ)) &&
	rewrite_index "b += b\"TREE\" + (5 + $other).to_bytes(4, \"big\") + b\"\\x003 0\\n\" + b\"\\x11\" * $other" &&
	update-cache --refresh &&
	! grep -q TREE .dircache/index && cmp good .dircache/index &&
	rewrite_index "b += b\"TREE\" + (5 + $RAWSZ).to_bytes(4, \"big\") + b\"\\x003 0\\n\" + b\"\\x11\" * $RAWSZ" &&
	update-cache --refresh && grep -q TREE .dircache/index
'

test_expect_success 'a directory entry that is no sparse directory is refused' '
	cp good .dircache/index &&
	rewrite_index "b[12 + 24:12 + 28] = (0o40000).to_bytes(4, \"big\")" &&
	index_refused "bad directory entry .a."
'

test_expect_success 'a split index: bitmaps checked, the shared index named' '
	sha=$(tail -c $RAWSZ good | od -A n -t x1 | tr -d " \n") &&
	cp good .dircache/sharedindex.$sha &&
	cp good .dircache/index &&
	rewrite_index "b += b\"link\" + ($RAWSZ).to_bytes(4, \"big\") + bytes.fromhex(\"$sha\")" &&
	ls-files -s >expect &&
	update-cache --refresh && grep -q link .dircache/index &&
	ls-files -s >actual && test_cmp expect actual &&
	cp good .dircache/index &&
	rewrite_index "b += b\"link\" + ($RAWSZ + 8).to_bytes(4, \"big\") + bytes.fromhex(\"$sha\") + b\"\\xff\" * 8" &&
	index_refused "bad bitmap in its link extension" &&
	cp good .dircache/index &&
	rewrite_index "b += b\"link\" + ($RAWSZ).to_bytes(4, \"big\") + b\"\\1\" * $RAWSZ" &&
	index_refused "shared index .* is missing" &&
	rm .dircache/sharedindex.$sha && cp good .dircache/index
'

test_expect_success 'index v3 (intent-to-add) is read and kept' '
	rm -rf g3 && mkdir g3 && cd g3 && git init -q &&
	echo x >x && echo y >y && git add x && git add -N y &&
	test "$(head -c 8 .git/index | tail -c 1 | od -An -tu1 | tr -d " ")" = 3 &&
	echo z >z && GIT_DIR=.git update-cache --add z &&
	git ls-files --debug y | grep -q "flags: 20004000" &&
	git ls-files >actual && printf "x\ny\nz\n" >expect &&
	test_cmp expect actual
'

# 8-byte names: 80 bytes in memory for 64 on disk, the most there is.
test_expect_success 'entries that take the most memory over their size on disk' '
	rm -rf g8 && mkdir g8 && cd g8 && git init -q &&
	for i in $(seq 1000 1599)
	do
		echo $i >f000$i || return 1
	done &&
	git add . && ! grep -q TREE .git/index &&
	GIT_DIR=.git ls-files >actual && git ls-files >expect &&
	test_cmp expect actual && test $(wc -l <actual) = 600
'

# Both hashes whatever the switch says: git writes the index (v2, v3
# with an intent-to-add entry, v4, TREE), ours rewrites it, and the
# bytes must not change; ours writes one from nothing the same.  A
# split index (whose split file git fills with racily clean entries
# too) is read back to the same entries.
test_expect_success 'sha1 and sha256 indexes are git'"'"'s, byte for byte' '
	for algo in sha1 sha256; do
		rm -rf h-$algo && git init -q --object-format=$algo h-$algo &&
		(
			cd h-$algo && export GIT_DIR=.git &&
			echo a >a && mkdir d && echo c >d/c && ln -s a l &&
			echo n >n && git update-index --add a d/c l &&
			cp .git/index ../git-$algo && rm .git/index &&
			update-cache --add a d/c l && cmp ../git-$algo .git/index &&
			git add -N n && cp .git/index v3 &&
			update-cache a && cmp v3 .git/index &&
			git update-index --force-remove n &&
			git write-tree >/dev/null && grep -q TREE .git/index &&
			cp .git/index tree && update-cache --refresh &&
			cmp tree .git/index &&
			git update-index --index-version 4 && cp .git/index v4 &&
			update-cache --refresh && cmp v4 .git/index &&
			git update-index --index-version 2 &&
			git update-index --split-index && grep -q link .git/index &&
			update-cache --refresh && ls-files -s >ours &&
			git ls-files -s >theirs && test_cmp theirs ours
		) || return 1
	done &&
	test $(wc -c <git-sha256) -eq $((12 + 3 * 80 + 32)) &&
	test $(wc -c <git-sha1) -eq $((12 + 64 + 72 + 64 + 20))
'

test_expect_success 'an index of the other hash is refused, and named' '
	rm -f h-sha*/.git/sharedindex.* &&
	cp git-sha1 h-sha256/.git/index &&
	(cd h-sha256 && test_expect_code 128 ls-files 2>../err) &&
	grep "^ls-files: index .* has sha1 ids, but the repository uses sha256" \
		err >line &&
	test $(wc -l <line) = 1 && test $(wc -l <err) = 2 &&
	cp git-sha256 h-sha1/.git/index &&
	(cd h-sha1 && test_expect_code 128 ls-files 2>../err) &&
	grep "^ls-files: index .* has sha256 ids, but the repository uses sha1" \
		err >line &&
	test $(wc -l <line) = 1 && test $(wc -l <err) = 2 &&
	head -c 44 git-sha256 >h-sha1/.git/index &&
	(cd h-sha1 && test_expect_code 128 ls-files 2>../err) &&
	test_grep "corrupt" err
'

test_expect_success 'a big index of the other hash: one line, show-diff too' '
	for algo in sha1 sha256; do
		rm -rf b-$algo && git init -q --object-format=$algo b-$algo &&
		(
			cd b-$algo && mkdir many &&
			for i in $(seq 1 4000); do echo $i >many/f-$i; done &&
			git add many
		) || return 1
	done &&
	test $(wc -c <b-sha1/.git/index) -gt 262144 &&
	mv b-sha1/.git/index swap && mv b-sha256/.git/index b-sha1/.git/ &&
	mv swap b-sha256/.git/index &&
	for pair in sha1:sha256 sha256:sha1; do
		repo=${pair%%:*} other=${pair#*:} &&
		for tool in ls-files show-diff; do
			(
				cd b-$repo && export GIT_DIR=.git &&
				test_expect_code 128 $tool 2>../err
			) &&
			grep "^$tool: .* has $other ids, but the repository uses $repo\$" \
				err >line &&
			test $(wc -l <line) = 1 && test $(wc -l <err) = 2 ||
			return 1
		done
	done
'

test_done
