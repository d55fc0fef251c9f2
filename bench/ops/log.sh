# bench/ops/log.sh: dircache log against git log (issue 30) on a
# history of LOG_COMMITS (default 1,000) small commits on top of the
# old tree: each changes three of its .c files (a line added at the
# end; a file may change again later), one second apart.  Built once a
# run with git fast-import into $W/log.git, on a commit of the old
# tree, then packed with the tree (`git repack -a -d`, untimed), so it
# holds everything itself; both tools read that one store (GIT_DIR).
# Rows, ours and git alternately, stdout kept and compared byte for
# byte with git's (a difference stops the bench):
#   dircache log -n 1000 --stat / git log -n 1000 --stat (80 columns);
#   dircache log -n 1000 / git log -n 1000.
# git runs with its defaults (renames on: the history has none, so
# its output is the same as without).

LOG_COMMITS=${LOG_COMMITS:-1000}

# The fast-import stream of the commits: each file's text kept in
# $W/log-work as it grows.
log_stream() {
	base=$1
	tr '\0' '\n' <"$W/old.list" | grep '\.c$' | sed 's|^\./||' \
		>"$W/log-files"
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
		[ "$lc" -gt 1 ] || printf 'from %s\n' "$base"
		for k in 0 1 2; do
			f=$(sed -n "$(( (lc * 7919 + k * 104729) % n + 1 ))p" \
				"$W/log-files")
			w=$W/log-work/$f
			if [ ! -f "$w" ]; then
				mkdir -p "${w%/*}"
				cp "$W/old/$f" "$w"
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

log_setup() {
	L=$W/log.git
	[ -d "$L" ] && return 0
	git init -q --bare "$L.tmp" && git --git-dir="$L.tmp" config gc.auto 0
	echo "$W/old/.git/objects" >"$L.tmp/objects/info/alternates"
	base=$(echo "the old tree" |
		GIT_DIR=$L.tmp git commit-tree "$OLD_TREE") || exit 1
	log_stream "$base" |
		GIT_DIR=$L.tmp git fast-import --quiet --done || exit 1
	GIT_DIR=$L.tmp git repack -a -d -q || exit 1
	rm -f "$L.tmp/objects/info/alternates"
	mv "$L.tmp" "$L"
	discard "$W/log-work"
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
