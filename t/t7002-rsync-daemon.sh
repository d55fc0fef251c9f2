#!/bin/sh
test_description='dircache clone, push and pull over a real rsync daemon on 127.0.0.1'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-rsyncd.sh"

# The daemon on a free port of 127.0.0.1, stopped when the script ends:
# lib-rsyncd.sh's, module "stores" serves srv/ with the README's
# pre-xfer exec, $URL.
start_daemon || exit 1

test_expect_success 'the daemon answers' '
	i=0 &&
	while ! rsync --list-only "$URL/" >/dev/null 2>&1; do
		i=$((i + 1)) && test $i -lt 100 && sleep 0.1 || return 1
	done
'

test_expect_success 'setup: a repository served by the daemon' '
	mkdir srv/a && (cd srv/a && dircache init 2>/dev/null) &&
	printf "[receive]\n\tdenyCurrentBranch = ignore\n" >>srv/a/.dircache/config &&
	mkdir -p "srv/a/a dir" && echo one >"srv/a/a dir/file" &&
	printf "x\n" >"srv/a/new
line" &&
	(cd srv/a && dircache add . && dircache commit -m first >/dev/null &&
	 dircache tag -a -m "one" v1) &&
	commit_line srv/a "a dir/file" second
'

test_expect_success 'clone over rsync://' '
	dircache clone "$URL/a" b 2>err &&
	test "$(cat b/.dircache/refs/heads/master)" = "$(cat srv/a/.dircache/refs/heads/master)" &&
	test "$(cat b/.dircache/refs/tags/v1)" = "$(cat srv/a/.dircache/refs/tags/v1)" &&
	cmp "srv/a/a dir/file" "b/a dir/file" &&
	cmp "srv/a/new
line" "b/new
line" &&
	grep "^URL: $URL/a\$" b/.dircache/remotes/origin &&
	git_accepts b &&
	git_in srv/a log --format="%H %P %s" >expect &&
	git_in b log --format="%H %P %s" >actual &&
	test_cmp expect actual
'

test_expect_success 'push over rsync://: objects, then the ref' '
	commit_line b "a dir/file" from-b &&
	(cd b && dircache push origin) &&
	test "$(cat srv/a/.dircache/refs/heads/master)" = "$(cat b/.dircache/refs/heads/master)" &&
	git_accepts srv/a &&
	find srv/a/.dircache -mindepth 1 -name ".*" >dotfiles &&
	test_must_fail test -s dotfiles
'

test_expect_success 'a ref written in the same second as the remote one still lands' '
	cat >same-second-rsync <<-\EOS &&
	#!/bin/sh
	# Give the new ref file the remote one'"'"'s mtime, as when both
	# were written in the same second; then the real rsync.
	for last; do :; done
	case $last in
	*/refs/heads/*)
		for a; do
			case $a in */ref) src=$a ;; esac
		done
		mine=${last#rsync://127.0.0.1:*/stores/}
		touch -r "$TRASH_DIRECTORY/srv/$mine" "$src"
		;;
	esac
	exec rsync "$@"
	EOS
	chmod +x same-second-rsync &&
	commit_line b "a dir/file" same-second &&
	(cd b && DIRCACHE_RSYNC=$TRASH_DIRECTORY/same-second-rsync \
		dircache push origin 2>/dev/null) &&
	test "$(cat srv/a/.dircache/refs/heads/master)" = "$(cat b/.dircache/refs/heads/master)"
'

test_expect_success 'a push that is not a fast-forward is refused' '
	dircache clone "$URL/a" c 2>/dev/null &&
	commit_line c "a dir/file" from-c &&
	(cd c && dircache push origin 2>/dev/null) &&
	(cd b && dircache commit --allow-empty -m "b again" >/dev/null) &&
	state=$(repo_state srv/a) &&
	(cd b && test_expect_code 128 dircache push origin 2>../err) &&
	test_grep "not a fast-forward" err &&
	test "$state" = "$(repo_state srv/a)"
'

test_expect_success 'a hostile store over rsync:// is refused' '
	cp -a srv/a srv/h &&
	commit_line srv/h "a dir/file" hostile &&
	blob=$(git_in srv/h rev-parse HEAD:"a dir/file") &&
	f=srv/h/$(obj_file $blob) && chmod +w $f && printf junk >$f &&
	state=$(repo_state b) &&
	(cd b && test_expect_code 128 dircache pull "$URL/h" 2>../err) &&
	test_grep "bad object" err &&
	test "$state" = "$(repo_state b)"
'

test_expect_success 'a store missing on the daemon: rsync error shown' '
	(cd b && test_expect_code 128 dircache pull "$URL/nowhere" 2>../err) &&
	test_grep "^rsync: " err && test_grep "could not read the refs" err
'

test_expect_success 'host:path, through rsync -e (a stand-in for ssh)' '
	cat >fake-ssh <<-\EOS &&
	#!/bin/sh
	# "ssh host command...": run the command here, from $HOME.
	shift
	cd "$HOME" && exec sh -c "$*"
	EOS
	chmod +x fake-ssh &&
	RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh &&
	export RSYNC_RSH &&
	dircache clone box1:srv/a viassh 2>/dev/null &&
	test "$(cat viassh/.dircache/refs/heads/master)" = "$(cat srv/a/.dircache/refs/heads/master)" &&
	grep "^URL: box1:srv/a\$" viassh/.dircache/remotes/origin &&
	commit_line viassh "a dir/file" via-ssh &&
	(cd viassh && dircache push origin 2>/dev/null) &&
	test "$(cat srv/a/.dircache/refs/heads/master)" = "$(cat viassh/.dircache/refs/heads/master)" &&
	git_accepts srv/a
'

stop_daemon
test_expect_success 'the daemon is stopped' '
	test_must_fail rsync --list-only "$URL/" 2>/dev/null
'

test_done
