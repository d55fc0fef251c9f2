#!/bin/sh
test_description='dircache push sends one pack to dircache-receive

After applymbox (which stores its objects in a pack), a push to a
local store, to an rsync daemon module running dircache-receive, and
over ssh leaves a remote that fsck-cache and git fsck --strict accept,
its branch at our commit.  The receiver refuses the checked-out branch
of a store with a work tree, a pack that is corrupt or does not hold
what the new ids need, and a ref that moved since the pusher read it.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-am.sh"
. "$TEST_DIRECTORY/lib-rsyncd.sh"

test_expect_success 'setup: applymbox writes a series as a pack' '
	am_history hist 12 &&
	git -C hist format-patch -q -M --stdout HEAD~12 >series.mbox &&
	am_start hist HEAD~12 a &&
	(cd a && applymbox ../series.mbox >/dev/null 2>&1) &&
	head=$(cat a/.dircache/refs/heads/master) &&
	test "$(git_in a rev-list HEAD | wc -l)" = 13 &&
	ls a/.dircache/objects/pack/pack-*.pack >/dev/null &&
	test_must_fail test -f a/.dircache/objects/$(printf %.2s $head)/${head#??} &&
	make_fake_ssh
'
start_daemon || exit 1
RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh
export RSYNC_RSH

# pushed_to STORE: its master is ours, it passes both fscks, and the
# objects came as a pack, not loose.
pushed_to() {
	test "$(cat "$1/refs/heads/master")" = "$(cat a/.dircache/refs/heads/master)" &&
	fscks "$1" &&
	ls "$1"/objects/pack/pack-*.idx >/dev/null
}

test_expect_success 'push to a local shared store' '
	mkdir local && (cd local && dircache init --shared 2>/dev/null) &&
	(cd a && dircache push ../local 2>../err) &&
	test_grep "^0000000\.\.[0-9a-f]\{7\}  master -> master\$" err &&
	pushed_to local/.dircache
'

test_expect_success 'push to a directory that is itself the store' '
	mkdir bare && (cd bare && GIT_DIR=. init-db 2>/dev/null) &&
	(cd a && dircache push ../bare 2>/dev/null) &&
	pushed_to bare
'

test_expect_success 'push to an rsync daemon module running dircache-receive' '
	mkdir srv/r && (cd srv/r && dircache init --shared 2>/dev/null) &&
	(cd a && dircache remote add daemon "$URL/r" && dircache push daemon 2>../err) &&
	test_grep "master -> master" err &&
	pushed_to srv/r/.dircache &&
	test "$(cat a/.dircache/refs/remotes/daemon/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	test -z "$(ls srv/r/.dircache/incoming)"
'

test_expect_success 'push over ssh' '
	mkdir box/r && (cd box/r && dircache init --shared 2>/dev/null) &&
	(cd a && dircache push box:r 2>/dev/null) &&
	pushed_to box/r/.dircache
'

test_expect_success 'a second push sends only what the remote lacks' '
	commit_line a src/f1.c "one more" &&
	for r in local/.dircache bare srv/r/.dircache box/r/.dircache; do
		ls $r/objects/pack/*.pack >before-$(echo $r | tr / -) || return 1
	done &&
	(cd a && dircache push ../local 2>/dev/null && dircache push ../bare &&
	 dircache push daemon 2>/dev/null && dircache push box:r 2>/dev/null) &&
	for r in local/.dircache bare srv/r/.dircache box/r/.dircache; do
		pushed_to $r &&
		ls $r/objects/pack/*.pack >after &&
		new=$(comm -13 before-$(echo $r | tr / -) after) &&
		test -n "$new" &&
		git --git-dir=$r verify-pack -v "${new%.pack}.idx" >v &&
		test "$(grep -c " commit \| tree \| blob " v)" = 4 || return 1
	done
'

test_expect_success 'nothing to push: up to date, nothing sent' '
	state=$(repo_state local) &&
	(cd a && dircache push ../local 2>../err) &&
	test_grep "up to date" err &&
	test "$state" = "$(repo_state local)"
'

test_expect_success 'the checked-out branch of a work tree is refused' '
	dircache clone local w 2>/dev/null &&
	commit_line a src/f2.c "for w" &&
	state=$(repo_state w) &&
	(cd a && test_expect_code 128 dircache push ../w 2>../err) &&
	test_grep "master -> master (branch is currently checked out)" err &&
	test "$state" = "$(repo_state w)"
'

test_expect_success 'another branch of that work tree is taken' '
	(cd a && dircache branch side && dircache push ../w side 2>/dev/null) &&
	test "$(cat w/.dircache/refs/heads/side)" = "$(cat a/.dircache/refs/heads/side)" &&
	fscks w/.dircache
'

test_expect_success 'a shared store takes its HEAD branch' '
	(cd a && dircache push ../local master 2>/dev/null) &&
	pushed_to local/.dircache
'

test_expect_success '--tags: every tag, annotated or not; a moved tag is refused' '
	(cd a && dircache tag -a -m "version one" v1 &&
	 dircache tag light $(git_in . rev-parse HEAD~3) && dircache push ../local --tags 2>/dev/null) &&
	for t in v1 light; do
		test "$(cat local/.dircache/refs/tags/$t)" = "$(cat a/.dircache/refs/tags/$t)" ||
		return 1
	done &&
	git_in local cat-file -t v1 >type && echo tag >expect && test_cmp expect type &&
	fscks local/.dircache &&
	rm a/.dircache/refs/tags/light && (cd a && dircache tag light $(git_in . rev-parse HEAD~4)) &&
	(cd a && test_expect_code 128 dircache push ../local --tags 2>../err) &&
	test_grep "light -> light (already exists)" err &&
	test "$(cat local/.dircache/refs/tags/light)" = "$(git_in a rev-parse HEAD~3)"
'

test_expect_success '--all: every branch' '
	(cd a && dircache branch topic $(git_in . rev-parse HEAD~2) && dircache push ../bare --all 2>../err) &&
	for b in master side topic; do
		test "$(cat bare/refs/heads/$b)" = "$(cat a/.dircache/refs/heads/$b)" ||
		return 1
	done &&
	test_must_fail test -e bare/refs/tags/v1 &&
	fscks bare
'

test_expect_success 'what any remote ref holds is not sent again' '
	mkdir u && (cd u && dircache init 2>/dev/null && echo one >one &&
	 dircache add one && dircache commit -m one >/dev/null &&
	 echo two >two && GIT_INDEX_FILE=.dircache/ix2 update-cache --add two &&
	 t=$(GIT_INDEX_FILE=.dircache/ix2 write-tree) &&
	 update-ref refs/heads/u2 $(echo two | commit-tree $t) &&
	 update-ref refs/heads/u3 $(echo merge | commit-tree $t -p master -p u2)) &&
	mkdir r3 && (cd r3 && GIT_DIR=. init-db 2>/dev/null) &&
	(cd u && dircache push ../r3 master u2 2>/dev/null) &&
	ls r3/objects/pack/*.pack >before &&
	(cd u && dircache push ../r3 u3 2>/dev/null) &&
	ls r3/objects/pack/*.pack >after &&
	new=$(comm -13 before after) &&
	git --git-dir=r3 verify-pack -v "${new%.pack}.idx" >v &&
	test "$(grep -c " commit \| tree \| blob " v)" = 1 &&
	fscks r3
'

test_expect_success 'a module without dircache-receive: refused, refs untouched' '
	mkdir plain/r && (cd plain/r && dircache init --shared 2>/dev/null) &&
	state=$(repo_state plain/r/.dircache/refs) &&
	(cd a && test_expect_code 128 dircache push "$PLAIN_URL/r" 2>../err) &&
	test_grep "the remote runs no dircache-receive; see README" err &&
	test "$state" = "$(repo_state plain/r/.dircache/refs)" &&
	test -z "$(ls plain/r/.dircache/incoming)"
'

# receive STORE LINE...: the request lines, then the pack in file "pack"
# when there is one, to dircache-receive STORE; its answer in "answer".
receive() {
	_store=$1 && shift &&
	{ printf "%s\n" "$@" && if test -f pack; then
		echo pack && cat pack; fi; } |
	dircache-receive "$_store" >answer
}

test_expect_success 'receive: a corrupt pack is refused, nothing enters' '
	mkdir r2 && (cd r2 && GIT_DIR=. init-db 2>/dev/null) &&
	head=$(cat a/.dircache/refs/heads/master) &&
	git_in a rev-list --objects $head >list &&
	git_in a pack-objects -q --stdout <list >good.pack &&
	size=$(wc -c <good.pack) &&
	{ head -c $((size / 2)) good.pack && printf "garbage" &&
	  tail -c +$((size / 2 + 8)) good.pack; } >pack &&
	state=$(repo_state r2) &&
	test_must_fail receive r2 "refs/heads/master $ZERO_OID $head" 2>err &&
	test_grep "^ng refs/heads/master pack refused" answer &&
	test "$state" = "$(repo_state r2)"
'

test_expect_success 'receive: a pack missing what the commit needs is refused' '
	head=$(cat a/.dircache/refs/heads/master) &&
	git_in a rev-list --objects $head | grep -v "^$(git_in a rev-parse HEAD:src)" >list &&
	git_in a pack-objects -q --stdout <list >pack &&
	state=$(repo_state r2) &&
	test_must_fail receive r2 "refs/heads/master $ZERO_OID $head" 2>err &&
	test_grep "^ng refs/heads/master pack refused" answer &&
	test_grep "$(git_in a rev-parse HEAD:src)" err &&
	test "$state" = "$(repo_state r2)"
'

test_expect_success 'receive: a stale old id is "fetch first", a rewind refused' '
	head=$(cat a/.dircache/refs/heads/master) &&
	git_in a rev-list --objects $head >list &&
	git_in a pack-objects -q --stdout <list >pack &&
	receive r2 "refs/heads/master $ZERO_OID $(git_in a rev-parse HEAD~1)" &&
	echo "ok refs/heads/master" >expect && test_cmp expect answer &&
	rm pack &&
	test_must_fail receive r2 "refs/heads/master $ZERO_OID $head" &&
	echo "ng refs/heads/master fetch first" >expect && test_cmp expect answer &&
	test_must_fail receive r2 \
		"refs/heads/master $(git_in a rev-parse HEAD~1) $(git_in a rev-parse HEAD~2)" &&
	echo "ng refs/heads/master non-fast-forward" >expect && test_cmp expect answer &&
	receive r2 "refs/heads/master $(git_in a rev-parse HEAD~1) $head" &&
	echo "ok refs/heads/master" >expect && test_cmp expect answer &&
	test_must_fail receive r2 "HEAD $head $head" "refs/heads/../x $ZERO_OID $head" &&
	test_grep "^ng HEAD only refs/heads/ and refs/tags/ take pushes" answer &&
	test_grep "^ng refs/heads/../x bad ref name" answer &&
	fscks r2
'

stop_daemon
test_done
