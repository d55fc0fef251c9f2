#!/bin/sh
test_description='applymbox: kill -9 between and inside checkpoints

Commits are made in memory and written every DIRCACHE_AM_CHECKPOINT
commits (4 here).  Killed between checkpoints, HEAD, the index and the
work tree all stand at the last checkpoint; killed inside one, the
journal names its commit and --continue, --skip or --abort roll it
forward first.  DIRCACHE_TEST_KILL=<where>:<n> sends SIGKILL at the nth
commit made, or after the nth checkpoint wrote its journal, work tree,
index or branch.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

DIRCACHE_AM_CHECKPOINT=4
export DIRCACHE_AM_CHECKPOINT

test_expect_success 'setup: a series of 18, applied by git am' '
	am_history hist 18 &&
	git -C hist format-patch -q -M --stdout HEAD~18 >series.mbox &&
	am_git hist HEAD~18 gitall &&
	(cd gitall && git am -q ../series.mbox) &&
	git -C gitall rev-list --reverse HEAD >commits &&
	git -C gitall rev-parse HEAD >expect &&
	am_start hist HEAD~18 start &&
	test_cmp start.base gitall.base &&
	test "$(head -n 1 commits)" = "$(cat start.base)"
'

# killed DIR WHERE: run applymbox in a fresh copy DIR of start until
# DIRCACHE_TEST_KILL=WHERE kills it; it must die of SIGKILL.
killed() {
	rm -rf "$1" && cp -R start "$1" &&
	(cd "$1" && DIRCACHE_TEST_KILL=$2 applymbox ../series.mbox \
		>../out 2>../err); test $? = 137
}

# tree_nr N: the tree of the Nth commit of git am's run (0: the start).
tree_nr() {
	git -C gitall rev-parse "$(sed -n "$(($1 + 1))p" commits)^{tree}"
}

# head_at DIR N: the branch of DIR holds N commits over the start, and
# the tree of git am's Nth.
head_at() {
	test "$(git --git-dir="$1/.dircache" rev-list HEAD | wc -l)" = \
		$(($2 + 1)) &&
	test "$(git --git-dir="$1/.dircache" rev-parse HEAD^{tree})" = \
		"$(tree_nr $2)"
}

# consistent DIR: the index holds HEAD's tree and the work tree holds
# the index, nothing more (no file of a later commit, no temp file).
consistent() {
	test "$(cd "$1" && write-tree)" = \
		"$(git --git-dir="$1/.dircache" rev-parse HEAD^{tree})" &&
	(cd "$1" && GIT_DIR=.dircache git status --porcelain) |
		grep -v "^?? .dircache/\$" >status;

	test ! -s status
}

for k in 1 4 5 7 12 16 18
do
	test_expect_success "killed at commit $k: all three at the last checkpoint" '
		killed k commit:$k &&
		test ! -e k/.dircache/applymbox/checkpoint &&
		head_at k $(( (k - 1) / 4 * 4 )) &&
		consistent k &&
		test "$(cat k/.dircache/applymbox/next)" = \
			$(( (k - 1) / 4 * 4 + 1 )) &&
		(cd k && applymbox --continue >/dev/null) &&
		head_at k 18 &&
		consistent k &&
		test ! -e k/.dircache/applymbox
	'
done

for where in journal worktree index ref
do
	for how in continue skip abort
	do
		test_expect_success "killed after the $where of checkpoint 2, then --$how" '
			killed k $where:2 &&
			test -f k/.dircache/applymbox/checkpoint &&
			if test $where = ref
			then
				head_at k 8
			else
				head_at k 4
			fi &&
			(cd k && applymbox --$how >/dev/null) &&
			test ! -e k/.dircache/applymbox &&
			consistent k &&
			if test $how = abort
			then
				test_cmp start.base k/.dircache/refs/heads/master
			else
				head_at k 18
			fi
		'
	done
done

test_expect_success 'killed inside the last checkpoint, --continue finishes' '
	killed k worktree:5 &&
	test -f k/.dircache/applymbox/checkpoint &&
	(cd k && applymbox --continue >/dev/null) &&
	head_at k 18 &&
	consistent k &&
	test ! -e k/.dircache/applymbox
'

test_expect_success 'an untracked file where a patch creates one stops the run' '
	rm -rf u && cp -R start u &&
	new=$(grep "^+++ b/src/new" series.mbox | head -n 1 | sed "s|^+++ b/||") &&
	test -n "$new" &&
	echo mine >u/$new &&
	(cd u && test_expect_code 1 applymbox ../series.mbox >../out 2>../err) &&
	test_grep "already exists in working directory" err &&
	echo mine >expect.mine &&
	test_cmp expect.mine u/$new &&
	rm u/$new &&
	(cd u && GIT_DIR=.dircache git status --porcelain -uno) >status &&
	test ! -s status &&
	(cd u && applymbox --skip >/dev/null 2>&1 || true) &&
	test "$(cd u && write-tree)" = \
		"$(git --git-dir=u/.dircache rev-parse HEAD^{tree})"
'

test_expect_success 'files are rewritten in place, but never through a second link' '
	rm -rf h links && cp -R start h && mkdir links &&
	(cd h && find . -path ./.dircache -prune -o -type f -print) |
		sed "s|^\./||" >files &&
	while read f
	do
		mkdir -p "links/$(dirname "$f")" && ln "h/$f" "links/$f" ||
			return 1
	done <files &&
	rm -rf links.want && mkdir links.want &&
	git -C hist archive HEAD~18 | tar -x -C links.want &&
	(cd h && applymbox ../series.mbox >/dev/null) &&
	head_at h 18 &&
	consistent h &&
	(cd h && GIT_DIR=.dircache git diff-files --name-only) >stale &&
	test ! -s stale &&
	diff -r links.want links &&
	f=$(grep "^+++ b/src/f" series.mbox | head -n 1 | sed "s|^+++ b/||") &&
	! cmp -s "h/$f" "links/$f"
'

test_done
