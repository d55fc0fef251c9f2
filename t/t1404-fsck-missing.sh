#!/bin/sh
test_description='fsck-cache: missing objects, partial clones, dangling ones, in git fsck'"'"'s words and order'
. "$(dirname "$0")/test-lib.sh"

# fsck-cache and git fsck on the store as it is: the same stdout (in
# the same order), the same stderr, the same exit status.
same_as_git() {
	git_rc=0 && ours_rc=0 &&
	{ git fsck "$@" >../git.out 2>../git.err || git_rc=$?; } &&
	{ GIT_DIR=${GIT_DIR:-.git} fsck-cache "$@" >../ours.out 2>../ours.err ||
		ours_rc=$?; } &&
	test_cmp ../git.out ../ours.out &&
	test_cmp ../git.err ../ours.err &&
	test $git_rc = $ours_rc
}

# The same, but the listing compared as a set: git lists missing and
# dangling objects walking its hash table, by the first bytes of their
# ids; where several share a run of slots its order is the order it
# made them in, which fsck-cache does not follow (it goes by id).
same_as_git_but_order() {
	git_rc=0 && ours_rc=0 &&
	{ git fsck "$@" >../git.out 2>../git.err || git_rc=$?; } &&
	{ GIT_DIR=${GIT_DIR:-.git} fsck-cache "$@" >../ours.out 2>../ours.err ||
		ours_rc=$?; } &&
	sort ../git.out >../git.sorted && sort ../ours.out >../ours.sorted &&
	test_cmp ../git.sorted ../ours.sorted &&
	test_cmp ../git.err ../ours.err &&
	test $git_rc = $ours_rc &&
	sed "/^dangling/d; /^unreachable/d; /^missing/d" ../git.out >../git.walk &&
	sed "/^dangling/d; /^unreachable/d; /^missing/d" ../ours.out >../ours.walk &&
	test_cmp ../git.walk ../ours.walk
}

# Remove the loose objects of these ids.
remove_objects() {
	for id
	do
		rm .git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) ||
			return 1
	done
}

test_expect_success 'setup: a history of files that change, a tag' '
	git init -q src && (
		cd src &&
		for i in 1 2 3 4 5
		do
			mkdir -p d$i/e && echo $i >f$i && echo x$i >d$i/e/g &&
			echo y$i >d1/h && echo z$i >top && git add . &&
			git commit -qm c$i || return 1
		done &&
		git tag -a -m t v1 HEAD~2 &&
		git config uploadpack.allowFilter true
	)
'

test_expect_success 'blobs missing: broken links in git'"'"'s order, then missing' '
	cp -R src blobs && cd blobs &&
	git ls-files -s | awk "{print \$2}" | sort >../in-index &&
	git rev-list --objects --all | awk "NF == 2 {print \$1}" | sort |
		comm -23 - ../in-index >../old &&
	for id in $(cat ../old)
	do
		test $(git cat-file -t $id) != blob || echo $id
	done >../old-blobs &&
	test $(wc -l <../old-blobs) -gt 4 &&
	remove_objects $(cat ../old-blobs) &&
	same_as_git --strict &&
	test_grep "^broken link from    tree " ../ours.out &&
	test_grep "^              to    blob " ../ours.out &&
	test_grep "^missing blob " ../ours.out
'

test_expect_success 'the same without reflogs: the walk from refs only' '
	cd blobs && rm -r .git/logs && same_as_git --strict &&
	same_as_git
'

test_expect_success 'an index blob missing: missing, no broken link for it' '
	cd blobs && id=$(git rev-parse HEAD:top) && remove_objects $id &&
	same_as_git --strict &&
	test_grep "^missing blob $id" ../ours.out
'

test_expect_success 'a tree missing: broken link from a commit' '
	cp -R src trees && cd trees && rm -r .git/logs .git/index &&
	remove_objects $(git rev-parse HEAD~1^{tree} HEAD~3:d1) &&
	same_as_git --strict &&
	test_grep "^broken link from  commit " ../ours.out
