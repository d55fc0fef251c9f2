#!/bin/sh
test_description='fsck-cache: clean and damaged stores, against git fsck'
. "$(dirname "$0")/test-lib.sh"

# Both fsck-cache and git fsck --strict must call the store damaged,
# and fsck-cache must say $1 (on stderr, or stdout for "missing").
both_complain() {
	test_must_fail fsck-cache --strict >out 2>err &&
	cat out err >both &&
	test_grep "$1" both &&
	test_must_fail env GIT_DIR=.dircache git fsck --strict >/dev/null 2>&1
}

test_expect_success 'setup: a clean store with a commit' '
	init-db 2>/dev/null &&
	mkdir d && echo one >d/one && echo two >two && ln -s two link &&
	update-cache --add d/one two link &&
	tree=$(GIT_DIR=.dircache git write-tree) &&
	commit=$(echo first | GIT_DIR=.dircache git commit-tree $tree) &&
	echo $commit >.dircache/refs/heads/master &&
	echo $tree >tree-id && echo $commit >commit-id &&
	cp -a .dircache clean
'

test_expect_success 'a clean store: no output, exit 0, git agrees' '
	fsck-cache --strict >out 2>err &&
	test_must_fail test -s out &&
	GIT_DIR=.dircache git fsck --strict
'

test_expect_success 'temporary files are not objects' '
	: >.dircache/objects/tmp_obj_abc123 &&
	mkdir -p .dircache/objects/ab && : >.dircache/objects/ab/tmp_obj_x &&
	fsck-cache >out 2>err &&
	test_must_fail test -s out
'

test_expect_success 'dangling and --unreachable' '
	blob=$(echo lonely | $WO blob) &&
	fsck-cache >out &&
	echo "dangling blob $blob" >expect && test_cmp expect out &&
	fsck-cache --unreachable >out &&
	echo "unreachable blob $blob" >expect && test_cmp expect out &&
	rm "$(obj_file $blob)"
'

test_expect_success 'given ids are the roots' '
	fsck-cache --unreachable $(cat tree-id) >out &&
	echo "unreachable commit $(cat commit-id)" >expect &&
	test_cmp expect out
'

test_expect_success 'a flipped byte is caught' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object two) && f=$(obj_file $id) &&
	chmod u+w $f &&
	python3 -c "
import sys; p = sys.argv[1]; b = bytearray(open(p, \"rb\").read())
b[len(b) // 2] ^= 0x40; open(p, \"wb\").write(b)" $f &&
	both_complain "$id"
'

test_expect_success 'a truncated object is caught' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object two) &&
	printf "two\n" | $WO --truncate 10 blob >/dev/null &&
	both_complain "object $id is corrupt: truncated"
'

test_expect_success 'garbage after the zlib stream is caught' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object two) &&
	printf "two\n" | $WO --append 00ff blob >/dev/null &&
	both_complain "object $id is corrupt: garbage after"
'

test_expect_success 'sizes that lie in either direction are caught' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object two) &&
	printf "two\n" | $WO --size 3 --name $id blob >/dev/null &&
	both_complain "object $id is corrupt: longer than its header" &&
	printf "two\n" | $WO --size 5 --name $id blob >/dev/null &&
	both_complain "object $id is corrupt: shorter than its header"
'

test_expect_success 'a size that overflows or is absurd is refused unallocated' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object two) &&
	for size in 18446744073709551616 99999999999999999999999 \
		    4294967296 1000000000000; do
		printf "two\n" | $WO --size $size --name $id blob >/dev/null &&
		test_expect_code 3 fsck-cache >out 2>err &&
		test_grep "object $id is corrupt" err &&
		test_grep "^missing blob $id$" out || return 1
	done
'

