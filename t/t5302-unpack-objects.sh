#!/bin/sh
test_description='unpack-objects: a pack exploded as git does, all or nothing'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-pack.sh"

GIT_DIR=.git
export GIT_DIR
MP="python3 $TEST_DIRECTORY/make-pack.py"

loose_files() {
	(cd "$1" && find .git/objects -path '*/pack' -prune -o -type f -print |
		grep -v /info/ | sort)
}

test_expect_success 'setup: a history packed with deep chains' '
	pack_make_history repo 10 &&
	cd repo && git repack -q -adf --window=250 --depth=250 &&
	ls .git/objects/pack/*.pack >../packname
'

test_expect_success 'the same loose objects as git unpack-objects' '
	p=$(cat packname) &&
	git init -q ours && git init -q theirs &&
	(cd ours && unpack-objects <../repo/$p) &&
	(cd theirs && git unpack-objects -q <../repo/$p) &&
	loose_files ours >ours.list && loose_files theirs >theirs.list &&
	test_cmp theirs.list ours.list &&
	test $(wc -l <ours.list) -gt 40 &&
	for f in $(cat ours.list); do
		id=$(echo $f | sed "s|.git/objects/||; s|/||") &&
		(cd ours && git cat-file -p $id) >o &&
		(cd theirs && git cat-file -p $id) >t &&
		cmp o t || exit 1
	done &&
	(cd ours && git fsck 2>&1 | grep -v -e ^dangling -e ^notice) >fsck;
	! test -s fsck
'

test_expect_success '-n and -q: -n writes nothing' '
	p=$(cat packname) &&
	git init -q dry && (cd dry && unpack-objects -n -q <../repo/$p) &&
	test -z "$(loose_files dry)"
'

test_expect_success 'a truncated pack leaves nothing written' '
	p=$(cat packname) &&
	size=$(wc -c <repo/$p) &&
	for cut in 40 $((size / 2)) $((size - 1)); do
		head -c $cut repo/$p >cut.pack &&
		rm -rf cut && git init -q cut &&
		(cd cut && test_expect_code 128 unpack-objects <../cut.pack) &&
		test -z "$(loose_files cut)" || exit 1
	done
'

test_expect_success 'hostile packs are refused whole' '
	for c in copy_beyond missing_base cycle ofs_self ofs_forward \
		 size_overflow size_lie bad_type result_size; do
		rm -rf h hp && git init -q h && mkdir hp &&
		$MP $c hp >/dev/null &&
		hp=$(ls hp/*.pack) &&
		(cd h && test_expect_code 128 unpack-objects <../$hp \
			2>../err) &&
		test -s err &&
		test -z "$(loose_files h)" || { echo "case $c"; exit 1; }
	done
'

test_expect_success 'a thin pack: a REF_DELTA base found in the store' '
	git init -q thin && cd thin &&
	seq 1 300 >f && git add f && git commit -q -m one &&
	seq 1 301 >f && git add f && git commit -q -m two &&
	git rev-parse HEAD~1 >../base &&
	printf "HEAD\n^HEAD~1\n" | git pack-objects -q --revs --thin --stdout \
		>../thin.pack &&
	git init -q ../thin-ours && cd ../thin-ours &&
	(cd ../thin && git rev-list --objects HEAD~1 | cut -c1-$OID_HEXSZ |
		git pack-objects -q --stdout) | unpack-objects &&
	unpack-objects <../thin.pack &&
	(cd ../thin && git rev-parse HEAD:f) >../want &&
	cat-file -p $(cat ../want) >../thin-out &&
	seq 1 301 >../expect &&
	test_cmp ../expect ../thin-out
'

test_done
