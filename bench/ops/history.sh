# bench/ops/history.sh: the readers on a history of git.git's size and
# shape (issue 29).  The data, read-only, through GIT_DIR:
# - BENCH_GITGIT=<bare repository>: a copy of it (git.git's, say) made
#   of hard links under $W (a plain copy across file systems); the
#   original is never written;
# - otherwise a history built by bench/gen-history.c through git
#   fast-import and one `git repack -a -d -F --window=10 --depth=50`,
#   kept in $BENCH_DATA/history-g<version>-<commits>x<files>.git
#   (-sha256.git on HASH=sha256: the same stream in a sha256
#   repository) and built once per machine: 200,000 commits of 4,000
#   files (QUICK=1: 10,000 commits of 1,000 files); HIST_COMMITS and
#   HIST_FILES change the size.
# Either must be in the run's object format; the copy's config says
# that format, as git's would.
# The rows, ours against git, alternating, each run's stdout kept and
# the last ones compared byte for byte (a difference, a failing exit or
# a kill is flagged in the row's warnings):
#   fsck-cache --strict / git fsck --strict;
#   rev-list --objects --all / git rev-list --objects --all (with
#   --missing=allow-any for both when the copy has a promisor pack: a
#   partial clone, which lacks some objects);
#   diff-tree -r -p of the newest 1,000 first-parent commits of HEAD
#   against their first parents: one `diff-tree --stdin -r -p` each,
#   given "commit parent" lines (each commit's id, then its patch);
#   ls-tree -r of 50 tags spread over history (tags of commits, by
#   date), one process a tag for both;
#   merge-base --all of the parents of 200 merges spread over HEAD's
#   history, one process a merge for both.
# Every run is killed after HIST_TIMEOUT seconds (default 1800).
# HIST_ROWS="fsck revl dt lst mb" (the default) names the rows to run.

HIST_GEN_VERSION=1
HIST_TIMEOUT=${HIST_TIMEOUT:-1800}
HIST_ROWS=${HIST_ROWS:-fsck revl dt lst mb}

# hist_build DIR COMMITS FILES: the generated history, into DIR (a
# temporary name first, renamed when complete); its build time and
# sizes in DIR/built.
hist_build() {
	echo "bench: building a history of $2 commits, $3 files in $1" >&2
	tmp=$1.tmp
	rm -rf "$tmp"
	git init -q --bare "$tmp" || return 1
	git --git-dir="$tmp" config gc.auto 0
	cc -O2 -o "$tmp/gen-history" "$top/bench/gen-history.c" -lm ||
		return 1
	# Stored, not compressed: the repack below compresses it all once.
	/usr/bin/time -o "$tmp/import.time" -f "import %e s (CPU %U+%S s)" \
		sh -c '"$1/gen-history" "$2" "$3" |
		git --git-dir="$1" -c core.compression=0 fast-import --quiet' \
		- "$tmp" "$2" "$3" || return 1
	/usr/bin/time -o "$tmp/repack.time" -f "repack %e s (CPU %U+%S s)" \
		git --git-dir="$tmp" -c pack.writeBitmaps=false repack -a -d -F \
		-q --window=10 --depth=50 || return 1
	git --git-dir="$tmp" pack-refs --all
	rm -f "$tmp/gen-history"
	{
		echo "$(cat "$tmp/import.time"), $(cat "$tmp/repack.time")"
		git --git-dir="$tmp" count-objects -v |
			awk '/^in-pack/ { o = $2 } /^size-pack/ { s = $2 }
			END { printf "%d objects, pack %.0f MB\n", o, s / 1024 }'
	} >"$tmp/built"
	mv "$tmp" "$1"
	echo "bench: built: $(tr '\n' ' ' <"$1/built")" >&2
}

# hist_format: HIST_FORMAT, the source's object format, which must be
# the run's (HASH=sha256 wants a sha256 repository).
hist_format() {
	HIST_FORMAT=$(git --git-dir="$HIST_SRC" rev-parse \
		--show-object-format) || exit 1
	[ "$HIST_FORMAT" = "$HASH" ] || {
		echo "bench: $HIST_SRC: a $HIST_FORMAT repository," \
			"HASH=$HASH" >&2
		exit 1
	}
}

