# bench/ops/share.sh: a store shared by a team (issue 28).  A history
# of kernel size: the old tree, the new tree on top of it, then a
# series of 100 small commits (three files each); one copy of its loose
# objects for us and one for git (the same files: our loose objects are
# git's).  Then, ours against git in the same run:
#   repack -a -d with git's window and depth, and the pack's size;
#   a clone of the packed store, ours over an rsync daemon on 127.0.0.1,
#   git's over git daemon, and the clone's store on disk;
#   a pull of the 100 new commits into a clone made before them (the
#   remote holds them as a second pack, as a push leaves them).

SHARE_SERIES=${SHARE_SERIES:-100}

# share_series: commit $SHARE_SERIES changes of three files each on
# top of $1 in the store $W/share-loose (an index of the new tree in
# $W/share.index, the changed files in $W/share-wt), the last id out.
share_series() {
	parent=$1
	mkdir -p "$W/share-wt"
	cd "$W/share-wt" || exit 1
	tr '\0' '\n' <"$W/new.list" | sed 's|^\./||' | grep -v '^\.' |
		while read -r f; do
			[ -f "$W/new/$f" ] && [ ! -L "$W/new/$f" ] && echo "$f"
		done >"$W/share.all"
	step=$(($(wc -l <"$W/share.all") / (SHARE_SERIES * 3)))
	[ $step -ge 1 ] || step=1
	awk -v s=$step 'NR % s == 0' "$W/share.all" |
		head -n $((SHARE_SERIES * 3)) >"$W/share.files"
	export GIT_DIR=$W/share-loose GIT_INDEX_FILE=$W/share.index
	n=0
	while read -r a && read -r b && read -r c; do
		n=$((n + 1))
		for f in "$a" "$b" "$c"; do
			[ -f "$f" ] || { mkdir -p "$(dirname "$f")" &&
				cp "$W/new/$f" "$f"; }
			echo "/* series $n */" >>"$f"
		done
		DIRCACHE_NO_SYNC=1 update-cache -- "$a" "$b" "$c"
		t=$(DIRCACHE_NO_SYNC=1 write-tree)
		parent=$(echo "series $n" | commit-tree $t -p $parent)
	done <"$W/share.files"
	unset GIT_DIR GIT_INDEX_FILE
	echo $parent
}

# The same loose objects as a bare git repository, refs and all.
share_git_copy() {
	git init -q --bare "$2"
	git --git-dir="$2" config gc.auto 0
	git --git-dir="$2" config repack.writeBitmaps false
	rm -rf "$2/objects"
	cp -al "$1/objects" "$2/objects"
	git --git-dir="$2" update-ref refs/heads/master $3
}

share_setup() {
	discard "$W/share-loose" "$W/share-wt"
	GIT_DIR=$W/share-loose init-db 2>/dev/null
	rm -rf "$W/share-loose/objects"
	cp -al "$W/ours.full" "$W/share-loose/objects"
	sh_old=$(echo old | GIT_DIR=$W/share-loose commit-tree $OLD_TREE)
	sh_new=$(echo new | GIT_DIR=$W/share-loose commit-tree $NEW_TREE -p $sh_old)
	cd "$W/new" &&
	SHA1_FILE_DIRECTORY=$W/share-loose/objects GIT_INDEX_FILE=$W/share.index \
		read-tree $NEW_TREE
	sh_top=$(share_series $sh_new)
	echo $sh_top >"$W/share-loose/refs/heads/master"
	share_remotes
	share_start_daemons
}

# The remotes of the clone and pull rows: packed by each tool as the
# team's store would be, the new commit first, then the series as a
# second pack (repack without -a packs the loose objects).  The clones
# the pull row starts from are made before the series is packed.
share_remotes() {
	r=$W/share-ours.git
	discard "$r" "$W/share-git.git" "$W/share-base-ours" "$W/share-base-git"
	GIT_DIR=$r init-db 2>/dev/null
	rm -rf "$r/objects" && cp -al "$W/share-loose/objects" "$r/objects"
	echo $sh_new >"$r/refs/heads/master"
	GIT_DIR=$r dircache repack -a -d -q
	share_git_copy "$W/share-loose" "$W/share-git.git" $sh_new
	git --git-dir="$W/share-git.git" repack -a -d -q
	(cd "$W" && dircache clone "$r" share-base-ours 2>/dev/null &&
		git clone -q --no-local "$W/share-git.git" share-base-git)
	echo $sh_top >"$r/refs/heads/master"
	GIT_DIR=$r dircache repack -d -q
	git --git-dir="$W/share-git.git" update-ref refs/heads/master $sh_top
	git --git-dir="$W/share-git.git" repack -d -q
}

