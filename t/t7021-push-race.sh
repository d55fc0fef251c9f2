#!/bin/sh
test_description='dircache push: two pushes racing, and pushes killed

For each kind of remote (a local store, an rsync daemon module running
dircache-receive, ssh), 20 rounds of two pushes started together, of
two different commits on the same branch: exactly one exits 0 and its
commit is the branch; the other fails; the remote passes fsck-cache
and git fsck --strict.  Then pushes killed (kill -9 of the push and all
it started) at random moments leave the remote branch at a commit whose
whole history the remote holds.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"
. "$TEST_DIRECTORY/lib-rsyncd.sh"

ROUNDS=${DIRCACHE_RACE_ROUNDS:-20}
KILLS=${DIRCACHE_KILL_ROUNDS:-6}

# p1 and p2: two work trees sharing one object store (so each has the
# commits the other pushed), pushing to the same three remotes.
test_expect_success 'setup: two pushers, three remotes holding a base' '
	make_fake_ssh &&
	mkdir p1 p2 &&
	(cd p1 && dircache init 2>/dev/null && echo base >f &&
	 dircache add f && dircache commit -m base >/dev/null) &&
	(cd p2 && init-db 2>/dev/null) &&
	mkdir box/r && (cd box/r && dircache init --shared 2>/dev/null) &&
	mkdir local && (cd local && dircache init --shared 2>/dev/null) &&
	mkdir -p srv/r && (cd srv/r && dircache init --shared 2>/dev/null)
'
start_daemon || exit 1
RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh
SHA1_FILE_DIRECTORY=$TRASH_DIRECTORY/p1/.dircache/objects
export RSYNC_RSH SHA1_FILE_DIRECTORY

test_expect_success 'setup: the base pushed to each remote' '
	(cd p1 && dircache push ../local 2>/dev/null &&
	 dircache push "$URL/r" 2>/dev/null && dircache push box:r 2>/dev/null)
'

# commit_on P STORE TEXT: a commit in P whose parent is STORE's master,
# with f holding TEXT; P's master moved to it; its id on stdout.
commit_on() {
	_parent=$(cat "$2/refs/heads/master") &&
	(cd "$1" && printf "%s\n" "$3" >f && update-cache --add f &&
	 _tree=$(write-tree) &&
	 _c=$(echo "$3" | commit-tree $_tree -p $_parent) &&
	 echo $_c >.dircache/refs/heads/master && echo $_c)
}

# race KIND URL STORE: ROUNDS rounds of p1 and p2 pushing at once.
race() {
	r=1 &&
	while test $r -le $ROUNDS; do
		c1=$(commit_on p1 "$3" "p1 $1 $r") &&
		c2=$(commit_on p2 "$3" "p2 $1 $r") || return 1
		(cd p1 && dircache push "$2" >../out1 2>&1; echo $? >../rc1) &
		(cd p2 && dircache push "$2" >../out2 2>&1; echo $? >../rc2) &
		wait
		head=$(cat "$3/refs/heads/master") &&
		wins=0 &&
		for p in 1 2; do
			eval c=\$c$p &&
			if test "$(cat rc$p)" = 0; then
				wins=$((wins + 1)) &&
				git --git-dir="$3" merge-base --is-ancestor $c $head || {
					echo "$1 round $r: push $p exited 0, its commit lost"
					return 1
				}
			else
				if grep -q "(fetch first)" out$p; then
					why=fetch-first
				elif grep -q "not a fast-forward" out$p; then
					why=non-fast-forward
				else
					why=other
				fi &&
				echo "$1 round $r: push $p failed: $why" >>outcomes &&
				test "$head" != $c || return 1
			fi || return 1
		done &&
		echo "$1 round $r: $wins won" >>outcomes &&
		test $wins = 1 || { cat out1 out2; return 1; }
		r=$((r + 1))
	done &&
	test "$(git --git-dir="$3" rev-list --first-parent master | wc -l)" = \
		$((ROUNDS + 1)) &&
	fscks "$3"
}

test_expect_success "$ROUNDS rounds of two pushes racing: local store" '
	race local ../local local/.dircache
'

test_expect_success "$ROUNDS rounds of two pushes racing: rsync daemon" '
	race rsyncd "$URL/r" srv/r/.dircache
'

test_expect_success "$ROUNDS rounds of two pushes racing: ssh" '
	race ssh box:r box/r/.dircache
'

