#!/bin/sh
test_description='dircache push killed with -9 at each step, either side

A push of a few hundred files is stopped at a named step of the
receiver (DIRCACHE_TEST_PAUSE: the request read, the pack indexed,
verified, moved, installed, the ref updated) or of the pusher (the
pack made), and there the pushing side (its whole process group), the
receiving side (dircache-receive, with the rsync daemon child that runs
it), or both are killed with -9.  For each remote kind (a local store,
host:path over a stand-in for ssh, an rsync daemon module running
dircache-receive): the remote branch is the old commit or the new one,
as the step says; the remote passes fsck-cache --strict and git fsck
--strict; a push retried afterwards succeeds and leaves no quarantine,
temporary directory, lock or stray pack behind.  Then the cleaning of
what killed pushes left: a dead receiver'"'"'s at once, an upload nobody
owns once stale, never what a live push uses.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-rsyncd.sh"

# Every receiver (the daemon's too: it inherits this) and pusher reads
# the step to stop at from this file.
PAUSE=$TRASH_DIRECTORY/pause
DIRCACHE_TEST_PAUSE=$PAUSE
export DIRCACHE_TEST_PAUSE

# grow N: a commit in p adding N files of random bytes (8 KiB each).
grow() {
	(cd p && n=$(($(cat ../nfiles 2>/dev/null || echo 0) + 1)) &&
	 head -c $(($1 * 8192)) /dev/urandom | split -b 8192 -a 3 - d$n- &&
	 echo $n >../nfiles &&
	 update-cache --add d$n-* &&
	 dircache commit -m "files d$n-*" >/dev/null)
}

# ssh as another machine would be: "ssh host command" runs the command
# from box/; dircache-receive runs in a session of its own (a kill of
# the pusher's group does not reach it), through pipes that break when
# the pusher dies.
make_far_ssh() {
	mkdir -p box &&
	cat >far-ssh <<-EOF &&
	#!/bin/sh
	shift
	cd "$TRASH_DIRECTORY/box" || exit 1
	case \$1 in
	dircache-receive*) cat | setsid sh -c "\$*" | cat ;;
	*) exec sh -c "\$*" ;;
	esac
	EOF
	chmod +x far-ssh
}

test_expect_success 'setup: a pusher with 300 files, three remotes' '
	make_far_ssh &&
	mkdir p && (cd p && dircache init 2>/dev/null) &&
	grow 300 &&
	mkdir local && (cd local && dircache init --shared 2>/dev/null) &&
	mkdir -p box/r && (cd box/r && dircache init --shared 2>/dev/null) &&
	mkdir -p srv/r && (cd srv/r && dircache init --shared 2>/dev/null)
'
start_daemon || exit 1
RSYNC_RSH=$TRASH_DIRECTORY/far-ssh
export RSYNC_RSH

# wait_for TEST: up to 10 s for the shell test TEST to hold.
wait_for() {
	_i=0 &&
	while ! eval "$1"; do
		_i=$((_i + 1)) &&
		test $_i -lt 200 || { echo "gave up waiting for: $1"; return 1; }
		sleep 0.05
	done
}

# The receiving side of the paused receiver $1 of kind $2: its pid,
# and for the daemon the processes between it and the daemon (the
# daemon's child for this connection).
receiver_side() {
	echo $1 &&
	if test $2 = rsyncd; then
		_p=$(ps -o ppid= -p $1 | tr -d " ") &&
		while test -n "$_p" && test "$_p" != 1 &&
		      test "$_p" != "$daemon_pid"; do
			echo $_p &&
			_p=$(ps -o ppid= -p $_p | tr -d " ") || return 1
		done
	fi
}