test_expect_success 'a zero-padded size, a bad type, no zlib, an empty file' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object two) &&
	printf "two\n" | $WO --header "blob 04" --name $id blob >/dev/null &&
	both_complain "object $id is corrupt: bad header" &&
	printf "two\n" | $WO --header "blub 4" --name $id blob >/dev/null &&
	both_complain "object $id is corrupt: bad header" &&
	printf "two\n" | $WO --raw --name $id blob >/dev/null &&
	both_complain "object $id is corrupt" &&
	: >"$(obj_file $id)" &&
	both_complain "object $id is corrupt: empty file"
'

test_expect_success 'an object under the wrong name is a hash mismatch' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object two) &&
	printf "not two\n" | $WO --name $id blob >/dev/null &&
	both_complain "^error: hash mismatch $id: its content hashes to "
'

# Blobs are checked as a stream: damage past the first 64 KiB piece.
test_expect_success 'a big blob changed or cut short late is caught' '
	rm -rf .dircache && cp -a clean .dircache &&
	awk "BEGIN { for (i = 0; i < 30000; i++) print \"row\", i }" >big &&
	id=$(GIT_DIR=.dircache git hash-object -w big) &&
	update-cache --add big && f=$(obj_file $id) &&
	rm -f "$f" && sed "\$s/row/ROW/" big | $WO --name $id blob >/dev/null &&
	both_complain "^error: hash mismatch $id: " &&
	rm -f "$f" && $WO blob <big >/dev/null &&
	n=$(( $(wc -c <"$f") / 2 )) && head -c $n "$f" >half &&
	rm -f "$f" && mv half "$f" &&
	both_complain "object $id is corrupt: truncated or damaged zlib stream"
'

test_expect_success 'a missing blob is reported with its type' '
	rm -rf .dircache && cp -a clean .dircache &&
	id=$(git hash-object d/one) && rm -f "$(obj_file $id)" &&
	both_complain "^missing blob $id$" &&
	GIT_DIR=.dircache git fsck --strict 2>/dev/null | grep "missing blob $id"
'

test_expect_success 'a missing tree is reported' '
	rm -rf .dircache && cp -a clean .dircache &&
	sub=$(GIT_DIR=.dircache git rev-parse $(cat tree-id):d) &&
	rm -f "$(obj_file $sub)" &&
	both_complain "^missing tree $sub$"
'

# A tree built from "mode name id" lines, named by its real hash.
mktree_raw() {
	$WO --tree-spec tree
}

test_expect_success 'trees: duplicate entries, also a blob and a tree' '
	rm -rf .dircache && cp -a clean .dircache &&
	b=$(git hash-object two) && t=$EMPTY_TREE &&
	printf "" | $WO tree >/dev/null &&
	bad=$(printf "100644 a $b\n100644 a $b\n" | mktree_raw) &&
	both_complain "error in tree $bad: duplicateEntries" &&
	rm "$(obj_file $bad)" &&
	bad=$(printf "100644 a $b\n100644 a.b $b\n40000 a $t\n" | mktree_raw) &&
	both_complain "error in tree $bad: duplicateEntries"
'

