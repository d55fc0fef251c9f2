# bench/ops/log.sh: dircache log against git log (issue 30) on a
# history of LOG_COMMITS (default 1,000) small commits on top of the
# old kernel tree (QUICK=1: its $SUBDIR): each changes three of its .c
# files (a line added at the end; a file may change again later; a
# symbolic link among them becomes a file), one second apart.  Built
# once per machine into $BENCH_DATA/log-<version>[-<subdir>]-<n>.git
# (a temporary name first): the tree by git update-index, the commits
# by git fast-import, then `git repack -a -d`; both tools read that
# one store, read-only, through GIT_DIR.  A standalone operation: the
# kernel trees are not set up for it.
# Rows, ours and git alternately, stdout kept and compared byte for
# byte with git's (a difference stops the bench):
#   dircache log -n 1000 --stat / git log -n 1000 --stat (80 columns);
#   dircache log -n 1000 / git log -n 1000.
# git runs with its defaults (renames on: the history has none, so
# its output is the same as without).

LOG_COMMITS=${LOG_COMMITS:-1000}

# log_stream BASE SRC LIST: the fast-import stream of the commits on
# BASE, the files' texts from SRC (LIST: its files, NUL-separated),
# each kept in $W/log-work as it grows.
log_stream() {
	tr '\0' '\n' <"$3" | grep '\.c$' | sed 's|^\./||' >"$W/log-files"
	n=$(wc -l <"$W/log-files")
	[ "$n" -ge 3 ] || { echo "bench: log: too few .c files" >&2; exit 1; }
	lc=1
	while [ "$lc" -le "$LOG_COMMITS" ]; do
		msg="log bench: commit $lc

Three files changed, one line each."
		printf 'commit refs/heads/master\n'
		printf 'committer bench <bench@example.com> %d +0000\n' \
			$((1112911993 + lc))
		printf 'data %d\n%s\n' "${#msg}" "$msg"
		[ "$lc" -gt 1 ] || printf 'from %s\n' "$1"
		for k in 0 1 2; do
			f=$(sed -n "$(( (lc * 7919 + k * 104729) % n + 1 ))p" \
				"$W/log-files")
			w=$W/log-work/$f
			if [ ! -f "$w" ]; then
				mkdir -p "${w%/*}"
				cp "$2/$f" "$w"
			fi
			echo "/* log bench: commit $lc */" >>"$w"
			printf 'M 100644 inline %s\ndata %d\n' "$f" \
				"$(wc -c <"$w")"
			cat "$w"
			printf '\n'
		done
		lc=$((lc + 1))
	done
	printf 'done\n'
}

# The store, built on first use; sets L.
log_setup() {
	fetch_data
	src=$OLD_SRC key=${OLD_SRC##*/src-}
	if [ -n "$QUICK" ]; then
		src=$OLD_SRC/$SUBDIR
		key=$key-$(echo "$SUBDIR" | tr / _)
	fi
	L=$BENCH_DATA/log-$key-$LOG_COMMITS$HASH_SUFFIX.git
	[ -d "$L" ] && return 0
	echo "bench: building $L" >&2
	rm -rf "$L.tmp"
	git init -q --bare "$L.tmp" && git --git-dir="$L.tmp" config gc.auto 0
	(cd "$src" && find . \( -type f -o -type l \) -print0 |
		sort -z >"$W/log-list") || exit 1
	(cd "$src" && GIT_DIR=$L.tmp GIT_WORK_TREE=. \
		GIT_INDEX_FILE=$W/log-index \
		git update-index --add -z --stdin <"$W/log-list") || exit 1
	tree=$(GIT_DIR=$L.tmp GIT_INDEX_FILE=$W/log-index git write-tree) &&
	base=$(echo "the old tree" | GIT_DIR=$L.tmp git commit-tree "$tree") ||
		exit 1
	log_stream "$base" "$src" "$W/log-list" |
		GIT_DIR=$L.tmp git fast-import --quiet --done || exit 1
	GIT_DIR=$L.tmp git repack -a -d -q || exit 1
	mv "$L.tmp" "$L"
	discard "$W/log-work" "$W/log-index"
}

op_log() {
	log_setup
	cd "$W"
	for i in $(seq $RUNS); do
		time_cmd ours-logst env GIT_DIR="$L" COLUMNS=80 \
			dircache log -n 1000 --stat
		time_cmd git-logst env GIT_DIR="$L" COLUMNS=80 \
			git log -n 1000 --stat
		time_cmd ours-logp env GIT_DIR="$L" dircache log -n 1000
		time_cmd git-logp env GIT_DIR="$L" git log -n 1000
	done
	for o in "-n 1000 --stat" "-n 1000"; do
		# shellcheck disable=SC2086 # the options, one a word
		GIT_DIR=$L COLUMNS=80 dircache log $o >"$W/log-ours"
		# shellcheck disable=SC2086
		GIT_DIR=$L COLUMNS=80 git log $o >"$W/log-git"
		cmp -s "$W/log-ours" "$W/log-git" ||
			{ echo "bench: log $o differs from git" >&2; exit 1; }
	done
}

rows_log() {
	row "dircache log -n 1000 --stat" logst
	row "dircache log -n 1000" logp
}

OPS="$OPS log"
STANDALONE="$STANDALONE log"