# killed KIND URL STORE: KILLS pushes killed after a random delay (up
# to 1.3 times what a whole push took, measured first); the branch must
# stay at the old commit or be at the new one, its history whole.  A lock or quarantine left by a kill is counted, then removed
# (as a user would, once no push runs).
killed() {
	c=$(commit_on p1 "$3" "timed $1") &&
	t0=$(date +%s%N) &&
	(cd p1 && dircache push "$2" 2>/dev/null) &&
	span=$((($(date +%s%N) - t0) / 1000000)) &&
	echo "$1: one push took ${span} ms" >>outcomes &&
	r=1 &&
	while test $r -le $KILLS; do
		old=$(cat "$3/refs/heads/master") &&
		c=$(commit_on p1 "$3" "killed $1 $r") || return 1
		n=$(od -An -N2 -tu2 /dev/urandom | tr -d " ") &&
		delay=$(awk "BEGIN { printf \"%.2f\", $n * $span * 1.3 / 65535000 }") &&
		rm -f pgid || return 1
		(cd p1 && setsid -w sh -c "echo \$\$ >../pgid &&
			exec dircache push \"$2\" >/dev/null 2>&1") &
		sleep $delay
		while ! test -s pgid; do sleep 0.01; done
		kill -9 -$(cat pgid) 2>/dev/null
		wait
		# The daemon side is not killed: let its receiver finish
		# (it removes its tmp-receive-* when it exits).
		i=0 &&
		if test $1 = rsyncd; then sleep 0.5; fi &&
		while test $1 = rsyncd && test $i -lt 200 &&
		      test -n "$(find "$3" -maxdepth 1 -name "tmp-receive-*")"; do
			sleep 0.1 && i=$((i + 1))
		done
		head=$(cat "$3/refs/heads/master") &&
		case $head in
		$old) got=old ;;
		$c) got=new ;;
		*) echo "kill $r: master is $head" && return 1 ;;
		esac &&
		GIT_DIR=$3 fsck-cache --strict >/dev/null &&
		GIT_DIR=$3 git fsck --strict --no-dangling >/dev/null ||
		{ echo "kill $r: fsck failed"; return 1; }
		left=$(find "$3" -name "*.lock" -o -name "incoming-*" \
			-o -name "tmp-receive-*" -o -path "*/incoming/*" | wc -l) &&
		echo "$1 kill $r after ${delay}s: branch $got, $left left over" >>outcomes &&
		find "$3" -name "*.lock" -o -name "incoming-*" \
			-o -name "tmp-receive-*" -o -path "*/incoming/*" |
			xargs rm -rf &&
		r=$((r + 1)) || return 1
	done
}

test_expect_success "$KILLS pushes killed: local store" '
	killed local ../local local/.dircache
'

test_expect_success "$KILLS pushes killed: rsync daemon" '
	killed rsyncd "$URL/r" srv/r/.dircache
'

test_expect_success "$KILLS pushes killed: ssh" '
	killed ssh box:r box/r/.dircache
'

test_expect_success 'the receiver killed at each step: old or new, never torn' '
	for step in indexed verified pack-moved installed updated; do
		old=$(cat local/.dircache/refs/heads/master) &&
		c=$(commit_on p1 local/.dircache "step $step") &&
		(cd p1 && DIRCACHE_TEST_KILL=$step \
			test_expect_code 128 dircache push ../local 2>../err) &&
		test_grep "(no answer)" err &&
		case $step in
		updated) test "$(cat local/.dircache/refs/heads/master)" = $c ;;
		*) test "$(cat local/.dircache/refs/heads/master)" = $old ;;
		esac &&
		GIT_DIR=local/.dircache fsck-cache --strict >/dev/null &&
		GIT_DIR=local/.dircache git fsck --strict --no-dangling >/dev/null &&
		left=$(find local/.dircache -name "incoming-*" -o -name "tmp-*" |
			wc -l) &&
		echo "receiver killed after $step: $left left over" >>outcomes &&
		find local/.dircache -name "incoming-*" -o -name "tmp-*" |
			xargs rm -rf || return 1
	done &&
	(cd p1 && dircache push ../local 2>/dev/null) &&
	fscks local/.dircache
'

test_expect_success 'the remotes are whole after all that' '
	fscks local/.dircache && fscks srv/r/.dircache && fscks box/r/.dircache
'

sed 's/^/# /' outcomes
stop_daemon
test_done
