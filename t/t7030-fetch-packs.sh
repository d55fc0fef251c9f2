#!/bin/sh
test_description='clone, fetch and pull keep packs: every remote kind, every branch and tag, hostile packs, kills, progress'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-rsyncd.sh"

# The rsync daemon of t7002, serving the trash directory (free_port
# and stop_daemon: lib-rsyncd.sh).
trap 'stop_daemon' EXIT

# host:path through a stand-in for ssh that runs the command here.
cat >fake-ssh <<EOS
#!/bin/sh
shift
cd "$TRASH_DIRECTORY" && exec sh -c "\$*"
EOS
chmod +x fake-ssh

# The clone $1 of a holds a's packs' objects as packs (no loose
# object), passes fsck-cache and git fsck --strict, and has every
# branch of a as refs/remotes/origin/<branch> and every tag.
clone_ok() {
	ls "$1"/.dircache/objects/pack/pack-*.pack >/dev/null &&
	test -z "$(find "$1/.dircache/objects" -path "*/[0-9a-f][0-9a-f]/*")" &&
	(cd "$1" && fsck-cache --strict) &&
	git_accepts "$1" &&
	git_in a for-each-ref --format="%(objectname) %(refname)" \
		refs/heads refs/tags |
		sed "s| refs/heads/| refs/remotes/origin/|" >expect &&
	git_in "$1" for-each-ref --format="%(objectname) %(refname)" \
		refs/remotes refs/tags >actual &&
	test_cmp expect actual &&
	test -z "$(ls -d "$1"/.dircache/objects/tmp_objdir* 2>/dev/null)"
}

# Objects of the store $1, one id a line, sorted (git's view).
objects_of() {
	git_in "$1" cat-file --batch-all-objects --batch-check="%(objectname)"
}

test_expect_success 'setup: two branches, two tags, all packed by git repack' '
	mkdir a && (cd a && dircache init 2>/dev/null) &&
	seq 1 300 >a/file && mkdir a/dir && echo two >a/dir/f &&
	(cd a && dircache add . && dircache commit -m first >/dev/null &&
	 dircache tag -a -m "version one" v1 && dircache branch side &&
	 dircache checkout side 2>/dev/null) &&
	commit_line a dir/f on-side &&
	(cd a && dircache tag light && dircache checkout master 2>/dev/null) &&
	sed -i "s/^150\$/150 changed/" a/file &&
	(cd a && dircache commit -a -m second >/dev/null) &&
	GIT_DIR=a/.dircache git repack -a -d -q &&
	test -z "$(find a/.dircache/objects -path "*/[0-9a-f][0-9a-f]/*")" &&
	git_in a rev-parse side >side && git_in a rev-parse master >master
'

test_expect_success 'setup: the rsync daemon' '
	cat >rsyncd.conf <<-EOF &&
	use chroot = no
	uid = $(id -u)
	gid = $(id -g)
	log file = $TRASH_DIRECTORY/rsyncd.log
	[t]
	path = $TRASH_DIRECTORY
	read only = yes
	EOF
	free_port >port
'
port=$(cat port)
rsync --daemon --no-detach --address=127.0.0.1 --port="$port" \
	--config="$TRASH_DIRECTORY/rsyncd.conf" 2>/dev/null &
daemon_pid=$!
URL=rsync://127.0.0.1:$port/t

test_expect_success 'the daemon answers' '
	i=0 &&
	while ! rsync --list-only "$URL/" >/dev/null 2>&1; do
		i=$((i + 1)) && test $i -lt 100 && sleep 0.1 || return 1
	done
'

test_expect_success 'clone from a local path: the pack kept, all refs' '
	dircache clone a c1 2>err &&
	clone_ok c1 &&
	test "$(git_in c1 rev-parse HEAD)" = "$(cat master)" &&
	cmp a/file c1/file && (cd c1 && show-diff -q) &&
	test "$(cat err)" = "Cloned into '"'c1'"'."
'

test_expect_success 'clone over host:path (dircache upload through ssh)' '
	RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh dircache clone box:a c2 2>/dev/null &&
	clone_ok c2 &&
	grep "^URL: box:a\$" c2/.dircache/remotes/origin
'

test_expect_success 'clone over rsync://: the remote pack by name, idx computed' '
	dircache clone "$URL/a" c3 2>/dev/null &&
	clone_ok c3 &&
	(cd a/.dircache/objects/pack && ls) >expect &&
	(cd c3/.dircache/objects/pack && ls) >actual &&
	test_cmp expect actual
'

test_expect_success 'host:path without dircache upload there: the rsync way' '
	RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh DIRCACHE_UPLOAD=no-such-program \
		dircache clone box:a c4 2>/dev/null &&
	clone_ok c4
'

test_expect_success 'pull from a packed remote: one new pack of the new objects' '
	(cd a && echo three >dir/g && dircache add dir/g &&
	 dircache commit -m third >/dev/null) &&
	GIT_DIR=a/.dircache git repack -a -d -q &&
	objects_of c1 >before &&
	ls c1/.dircache/objects/pack/*.idx >idx-before &&
	(cd c1 && dircache pull origin 2>/dev/null) &&
	test "$(git_in c1 rev-parse HEAD)" = "$(git_in a rev-parse HEAD)" &&
	test -f c1/dir/g &&
	ls c1/.dircache/objects/pack/*.idx >idx-after &&
	new=$(comm -13 idx-before idx-after) &&
	git_in c1 verify-pack -v $new | grep -c "^[0-9a-f]\{$OID_HEXSZ\} " >count &&
	# the commit, its tree, dir/ and dir/g
	echo 4 >expect && test_cmp expect count &&
	clone_ok c1
'

test_expect_success 'pull over rsync:// after the remote repacked' '
	(cd c3 && dircache pull origin 2>/dev/null) &&
	test "$(git_in c3 rev-parse HEAD)" = "$(git_in a rev-parse HEAD)" &&
	test -f c3/dir/g &&
	git_accepts c3
'

test_expect_success 'fetch brings a new branch and tag; checkout makes the branch' '
	(cd a && dircache branch topic side && dircache tag -a -m two v2 side) &&
	(cd c2 && RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh dircache fetch origin) &&
	test "$(git_in c2 rev-parse refs/remotes/origin/topic)" = "$(cat side)" &&
	test "$(git_in c2 rev-parse v2^{commit})" = "$(cat side)" &&
	test "$(git_in c2 cat-file -t v2)" = tag &&
	(cd c2 && dircache checkout topic 2>../err) &&
	test_grep "branch .topic. set up to track .origin/topic.\." err &&
	test_grep "Switched to branch .topic." err &&
	test "$(cat c2/.dircache/HEAD)" = "ref: refs/heads/topic" &&
	test "$(git_in c2 rev-parse topic)" = "$(cat side)" &&
	grep on-side c2/dir/f && (cd c2 && show-diff -q)
'

test_expect_success 'pull on that branch merges its upstream, not the remote HEAD' '
	commit_line a file on-master-again &&
	(cd a && dircache checkout topic 2>/dev/null) &&
	commit_line a dir/f on-topic &&
	(cd a && dircache checkout master 2>/dev/null) &&
	(cd c2 && RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh dircache pull origin 2>/dev/null) &&
	test "$(git_in c2 rev-parse HEAD)" = "$(git_in a rev-parse topic)" &&
	grep on-topic c2/dir/f && test_must_fail grep on-master-again c2/file
'

test_expect_success 'checkout of a name no remote has, or two have: refused' '
	(cd c2 && test_expect_code 128 dircache checkout nothere 2>../err) &&
	test_grep "no branch .nothere." err &&
	mkdir -p c2/.dircache/refs/remotes/other &&
	cp c2/.dircache/refs/remotes/origin/side c2/.dircache/refs/remotes/other/ &&
	state=$(repo_state c2) &&
	(cd c2 && test_expect_code 128 dircache checkout side 2>../err) &&
	test_grep "several remotes (origin/side other/side" err &&
	test "$state" = "$(repo_state c2)"
'

# A remote whose upload sends what $EVIL_PACK holds.
cat >evil-upload <<\EOS
#!/bin/sh
cat >/dev/null
cat "$EVIL_PACK"
EOS
chmod +x evil-upload

# The fetch of c1 from $1 by evil-upload sending pack $2 is refused,
# the last line naming the remote, $3 said, and c1 is unchanged.
evil_refused() {
	state=$(repo_state c1) &&
	(cd c1 && EVIL_PACK=$TRASH_DIRECTORY/$2 \
		DIRCACHE_UPLOAD=$TRASH_DIRECTORY/evil-upload \
		test_expect_code 128 dircache fetch "../$1" 2>../err) &&
	tail -n 1 err >last &&
	test_grep "^dircache [a-z]*: refusing .* $TRASH_DIRECTORY/$1" last &&
	test_grep "$3" err &&
	test "$state" = "$(repo_state c1)"
}

test_expect_success 'setup: a remote one commit ahead, its objects as a pack' '
	(cd c1 && dircache fetch origin 2>/dev/null) &&
	rm -rf h && cp -a a h &&
	commit_line h file evil &&
	git_in h rev-list --objects HEAD ^$(git_in a rev-parse HEAD) |
		git_in h pack-objects -q --stdout >good.pack &&
	test $(git_in h rev-list --objects HEAD ^$(git_in a rev-parse HEAD) |
		wc -l) = 3 &&
	git_in h rev-parse HEAD >hgood
'

test_expect_success 'a pack with a byte changed is refused' '
	cp good.pack bad.pack && size=$(wc -c <bad.pack) &&
	printf "\377" | dd of=bad.pack bs=1 seek=$((size / 2)) conv=notrunc \
		2>/dev/null &&
	evil_refused h bad.pack "refusing the pack from .*: ." &&
	test $(wc -l <err) = 1
'

test_expect_success 'a truncated pack is refused' '
	size=$(wc -c <good.pack) &&
	head -c $((size - 30)) good.pack >short.pack &&
	evil_refused h short.pack "refusing the pack from .*: ." &&
	test $(wc -l <err) = 1 &&
	: >empty.pack &&
	evil_refused h empty.pack "refusing the pack from .*: ." &&
	test $(wc -l <err) = 1
'

test_expect_success 'a sound pack missing an object is refused' '
	git_in h rev-parse HEAD >c &&
	git_in h pack-objects -q --stdout <c >nocommit-tree.pack &&
	evil_refused h nocommit-tree.pack \
		"missing tree $(git_in h rev-parse HEAD^{tree})"
'

test_expect_success 'a sound pack holding a ".." tree is refused' '
	blob=$(git_in h rev-parse HEAD:file) &&
	tree=$(printf "100644 .. %s\n" $blob |
		$WO tree --tree-spec --objects h/.dircache/objects) &&
	commit=$(printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> 1 +0000\n\nx\n" \
		$tree $(git_in a rev-parse HEAD) | $WO commit --objects h/.dircache/objects) &&
	printf "%s\n%s\n%s\n" $commit $tree $blob |
		git_in h pack-objects -q --stdout >dotdot.pack &&
	echo $commit >h/.dircache/refs/heads/master &&
	evil_refused h dotdot.pack "$tree.*\.\."
'

# verify-objects takes the parent's trees' word for links they make
# too; a packed tree is read again from the pack for that.
test_expect_success 'a packed tree naming the parent'"'"'s subtree as a blob is refused' '
	base=$(git_in c1 rev-parse HEAD) &&
	dir=$(git_in c1 rev-parse $base:dir) &&
	tree=$(git_in c1 ls-tree $base | awk -F "\t" -v d=$dir "{
		split(\$1, a, \" \")
		m = a[3] == d ? \"100644\" : a[1] == \"040000\" ? \"40000\" : a[1]
		print m, \$2, a[3]
	}" | $WO tree --tree-spec --objects h/.dircache/objects) &&
	commit=$(printf "tree %s\nparent %s\nauthor A <a@b> 1 +0000\ncommitter C <c@d> 1 +0000\n\nx\n" \
		$tree $base | $WO commit --objects h/.dircache/objects) &&
	printf "%s\n%s\n" $commit $tree |
		git_in h pack-objects -q --stdout >subtree.pack &&
	echo $commit >h/.dircache/refs/heads/master &&
	evil_refused h subtree.pack "names blob $dir, which is a tree"
'

test_expect_success 'the good pack then passes' '
	cp hgood h/.dircache/refs/heads/master &&
	(cd c1 && EVIL_PACK=$TRASH_DIRECTORY/good.pack \
		DIRCACHE_UPLOAD=$TRASH_DIRECTORY/evil-upload \
		dircache fetch ../h 2>/dev/null) &&
	git_in c1 cat-file -e $(cat hgood) && git_accepts c1
'

test_expect_success 'a remote idx that lies is never used' '
	rm -rf h2 && cp -a a h2 &&
	commit_line h2 file lying &&
	GIT_DIR=h2/.dircache git repack -a -d -q &&
	idx=$(ls h2/.dircache/objects/pack/*.idx) && chmod +w $idx &&
	python3 -c "import sys
p = sys.argv[1]
b = bytearray(open(p, \"rb\").read())
b[8 + 1024] ^= 1
open(p, \"wb\").write(bytes(b))" $idx &&
	(cd c1 && DIRCACHE_UPLOAD=none dircache pull ../h2 2>/dev/null) &&
	test "$(git_in c1 rev-parse HEAD)" = "$(git_in h2 rev-parse HEAD)" &&
	mine=c1/.dircache/objects/pack/${idx##*/} &&
	test_must_fail cmp $idx $mine &&
	git_in h2 index-pack -o expect.idx ${idx%.idx}.pack >/dev/null &&
	cmp expect.idx $mine &&
	git_accepts c1
