#!/bin/sh
test_description='hostile input: every tool refuses it, nothing changes'
. "$(dirname "$0")/test-lib.sh"

# Snapshot of everything outside .dircache/objects plus the index, to
# show that a refusal changed nothing.  Scratch output goes to .s/.
snapshot() {
	{ find . -path ./.dircache/objects -prune -o -path ./.s -prune -o \
		-print | sort &&
	  cat .dircache/index; } | git hash-object --stdin
}

# A chain of $1 trees, each holding the next as "$2", the last holding
# the good tree; prints the top one.
tree_chain() {
	python3 - "$1" "$2" "$(cat good-tree)" $test_hash_algo <<-\PY
	import hashlib, os, sys, zlib
	depth, name, sub = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3]
	algo = sys.argv[4]
	for _ in range(depth):
	    data = b"40000 " + name + b"\0" + bytes.fromhex(sub)
	    raw = b"tree %d\0" % len(data) + data
	    sub = hashlib.new(algo, raw).hexdigest()
	    d = os.path.join(".dircache/objects", sub[:2])
	    os.makedirs(d, exist_ok=True)
	    with open(os.path.join(d, sub[2:]), "wb") as f:
	        f.write(zlib.compress(raw, 1))
	print(sub)
	PY
}

test_expect_success 'setup: a good tree with a commit, checked out' '
	init-db 2>/dev/null &&
	mkdir d && echo one >d/one && echo two >two &&
	update-cache --add d/one two &&
	good=$(write-tree) && echo $good >good-tree &&
	echo "first" | commit-tree $good >good-commit &&
	blob=$(git hash-object two) && echo $blob >blob-id &&
	cp -a .dircache/objects clean-objects &&
	mkdir .s
'

# hostile_trees: "label|tree-spec lines separated by ;" pairs.
hostile_trees() {
	b=$(cat blob-id) t=$(cat good-tree)
	cat <<-EOF
	dotdot|100644 .. $b
	dot|100644 . $b
	empty name|100644  $b
	slash|100644 a/b $b
	dotgit|100644 .Git $b
	dotdircache|40000 .DIRCACHE $t
	unsorted|100644 b $b;100644 a $b
	duplicate|100644 a $b;100644 a $b
	blob and tree twins|100644 a $b;100644 a.b $b;40000 a $t
	ntfs dotgit|100644 .git. $b
	ntfs short name|40000 GIT~1 $t
	ntfs stream|100644 .git::\$INDEX_ALLOCATION $b
	ntfs backslash|100644 .git\\\\config $b
	hfs dotgit|100644 .g\\0342\\0200\\0214it $b
	ntfs dotdircache|40000 .dircache.. $t
	short dotdircache|40000 dircac~1 $t
	EOF
}

test_expect_success 'hostile trees are refused by every tool that reads trees' '
	hostile_trees >.s/cases &&
	while IFS="|" read -r label spec; do
		echo "== $label" &&
		rm -rf .dircache/objects && cp -a clean-objects .dircache/objects &&
		bad=$(echo "$spec" | tr ";" "\n" | $WO --tree-spec tree) &&
		before=$(snapshot) &&
		test_expect_code 128 read-tree $bad 2>.s/err &&
		test_grep "read-tree: .*$bad" .s/err &&
		test_expect_code 128 diff-tree -r $(cat good-tree) $bad 2>.s/err &&
		test_grep "$bad" .s/err &&
		test_expect_code 128 cat-file -p $bad >.s/out 2>.s/err &&
		test_grep "$bad" .s/err &&
		test_expect_code 128 commit-tree $bad </dev/null >.s/out 2>.s/err &&
		test_must_fail test -s .s/out &&
		test_must_fail fsck-cache --strict >.s/out 2>&1 &&
		test_grep "error in tree $bad" .s/out &&
		test "$before" = "$(snapshot)" || return 1
	done <.s/cases
'

test_expect_success 'a commit whose tree line is garbage is refused' '
	bad=$(printf "tree nothex\nauthor A <a@b> 1 +0000\ncommitter A <a@b> 1 +0000\n\nm\n" |
		$WO commit) &&
	before=$(snapshot) &&
	test_expect_code 128 read-tree $bad 2>.s/err &&
	test_expect_code 128 diff-tree $bad $(cat good-tree) 2>.s/err &&
	test "$before" = "$(snapshot)"
'

test_expect_success 'an entry pointing at the wrong type cannot be checked out' '
	rm -rf .dircache/objects && cp -a clean-objects .dircache/objects &&
	bad=$(echo "100644 f $(cat good-tree)" | $WO --tree-spec tree) &&
	rm -rf co && mkdir co && cd co && init-db 2>/dev/null &&
	SHA1_FILE_DIRECTORY=../.dircache/objects read-tree $bad &&
	test_must_fail env SHA1_FILE_DIRECTORY=../.dircache/objects \
		checkout-cache -a 2>../.s/err &&
	test_grep "is a tree, not a blob" ../.s/err &&
	! test -e f
