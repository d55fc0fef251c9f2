# bench/ops/pull.sh: dircache fetch (pull without the merge) of the new
# tree's commit into a store holding the old one, from a local path and
# from an rsync daemon on 127.0.0.1, against git fetch from file:// (so
# git packs), and verify-objects on its own.  Sourced by bench/run.

# Sources: our store in $W/old holds both trees (op_diff_tree put the
# new one there), git's too; "old" and "master" name the two commits.
# Destinations: a store holding only the old commit, made once by a
# fetch of "old", and copied (hard links) for every run.
pull_setup() {
	cd "$W/old" || exit 1
	pc_master=$(cat .dircache/refs/heads/master 2>/dev/null || true)
	gc_master=$(git rev-parse -q --verify refs/heads/master || true)
	pc_old=$(echo old | commit-tree $OLD_TREE)
	pc_new=$(echo new | commit-tree $NEW_TREE -p $pc_old)
	update-ref refs/heads/old $pc_old
	update-ref refs/heads/master $pc_new
	printf 'ref: refs/heads/master\n' >.dircache/HEAD
	gc_old=$(echo old | git commit-tree $OLD_TREE)
	gc_new=$(echo new | git commit-tree $NEW_TREE -p $gc_old)
	git -c core.logAllRefUpdates=false update-ref refs/heads/old $gc_old
	git -c core.logAllRefUpdates=false update-ref refs/heads/master $gc_new
	mkdir -p "$W/pull-dst" "$W/pull-git"
	(cd "$W/pull-dst" && init-db 2>/dev/null &&
		dircache fetch "$W/old" old 2>/dev/null)
	(cd "$W/pull-git" && git init -q && git config gc.auto 0 &&
		git fetch -q "file://$W/old" old:refs/heads/old)
	pull_start_daemon
}

pull_start_daemon() {
	pc_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$W/rsyncd.conf" <<EOC
use chroot = no
uid = $(id -u)
gid = $(id -g)
[bench]
path = $W
read only = yes
EOC
	rsync --daemon --no-detach --address=127.0.0.1 --port=$pc_port \
		--config="$W/rsyncd.conf" &
	pc_daemon=$!
	trap 'kill $pc_daemon 2>/dev/null' EXIT
	until rsync --list-only "rsync://127.0.0.1:$pc_port/bench/" \
		>/dev/null 2>&1; do
		sleep 0.1
	done
}

# A fresh destination: the old store, hard-linked (objects never change).
pull_fresh() {
	discard "$W/pull-run"
	mkdir "$W/pull-run"
	cp -al "$W/$1/." "$W/pull-run/"
	cd "$W/pull-run" || exit 1
}

# pull_check: what each fetch of ours brought, listed by git (which
# reads our store): every object the new commit reaches, as git's own
# fetch has them; the commits, ours and git's, have the same id.
pull_check() {
	[ "$pc_new" = "$gc_new" ] ||
		{ echo "bench: pull: commit-tree ids differ from git's" >&2
		  exit 1; }
	pull_fresh pull-git
	git fetch -q "file://$W/old" master
	git rev-list --objects $gc_new >"$W/pull-want"
	for src in "$W/old" "rsync://127.0.0.1:$pc_port/bench/old"; do
		pull_fresh pull-dst
		dircache fetch "$src" master 2>/dev/null
		git --git-dir=.dircache rev-list --objects $pc_new \
			>"$W/pull-got" &&
		cmp -s "$W/pull-want" "$W/pull-got" ||
			{ echo "bench: fetch from $src did not bring what" \
				"git fetch did" >&2; exit 1; }
	done
}

op_pull() {
	pull_setup
	for i in $(seq $RUNS); do
		pull_fresh pull-dst
		time_cmd ours-pull dircache fetch "$W/old" master
		pull_fresh pull-dst
		time_cmd ours-pullrs dircache fetch \
			"rsync://127.0.0.1:$pc_port/bench/old" master
		pull_fresh pull-git
		time_cmd git-pull git fetch -q "file://$W/old" master
		# The verification alone, on the quarantine a fetch fills.
		pull_fresh pull-dst
		q=$W/pull-run/.dircache/objects/tmp_objdir-bench
		rsync -r -m --size-only \
			--compare-dest="$W/pull-run/.dircache/objects" \
			--include='/[0-9a-f][0-9a-f]/' \
			--include='/[0-9a-f][0-9a-f]/*' --exclude='*' \
			"$W/old/.dircache/objects/" "$q/"
		time_cmd ours-pullv verify-objects "$q" $pc_new
	done
	cp "$W/git-pull" "$W/git-pullrs"
	cp "$W/git-pull" "$W/git-pullv"
	PULL_NEW=$(find "$q" -type f | wc -l)
	pull_check
	kill $pc_daemon 2>/dev/null
	wait $pc_daemon 2>/dev/null
	trap - EXIT
	# The branches name commits only this op made, which an operation
	# run later may take away by putting the stores back as
	# setup_stores left them (op_write_tree): fsck would then find
	# them broken.  So they go back as they were, with no reflog.
	# (A master an earlier op set may already name a commit gone the
	# same way: then it is removed too.)
	cd "$W/old" && rm -f .dircache/refs/heads/old || exit 1
	if [ -n "$pc_master" ] && cat-file -e "$pc_master" 2>/dev/null; then
		echo "$pc_master" >.dircache/refs/heads/master
	else
		rm -f .dircache/refs/heads/master
	fi
	git -c core.logAllRefUpdates=false update-ref -d refs/heads/old
	if [ -n "$gc_master" ] && git cat-file -e "$gc_master" 2>/dev/null
	then
		git -c core.logAllRefUpdates=false update-ref \
			refs/heads/master $gc_master
	else
		git -c core.logAllRefUpdates=false update-ref -d \
			refs/heads/master
	fi
}

rows_pull() {
	row "fetch, local path ($PULL_NEW new objects)" pull
	row "fetch, rsync daemon on 127.0.0.1" pullrs
	row "  verify-objects alone (vs git fetch)" pullv
}

OPS="$OPS pull"
