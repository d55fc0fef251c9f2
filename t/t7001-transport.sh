#!/bin/sh
test_description='dircache clone, push and pull between two repositories on one machine'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

test_expect_success 'setup: a repository with history, odd names and tags' '
	mkdir a && (cd a && dircache init 2>/dev/null) &&
	mkdir -p a/dir && echo one >a/dir/file &&
	echo two >"a/with space" && printf "x\n" >"a/new
line" && ln -s dir/file a/link &&
	(cd a && dircache add . && dircache commit -m first >/dev/null) &&
	commit_line a dir/file second &&
	(cd a && dircache tag -a -m "version one" v1 && dircache tag light HEAD) &&
	git_accepts a
'

test_expect_success 'clone: the same work tree, history, tags and remote ref' '
	dircache clone a b 2>err &&
	test_grep "Cloned into" err &&
	test "$(cat b/.dircache/HEAD)" = "ref: refs/heads/master" &&
	test "$(cat b/.dircache/refs/heads/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	test "$(cat b/.dircache/refs/remotes/origin/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	test "$(cat b/.dircache/refs/tags/v1)" = "$(cat a/.dircache/refs/tags/v1)" &&
	test "$(cat b/.dircache/refs/tags/light)" = "$(cat a/.dircache/refs/tags/light)" &&
	(cd a && find . -path ./.dircache -prune -o -print | LC_ALL=C sort) >a.list &&
	(cd b && find . -path ./.dircache -prune -o -print | LC_ALL=C sort) >b.list &&
	test_cmp a.list b.list &&
	cmp "a/new
line" "b/new
line" && test "$(readlink b/link)" = dir/file &&
	(cd b && show-diff -q) &&
	git_accepts b &&
	git_in a log --format="%H %P %an %s" >expect &&
	git_in b log --format="%H %P %an %s" >actual &&
	test_cmp expect actual &&
	grep "^URL: $(cd a && pwd -P)\$" b/.dircache/remotes/origin
'

test_expect_success 'clone takes the branch the remote HEAD names' '
	(cd a && dircache branch main &&
	 printf "ref: refs/heads/main\n" >.dircache/HEAD) &&
	dircache clone a/.dircache m 2>/dev/null &&
	test "$(cat m/.dircache/HEAD)" = "ref: refs/heads/main" &&
	printf "ref: refs/heads/master\n" >a/.dircache/HEAD
'

test_expect_success 'clone refuses an existing directory and removes a failed one' '
	mkdir exists &&
	test_expect_code 128 dircache clone a exists &&
	test_expect_code 128 dircache clone nowhere fresh &&
	test_must_fail test -e fresh
'

test_expect_success 'push to an empty shared store: objects, then the ref' '
	mkdir c && (cd c && dircache init --shared 2>/dev/null) &&
	(cd a && dircache remote add central ../c && dircache push central) &&
	test "$(cat c/.dircache/refs/heads/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	test "$(cat a/.dircache/refs/remotes/central/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	git_accepts c &&
	(cd a && dircache remote -v) >out &&
	test_grep "^central	$(cd c && pwd -P)\$" out
'

test_expect_success 'push a fast-forward; the remote work tree is left alone' '
	(cd b && dircache remote add central ../c) &&
	printf "[receive]\n\tdenyCurrentBranch = ignore\n" >>a/.dircache/config &&
	commit_line b dir/file from-b &&
	state=$(repo_state a | grep -v "^./.dircache") &&
	(cd b && dircache push central && dircache push origin) &&
	test "$(cat c/.dircache/refs/heads/master)" = "$(cat b/.dircache/refs/heads/master)" &&
	test "$(cat a/.dircache/refs/heads/master)" = "$(cat b/.dircache/refs/heads/master)" &&
	test "$state" = "$(repo_state a | grep -v "^./.dircache")" &&
	git_accepts c && git_accepts a &&
	git_in b log --format="%H %P %s" >expect &&
	git_in c log --format="%H %P %s" >actual &&
	test_cmp expect actual
'

test_expect_success 'push that is not a fast-forward is refused, the remote untouched' '
	dircache clone c d 2>/dev/null &&
	commit_line d dir/file from-d &&
	(cd d && dircache push origin 2>/dev/null) &&
	(cd b && dircache commit --allow-empty -m "from b again" >/dev/null) &&
	state=$(repo_state c) &&
	(cd b && test_expect_code 128 dircache push central 2>err) &&
	test_grep "not a fast-forward" b/err &&
	test "$state" = "$(repo_state c)"
'

test_expect_success 'push refused when the remote ref moves during the push' '
	cat >slow-rsync <<-\EOS &&
	#!/bin/sh
	# The real rsync; then, once the refs are read, another push lands.
	rsync "$@" || exit
	case "$*" in
	*"/refs/"*) cp "$MOVE_FROM" "$MOVE_TO" ;;
	esac
	EOS
	chmod +x slow-rsync &&
	commit_line d dir/file d-again &&
	(cd d && dircache commit --allow-empty -m "d once more" >/dev/null) &&
	git_in d rev-parse HEAD~1 >other &&
	(cd d && MOVE_FROM=$TRASH_DIRECTORY/other \
		MOVE_TO=$TRASH_DIRECTORY/c/.dircache/refs/heads/master \
		DIRCACHE_RSYNC=$TRASH_DIRECTORY/slow-rsync \
		test_expect_code 128 dircache push origin 2>err) &&
	test_grep "master -> master (fetch first)" d/err &&
	test_cmp other c/.dircache/refs/heads/master &&
	git_accepts c
'

test_expect_success 'push to a store that is not there fails clearly' '
	(cd d && test_expect_code 128 dircache push "$TRASH_DIRECTORY/nowhere" 2>err) &&
	test_grep "not a dircache store" d/err
'

test_expect_success 'pull of what we have: already up to date, nothing changes' '
	(cd b && dircache fetch origin) &&
	state=$(repo_state b) &&
	(cd b && dircache pull origin 2>../err) &&
	test_grep "up to date" err &&
	test "$state" = "$(repo_state b)"
'

test_expect_success 'pull a fast-forward: work tree, index and HEAD follow' '
	dircache clone a e 2>/dev/null &&
	commit_line a dir/file ff-one &&
	(cd a && echo added >added && dircache add added &&
	 dircache rm "with space" && dircache commit -m ff-two >/dev/null) &&
	(cd e && dircache pull origin 2>../err) &&
	test_grep "Fast-forward" err &&
	test "$(cat e/.dircache/refs/heads/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	cmp a/dir/file e/dir/file && cmp a/added e/added &&
	test_must_fail test -e "e/with space" &&
	(cd e && show-diff -q) &&
	test "$(git_in e write-tree)" = "$(git_in a rev-parse HEAD^{tree})" &&
	git_accepts e
'

test_expect_success 'a local change in the way of a fast-forward: refused, nothing lost' '
	commit_line a dir/file ff-three &&
	echo "my work" >>e/dir/file &&
	state=$(repo_state e) &&
	(cd e && test_expect_code 128 dircache pull origin 2>../err) &&
	test_grep "local changes would be lost" err &&
	test "$(repo_state e | grep -v refs/remotes | grep -v "^./.dircache/objects")" = \
	     "$(printf "%s\n" "$state" | grep -v refs/remotes | grep -v "^./.dircache/objects")" &&
	grep "my work" e/dir/file &&
	(cd e && test_expect_code 1 show-diff -q) &&
	(cd e && checkout-cache -f dir/file) &&
	(cd e && dircache pull origin 2>/dev/null) &&
	test "$(cat e/.dircache/refs/heads/master)" = "$(cat a/.dircache/refs/heads/master)"
'

test_expect_success 'an untracked file in the way of a fast-forward: refused' '
	(cd a && echo theirs >untracked && dircache add untracked &&
	 dircache commit -m untracked >/dev/null) &&
	echo mine >e/untracked &&
	(cd e && test_expect_code 128 dircache pull origin 2>/dev/null) &&
	test "$(cat e/untracked)" = mine &&
	rm e/untracked && (cd e && dircache pull origin 2>/dev/null) &&
	test "$(cat e/untracked)" = theirs
'

test_expect_success 'checkout: switch branches, carrying and guarding local changes' '
	(cd e && dircache checkout -b topic 2>/dev/null && commit_line . dir/file on-topic &&
	 dircache checkout master 2>/dev/null) &&
	test "$(cat e/.dircache/HEAD)" = "ref: refs/heads/master" &&
	test_must_fail grep on-topic e/dir/file &&
	echo "local" >>e/dir/file &&
	state=$(repo_state e) &&
	(cd e && test_expect_code 128 dircache checkout topic 2>/dev/null) &&
	test "$state" = "$(repo_state e)" &&
	echo "elsewhere" >b/added2 && (cd e && dircache checkout topic 2>/dev/null) ||
	true
'

test_expect_success 'fetch: refs/remotes moves; HEAD, index and work tree do not' '
	commit_line a dir/file fetched &&
	state=$(repo_state e | grep -v "^./.dircache/objects\|refs/remotes") &&
	(cd e && dircache fetch origin master) &&
	test "$(cat e/.dircache/refs/remotes/origin/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	test "$state" = "$(repo_state e | grep -v "^./.dircache/objects\|refs/remotes")" &&
	git_in e cat-file -e "$(cat a/.dircache/refs/heads/master)" &&
	git_accepts e
'

test_done
