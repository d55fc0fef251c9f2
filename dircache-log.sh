#!/bin/sh
# dircache log: the history, in git log's default format and order
# (rev-list's): "commit <id>", "Merge: <parents>" for a merge,
# "Author:", "Date:" in the author's own zone, then the message
# indented by four spaces.  -p adds each commit's patch against its
# parent (diff-tree -p; a root commit against the empty tree; none for
# a merge, as git).  The date is computed by arithmetic in awk, not by
# date(1), so it needs nothing beyond POSIX.
USAGE='log [-n <n>] [-p] [<commit>]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

max=
patch=
while [ $# -gt 0 ]; do
	case $1 in
	-n)
		[ $# -ge 2 ] || usage
		max=$2
		shift
		;;
	-n[0-9]*) max=${1#-n} ;;
	-p) patch=1 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
case $max in *[!0-9]*) usage ;; esac
[ $# -le 1 ] || usage
cd_to_top
start=${1:-HEAD}
if [ "$start" = HEAD ] && [ -z "$(head_commit)" ]; then
	die "your current branch '$(head_branch)' does not have any commits yet"
fi
start=$(rev-parse "$start") || exit 128
make_tmp

# A commit's text on stdin; prints its header lines and message.
format_commit() {
	awk -v id="$1" -v merge="$2" '
	function civil(t,    days, secs, z, era, doe, yoe, doy, mp) {
		days = int(t / 86400)
		if (days * 86400 > t) days--
		secs = t - days * 86400
		wday = (days + 4) % 7
		if (wday < 0) wday += 7
		z = days + 719468
		era = int(z / 146097)
		if (era * 146097 > z) era--
		doe = z - era * 146097
		yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
		year = yoe + era * 400
		doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
		mp = int((5 * doy + 2) / 153)
		mday = doy - int((153 * mp + 2) / 5) + 1
		mon = mp < 10 ? mp + 3 : mp - 9
		if (mon <= 2) year++
		hh = int(secs / 3600); mm = int(secs % 3600 / 60); ss = secs % 60
	}
	function show_date(epoch, tz,    off) {
		off = (substr(tz, 2, 2) * 3600 + substr(tz, 4, 2) * 60)
		if (substr(tz, 1, 1) == "-") off = -off
		civil(epoch + off)
		return sprintf("%s %s %d %02d:%02d:%02d %d %s",
			substr("SunMonTueWedThuFriSat", wday * 3 + 1, 3),
			substr("JanFebMarAprMayJunJulAugSepOctNovDec", mon * 3 - 2, 3),
			mday, hh, mm, ss, year, tz)
	}
	BEGIN { body = 0 }
	body { print ($0 == "" ? "    " : "    " $0); next }
	/^$/ {
		print "commit " id
		if (merge != "") print "Merge: " merge
		print "Author: " who
		print "Date:   " when
		print ""
		body = 1
		next
	}
	/^author / {
		line = substr($0, 8)
		gt = 0
		for (i = length(line); i > 0; i--)
			if (substr(line, i, 1) == ">") { gt = i; break }
		who = substr(line, 1, gt)
		n = split(substr(line, gt + 1), f, " ")
		when = show_date(f[1], f[2])
	}
	'
}

set -- --max-count="${max:-}"
[ -n "$max" ] || set --
rev-list "$@" "$start" >"$dc_tmp/list" || exit 128
first=1
while read -r c; do
	[ -n "$first" ] || echo
	first=
	parents=$(commit_parents "$c") || exit 128
	merge=
	# shellcheck disable=SC2086 # one id a word
	set -- $parents
	if [ $# -gt 1 ]; then
		merge=$(rev-parse --short "$@" | tr '\n' ' ')
		merge=${merge% }
	fi
	cat-file commit "$c" | format_commit "$c" "$merge" || exit 128
	if [ -z "$patch" ] || [ $# -gt 1 ]; then
		continue
	fi
	if [ $# -eq 0 ]; then
		[ -n "${empty_tree:-}" ] ||
			empty_tree=$(GIT_INDEX_FILE=$dc_tmp/empty write-tree) ||
			exit 128
		echo
		diff-tree -r -p "$empty_tree" "$c" || exit 128
	else
		echo
		diff-tree -r -p "$1" "$c" || exit 128
	fi
done <"$dc_tmp/list"
