#!/bin/sh
# bench/diff-memory.sh: time and peak memory of show-diff on big diffs,
# next to git diff --no-index on the same pair of files.
#
#   sh bench/diff-memory.sh [workdir]
#
# Pairs: 100,000 lines with every other line changed, and ~50 MB files
# (800,000 lines, 10% of them rewritten).  show-diff runs in a dircache
# whose index holds the old file and whose work tree holds the new one.

TOP=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d "${TMPDIR:-/tmp}/diff-memory.XXXXXX")}
PATH="$TOP:$PATH"
DIRCACHE_NO_SYNC=1
LC_ALL=C
export PATH DIRCACHE_NO_SYNC LC_ALL

TIME=/usr/bin/time
if ! $TIME -v true >/dev/null 2>&1; then
	echo "note: GNU time (/usr/bin/time -v) is missing; install the" \
		"'time' package to see peak memory" >&2
	TIME=
fi

mkdir -p "$WORK" || exit 1
cd "$WORK" || exit 1

gen_pairs() {
	awk 'BEGIN { for (i = 1; i <= 100000; i++) print "line " i }' \
		>lines.old
	awk 'BEGIN { for (i = 1; i <= 100000; i++)
		if (i % 2) print "line " i; else print "changed " i }' \
		>lines.new
	awk 'BEGIN { srand(1);
		pad = "abcdefghijklmnopqrstuvwxyz0123456789";
		pad = pad pad pad;
		for (i = 0; i < 800000; i++)
			printf "%08d %s\n", i,
				substr(pad, 1, 20 + int(rand() * 80)) }' \
		>big.old
	awk 'BEGIN { srand(2) } { if (rand() < 0.1) print "rewritten " $0;
		else print }' big.old >big.new
}

# measure LABEL COMMAND...: one line "LABEL  <seconds> s  <peak KiB> KiB"
measure() {
	label=$1
	shift
	if [ -z "$TIME" ]; then
		start=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		end=$(date +%s.%N)
		printf "%-34s %8.2f s\n" "$label" \
			"$(echo "$end - $start" | bc)"
		return
	fi
	$TIME -v "$@" >/dev/null 2>time.out
	awk -v label="$label" '
		/Elapsed \(wall clock\)/ { n = split($NF, t, ":");
			secs = t[n] + (n > 1 ? t[n - 1] * 60 : 0) }
		/Maximum resident set size/ { rss = $NF }
		END { printf "%-34s %8.2f s %10d KiB\n", label, secs, rss }
	' time.out
}

# index OLD as f in repo-NAME, with NEW in the work tree
setup_repo() {
	rm -rf "repo-$1" &&
	mkdir "repo-$1" &&
	(cd "repo-$1" &&
	 init-db >/dev/null 2>&1 &&
	 cp "../$2" f &&
	 if [ -x "$TOP/update-cache" ]; then
		update-cache --add f
	 else
		GIT_DIR=.dircache git update-index --add f
	 fi &&
	 cp "../$3" f)
}

gen_pairs || exit 1
echo "files: $(wc -l <lines.old) lines ($(wc -c <lines.old) bytes);" \
	"$(wc -l <big.old) lines ($(wc -c <big.old) bytes)"
for pair in lines big; do
	setup_repo $pair $pair.old $pair.new || exit 1
	(cd repo-$pair && measure "show-diff ($pair)" show-diff)
	measure "git diff --no-index ($pair)" \
		git diff --no-index $pair.old $pair.new
done
(cd repo-lines && show-diff >../ours.patch)
git diff --no-index lines.old lines.new | sed 1,4d >theirs.patch
if sed 1,4d ours.patch | cmp -s - theirs.patch; then
	echo "the 100,000-line patch's hunks are identical to git's"
else
	echo "the 100,000-line patch differs from git's"
fi
[ -n "$1" ] || rm -rf "$WORK"