test_expect_success 'trees: unsorted, bad names, bad modes' '
	b=$(git hash-object two) &&
	for spec in "100644 b $b|100644 a $b:treeNotSorted" \
		    "100644 .. $b:hasDotdot" "100644 . $b:hasDot" \
		    "100644 .git $b:hasDotgit" "100644 .GiT $b:hasDotgit" \
		    "100644 .dircache $b:hasDotdircache" \
		    "100644 a/b $b:fullPathname" \
		    "100664 a $b:badFilemode" "100600 a $b:badFilemode" \
		    "0100644 a $b:zeroPaddedFilemode"; do
		rm -rf .dircache && cp -a clean .dircache &&
		lines=${spec%:*} && want=${spec##*:} &&
		bad=$(echo "$lines" | tr "|" "\n" | mktree_raw) &&
		fsck-cache --strict >out 2>err
		test_grep "in tree $bad: $want" err || return 1
	done
'

test_expect_success 'zero-padded modes are only a warning without --strict' '
	rm -rf .dircache && cp -a clean .dircache &&
	b=$(git hash-object two) &&
	bad=$(echo "0100644 a $b" | mktree_raw) &&
	fsck-cache >out 2>err &&
	test_grep "warning in tree $bad: zeroPaddedFilemode" err &&
	GIT_DIR=.dircache git fsck >/dev/null 2>&1
'

test_expect_success 'a tree entry pointing at the wrong type' '
	rm -rf .dircache && cp -a clean .dircache &&
	bad=$(echo "100644 a $(cat tree-id)" | mktree_raw) &&
	test_expect_code 1 fsck-cache >out 2>err &&
	test_grep "error in tree $bad: broken link to blob $(cat tree-id), which is a tree" err
'

test_expect_success 'commits: missing tree line, bad author, NUL in header' '
	t=$(cat tree-id) &&
	for spec in "garbage:missingTree" \
		    "tree $t|author A a@b 1 +0000|committer C <c@d> 1 +0000|:missingEmail" \
		    "tree $t|author A <a@b 1 +0000|committer C <c@d> 1 +0000|:badEmail" \
		    "tree $t|author A <a@b> x +0000|committer C <c@d> 1 +0000|:badDate" \
		    "tree $t|author A <a@b> 1 +00|committer C <c@d> 1 +0000|:badTimezone" \
		    "tree $t|author A <a@b> 01 +0000|committer C <c@d> 1 +0000|:zeroPaddedDate" \
		    "tree $t|committer C <c@d> 1 +0000|:missingAuthor" \
		    "tree $t|author A <a@b> 1 +0000|:missingCommitter"; do
		rm -rf .dircache && cp -a clean .dircache &&
		body=${spec%:*} && want=${spec##*:} &&
		bad=$(printf "%s\n\nmsg\n" "$body" | tr "|" "\n" | $WO commit) &&
		test_expect_code 1 fsck-cache --strict >out 2>err &&
		test_grep "error in commit $bad: $want" err &&
		test_must_fail env GIT_DIR=.dircache git fsck --strict >/dev/null 2>&1 ||
		return 1
	done
'

test_expect_success 'a NUL in a commit header' '
	rm -rf .dircache && cp -a clean .dircache &&
	bad=$(printf "tree $(cat tree-id)\nauthor A <a@b> 1 +0000\000x\ncommitter C <c@d> 1 +0000\n\nm\n" | $WO commit) &&
	both_complain "error in commit $bad: nulInHeader"
'

# One object of each kind of problem git fsck knows, made byte by byte.
hostile_objects() {
	b=$(git hash-object two) && t=$(cat tree-id) && c=$(cat commit-id) &&
	A="A U Thor <a@b.c> 1112911993 -0700" &&
	for spec in "040000 d $t" "100664 f $b" "100600 f $b" "0 f $b" \
		    "100644 .git $b" "100644 .git. $b" "100644 git~1 $b" \
		    "100644 .GIT $b" "100644 .git::\$INDEX_ALLOCATION $b" \
		    "100644 .git\\\\x $b" "100644 a/b $b" "100644 . $b" \
		    "100644 .. $b" "100644 b $b|100644 a $b" \
		    "100644 a $b|100644 a $b" \
		    "100644 n $ZERO_OID" "100644 short abcdef" \
		    "100644 n 0000000000000000000000000000000000000000"; do
		echo "$spec" | tr "|" "\n" | mktree_raw >/dev/null || return 1
	done &&
	for body in "tree $t|author A <a@b.c> 99999999999999999999999 +0000|committer $A" \
		    "tree $t|author A <a@b.c> 9223372036854775807 +0000|committer $A" \
		    "tree $t|author A <a@b.c> 9223372036854775808 +0000|committer $A" \
		    "tree $t|author A <a@b.c> 0123 +0000|committer $A" \
		    "tree $t|author A <a@b.c> 123 +00000|committer $A" \
		    "tree $t|author <a@b.c> 123 +0000|committer $A" \
		    "tree $t|author A<a@b.c> 123 +0000|committer $A" \
		    "tree $t|author A <a@b.c>123 +0000|committer $A" \
		    "tree $t|author A <a@b.c 123 +0000|committer $A" \
		    "tree $t|author A a@b.c 123 +0000|committer $A" \
		    "tree $t|author $A|author $A|committer $A" \
		    "tree $t|author $A" "tree $t|parent xyz|author $A|committer $A"; do
		printf "%s\n\nmsg\n" "$body" | tr "|" "\n" | $WO commit >/dev/null ||
		return 1
	done &&
	printf "tree $t\nauthor $A\ncommitter $A\n\nm\000sg\n" | $WO commit >/dev/null &&
	printf "tree $t\nauthor $A\ncommitter $A" | $WO commit >/dev/null &&
	for body in "object $c|type commit|tag v0.99|" \
		    "object $c|type commit|tag v1..x|tagger $A|" \
		    "object $c|type commit|tag v1|tagger A <a@b.c> x +0000|" \
		    "object $c|type blub|tag v1|tagger $A|"; do
		printf "%s\nmsg\n" "$body" | tr "|" "\n" | $WO tag >/dev/null ||
		return 1
	done
}

# The "error in" and "warning in" lines, sorted.
fsck_lines() {
	grep -E "^(error|warning) in " | sort
}

# git stops at a parent or type line it cannot parse ("object could not
# be parsed"); we name the line (badParentSha1, badType): not compared.
test_expect_success 'every message and its severity as git fsck, plain and --strict' '
	rm -rf .dircache && cp -a clean .dircache &&
	hostile_objects &&
	for opt in "" --strict; do
		fsck-cache $opt >/dev/null 2>err
		fsck_lines <err | grep -v "badParentSha1\|badType" >actual &&
		GIT_DIR=.dircache git fsck $opt 2>&1 >/dev/null | fsck_lines >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'old trees (100664, zero padding) are fine without --strict, as in git' '
	rm -rf .dircache && cp -a clean .dircache &&
	old=$(printf "100664 f $(git hash-object two)\n" | mktree_raw) &&
	c=$(echo old | GIT_DIR=.dircache git commit-tree $old) &&
	echo $c >.dircache/refs/heads/master &&
	fsck-cache >out 2>err &&
	test_must_fail test -s err &&
	GIT_DIR=.dircache git fsck &&
	fsck-cache --strict >out 2>err &&
	test_grep "^warning in tree $old: badFilemode" err
'

test_expect_success 'errors go to stderr: stdout keeps only the listing' '
	rm -rf .dircache && cp -a clean .dircache &&
	bad=$(printf "tree $(cat tree-id)\nauthor A <a@b.c> 99999999999999999999999 +0000\ncommitter A <a@b.c> 1 +0000\n\nm\n" | $WO commit) &&
	test_expect_code 1 fsck-cache >out 2>err &&
	echo "dangling commit $bad" >expect &&
	test_cmp expect out &&
	test_grep "^error in commit $bad: badDateOverflow: invalid author/committer line - date causes integer overflow$" err
'

test_expect_success 'refs: packed-refs and symbolic HEAD are roots; a deep refs/ tree is walked' '
	rm -rf .dircache && cp -a clean .dircache &&
	GIT_DIR=.dircache git pack-refs --all --prune &&
	test_must_fail test -e .dircache/refs/heads/master &&
	fsck-cache >out 2>err &&
	test_must_fail test -s out &&
	d=.dircache/refs/tags && i=0 &&
	while [ $i -lt 2000 ]; do d=$d/x; i=$((i + 1)); done &&
	mkdir -p $d &&
	blob=$(echo deep | $WO blob) && echo $blob >$d/t &&
	fsck-cache >out 2>err &&
	test_must_fail test -s out
'

test_expect_success 'the collision defence: different bytes under a name are refused' '
	rm -rf .dircache && cp -a clean .dircache &&
	echo victim >victim && id=$(git hash-object victim) &&
	echo impostor | $WO --name $id blob >/dev/null &&
	f=$(obj_file $id) && cp "$f" saved && cp .dircache/index index.before &&
	test_expect_code 128 update-cache --add victim 2>err &&
	test_grep "object $id exists with different content: a SHA-1 collision or a corrupt store" err &&
	cmp saved "$f" &&
	cmp index.before .dircache/index
'

test_expect_success 'the collision defence: a corrupt existing object is refused too' '
	rm -rf .dircache && cp -a clean .dircache &&
	echo victim2 >victim2 && id=$(git hash-object victim2) &&
	echo victim2 | $WO --truncate 8 blob >/dev/null &&
	test_expect_code 128 update-cache --add victim2 2>err &&
	test_grep "object $id exists but cannot be verified" err
'

test_expect_success 'the collision defence: a packed copy alone is compared, not doubled' '
	rm -rf .dircache && cp -a clean .dircache &&
	echo packed >packed && id=$(git hash-object packed) &&
	echo packed | $WO blob >/dev/null &&
	echo $id | GIT_DIR=.dircache git pack-objects -q \
		.dircache/objects/pack/pack >/dev/null &&
	rm "$(obj_file $id)" &&
	update-cache --add packed &&
	test_must_fail test -e "$(obj_file $id)"
'

# A big object is compared in pieces: a difference far into the last
# piece, a stored copy one byte longer, a copy of another type, and a
# whole copy with bytes after its zlib stream must all be caught.
# Files up to 1 MiB are compared from memory; bigger ones are hashed
# first, then read again and compared with the stored copy in pieces.
for lines in 40000 150000
do
test_expect_success "the collision defence compares every byte ($lines lines)" '
	rm -rf .dircache && cp -a clean .dircache &&
	awk "BEGIN { for (i = 0; i < $lines; i++) print \"line\", i }" >big &&
	id=$(git hash-object big) && f=$(obj_file $id) &&
	sed "\$s/line/LINE/" big | $WO --name $id blob >/dev/null &&
	cp "$f" saved &&
	test_expect_code 128 update-cache --add big 2>err &&
	test_grep "object $id exists with different content" err &&
	cmp saved "$f" &&
	{ cat big && echo; } | $WO --name $id --size $(wc -c <big) blob \
		>/dev/null &&
	test_expect_code 128 update-cache --add big 2>err &&
	test_grep "object $id exists" err &&
	$WO --name $id tree <big >/dev/null &&
	test_expect_code 128 update-cache --add big 2>err &&
	test_grep "object $id exists with different content" err &&
	$WO --name $id --append 00ff blob <big >/dev/null &&
	test_expect_code 128 update-cache --add big 2>err &&
	test_grep "object $id exists but cannot be verified (garbage after the zlib stream)" err &&
	$WO blob <big >/dev/null &&
	update-cache --add big &&
	cat-file blob $id | cmp - big &&
	! find .dircache/objects -name "tmp_obj_*" | grep .
'
done

test_expect_success 'only names of 2 + 38 lower-case hex digits are objects' '
	mkdir names && (cd names &&
	init-db 2>/dev/null &&
	id=$(echo named | GIT_DIR=.dircache git hash-object -w --stdin) &&
	d=.dircache/objects/$(echo $id | cut -c1-2) &&
	rest=$(echo $id | cut -c3-) &&
	upper=$(echo $rest | tr a-f A-F) &&
	test "$upper" != "$rest" &&
	cp $d/$rest $d/$upper &&
	cp $d/$rest $d/${rest}0 &&
	cp $d/$rest $d/$(echo $rest | cut -c2-) &&
	fsck-cache 2>err &&
	test $(grep -c "garbage in the store" err) = 3 &&
	test_grep "garbage in the store: $d/$upper" err &&
	test_grep "garbage in the store: $d/${rest}0" err &&
	! grep "store: $d/$rest\$" err)
'

test_done
