#!/bin/sh
test_description='gitfiles, worktrees and repository formats, compared with git'
. "$(dirname "$0")/test-lib.sh"

# same TOOL ARGS...: our TOOL and git's, same output and exit status.
same() {
	_tool=$1
	shift
	$_tool "$@" >ours 2>ours.err
	echo $? >>ours
	git $_tool "$@" >theirs
	echo $? >>theirs
	test_cmp theirs ours
}

# same_error CMD...: our tool fails with exit 128 and git's one line
# (its "fatal: " ours "<tool>: ").
same_error() {
	test_expect_code 128 "$@" >out 2>err &&
	test_must_fail test -s out &&
	test_must_fail git rev-parse HEAD 2>git-err &&
	sed "s/^fatal: /$1: /" git-err >expect &&
	test_cmp expect err
}

test_expect_success 'setup: a repository and a worktree of it' '
	git init -q main && cd main &&
	mkdir d && echo one >a && echo two >d/b &&
	git add a d/b && git commit -q -m first &&
	echo three >>a && git commit -q -a -m second &&
	git worktree add -q ../wt1 &&
	git pack-refs --all &&
	printf "%s\n" ours ours.err theirs actual expect >.git/info/exclude &&
	test -f ../wt1/.git &&
	test -f .git/worktrees/wt1/commondir
'

test_expect_success 'rev-parse and rev-list in the worktree agree with git' '
	cd wt1 &&
	same rev-parse HEAD &&
	same rev-parse wt1 master refs/heads/wt1 &&
	same rev-list HEAD &&
	same rev-list --parents HEAD &&
	same rev-list --objects --all
'

test_expect_success 'the worktree index is its own: ls-files, write-tree' '
	cd wt1 &&
	echo new >c && git add c &&
	same ls-files -s &&
	same write-tree &&
	(cd ../main && same ls-files -s && same write-tree) &&
	same cat-file -p HEAD &&
	same cat-file -p "$(git write-tree)"
'

test_expect_success 'show-diff in the worktree is git diff' '
	cd wt1 &&
	echo four >>a && rm d/b &&
	show-diff >ours &&
	git diff >theirs &&
	test_cmp theirs ours &&
	git checkout -- d/b
'

test_expect_success 'update-cache writes the worktree index git reads' '
	cd wt1 &&
	update-cache a &&
	git status --porcelain >actual &&
	printf "M  a\nA  c\n" >expect &&
	test_cmp expect actual &&
	(cd ../main && git status --porcelain >actual && test_cmp /dev/null actual)
'

test_expect_success 'commit-tree and update-ref HEAD move the worktree branch only' '
	cd wt1 &&
	main_head=$(git -C ../main rev-parse HEAD) &&
	tree=$(write-tree) &&
	commit=$(echo third | commit-tree $tree -p HEAD) &&
	update-ref HEAD $commit &&
	test "$(git rev-parse HEAD)" = $commit &&
	test "$(git rev-parse wt1)" = $commit &&
	test "$(git -C ../main rev-parse HEAD)" = $main_head &&
	test "$(git -C ../main rev-parse wt1)" = $commit &&
	test -f ../main/.git/refs/heads/wt1 &&
	test_must_fail test -e ../main/.git/worktrees/wt1/refs &&
	git status --porcelain >actual &&
	test_cmp /dev/null actual &&
	same rev-list HEAD
'

test_expect_success 'refs/bisect, refs/worktree are the worktree own' '
	cd wt1 &&
	first=$(git rev-parse HEAD~2) &&
	update-ref refs/bisect/bad $first &&
	update-ref refs/worktree/mark $first &&
	test -f ../main/.git/worktrees/wt1/refs/bisect/bad &&
	test -f ../main/.git/worktrees/wt1/refs/worktree/mark &&
	same rev-parse refs/bisect/bad refs/worktree/mark &&
	same rev-list --all &&
	cd ../main &&
	test_must_fail rev-parse refs/bisect/bad 2>err &&
	test_must_fail git rev-parse --verify -q refs/bisect/bad &&
	same rev-list --all
'

test_expect_success 'rev-list --all takes the other worktrees HEADs, as git' '
	git -C main checkout -q --detach &&
	(cd main && echo five >e && git add e && git commit -q -m detached) &&
	cd wt1 &&
	same rev-list --all &&
	same rev-list --objects --all &&
	cd ../main &&
	same rev-list --all
'

test_expect_success 'GIT_DIR naming the gitfile is followed too' '
	cd wt1 &&
	GIT_DIR=.git rev-parse HEAD >actual &&
	git rev-parse HEAD >expect &&
	test_cmp expect actual
'

test_expect_success 'a submodule gitfile: gitdir relative to its directory' '
	git init -q super && mkdir super/.git/modules &&
	git clone -q -b master --separate-git-dir super/.git/modules/x \
		main super/x &&
	echo "gitdir: ../.git/modules/x" >super/x/.git &&
	cp main/.git/info/exclude super/.git/modules/x/info/ &&
	cd super/x &&
	same rev-parse HEAD &&
	same ls-files -s &&
	echo changed >a &&
	show-diff >ours && git diff >theirs && test_cmp theirs ours &&
	update-cache a && git status --porcelain >actual &&
	echo "M  a" >expect && test_cmp expect actual
'

test_expect_success 'a gitfile naming nothing: git says so, exit 128' '
	mkdir nowhere && cd nowhere &&
	echo "gitdir: elsewhere" >.git &&
	for cmd in "rev-parse HEAD" ls-files write-tree show-diff \
		   "update-cache --refresh" "cat-file -t HEAD" fsck-cache \
		   "rev-list HEAD" init-db; do
		same_error $cmd || return 1
	done &&
	test_must_fail test -e elsewhere &&
	echo "gitdir: ../main" >.git &&
	same_error rev-parse HEAD
'

test_expect_success 'a gitfile git cannot read: git says so, exit 128' '
	mkdir garbage && cd garbage &&
	echo "not a gitfile" >.git &&
	same_error rev-parse HEAD &&
	same_error init-db &&
	printf "gitdir:../main/.git\n" >.git &&
	same_error ls-files &&
	: >.git &&
	same_error write-tree &&
	test_must_fail test -e .dircache
'

test_done