# hist_source: HIST_SRC, the repository the rows read a copy of, and
# HIST_WHAT, what it is, for the table.
hist_source() {
	if [ -n "$BENCH_GITGIT" ]; then
		[ -d "$BENCH_GITGIT/objects/pack" ] || {
			echo "bench: BENCH_GITGIT=$BENCH_GITGIT: not a bare" \
				"repository" >&2
			exit 1
		}
		HIST_SRC=$BENCH_GITGIT
		HIST_WHAT="a copy of $BENCH_GITGIT"
		hist_format
		return
	fi
	if [ -n "$QUICK" ]; then
		hc=${HIST_COMMITS:-10000} hf=${HIST_FILES:-1000}
	else
		hc=${HIST_COMMITS:-200000} hf=${HIST_FILES:-4000}
	fi
	HIST_SRC=$BENCH_DATA/history-g$HIST_GEN_VERSION-${hc}x$hf$HASH_SUFFIX.git
	[ -f "$HIST_SRC/built" ] || hist_build "$HIST_SRC" $hc $hf || {
		echo "bench: building the history failed" >&2
		exit 1
	}
	hist_format
	HIST_WHAT="built by gen-history ($hc commits, $hf files;"
	HIST_WHAT="$HIST_WHAT $(sed -n 1p "$HIST_SRC/built"))"
}

# hist_config: the copy's config, in the source's object format.
hist_config() {
	printf '[core]\n\tbare = true\n'
	if [ "$HIST_FORMAT" = sha1 ]; then
		printf '\trepositoryformatversion = 0\n'
	else
		printf '\trepositoryformatversion = 1\n'
		printf '[extensions]\n\tobjectformat = %s\n' "$HIST_FORMAT"
	fi
}

