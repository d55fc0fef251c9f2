#!/bin/sh
test_description='fsck-cache on packed stores: links, reachability, deep deltas'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# The listing of fsck-cache and of git fsck ($1: --unreachable or
# nothing), each sorted, must be the same.
same_listing() {
	fsck-cache $1 >out 2>err &&
	sort out >ours &&
	git fsck $1 2>/dev/null | grep -E "^(dangling|unreachable|missing) " |
		sort >theirs &&
	test_cmp theirs ours
}

# A history whose file changes one line per commit: git packs it as one
# delta chain, each version a delta of the next.  Beside it, objects no
# ref reaches: a chain of two commits over trees three deep, a tree
# and a blob alone.
test_expect_success 'setup: a packed history and unreachable objects' '
	git init -q . &&
	seq 1 400 | sed "s/^/line /" >log &&
	for i in $(seq 1 24); do
		sed -i "$((i * 10))s/.*/changed $i/" log &&
		mkdir -p d/e && echo $i >d/e/f$((i % 3)) &&
		git add -A && git commit -q -m "c $i" || return 1
	done &&
	mkdir -p x/y/z && echo deep >x/y/z/leaf && echo top >x/top &&
	git add x && t1=$(git write-tree) &&
	c1=$(echo lost | git commit-tree $t1 -p HEAD) &&
	echo deeper >x/y/z/leaf2 && git add x && t2=$(git write-tree) &&
	c2=$(echo lost too | git commit-tree $t2 -p $c1) &&
	git rm -q -r --cached x && rm -rf x &&
	echo alone | git hash-object -w --stdin >blob-id &&
	printf "100644 blob %s\tonly\n" $(git hash-object -w log) |
		git mktree >tree-id &&
	echo $c2 >tip-id &&
	git repack -adfq --depth=50 --window=50 &&
	echo .git/objects/pack/*.pack >chain-pack &&
	find .git/objects -type f -path "*/??/*" |
		sed "s|.*/\(..\)/|\1|" >loose &&
	test $(wc -l <loose) -ge 8 &&
	git pack-objects -q .git/objects/pack/pack <loose >/dev/null &&
	git prune-packed &&
	test -z "$(find .git/objects -type f -path "*/??/*")" &&
	git verify-pack -v $(sed "s/pack\$/idx/" chain-pack) >vp &&
	test_grep "chain length = 10" vp
'

test_expect_success 'a packed store: dangling objects as git' '
	same_listing &&
	test_grep "dangling commit $(cat tip-id)" ours &&
	test_grep "dangling blob $(cat blob-id)" ours
'

test_expect_success 'a packed store: --unreachable walks trees as git' '
	same_listing --unreachable &&
	test $(wc -l <ours) -ge 10
'

test_expect_success 'ids on the command line are the only roots' '
	fsck-cache --unreachable $(cat tip-id) >out &&
	sort out >ours &&
	git fsck --unreachable --no-reflogs $(cat tip-id) 2>/dev/null |
		grep "^unreachable " | sort >theirs &&
	test_cmp theirs ours
'

# Flip a byte in the middle of the entry of the object at depth $1 of
# the chain; its id goes to bad-id, those of the deltas on it to
# above-ids.
break_chain() {
	set -- $(awk -v d=$1 "NF == 7 && \$6 == d { print; exit }" vp) &&
	echo $1 >bad-id &&
	awk -v d=$6 "NF == 7 && \$6 > d { print \$1 }" vp >above-ids &&
	p=$(cat chain-pack) && chmod u+w $p &&
	python3 -c "
import sys; p = sys.argv[1]; o = int(sys.argv[2]) + int(sys.argv[3]) // 2
b = bytearray(open(p, \"rb\").read()); b[o] ^= 0x55
open(p, \"wb\").write(b)" $p $5 $4
}

test_expect_success 'a corrupt entry deep in a delta chain is named, as are those on it' '
	cp -a .git clean.git &&
	break_chain 7 &&
	test_expect_code 6 fsck-cache --strict >out 2>err &&
	test_expect_code 6 git fsck --strict >/dev/null 2>&1 &&
	test_grep "error: object $(cat bad-id) is corrupt" err &&
	test_grep "index CRC mismatch for object $(cat bad-id)" err &&
	test_grep "missing blob $(cat bad-id)" out &&
	test -s above-ids &&
	for id in $(cat above-ids); do
		test_grep "error: object $id is corrupt" err || return 1
	done
'

test_expect_success 'a packed tree naming a tree as a blob: the tree is named' '
	rm -rf .git && cp -a clean.git .git &&
	sub=$(git rev-parse HEAD:d) &&
	printf "100644 wrong\0" >raw &&
	printf "%s" $sub | python3 -c "
import sys, binascii
sys.stdout.buffer.write(binascii.unhexlify(sys.stdin.read()))" >>raw &&
	bad=$(git hash-object -t tree -w --literally raw) &&
	c=$(echo typo | git commit-tree $bad) &&
	git update-ref refs/heads/typo $c &&
	echo $bad $c | tr " " "\n" |
		git pack-objects -q .git/objects/pack/pack >/dev/null &&
	git prune-packed &&
	test -z "$(find .git/objects -type f -path "*/??/*")" &&
	test_expect_code 1 fsck-cache >out 2>err &&
	test_grep "error in tree $bad: broken link to blob $sub, which is a tree" err &&
	test_must_fail git fsck >/dev/null 2>&1
'

test_expect_success 'a bad loose copy of a packed object: both said, no missing' '
	rm -rf .git && cp -a clean.git .git &&
	id=$(git rev-parse HEAD:d/e/f1) &&
	f=.git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	mkdir -p $(dirname $f) &&
	echo not that | git hash-object --stdin -w >other &&
	mv .git/objects/$(cut -c1-2 other)/$(cut -c3- other) $f &&
	test_expect_code 1 fsck-cache >out 2>err &&
	test_grep "hash mismatch $id" err &&
	test_must_fail test_grep missing out
'

test_done