'

test_expect_success 'setup: a bigger packed remote' '
	mkdir big && (cd big && dircache init 2>/dev/null) &&
	head -c 2000000 /dev/urandom | (cd big && split -b 20000) &&
	(cd big && dircache add . && dircache commit -m big >/dev/null &&
	 dircache tag t1) &&
	GIT_DIR=big/.dircache git repack -a -d -q --window=0 &&
	dircache clone big bf 2>/dev/null &&
	head -c 1000000 /dev/urandom | (cd big && split -b 20000 - y) &&
	(cd big && dircache add . && dircache commit -m more >/dev/null &&
	 dircache tag t2) &&
	GIT_DIR=big/.dircache git repack -a -d -q --window=0
'

# Run "$@" in its own session, killed with -9 after $delay seconds (or
# once it has started, on a machine too loaded to start it by then);
# each kill that found it running adds a line to $TRASH_DIRECTORY/hits.
# (dash's kill takes no "--": "kill -9 -- -PGID" would kill nothing.)
run_killed() {
	rm -f pid &&
	setsid sh -c 'echo $$ >pid.new && mv pid.new pid && exec "$@"' \
		sh "$@" >/dev/null 2>&1 &
	sleep $delay
	while ! test -s pid; do sleep 0.01; done
	kill -9 -$(cat pid) 2>/dev/null && echo "$delay" >>"$TRASH_DIRECTORY/hits"
	wait
}

