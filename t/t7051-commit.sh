#!/bin/sh
test_description='dircache commit and commit -a in one pass, against git commit'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# git commit in the copy $1 of a repository (its store as GIT_DIR).
git_commit() {
	_dir=$1
	shift
	git --git-dir="$_dir/.dircache" --work-tree="$_dir" commit -q "$@"
}

# The tree of HEAD in the repository $1.
head_tree() {
	git --git-dir="$1/.dircache" rev-parse "HEAD^{tree}"
}

# Every file of r gets an mtime long past, the index refreshed: no file
# is racily clean, so only what changes later is hashed.
settle() {
	find r -path r/.dircache -prune -o -type f -print |
		while read -r f; do touch -d @1000000000 "$f" || exit 1; done &&
	(cd r && update-cache --refresh >/dev/null)
}

test_expect_success 'setup: a repository with a commit' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	mkdir -p r/d/e r/f && echo a >r/d/e/a && echo b >r/b && echo c >r/c &&
	echo k >r/d/keep && echo g >r/f/g && echo h >r/f/h &&
	(cd r && dircache add . && dircache commit -m one >/dev/null) &&
	settle
'

test_expect_success 'commit -a from a subdirectory: the tree git commit -a makes' '
	echo more >>r/d/e/a && rm r/c && echo gg >>r/f/g &&
	touch -d @1000000001 r/d/e/a r/f/g &&
	echo untracked >r/d/new &&
	rm -rf g && cp -R r g &&
	(cd r/d && DIRCACHE_TEST_HASH_LOG="$TRASH_DIRECTORY/hashed" \
		dircache commit -a -m two >../../id) &&
	git_commit g -a -m two &&
	test "$(head_tree g)" = "$(head_tree r)" &&
	git --git-dir=g/.dircache ls-files -s >expect &&
	(cd r && ls-files -s) >actual &&
	test_cmp expect actual &&
	test "$(cat id)" = "$(cat r/.dircache/refs/heads/master)" &&
	printf "d/e/a\nf/g\n" >expect &&
	sort hashed >actual &&
	test_cmp expect actual
'

test_expect_success 'the index commit -a leaves has its cache tree whole' '
	cp r/.dircache/index before &&
	(cd r && write-tree >/dev/null) &&
	cmp before r/.dircache/index &&
	git --git-dir=g/.dircache ls-files >/dev/null &&
	git --git-dir=r/.dircache fsck --strict --no-dangling >/dev/null
'

test_expect_success 'commit without -a commits the index, not the work tree' '
	settle && echo staged >>r/b && (cd r && dircache add b) &&
	echo unstaged >>r/f/h && touch -d @1000000002 r/f/h &&
	rm -rf g && cp -R r g &&
	(cd r && dircache commit -m three >/dev/null) &&
	git_commit g -m three &&
	test "$(head_tree g)" = "$(head_tree r)" &&
	(cd r && dircache status -s) >actual &&
	printf " M f/h\n?? d/new\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'an intent-to-add entry: left out by commit, in by commit -a' '
	echo n >r/f/n && echo b4 >>r/b && (cd r && dircache add b) &&
	git --git-dir=r/.dircache --work-tree=r add -N f/n &&
	rm -rf g && cp -R r g &&
	(cd r && dircache commit -m four >/dev/null) &&
	git_commit g -m four &&
	test "$(head_tree g)" = "$(head_tree r)" &&
	git --git-dir=g/.dircache ls-files -s >expect &&
	(cd r && ls-files -s) >actual &&
	test_cmp expect actual &&
	(cd r && dircache commit -a -m five >/dev/null) &&
	git_commit g -a -m five &&
	test "$(head_tree g)" = "$(head_tree r)" &&
	git --git-dir=r/.dircache cat-file -p HEAD:f/n >actual &&
	echo n >expect &&
	test_cmp expect actual
'

test_expect_success 'nothing to commit: refused, the store and refs as they were' '
	(cd r && dircache commit -a -m x >/dev/null 2>&1 || :) &&
	repo_state r >before &&
	(cd r && test_expect_code 128 dircache commit -a -m six 2>../err) &&
	test_grep "nothing to commit" err &&
	repo_state r >after &&
	test_cmp before after
'

test_expect_success 'commit into a closed pipe: committed, no temporary left' '
	echo pipe >>r/b &&
	(cd r && dircache commit -a -m pipe | :) &&
	test "$(git --git-dir=r/.dircache log -1 --format=%s)" = pipe &&
	test -z "$(ls -d r/.dircache/tmp-* r/.dircache/*.lock 2>/dev/null)"
'

test_expect_success 'commit killed while it reads the message: nothing left' '
	echo killed >>r/b &&
	repo_state r >before &&
	mkfifo fifo || return 1
	sleep 30 >fifo &
	writer=$!
	(cd r && exec dircache commit -a -F - <../fifo) &
	pid=$!
	i=0 &&
	while [ -z "$(ls -d r/.dircache/tmp-commit-* 2>/dev/null)" ]; do
		i=$((i + 1)) && [ $i -lt 200 ] && sleep 0.05 || break
	done &&
	test -n "$(ls -d r/.dircache/tmp-commit-* 2>/dev/null)" &&
	kill -s TERM $pid && kill $writer &&
	test_expect_code 143 wait $pid &&
	repo_state r >after &&
	test_cmp before after
'

# The signal at the worst moment: right after mktemp made the
# directory, before the script has its name (a mktemp that sends its
# caller SIGTERM as it returns).  The cleanup must already be armed.
test_expect_success 'SIGTERM as the temporary directory is made: nothing left' '
	mkdir -p term-bin &&
	real=$(command -v mktemp) &&
	cat >term-bin/mktemp <<-EOF &&
	#!/bin/sh
	"$real" "\$@" || exit
	case "\$*" in *tmp-commit-*) kill -s TERM \$PPID ;; esac
	EOF
	chmod +x term-bin/mktemp &&
	echo term >>r/b &&
	repo_state r >before &&
	(cd r && PATH=../term-bin:$PATH &&
	 test_expect_code 143 dircache commit -a -m term) &&
	repo_state r >after &&
	test_cmp before after
'

test_expect_success 'add-files --write-tree lists unmerged paths, writes nothing' '
	blob=$(cd r && git --git-dir=.dircache hash-object -w b) &&
	printf "0 %s 0\tb\n100644 %s 1\tb\n100644 %s 2\tb\n" \
		$blob $blob $blob >entries &&
	git --git-dir=r/.dircache --work-tree=r update-index --index-info <entries &&
	cp r/.dircache/index before &&
	(cd r && test_expect_code 1 add-files -u --write-tree) >out &&
	echo b >expect &&
	test_cmp expect out &&
	cmp before r/.dircache/index
'

test_done
