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

# The same content in a sha256 store of ours and one of git's: every
# loose object (blobs, trees, a commit, a tag) byte for byte once
# inflated, the blobs' files byte for byte (our deflate of trees and
# commits differs from zlib's, on SHA-1 stores too), and what the
# readers print of them.
test_expect_success 'a sha256 store: loose objects byte for byte as git'"'"'s' '
	git init -q --object-format=sha256 theirs &&
	mkdir ours && (cd ours && init-db --object-format=sha256 2>/dev/null) &&
	for r in ours theirs; do
		(cd $r && mkdir -p d/e && echo one >a && echo two >d/b &&
		 printf "x\000y" >d/e/bin && echo run >x.sh && chmod +x x.sh &&
		 ln -s a link) || return 1
	done &&
	(cd theirs && git add . &&
	 git write-tree >../tree-theirs &&
	 echo msg | git commit-tree $(cat ../tree-theirs) >../commit-theirs &&
	 printf "object %s\ntype commit\ntag v1\ntagger T <t@e.x> 0 +0000\n\nt\n" \
		$(cat ../commit-theirs) >../tag-text &&
	 git mktag <../tag-text >../tag-theirs) &&
	(cd ours && update-cache --add a d/b d/e/bin x.sh link &&
	 write-tree >../tree-ours &&
	 echo msg | commit-tree $(cat ../tree-ours) >../commit-ours &&
	 mktag <../tag-text >../tag-ours) &&
	for k in tree commit tag; do
		test_cmp $k-theirs $k-ours &&
		test $(wc -c <$k-ours) = 65 || return 1
	done &&
	git -C theirs cat-file --batch-all-objects --batch-check="%(objectname)" >ids &&
	test $(wc -l <ids) = 10 &&
	while read id; do
		f=objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
		python3 -c "import sys, zlib
a, b = (zlib.decompress(open(p, \"rb\").read()) for p in sys.argv[1:])
sys.exit(a != b)" theirs/.git/$f ours/.dircache/$f &&
		if test $(git -C theirs cat-file -t $id) = blob; then
			cmp theirs/.git/$f ours/.dircache/$f
		fi || return 1
	done <ids &&
	(cd ours && ls-tree -r $(cat ../tree-ours) >../ls-ours &&
	 cat-file -p $(cat ../commit-ours) >../commit-p-ours &&
	 cat-file -p $(cat ../tag-ours) >../tag-p-ours) &&
	git -C theirs ls-tree -r $(cat tree-ours) >ls-theirs &&
	git -C theirs cat-file -p $(cat commit-ours) >commit-p-theirs &&
	git -C theirs cat-file -p $(cat tag-ours) >tag-p-theirs &&
	test_cmp ls-theirs ls-ours &&
	test_cmp commit-p-theirs commit-p-ours &&
	test_cmp tag-p-theirs tag-p-ours
'

# fsck-cache --strict prints what git fsck --strict prints, line for
# line and in its order, on a sha256 store with problems.
test_expect_success 'a sha256 store: fsck-cache --strict says what git fsck --strict says' '
	cd ours &&
	echo $(cat ../commit-ours) >.dircache/refs/heads/master &&
	echo lonely | GIT_DIR=.dircache git hash-object -w --stdin >/dev/null &&
	b=$(GIT_DIR=.dircache git rev-parse $(cat ../tree-ours):a) &&
	printf "0100644 z %s\n" $b |
		$WO --hash sha256 --objects .dircache/objects --tree-spec tree >../padded &&
	printf "tree %s\nauthor A <a@b.c> 1 +0000\ncommitter A <a@b.c> 1 +0000\n\nm\000sg\n" \
		$(cat ../padded) | $WO --hash sha256 --objects .dircache/objects commit >/dev/null &&
	test_expect_code 1 fsck-cache --strict >../out-ours 2>../err-ours &&
	test_expect_code 1 env GIT_DIR=.dircache git fsck --strict >../out-git 2>../err-git &&
	test_cmp ../out-git ../out-ours &&
	grep -v "^Checking" ../err-git >../err-git-lines &&
	test_cmp ../err-git-lines ../err-ours
'

# A sha256 store handed a tree of 20-byte ids: refused in one line by
# the readers, never read past its end.
test_expect_success 'a sha256 store refuses a tree of SHA-1-sized ids' '
	cd ours &&
	t=$(printf "100644 f %s\n" 0123456789012345678901234567890123456789 |
		$WO --hash sha256 --objects .dircache/objects --tree-spec tree) &&
	test_expect_code 128 ls-tree $t >out 2>err &&
	test_must_fail test -s out &&
	test_grep "tree $t is corrupt" err &&
	test_expect_code 128 cat-file -p $t >out 2>err &&
	test_grep "tree $t is corrupt" err &&
	test_must_fail fsck-cache $t >out 2>err &&
	test_grep "error in tree $t: badTree" err
'

test_done