test_expect_success 'clone killed at any moment: the directory whole or absent' '
	rm -f hits &&
	for delay in 0.03 0.1 0.2 0.3 0.5; do
		rm -rf k && run_killed dircache clone big k &&
		if test -e k; then
			clone_ok_big=$(cd k && fsck-cache --strict && echo y) &&
			test "$clone_ok_big" = y &&
			test "$(git_in k rev-parse HEAD)" = "$(git_in big rev-parse HEAD)" || return 1
		fi
	done &&
	test -s hits
'

# SIGTERM right after mktemp made the hidden directory (a mktemp that
# signals its caller as it returns): the cleanup is already armed.
test_expect_success 'SIGTERM as the clone directory is made: nothing left' '
	mkdir -p term-bin &&
	real=$(command -v mktemp) &&
	cat >term-bin/mktemp <<-EOF &&
	#!/bin/sh
	"$real" "\$@" || exit
	case "\$*" in *.clone-*) kill -s TERM \$PPID ;; esac
	EOF
	chmod +x term-bin/mktemp &&
	(PATH=$TRASH_DIRECTORY/term-bin:$PATH &&
	 test_expect_code 143 dircache clone a termc 2>/dev/null) &&
	test_must_fail test -e termc &&
	test -z "$(ls -A | grep "^\.termc\.clone-")"
