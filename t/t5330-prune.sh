#!/bin/sh
test_description='prune-packed and prune: what git would remove, no more'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-pack.sh"

GIT_DIR=.git
export GIT_DIR

loose() {
	(cd "$1" && find .git/objects -path '*/pack' -prune -o -type f -print |
		grep -v -e /info/ -e /tmp_objdir | sort)
}

# Every loose object file of $1 made $2 seconds old.
age_all() {
	find "$1/.git/objects" -path '*/pack' -prune -o -type f -print |
	while read f; do
		touch -d "@$(($(date +%s) - $2))" "$f" || exit 1
	done
}

test_expect_success 'setup: a history, packed, with new loose objects' '
	pack_make_history repo 6 &&
	(cd repo && git repack -q -a &&
	 echo more >more && git add more && git commit -q -m more) &&
	test $(loose repo | wc -l) -gt 30
'

test_expect_success 'prune-packed removes what git prune-packed removes' '
	cp -R repo pp-ours && cp -R repo pp-git &&
	(cd pp-ours && prune-packed -n) | sort >ours-n &&
	(cd pp-git && git prune-packed -n) | sort >git-n &&
	test_cmp git-n ours-n && test -s ours-n &&
	loose pp-ours >before && loose repo >orig && test_cmp orig before &&
	(cd pp-ours && prune-packed -q) && (cd pp-git && git prune-packed -q) &&
	loose pp-ours >ours && loose pp-git >theirs && test_cmp theirs ours &&
	test $(wc -l <ours) -gt 2 &&
	(cd pp-ours && git fsck --no-dangling) &&
	(cd pp-ours && fsck-cache)
'

test_expect_success 'setup: unreachable objects, and ones only roots hold' '
	(cd repo &&
	 git config core.logAllRefUpdates false &&
	 rm -rf .git/logs &&
	 echo lost | git hash-object -w --stdin >../lost-blob &&
	 git commit-tree -m dangling HEAD^{tree} >../lost-commit &&
	 printf "100644 blob %s\tz\n" $(cat ../lost-blob) | git mktree \
		>../lost-tree &&
	 echo staged >staged && git add staged &&
	 echo only-index >oi && git add oi &&
	 git write-tree >../cache-tree &&
	 echo merged | git hash-object -w --stdin >../merged-blob &&
	 git commit-tree -m merge-head HEAD^{tree} >.git/MERGE_HEAD &&
	 mkdir -p .git/objects/tmp_objdir-x/ab &&
	 echo quarantined >.git/objects/tmp_objdir-x/ab/cd) &&
	age_all repo 3600
'

test_expect_success 'prune removes what git prune removes, no more' '
	cp -R repo pr-ours && cp -R repo pr-git &&
	(cd pr-ours && prune -n --expire=now) | sort >ours-n &&
	loose pr-ours >still && loose repo >orig && test_cmp orig still &&
	# git prune also does prune-packed, removes old quarantines, and
	# does not keep what MERGE_HEAD names: we do
	(cd pr-git && git prune -n --expire=now) |
		grep -v -e "^rm -f" -e "^Removing stale" \
			-e "^$(cat repo/.git/MERGE_HEAD) " | sort >git-n &&
	test_cmp git-n ours-n &&
	grep $(cat lost-blob) ours-n && grep $(cat lost-commit) ours-n &&
	grep $(cat lost-tree) ours-n &&
	(cd pr-ours && prune --expire=now && prune-packed) &&
	rm pr-git/.git/MERGE_HEAD &&
	(cd pr-git && git prune --expire=now) &&
	(cd pr-ours && git cat-file -e $(cat .git/MERGE_HEAD) &&
	 c=$(cat .git/MERGE_HEAD) &&
	 rm .git/objects/$(echo $c | cut -c1-2)/$(echo $c | cut -c3-)) &&
	loose pr-ours >ours && loose pr-git >theirs && test_cmp theirs ours &&
	(cd pr-ours && rm .git/MERGE_HEAD && git fsck --no-dangling &&
	 git cat-file -e $(cat ../cache-tree) &&
	 git cat-file -e $(git rev-parse :oi) &&
	 test -f .git/objects/tmp_objdir-x/ab/cd) &&
	(cd pr-ours && prune --expire=now) && loose pr-ours >again &&
	test_cmp ours again
'

test_expect_success 'the grace period: newer objects stay' '
	cp -Rp repo gr && (cd gr &&
	 echo fresh | git hash-object -w --stdin >../fresh &&
	 prune && git cat-file -e $(cat ../lost-blob) &&
	 prune --expire=2.hours.ago && git cat-file -e $(cat ../lost-blob) &&
	 prune --expire=7200 && git cat-file -e $(cat ../lost-blob) &&
	 prune --expire=$(date -d yesterday +%Y-%m-%d) &&
	 git cat-file -e $(cat ../lost-blob) &&
	 prune -v --expire="30 minutes ago" >../out &&
	 ! git cat-file -e $(cat ../lost-blob) &&
	 git cat-file -e $(cat ../fresh) &&
	 grep "^$(cat ../lost-blob) blob\$" ../out &&
	 ! grep $(cat ../fresh) ../out &&
	 prune --expire=$(date -d tomorrow +%Y-%m-%d) &&
	 ! git cat-file -e $(cat ../fresh)) &&
	test_expect_code 128 prune --expire=soonish
'

test_expect_success 'a reflog keeps what it names' '
	cp -Rp repo rl && (cd rl &&
	 mkdir -p .git/logs/refs/heads &&
	 z=$ZERO_OID &&
	 printf "%s %s A <a@b> 1 +0000\tx\n" $z $(cat ../lost-commit) \
		>.git/logs/refs/heads/gone &&
	 prune --expire=now &&
	 git cat-file -e $(cat ../lost-commit) &&
	 ! git cat-file -e $(cat ../lost-blob))
'

test_expect_success 'a reachable object missing: nothing removed' '
	cp -Rp repo br && (cd br &&
	 c=$(git rev-parse HEAD) &&
	 git cat-file -e $(cat ../lost-blob) &&
	 rm .git/objects/$(echo $c | cut -c1-2)/$(echo $c | cut -c3-) &&
	 test_expect_code 128 prune --expire=now 2>../err &&
	 git cat-file -e $(cat ../lost-blob)) &&
	grep "not pruning" err
'

test_expect_success 'usage' '
	prune -h >out && grep "^usage: prune" out &&
	prune-packed -h >out && grep "^usage: prune-packed" out &&
	test_expect_code 129 prune --bogus &&
	test_expect_code 129 prune-packed --bogus
'

test_done