# leftovers STORE: what a push leaves in STORE when it is not cleaned
# up: quarantines, temporary directories, locks, uploads, packs
# without their idx.
leftovers() {
	find "$1" -name "incoming-*" -o -name "tmp-*" -o -name "*.lock" \
		-o -path "*/incoming/*" -prune &&
	for _p in "$1"/objects/pack/*.pack; do
		test -f "$_p" && test ! -f "${_p%.pack}.idx" && echo "$_p"
	done
	return 0
}

# kill_at KIND URL STORE STEP VICTIM: a push of 5 more files (100 to
# cut a transfer) to URL
# (STORE is the remote store) stopped at STEP (receive:<step> or
# push:<step>), where VICTIM (pusher, receiver or both) is killed
# with -9; a receiver that was not killed goes on.  EXPECT (old or
# new) is what the remote branch must be, its history whole; then a
# push again must succeed and leave nothing behind.
kill_at() {
	old=$(cat "$3/refs/heads/master") &&
	case $1.$4.$5 in
	# More than the pipes between the two sides hold: the pusher is
	# killed while it sends.
	ssh.receive:request.pusher) grow 100 ;;
	*) grow 5 ;;
	esac &&
	new=$(cat p/.dircache/refs/heads/master) &&
	rm -f pgid rc "$PAUSE.pid" &&
	echo "$4" >"$PAUSE" &&
	{ (cd p && setsid sh -c "echo \$\$ >../pgid &&
		exec dircache push \"$2\" >../out 2>&1" 2>/dev/null
	  echo $? >../rc) & } &&
	wait_for "test -s \"$PAUSE.pid\"" &&
	paused=$(cat "$PAUSE.pid") &&
	case $4 in
	receive:*) side=$(receiver_side $paused $1) ;;
	*) side=$paused ;;
	esac &&
	case $5 in
	pusher|both) kill -9 -$(cat pgid) ;;
	esac &&
	case $5 in
	receiver|both)
		if test $1 = ssh; then
			kill -9 -$(ps -o pgid= -p $paused | tr -d " ")
		else
			# Each one alive when read: a parent may have
			# gone by the time its turn comes.
			kill -9 $side 2>/dev/null || :
		fi
		;;
	esac &&
	echo go >"$PAUSE" &&
	for s in $paused $side; do
		wait_for "! kill -0 $s 2>/dev/null" || return 1
	done &&
	wait_for "test -s rc" &&
	if test $5 = receiver; then
		test $(cat rc) = 128 || { cat out; return 1; }
	fi &&
	head=$(cat "$3/refs/heads/master") &&
	case $head in
	$old) got=old ;;
	$new) got=new ;;
	*) echo "$1 $4 $5: master is $head"; return 1 ;;
	esac &&
	echo "$1 $4 $5 killed: remote branch $got, $(leftovers "$3" | wc -l) left over" >>outcomes &&
	{ test $got = $EXPECT || { echo "$1 $4 $5: $got, not $EXPECT"; false; }; } &&
	GIT_DIR=$3 fsck-cache --strict >/dev/null &&
	GIT_DIR=$3 git fsck --strict --no-dangling >/dev/null &&
	# A receiver left alone cleans up after itself (only the upload
	# of a killed pusher waits for the next push).
	if test $5 = pusher && test $1 != local; then
		leftovers "$3" | grep -v "/incoming/[^/]*$" >left
		test_cmp /dev/null left
	fi &&
	rm -f "$PAUSE" &&
	# An upload left by a killed pusher stays until nothing in it has
	# changed for a while (DC_STALE_MINUTES): let that time pass.
	if test -d "$3/incoming"; then
		find "$3/incoming" -mindepth 1 -exec touch -d "-2 hours" {} +
	fi &&
	(cd p && dircache push "$2" 2>../out) &&
	test "$(cat "$3/refs/heads/master")" = $new &&
	# Only a push that has something to send runs the receiver
	# that cleans up.
	if grep -q "Everything up to date" out; then
		grow 1 && (cd p && dircache push "$2" 2>../out)
	fi &&
	test -z "$(ls p/.dircache | grep "^tmp-")" &&
	leftovers "$3" >left &&
	test_cmp /dev/null left
}

# expect KIND STEP VICTIM: the remote branch after the kill.  A
# receiver killed (with the pusher, for a local store) has moved it
# only once it is updated; a receiver left alone finishes what it
# was given: all of it over the daemon, a cut pack over ssh when the
# pusher died while sending.
expect() {
	case $1.$2.$3 in
	*.push:*) echo old ;;
	ssh.receive:request.pusher) echo old ;;
	ssh.*.pusher|rsyncd.*.pusher) echo new ;;
	*.receive:updated.*) echo new ;;
	*) echo old ;;
	esac
}

# kills KIND URL STORE VICTIM STEP...: kill_at at each step.
kills() {
	_k=$1 _u=$2 _s=$3 _v=$4 &&
	shift 4 &&
	for step; do
		EXPECT=$(expect $_k $step $_v) &&
		kill_at $_k "$_u" $_s $step $_v || return 1
	done
}

ALL="receive:request receive:indexed receive:verified receive:pack-moved
receive:installed receive:updated"
# Every step at every remote kind with DIRCACHE_KILL_ALL=1 (50 kills);
# by default (19 kills) each step at two kinds at least.
if test -n "${DIRCACHE_KILL_ALL:-}"; then
	LOCAL_R=$ALL SSH_R=$ALL RSYNCD_R=$ALL
	LOCAL_P="$ALL push:packed" SSH_P="$ALL push:packed"
	RSYNCD_P="$ALL push:packed" SSH_B=$ALL RSYNCD_B=$ALL
else
	LOCAL_R=$ALL
	SSH_R="receive:verified receive:installed"
	RSYNCD_R="receive:request receive:pack-moved receive:updated"
	LOCAL_P="receive:request push:packed"
	SSH_P="receive:request receive:updated"
	RSYNCD_P="receive:request push:packed"
	SSH_B="receive:indexed"
	RSYNCD_B="receive:installed"
fi

test_expect_success 'a first push to each remote' '
	(cd p && dircache push ../local 2>/dev/null &&
	 dircache push box:r 2>/dev/null &&
	 dircache push "$URL/r" 2>/dev/null) &&
	fscks local/.dircache && fscks box/r/.dircache && fscks srv/r/.dircache
'

test_expect_success 'local store: the receiver killed' '
	kills local ../local local/.dircache receiver $LOCAL_R
'

test_expect_success 'local store: the pusher (and the receiver) killed' '
	kills local ../local local/.dircache pusher $LOCAL_P
'

test_expect_success 'ssh: the receiver killed' '
	kills ssh box:r box/r/.dircache receiver $SSH_R
'

test_expect_success 'ssh: the pusher killed' '
	kills ssh box:r box/r/.dircache pusher $SSH_P
'

test_expect_success 'ssh: both sides killed' '
	kills ssh box:r box/r/.dircache both $SSH_B
'

test_expect_success 'rsync daemon: the receiver and the daemon child killed' '
	kills rsyncd "$URL/r" srv/r/.dircache receiver $RSYNCD_R
'

test_expect_success 'rsync daemon: the pusher killed' '
	kills rsyncd "$URL/r" srv/r/.dircache pusher $RSYNCD_P
'

test_expect_success 'rsync daemon: both sides killed' '
	kills rsyncd "$URL/r" srv/r/.dircache both $RSYNCD_B
'

# A pid no process has (one that just ended).
dead_pid() {
	sh -c 'echo $$'
}

# plant STORE: what pushes killed long ago or just now left, or what
# live pushes use, under names saying which must stay ("keep-").
plant() {
	_o=$1/objects &&
	_h=$(uname -n) &&
	mkdir "$_o/incoming-dead" "$_o/incoming-keep-other-host" \
		"$_o/incoming-old-other-host" "$1/tmp-receive-keep-fresh" \
		"$1/tmp-receive-old" &&
	echo "$(dead_pid) $_h" >"$_o/incoming-dead/owner" &&
	echo "1 elsewhere" >"$_o/incoming-keep-other-host/owner" &&
	echo "1 elsewhere" >"$_o/incoming-old-other-host/owner" &&
	echo x >"$_o/pack/pack-keep.pack" &&
	echo x >"$_o/pack/pack-old.pack" &&
	touch -d "-2 hours" "$_o/incoming-old-other-host" \
		"$_o/incoming-old-other-host/owner" "$1/tmp-receive-old" \
		"$_o/pack/pack-old.pack"
}

# planted STORE [MORE]: the "keep-" ones (and MORE) are there, the
# others gone.
planted() {
	find "$1" -name "*-keep*" | sed "s|.*/||" | sort >kept &&
	{ cat <<-\EOF && if test -n "$2"; then echo "$2"; fi; } | sort >expect &&
	incoming-keep-other-host
	pack-keep.pack
	tmp-receive-keep-fresh
	EOF
	test_cmp expect kept &&
	test -z "$(find "$1" -name "*-dead" -o -name "*-old*")" &&
	rm -rf "$1"/objects/incoming-keep-* "$1"/tmp-receive-keep-* \
		"$1"/objects/pack/pack-keep.pack "$1"/incoming/*-keep-*
}

# live KIND URL STORE [MORE]: push A paused with its quarantine filled; push
# B of another branch meanwhile cleans up what is stale, and leaves
# A's things alone; A then finishes.
live() {
	(cd p && dircache branch side-$1 2>/dev/null) &&
	plant "$3" &&
	grow 5 &&
	new=$(cat p/.dircache/refs/heads/master) &&
	rm -f "$PAUSE.pid" && echo receive:verified >"$PAUSE" &&
	{ (cd p && dircache push "$2" >../outA 2>&1; echo $? >../rcA) & } &&
	wait_for "test -s \"$PAUSE.pid\"" &&
	ls -d "$3"/objects/incoming-* | grep -v "keep\|dead\|old" >liveq &&
	test $(wc -l <liveq) = 1 &&
	touch -d "-2 hours" $(cat liveq) $(find "$3"/incoming -mindepth 1 \
		-path "*/incoming/1-1-*" -prune -o -print) &&
	(cd p && dircache push "$2" side-$1 2>../outB) &&
	test_grep "side-$1 -> side-$1" outB &&
	planted "$3" $4 &&
	test -d "$(cat liveq)" &&
	echo go >"$PAUSE" &&
	wait_for "test -s rcA" &&
	test "$(cat rcA)" = 0 &&
	test "$(cat "$3/refs/heads/master")" = $new &&
	rm -f "$PAUSE" rcA &&
	fscks "$3" &&
	test_cmp /dev/null "$(leftovers "$3" >left && echo left)"
}

test_expect_success 'local store: a dead push'"'"'s leftovers go, a live one'"'"'s stay' '
	live local ../local local/.dircache
'

test_expect_success 'rsync daemon: stale uploads go, a live push'"'"'s stays' '
	mkdir -p srv/r/.dircache/incoming/1-1-keep-uploading \
		srv/r/.dircache/incoming/1-1-old-upload \
		srv/r/.dircache/incoming/1-1-dead-receiver &&
	echo x >srv/r/.dircache/incoming/1-1-keep-uploading/request &&
	echo "$(dead_pid) $(uname -n)" \
		>srv/r/.dircache/incoming/1-1-dead-receiver/owner &&
	touch -d "-2 hours" srv/r/.dircache/incoming/1-1-old-upload &&
	live rsyncd "$URL/r" srv/r/.dircache 1-1-keep-uploading
'

test_expect_success 'the remotes are whole after all that' '
	fscks local/.dircache && fscks box/r/.dircache && fscks srv/r/.dircache
'

sed 's/^/# /' outcomes
test_done