'

test_expect_success 'fetch killed at any moment: the store as before, or fetched' '
	git_in bf rev-parse refs/remotes/origin/master >old &&
	rm -f hits &&
	for delay in 0.03 0.1 0.2 0.3 0.5; do
		rm -rf bk && cp -a bf bk &&
		(cd bk && run_killed dircache fetch origin) &&
		(cd bk && fsck-cache --strict) && git_accepts bk &&
		git_in bk rev-parse refs/remotes/origin/master >now &&
		{ test_cmp old now ||
		  test "$(cat now)" = "$(git_in big rev-parse HEAD)"; } &&
		(cd bk && dircache fetch origin 2>/dev/null) &&
		test "$(git_in bk rev-parse refs/remotes/origin/master)" = \
			"$(git_in big rev-parse HEAD)" || return 1
	done &&
	test -s hits
'

test_expect_success 'a quarantine a day old is removed, a new one is not' '
	q=bk/.dircache/objects/tmp_objdir-incoming &&
	mkdir ${q}-old ${q}-new bk/.dircache/tmp-pull-old &&
	touch -d "2 days ago" ${q}-old bk/.dircache/tmp-pull-old &&
	(cd bk && dircache fetch origin 2>/dev/null) &&
	test -d ${q}-new &&
	test_must_fail test -e ${q}-old &&
	test_must_fail test -e bk/.dircache/tmp-pull-old
'

test_expect_success 'progress on a terminal only' '
	script -qec "dircache clone a p1" /dev/null >tty.out &&
	test_grep "Received pack-[0-9a-f]*\.pack: [0-9]* objects" tty.out &&
	script -qec "DIRCACHE_UPLOAD=none dircache clone a p2" /dev/null >tty2.out &&
	test_grep "xfr#" tty2.out &&
	test_grep "Received pack-" tty2.out &&
	DIRCACHE_UPLOAD=none dircache clone a p3 2>err &&
	dircache clone a p4 2>>err &&
	test_must_fail grep -v "^Cloned into" err
'

stop_daemon
test_done
