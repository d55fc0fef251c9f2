#!/bin/sh
test_description='applymbox: a 120-patch series committed as git am commits it'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

test_expect_success 'setup: a history of 120 commits, mailed' '
	am_history hist 120 &&
	git -C hist format-patch -q -M --stdout HEAD~120 >series.mbox &&
	test $(grep -c "^From [0-9a-f]\{$OID_HEXSZ\} " series.mbox) = 120 &&
	grep -q "^GIT binary patch" series.mbox &&
	grep -q "^rename from" series.mbox &&
	grep -q "^new mode" series.mbox &&
	grep -q "^\\\\ No newline at end of file" series.mbox
'

test_expect_success 'git am applies it' '
	am_git hist HEAD~120 gitam &&
	(cd gitam && git am -q ../series.mbox) &&
	am_log gitam .git >git.log
'

test_expect_success 'applymbox makes the same commits, ids and all' '
	am_start hist HEAD~120 ours &&
	test_cmp gitam.base ours.base &&
	(cd ours && applymbox ../series.mbox >../out) &&
	am_log ours .dircache >our.log &&
	test_cmp git.log our.log &&
	test $(grep -c "^Applying: " out) = 120 &&
	git -C gitam log --format="Applying: %s" --reverse HEAD~120.. >expect &&
	test_cmp expect out
'

test_expect_success 'the index and the work tree are at the last commit' '
	(
		cd ours &&
		test ! -e .dircache/applymbox &&
		GIT_DIR=.dircache git status --porcelain -uno >../status &&
		GIT_DIR=.dircache git fsck --strict 2>&1 |
			grep -v "^dangling" >../fsck || :
	) &&
	test_must_fail test -s status &&
	test_must_fail test -s fsck &&
	test "$(cd ours && write-tree)" = "$(git -C gitam write-tree)"
'

test_expect_success 'several mailboxes, and the cover letter is skipped' '
	git -C hist format-patch -q --cover-letter -o ../split HEAD~6 &&
	am_start hist HEAD~6 split-ours &&
	(cd split-ours && applymbox ../split/*.patch >../out 2>../err) &&
	test_grep "0001 .*no patch in this mail; skipped" err &&
	test $(grep -c "^Applying: " out) = 6 &&
	test "$(cd split-ours && GIT_DIR=.dircache git rev-parse HEAD^{tree})" = \
		"$(git -C hist rev-parse HEAD^{tree})"
'

test_expect_success '-k keeps the subject, --signoff adds the committer' '
	git -C hist format-patch -q --stdout -k HEAD~3 >k.mbox &&
	am_git hist HEAD~3 gitk &&
	(cd gitk && git am -q -k --signoff ../k.mbox) &&
	am_start hist HEAD~3 ourk &&
	(cd ourk && applymbox -k --signoff ../k.mbox >/dev/null) &&
	am_log gitk .git >expect &&
	am_log ourk .dircache >actual &&
	test_cmp expect actual &&
	test_grep "Signed-off-by: C O Mitter <committer@example.com>" actual
'

test_expect_success 'a dirty index or work tree is refused, and listed' '
	am_start hist HEAD~3 dirty &&
	(
		cd dirty &&
		echo changed >>c.txt &&
		test_expect_code 128 applymbox ../k.mbox >../out 2>../err &&
		test_grep "c.txt: changed in the work tree" ../err &&
		update-cache c.txt &&
		test_expect_code 128 applymbox ../k.mbox 2>../err &&
		test_grep "c.txt: changed in the index" ../err &&
		test ! -e .dircache/applymbox &&
		test "$(cat .dircache/refs/heads/master)" = "$(cat ../dirty.base)"
	) &&
	test ! -s out
'

test_expect_success 'mails of megabytes, a patch changed twice between mails' '
	git init -q bighist &&
	(
		cd bighist &&
		seq 1 200000 | sed "s/^/line /" >big.txt &&
		git add big.txt && git commit -q -m base &&
		seq 1 200000 | sed "s/^/LINE /" >big.txt &&
		git commit -q -a -m "every line" &&
		seq 1 150000 | sed "s/^/lined /" >big.txt &&
		git commit -q -a -m "every line again"
	) &&
	git -C bighist format-patch -q --stdout HEAD~2 >big.mbox &&
	test $(wc -c <big.mbox) -gt 4000000 &&
	am_git bighist HEAD~2 biggit &&
	(cd biggit && git am -q ../big.mbox) &&
	am_start bighist HEAD~2 bigours &&
	(cd bigours && applymbox ../big.mbox >/dev/null) &&
	am_log biggit .git >big-git.log &&
	am_log bigours .dircache >big-our.log &&
	test_cmp big-git.log big-our.log &&
	test_cmp biggit/big.txt bigours/big.txt
'

test_expect_success 'usage' '
	test_expect_code 129 applymbox 2>err &&
	test_grep "^usage: applymbox " err &&
	test_expect_code 129 applymbox --bogus x 2>err &&
	applymbox -h >out &&
	test_grep "^usage: applymbox " out &&
	(cd ours && test_expect_code 128 applymbox --continue 2>../err) &&
	test_grep "no run in progress" err
'

test_done
