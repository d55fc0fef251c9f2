#!/bin/sh
test_description='dircache repack and gc: packs as git makes them, nothing lost'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-pack.sh"

GIT_DIR=.git
export GIT_DIR

loose() {
	(cd "$1" && find .git/objects -path '*/pack' -prune -o -type f -print |
		grep -v /info/ | sort)
}

# Every object of $1's store, sorted (git reads loose and packed ones).
all_ids() {
	(cd "$1" && git cat-file --batch-all-objects --batch-check='%(objectname)')
}

# pack_compare_all, where dangling objects are expected.
compare_dangling() {
	pack_cat_all && pack_diff_tags && pack_checkout t3 && pack_checkout t8 &&
	git fsck --no-dangling && fsck-cache >fsck-out 2>&1 &&
	! grep -v "^dangling" fsck-out
}

test_expect_success 'setup: a history, loose, and an unreachable blob' '
	pack_make_history repo 8 &&
	(cd repo && git config core.logAllRefUpdates false && rm -rf .git/logs &&
	 echo lost | git hash-object -w --stdin >../lost) &&
	test $(loose repo | wc -l) -gt 40
'

test_expect_success 'repack: the reachable loose objects into one pack' '
	cp -R repo r1 && cd r1 &&
	dircache-repack -q &&
	ls .git/objects/pack/pack-*.pack >packs && test $(wc -l <packs) = 1 &&
	git verify-pack --object-format=$test_hash_algo .git/objects/pack/pack-*.idx &&
	git cat-file -e $(cat ../lost) &&
	git rev-list --objects --all | cut -c1-$OID_HEXSZ | sort >reach &&
	git show-index --object-format=$test_hash_algo <$(ls .git/objects/pack/pack-*.idx) | cut -d" " -f2 | sort >in &&
	test_cmp reach in &&
	dircache-repack -d -q &&
	loose . >left && test $(wc -l <left) = 1 &&
	grep $(cat ../lost | cut -c3-) left &&
	compare_dangling
'

test_expect_success 'repack -a -d: one pack; what only old packs held goes loose' '
	cp -R repo r2 && cd r2 &&
	git repack -q -a -d &&
	echo more >more && git add more && git commit -q -m more &&
	git tag -d t1 >/dev/null && git tag -d t5 >/dev/null &&
	all_ids . >before &&
	dircache-repack -a -d -q &&
	ls .git/objects/pack/*.pack >packs && test $(wc -l <packs) = 1 &&
	all_ids . >after && test_cmp before after &&
	git rev-list --objects --all | cut -c1-$OID_HEXSZ | sort >reach &&
	git show-index --object-format=$test_hash_algo <$(ls .git/objects/pack/pack-*.idx) | cut -d" " -f2 | sort >in &&
	test_cmp reach in &&
	loose . | sed "s|.git/objects/||; s|/||" | sort >left &&
	comm -23 before reach >unreached && test -s unreached &&
	test_cmp unreached left &&
	index-pack -o check.idx .git/objects/pack/pack-*.pack >/dev/null &&
	cmp check.idx .git/objects/pack/pack-*.idx &&
	compare_dangling
'

test_expect_success 'a .keep pack stays' '
	cp -R repo r3 && cd r3 &&
	git repack -q -a -d && k=$(ls .git/objects/pack/*.pack) &&
	touch ${k%.pack}.keep &&
	echo x >x && git add x && git commit -q -m x &&
	dircache-repack -a -d -q &&
	test -f $k && test $(ls .git/objects/pack/*.pack | wc -l) = 2 &&
	git fsck --no-dangling
'

test_expect_success 'gc: one pack, the unreachable kept for the grace period' '
	cp -R repo g && cd g &&
	dircache-gc -q &&
	test $(ls .git/objects/pack/*.pack | wc -l) = 1 &&
	git cat-file -e $(cat ../lost) &&
	loose . >left && test $(wc -l <left) = 1 &&
	dircache-gc -q --prune=now &&
	! git cat-file -e $(cat ../lost) &&
	test -z "$(loose .)" &&
	git fsck --strict --no-dangling && pack_compare_all
'

test_expect_success 'repack killed at any moment: the store keeps every object' '
	cp -R repo k0 && (cd k0 && git repack -q -a -d &&
	 echo more >more && git add more && git commit -q -m more &&
	 git tag -d t2 >/dev/null) &&
	all_ids k0 >want &&
	for delay in 0 0.01 0.02 0.04 0.06 0.08 0.1 0.15 0.2 0.3 0.5; do
		rm -rf k && cp -R k0 k &&
		(cd k && { setsid dircache-repack -a -d -q & } &&
		 pid=$! && sleep $delay && kill -9 -$pid 2>/dev/null;
		 wait $pid;
		 fsck-cache >../fsck 2>&1; echo $? >../rc) &&
		test "$(cat rc)" = 0 && ! grep -v "^dangling" fsck &&
		all_ids k >have && comm -23 want have >gone &&
		test_cmp /dev/null gone || { echo "killed after $delay"; exit 1; }
	done
'

test_expect_success 'usage' '
	dircache-repack -h >out && grep "^usage: dircache repack" out &&
	dircache-gc -h >out && grep "^usage: dircache gc" out &&
	test_expect_code 129 dircache-repack --bogus &&
	test_expect_code 129 dircache-gc --bogus
'

test_done