'

test_expect_success 'a very deep tree is refused without a crash' '
	rm -rf .dircache/objects && cp -a clean-objects .dircache/objects &&
	t=$(tree_chain 2100 d) &&
	before=$(snapshot) &&
	test_expect_code 128 read-tree $t 2>.s/err &&
	test_grep "longer than 4095 bytes" .s/err &&
	test "$before" = "$(snapshot)" &&
	fsck-cache --unreachable >.s/out 2>&1 &&
	! grep -v "^unreachable\|^notice: " .s/out
'

test_expect_success 'very long names are refused at read-tree' '
	t=$(tree_chain 20 $(printf "%0250d" 0 | tr 0 x)) &&
	before=$(snapshot) &&
	test_expect_code 128 read-tree $t 2>.s/err &&
	test "$before" = "$(snapshot)"
'

# Damage the blob "two" in a way: each refusal names its id.
damage_blob() {
	rm -rf .dircache/objects && cp -a clean-objects .dircache/objects &&
	b=$(cat blob-id) &&
	case "$1" in
	truncated) printf "two\n" | $WO --truncate 12 blob ;;
	garbage) printf "two\n" | $WO --append 0102 blob ;;
	short) printf "two\n" | $WO --size 9 --name $b blob ;;
	long) printf "two\n" | $WO --size 2 --name $b blob ;;
	overflow64) printf "two\n" | $WO --size 18446744073709551617 --name $b blob ;;
	overflow32) printf "two\n" | $WO --size 4294967300 --name $b blob ;;
	empty) : >"$(obj_file $b)" ;;
	notzlib) printf "two\n" | $WO --raw --name $b blob ;;
	wrong) printf "owt\n" | $WO --name $b blob ;;
	esac >/dev/null
}

test_expect_success 'damaged objects are refused by every reader, naming the id' '
	for how in truncated garbage short long overflow64 overflow32 empty \
		   notzlib wrong; do
		echo "== $how" &&
		damage_blob $how && b=$(cat blob-id) &&
		test_expect_code 128 cat-file -p $b >.s/out 2>.s/err &&
		test_grep "$b" .s/err && test_must_fail test -s .s/out &&
		rm -rf co && mkdir co &&
		test_must_fail env GIT_INDEX_FILE=$PWD/.dircache/index \
			checkout-cache --prefix=co/ two 2>.s/err &&
		test_grep "$b" .s/err && ! test -e co/two &&
		echo changed >two &&
		test_expect_code 128 show-diff >.s/out 2>.s/err &&
		test_grep "$b" .s/err &&
		echo two >two &&
		test_expect_code 128 diff-tree -p $EMPTY_TREE $(cat good-tree) >.s/out 2>.s/err &&
		test_grep "$b" .s/err &&
		test_expect_code 3 fsck-cache >.s/out 2>&1 &&
		test_grep "$b" .s/out || return 1
	done
'

test_expect_success 'a hostile index is refused by every tool that reads it' '
	rm -rf .dircache/objects && cp -a clean-objects .dircache/objects &&
	cp .dircache/index .s/good-index &&
	for how in signature version count checksum path; do
		echo "== $how" &&
		case $how in
		signature) python3 "$TEST_DIRECTORY/make-index.py" --signature DIRD \
			.dircache/index </dev/null ;;
		version) python3 "$TEST_DIRECTORY/make-index.py" --version 9 \
			.dircache/index </dev/null ;;
		count) echo "100644 $(cat blob-id) 0 two" |
			python3 "$TEST_DIRECTORY/make-index.py" --count 1000 .dircache/index ;;
		checksum) echo "100644 $(cat blob-id) 0 two" |
			python3 "$TEST_DIRECTORY/make-index.py" --bad-checksum .dircache/index ;;
		path) echo "100644 $(cat blob-id) 0 d/../../x" |
			python3 "$TEST_DIRECTORY/make-index.py" .dircache/index ;;
		esac &&
		cp .dircache/index .s/bad-index &&
		for cmd in "show-diff" "checkout-cache -a -f" "write-tree" \
			   "update-cache two" "read-tree -m $(cat good-tree)" \
			   "update-cache --refresh"; do
			test_expect_code 128 $cmd >.s/out 2>.s/err &&
			test_grep "index" .s/err &&
			cmp .s/bad-index .dircache/index || return 1
		done || return 1
	done &&
	! test -e ../x && cp .s/good-index .dircache/index
'

test_done
