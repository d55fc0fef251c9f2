#!/bin/sh
test_description='refresh: update-cache --refresh and applymbox see the same stale entries, as git does'
. "$(dirname "$0")/test-lib.sh"

# git on the repository in the current directory.
g() {
	GIT_DIR=.dircache git "$@"
}

# The paths that update-cache --refresh, git update-index --refresh and
# applymbox's check of the work tree find stale, into ours, git and am.
# A file "dirty" is always changed, so that each list has a line and
# applymbox always refuses.
stale_lists() {
	echo more >>dirty &&
	{ update-cache --refresh >out; test $? -le 1; } &&
	sed -n "s/: needs update$//p" out | sort >../ours &&
	{ g update-index --refresh >out; test $? -le 1; } &&
	sed -n "s/: needs update$//p" out | sort >../git &&
	test_expect_code 128 applymbox /dev/null 2>err &&
	sed -n "s/: changed in the work tree$//p" err | sort >../am &&
	rm out err
}

test_expect_success 'setup: files, a skip-worktree file and a gitlink' '
	test_create_repo r && cd r &&
	echo a >a && echo b >b && echo d >dirty &&
	g add a b dirty &&
	g update-index --add --cacheinfo 160000,$(g hash-object a),sub &&
	mkdir sub &&
	g commit -qm base
'

test_expect_success 'a plain change: each tool lists it' '
	cd r &&
	stale_lists &&
	echo dirty >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am
'

test_expect_success 'a skip-worktree file that is gone is not stale' '
	cd r &&
	g update-index --skip-worktree b && rm b &&
	stale_lists &&
	echo dirty >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am &&
	g update-index --no-skip-worktree b && g checkout b
'

test_expect_success 'a skip-worktree file that changed is not stale' '
	cd r &&
	g update-index --skip-worktree b && echo other >b &&
	stale_lists &&
	echo dirty >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am &&
	g update-index --no-skip-worktree b && g checkout b
'

test_expect_success 'a gitlink whose directory is gone is stale' '
	cd r &&
	rmdir sub &&
	stale_lists &&
	printf "dirty\nsub\n" >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am
'

test_expect_success 'a gitlink with a file in its place is stale' '
	cd r &&
	echo x >sub &&
	stale_lists &&
	printf "dirty\nsub\n" >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am &&
	rm sub
'

test_expect_success 'a gitlink with its (empty) directory is up to date' '
	cd r &&
	mkdir sub &&
	stale_lists &&
	echo dirty >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am
'

test_expect_success 'a gitlink whose repository has another HEAD is stale' '
	cd r &&
	(
		cd sub && git init -q && echo s >s && git add s &&
		git commit -qm sub
	) &&
	stale_lists &&
	printf "dirty\nsub\n" >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am &&
	git -C sub pack-refs --all &&
	test_must_fail test -e sub/.git/refs/heads/master &&
	stale_lists &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am
'

test_expect_success 'a gitlink at its repository HEAD is up to date' '
	cd r &&
	g update-index --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub &&
	g commit -qm "sub at its HEAD" &&
	stale_lists &&
	echo dirty >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am
'

test_expect_success 'a gitlink whose .git is a gitdir file is read through it' '
	cd r &&
	mv sub/.git ../sub.git &&
	echo "gitdir: ../../sub.git" >sub/.git &&
	stale_lists &&
	echo dirty >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am &&
	(cd sub && git commit -q --allow-empty -m again) &&
	stale_lists &&
	printf "dirty\nsub\n" >../expect &&
	test_cmp ../expect ../ours && test_cmp ../ours ../git &&
	test_cmp ../ours ../am
'

test_done