# hist_copy: $W/hist.git, the source's refs and a hard-linked copy of
# its objects (git never rewrites a pack or a loose object in place),
# with a config of its own.
hist_copy() {
	H=$W/hist.git
	discard "$H"
	mkdir -p "$H"
	for f in HEAD packed-refs refs shallow; do
		[ -e "$HIST_SRC/$f" ] && cp -a "$HIST_SRC/$f" "$H/"
	done
	mkdir -p "$H/refs"
	cp -al "$HIST_SRC/objects" "$H/objects" 2>/dev/null || {
		rm -rf "$H/objects"
		cp -a "$HIST_SRC/objects" "$H/objects"
	}
	hist_config >"$H/config"
	HIST_OBJECTS=$(git --git-dir="$H" count-objects -v |
		awk '/^(count|in-pack):/ { n += $2 } END { print n }')
	# A partial clone lacks objects; rev-list would stop at the first.
	HIST_MISSING=
	! ls "$H"/objects/pack/*.promisor >/dev/null 2>&1 ||
		HIST_MISSING=--missing=allow-any
}

# hist_pick N: N lines of stdin spread evenly over it, first and last.
hist_pick() {
	awk -v n="$1" '{ a[NR] = $0 } END {
		if (NR <= n) { for (i = 1; i <= NR; i++) print a[i]; exit }
		for (i = 0; i < n; i++)
			print a[1 + int(i * (NR - 1) / (n - 1))] }'
}

# The commits, tags and merges the rows work on, chosen with git.
hist_choose() {
	export GIT_DIR=$H
	git rev-list --first-parent --parents -n 1000 HEAD |
		awk 'NF > 1 { print $1, $2 }' >"$W/hist-pairs"
	git for-each-ref --sort=creatordate \
		--format='%(objectname) %(objecttype) %(*objecttype)' refs/tags |
		awk '$2 == "commit" || $3 == "commit" { print $1 }' |
		hist_pick 50 >"$W/hist-tags"
	git rev-list --merges --parents HEAD | hist_pick 200 |
		cut -d" " -f2- >"$W/hist-merges"
	unset GIT_DIR
	HIST_NPAIRS=$(wc -l <"$W/hist-pairs")
	HIST_NTAGS=$(wc -l <"$W/hist-tags")
	HIST_NMERGES=$(wc -l <"$W/hist-merges")
}

# hist_time LABEL INPUT CMD...: time_cmd, but the output kept in
# $W/hist-out-LABEL, stdin from INPUT, the exit status in
# $W/hist-rc-LABEL, and a failing or killed run noted, not fatal.
hist_time() {
	label=$1 input=$2
	shift 2
	case " $HIST_ROWS " in *" ${label#*-h} "*) ;; *) return 0 ;; esac
	sync
	echo "$label" >>"$W/.labels"
	rc=0
	# SIGTERM first: timeout then waits for the command, so that its
	# CPU time and memory up to the kill are counted (after a SIGKILL
	# sent to its process group, timeout itself is gone).
	env GIT_DIR="$H" "$W/timeit" "$W/$label" timeout -k 30 \
		"$HIST_TIMEOUT" "$@" <"$input" >"$W/hist-out-$label" \
		2>"$W/hist-err-$label" || rc=$?
	echo $rc >"$W/hist-rc-$label"
}

op_history() {
	[ -n "$H" ] || { hist_source; hist_copy; hist_choose; }
	cd "$W"
	for i in $(seq $RUNS); do
		hist_time ours-hfsck /dev/null fsck-cache --strict
		hist_time git-hfsck /dev/null git fsck --strict --no-progress
		hist_time ours-hrevl /dev/null rev-list --objects --all \
			$HIST_MISSING
		hist_time git-hrevl /dev/null git rev-list --objects --all \
			$HIST_MISSING
		hist_time ours-hdt "$W/hist-pairs" diff-tree --stdin -r -p
		hist_time git-hdt "$W/hist-pairs" git diff-tree --stdin -r -p
		hist_time ours-hlst "$W/hist-tags" sh -c \
			'while read t; do ls-tree -r $t ||
				echo "ls-tree failed: $t"; done'
		hist_time git-hlst "$W/hist-tags" sh -c \
			'while read t; do git ls-tree -r $t ||
				echo "ls-tree failed: $t"; done'
		hist_time ours-hmb "$W/hist-merges" sh -c \
			'while read m; do merge-base --all $m ||
				echo "no merge base: $m"; done'
		hist_time git-hmb "$W/hist-merges" sh -c \
			'while read m; do git merge-base --all $m ||
				echo "no merge base: $m"; done'
	done
}

# hist_flags KEY: what is wrong with the last runs of KEY: a kill, a
# failure of either (both stopping at the same bad object time nothing
# worth comparing), and output unlike git's.
hist_flags() {
	orc=$(cat "$W/hist-rc-ours-$1") grc=$(cat "$W/hist-rc-git-$1")
	f=
	case $orc in 124|137) f="killed(${HIST_TIMEOUT}s)" ;; esac
	case $grc in 124|137) f="${f:+$f,}git-killed(${HIST_TIMEOUT}s)" ;; esac
	[ -n "$f" ] || [ "$orc$grc" = 00 ] || f="exit($orc,git:$grc)"
	cmp -s "$W/hist-out-ours-$1" "$W/hist-out-git-$1" ||
		f="${f:+$f,}DIFFERS($(cmp "$W/hist-out-ours-$1" \
			"$W/hist-out-git-$1" 2>&1 | sed -n \
			's/.*EOF on .*/at the end/p; s/.* line \([0-9]*\).*/line \1/p' |
			head -n 1))"
	echo "$f"
}

# hist_row NAME KEY: row, with hist_flags' warnings added, and under it
# the first line of each tool's messages when something was wrong.
hist_row() {
	row "$1" "$2" >"$W/.hist-row"
	[ -s "$W/.hist-row" ] || return 0
	f=$(hist_flags "$2")
	if [ -n "$f" ]; then
		hist_flagged=yes
		echo "$(cat "$W/.hist-row") $f"
		for t in ours git; do
			e=$(head -n 1 "$W/hist-err-$t-$2")
			[ -z "$e" ] || echo "  $t: $e"
		done
	else
		cat "$W/.hist-row"
	fi
}

rows_history() {
	echo "history: $HIST_WHAT, $HIST_OBJECTS objects"
	hist_row "fsck-cache --strict" hfsck
	hist_row "rev-list --objects --all${HIST_MISSING:+ $HIST_MISSING}" \
		hrevl
	hist_row "diff-tree -r -p, $HIST_NPAIRS commits" hdt
	hist_row "ls-tree -r, $HIST_NTAGS tags" hlst
	hist_row "merge-base --all, $HIST_NMERGES merges" hmb
	[ -n "$hist_flagged" ] || return 0
	echo "  DIFFERS(line n): the outputs differ from line n on;" \
		"exit(o,git:g): exit statuses, not both 0;"
	echo "  killed(s): stopped after s seconds, time and memory" \
		"counted up to the kill"
}

OPS="$OPS history"
STANDALONE="$STANDALONE history"