'

test_expect_success 'a ref to a missing commit: git'"'"'s error, exit 2' '
	cp -R src refs && cd refs &&
	c=$(git rev-parse HEAD~1) && git update-ref refs/heads/gone $c &&
	git update-ref refs/heads/master HEAD~2 && remove_objects $c &&
	rm -r .git/logs .git/index &&
	same_as_git --strict &&
	test_grep "invalid sha1 pointer" ../ours.err
'

test_expect_success 'a partial clone: promised blobs are not missing' '
	git clone -q --bare --filter=blob:none "file://$TRASH_DIRECTORY/src" \
		part.git && cd part.git &&
	ls objects/pack/*.promisor &&
	GIT_DIR=. && export GIT_DIR &&
	same_as_git --strict && test_must_fail test -s ../ours.out
'

test_expect_success 'a partial clone checked out: two promisor packs' '
	git clone -q --filter=blob:none "file://$TRASH_DIRECTORY/src" part &&
	cd part && same_as_git --strict && test_must_fail test -s ../ours.out
'

test_expect_success 'without its promisor remote, the same store is broken' '
	cp -R part.git nopromise.git && cd nopromise.git &&
	git config --unset remote.origin.promisor &&
	git config --unset remote.origin.partialclonefilter &&
	{ git config --unset-all extensions.partialclone || :; } &&
	GIT_DIR=. && export GIT_DIR &&
	same_as_git_but_order --strict && test_grep "^missing blob " ../ours.out
'

test_expect_success 'dangling objects: git'"'"'s listing' '
	cp -R src dangling && cd dangling &&
	for i in $(seq 1 40)
	do
		echo lonely $i | git hash-object -w --stdin >/dev/null || return 1
	done &&
	t=$(git write-tree) && git commit-tree -m lost $t >/dev/null &&
	git commit-tree -m lost2 -p HEAD $t >/dev/null &&
	same_as_git_but_order --strict && test $(wc -l <../ours.out) -ge 42 &&
	same_as_git_but_order --unreachable
'

test_expect_success 'dangling and missing together' '
	cd dangling && remove_objects $(cat ../old-blobs) && rm -r .git/logs &&
	same_as_git_but_order --strict && test_grep "^dangling" ../ours.out &&
	test_grep "^missing" ../ours.out
'

test_expect_success 'a missing .gitmodules or .gitattributes blob: git'"'"'s error' '
	git init -q special && cd special &&
	echo "[submodule]" >.gitmodules && echo "* text" >.gitattributes &&
	echo x >x && git add . && git commit -qm special &&
	remove_objects $(git rev-parse HEAD:.gitmodules HEAD:.gitattributes) &&
	rm -r .git/logs .git/index &&
	same_as_git --strict &&
	test_grep "gitmodulesMissing" ../ours.err &&
	test_grep "gitattributesMissing" ../ours.err
'

test_expect_success 'an unborn branch and no refs: git'"'"'s notices' '
	git init -q unborn && cd unborn && echo a >a && git add a &&
	same_as_git --strict && test_grep "^notice: HEAD points to an unborn branch" ../ours.err &&
	test_grep "^notice: No default references" ../ours.err
'

test_expect_success 'problems on stderr in the order git reads them' '
	git init -q warn && cd warn &&
	for i in 1 2 3 4 5 6
	do
		b=$(echo $i | git hash-object -w --stdin) &&
		printf "0100644 f$i\0" >raw &&
		printf "%s" $b | python3 -c "
import sys, binascii
sys.stdout.buffer.write(binascii.unhexlify(sys.stdin.read()))" >>raw &&
		t=$(git hash-object -t tree -w --literally raw) &&
		c=$(git commit-tree -m $i $t) && git update-ref refs/heads/b$i $c &&
		git update-ref refs/heads/master $c ||
		return 1
	done &&
	git repack -adq && git prune-packed &&
	same_as_git --strict && test $(grep -c zeroPadded ../ours.err) = 6
'

test_done
