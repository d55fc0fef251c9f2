#!/bin/sh
test_description='applymbox on a sha256 store: git am'"'"'s commit ids'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

# Every store here is sha256 (git's and ours, through GIT_DEFAULT_HASH,
# which init-db reads as git init does), whatever the suite's default:
# the plain run checks applymbox on a sha256 store too.  git am in a
# sha256 repository is the oracle: the same commits, ids and all.
GIT_DEFAULT_HASH=sha256
export GIT_DEFAULT_HASH

test_expect_success 'setup: a sha256 history of 30 commits, mailed' '
	am_history hist 30 &&
	test "$(git -C hist rev-parse --show-object-format)" = sha256 &&
	git -C hist format-patch -q -M --stdout HEAD~30 >series.mbox &&
	test $(grep -c "^From [0-9a-f]\{64\} " series.mbox) = 30 &&
	grep -q "^index [0-9a-f]\{64\}\.\.[0-9a-f]\{64\}" series.mbox &&
	grep -q "^GIT binary patch" series.mbox &&
	am_git hist HEAD~30 gitam &&
	(cd gitam && git am -q ../series.mbox) &&
	am_log gitam .git >git.log
'

test_expect_success 'applymbox makes git am'"'"'s commits' '
	am_start hist HEAD~30 ours &&
	test_cmp gitam.base ours.base &&
	test "$(wc -c <ours.base)" = 65 &&
	(cd ours && applymbox ../series.mbox >/dev/null) &&
	am_log ours .dircache >our.log &&
	test_cmp git.log our.log &&
	git -C gitam rev-parse HEAD >expect &&
	test_cmp expect ours/.dircache/refs/heads/master &&
	GIT_DIR=ours/.dircache git fsck --strict 2>&1 | grep -v "^dangling" >fsck || :
	test_must_fail test -s fsck
'

test_expect_success 'killed after a checkpoint: its 64-digit ids, then --continue' '
	am_start hist HEAD~30 k &&
	(cd k && DIRCACHE_AM_CHECKPOINT=4 DIRCACHE_TEST_KILL=journal:2 \
		applymbox ../series.mbox >/dev/null 2>&1;
	 test $? = 137) &&
	grep "^9 [0-9a-f]\{64\} [0-9a-f]\{64\}\$" k/.dircache/applymbox/checkpoint &&
	(cd k && applymbox --continue >/dev/null) &&
	test ! -e k/.dircache/applymbox &&
	test_cmp expect k/.dircache/refs/heads/master
'

# spoil_start DIR SED: rewrite the id in DIR's stopped run's state.
spoil_start() {
	sed "1$2" "$1/.dircache/applymbox/start" >start.new &&
	mv start.new "$1/.dircache/applymbox/start"
}

test_expect_success 'a state whose start id is of the other size is refused' '
	am_start hist HEAD~30 s256 &&
	(cd s256 && DIRCACHE_TEST_KILL=commit:2 \
		applymbox ../series.mbox >/dev/null 2>&1; test $? = 137) &&
	spoil_start s256 "s/^\(.\{40\}\).*/\1/" &&
	(cd s256 && test_expect_code 128 applymbox --continue 2>../err) &&
	test_grep "corrupt" err &&
	git -C hist format-patch -q --stdout HEAD~3 >three.mbox &&
	GIT_DEFAULT_HASH=sha1 am_start hist HEAD~3 s1 &&
	test "$(wc -c <s1.base)" = 41 &&
	(cd s1 && DIRCACHE_TEST_KILL=commit:2 \
		applymbox ../three.mbox >/dev/null 2>&1; test $? = 137) &&
	spoil_start s1 "s/\$/000000000000000000000000/" &&
	(cd s1 && test_expect_code 128 applymbox --continue 2>../err) &&
	test_grep "corrupt" err
'

test_expect_success 'a sha1 history'"'"'s mails, in sha256 stores: as git am' '
	GIT_DEFAULT_HASH=sha1 am_history old 4 &&
	test "$(git -C old rev-parse --show-object-format)" = sha1 &&
	git -C old format-patch -q -M --stdout HEAD~4 >old.mbox &&
	grep -q "^index [0-9a-f]\{7\}\.\.[0-9a-f]\{7\}" old.mbox &&
	am_git old HEAD~4 oldgit &&
	(cd oldgit && git am -q ../old.mbox) &&
	am_start old HEAD~4 oldours &&
	(cd oldours && applymbox ../old.mbox >/dev/null) &&
	am_log oldgit .git >expect &&
	am_log oldours .dircache >actual &&
	test_cmp expect actual
'

test_done