# pull.sh's rsync daemon (serving $W), and git daemon beside it.
share_start_daemons() {
	pull_start_daemon
	sh_rsyncd=$pc_daemon
	sh_gport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	git daemon --export-all --base-path="$W" --listen=127.0.0.1 \
		--port=$sh_gport --reuseaddr "$W" 2>/dev/null &
	sh_gitd=$!
	trap 'kill $sh_rsyncd $sh_gitd 2>/dev/null' EXIT
	until git ls-remote "git://127.0.0.1:$sh_gport/share-git.git" \
		>/dev/null 2>&1; do
		sleep 0.1
	done
	SH_RURL=rsync://127.0.0.1:$pc_port/bench
	SH_GURL=git://127.0.0.1:$sh_gport
}

share_stop_daemons() {
	kill $sh_rsyncd $sh_gitd 2>/dev/null
	wait $sh_rsyncd $sh_gitd 2>/dev/null || :
	trap - EXIT
}

# Bytes of a store's packs (and the files beside them).
share_pack_bytes() {
	find "$1" -name 'pack-*.pack' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'
}

share_store_bytes() {
	du -sk --apparent-size "$1" | cut -f1
}

# A clone made before the series, with its remote pointing at the
# daemon, for one pull.
share_pull_fresh() {
	discard "$W/share-pull-$1"
	cp -a "$W/share-base-$1" "$W/share-pull-$1"
	cd "$W/share-pull-$1" || exit 1
}

op_share() {
	share_setup
	for i in $(seq $RUNS); do
		discard "$W/share-rp-ours" "$W/share-rp-git.git"
		mkdir "$W/share-rp-ours"
		cp -al "$W/share-loose/." "$W/share-rp-ours/"
		share_git_copy "$W/share-loose" "$W/share-rp-git.git" $sh_top
		time_cmd ours-repack env GIT_DIR=$W/share-rp-ours \
			dircache repack -a -d -q --window=10 --depth=50
		time_cmd git-repack git --git-dir="$W/share-rp-git.git" \
			repack -a -d -q --window=10 --depth=50
		SH_PACK_OURS=$(share_pack_bytes "$W/share-rp-ours")
		SH_PACK_GIT=$(share_pack_bytes "$W/share-rp-git.git")

		cd "$W" || exit 1
		discard "$W/share-cl-ours" "$W/share-cl-git"
		time_cmd ours-clone dircache clone "$SH_RURL/share-ours.git" \
			share-cl-ours
		time_cmd git-clone git clone -q "$SH_GURL/share-git.git" \
			share-cl-git
		SH_CLONE_OURS=$(share_store_bytes "$W/share-cl-ours/.dircache")
		SH_CLONE_GIT=$(share_store_bytes "$W/share-cl-git/.git")

		share_pull_fresh ours
		time_cmd ours-spull dircache pull "$SH_RURL/share-ours.git" master
		share_pull_fresh git
		time_cmd git-spull git pull -q --ff-only \
			"$SH_GURL/share-git.git" master
	done
	[ "$(cat "$W/share-pull-ours/.dircache/refs/heads/master")" = $sh_top ] ||
		{ echo "bench: our pull did not reach the series' top" >&2; exit 1; }
	diff -r "$W/share-cl-ours" "$W/share-cl-git" -x .dircache -x .git \
		>/dev/null ||
		{ echo "bench: the clones' work trees differ" >&2; exit 1; }
	share_stop_daemons
}

rows_share() {
	row "repack -a -d (window 10, depth 50)" repack
	awk -v o="$SH_PACK_OURS" -v g="$SH_PACK_GIT" 'BEGIN {
		printf "  its pack: git %.1f MB, ours %.1f MB (%.2fx)\n",
			g / 1e6, o / 1e6, (g > 0 ? o / g : 0) }'
	row "clone, rsync daemon vs git daemon" clone
	awk -v o="$SH_CLONE_OURS" -v g="$SH_CLONE_GIT" 'BEGIN {
		printf "  its store: git %.1f MB, ours %.1f MB (%.2fx)\n",
			g / 1024, o / 1024, (g > 0 ? o / g : 0) }'
	row "pull of $SHARE_SERIES commits (daemons)" spull
}

OPS="$OPS share"
