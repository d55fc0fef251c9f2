#!/bin/sh
# dircache log: the history, in git log's formats and order (rev-list's).
# The default format is "commit <id>", "Merge: <parents>" for a merge,
# "Author:", "Date:" in the author's own zone, then the message
# indented by four spaces; --oneline is "<short id> <subject>".  -p
# adds each commit's patch against its parent (diff-tree -p; a root
# commit against the empty tree; none for a merge, as git), --stat
# git's diffstat of it (80 columns, or $COLUMNS, or the terminal's).
# Paths limit the history to the commits that change them (a merge
# shown when it differs from every parent; git's pruning of the
# merged-in side is not done) and the patches to those paths.  The
# date is computed by arithmetic in awk, not by date(1), so it needs
# nothing beyond POSIX.  No temporary file: "log | head" leaves
# nothing behind.
USAGE='log [-n <n>] [--oneline] [-p] [--stat] [<commit>] [[--] <path>...]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

EMPTY_TREE=4b825dc642cb6eb9a060e54bf8d69288fbee4904
max=
patch=
stat=
oneline=
start=
while [ $# -gt 0 ]; do
	case $1 in
	-n|--max-count)
		[ $# -ge 2 ] || usage
		max=$2
		shift
		;;
	-n[0-9]*) max=${1#-n} ;;
	--max-count=*) max=${1#--max-count=} ;;
	-[0-9]*) max=${1#-} ;;
	-p|-u|--patch) patch=1 ;;
	--stat) stat=1 ;;
	--oneline) oneline=1 ;;
	--) shift; break ;;
	-*) usage ;;
	*)
		if [ -n "$start" ] || ! rev-parse "$1" >/dev/null 2>&1; then
			break
		fi
		start=$1
		;;
	esac
	shift
done
case $max in *[!0-9]*) usage ;; esac
cd_to_top
prefix_paths "$@"
eval "set -- $dc_paths"
npaths=$#
if [ -z "$start" ]; then
	start=HEAD
	[ -n "$(head_commit)" ] ||
		die "your current branch '$(head_branch)' does not have any commits yet"
fi
start=$(rev-parse "$start") || exit 128

# A commit's text on stdin; prints its header lines and message.
format_commit() {
	awk -v id="$1" -v merge="$2" -v oneline="$oneline" -v short="$3" "
	$DC_AWK_DATE"'
	BEGIN { body = 0 }
	oneline && body {
		if ($0 ~ /^[ \t]*$/) { if (n) exit; next }
		line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
		subject = n++ ? subject " " line : line
		next
	}
	body { print ($0 == "" ? "    " : "    " $0); next }
	/^$/ {
		body = 1
		if (oneline) next
		print "commit " id
		if (merge != "") print "Merge: " merge
		print "Author: " who
		print "Date:   " when
		print ""
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
		n = 0
	}
	END { if (oneline) print short " " subject }
	'
}

# The width git gives a diffstat: $COLUMNS, the terminal's, else 80.
stat_width() {
	case ${COLUMNS:-} in
	''|*[!0-9]*) ;;
	*) [ "$COLUMNS" -gt 0 ] && { echo "$COLUMNS"; return; } ;;
	esac
	if [ -t 1 ]; then
		dc_w=$(stty size 2>/dev/null </dev/tty | cut -d' ' -f2)
		case $dc_w in ''|*[!0-9]*|0) ;; *) echo "$dc_w"; return ;; esac
	fi
	echo 80
}

# git's diffstat of the patch on stdin (diff-tree -p --full-index):
# names scaled into the width, counts, +/- bars, "Bin <old> -> <new>
# bytes" for a binary file (the blobs' sizes, from cat-file -s).
diffstat() {
	awk -v width="$stat_cols" '
	function flush() {
		if (name == "") return
		nf++; names[nf] = name; adds[nf] = a; dels[nf] = d
		bin[nf] = isbin
		if (isbin) {
			adds[nf] = size(newid); dels[nf] = size(oldid)
		}
		name = ""
	}
	function size(id,    cmd, s) {
		if (id ~ /^0+$/) return 0
		cmd = "cat-file -s " id
		cmd | getline s
		close(cmd)
		return s + 0
	}
	function unquote_prefix(s) {
		sub(/\t$/, "", s)
		if (substr(s, 1, 1) == "\"") return "\"" substr(s, 4)
		return substr(s, 3)
	}
	/^diff --git / { flush(); inhunk = 0; isbin = 0; a = 0; d = 0
		name = "?"; oldid = ""; newid = ""; next }
	inhunk && /^\+/ { a++; next }
	inhunk && /^-/ { d++; next }
	inhunk && /^[ \\]/ { next }
	/^@@ / { inhunk = 1; next }
	/^index / { split($2, ids, "\\.\\."); oldid = ids[1]; newid = ids[2]; next }
	/^--- / { if ($0 != "--- /dev/null") name = unquote_prefix(substr($0, 5)); next }
	/^\+\+\+ / { if ($0 != "+++ /dev/null") name = unquote_prefix(substr($0, 5)); next }
	/^Binary files / { isbin = 1
		s = $0; sub(/^Binary files /, "", s); sub(/ differ$/, "", s)
		if (name == "?") {
			split(s, pair, " and ")
			name = pair[2] == "/dev/null" ? unquote_prefix(pair[1]) : unquote_prefix(pair[2])
		}
		next }
	/^(old|new|deleted file|new file) mode / && name == "?" { next }
	END {
		flush()
		if (!nf) exit
		maxlen = 0; maxch = 0; numw = 0; binw = 0
		for (i = 1; i <= nf; i++) {
			if (length(names[i]) > maxlen) maxlen = length(names[i])
			if (bin[i]) {
				w = 14 + length(adds[i] "") + length(dels[i] "")
				if (w > binw) binw = w
				numw = 3
				continue
			}
			if (adds[i] + dels[i] > maxch) maxch = adds[i] + dels[i]
		}
		if (length(maxch "") > numw) numw = length(maxch "")
		if (width < 16 + 6 + numw) width = 16 + 6 + numw
		graphw = maxch + 4 > binw ? maxch : binw - 4
		namew = maxlen
		if (namew + numw + 6 + graphw > width) {
			if (graphw > int(width * 3 / 8) - numw - 6) {
				graphw = int(width * 3 / 8) - numw - 6
				if (graphw < 6) graphw = 6
			}
			if (namew > width - numw - 6 - graphw)
				namew = width - numw - 6 - graphw
			else
				graphw = width - numw - 6 - namew
		}
		ins = 0; del = 0
		for (i = 1; i <= nf; i++) {
			nm = names[i]; pre = ""; len = namew
			if (namew < length(nm)) {
				pre = "..."; len -= 3; if (len < 0) len = 0
				nm = substr(nm, length(nm) - len + 1)
				sl = index(nm, "/")
				if (sl) nm = substr(nm, sl)
			}
			pad = len - length(nm); if (pad < 0) pad = 0
			line = sprintf(" %s%s%*s |", pre, nm, pad, "")
			if (bin[i]) {
				printf "%s %*s", line, numw, "Bin"
				if (!adds[i] && !dels[i]) { print ""; continue }
				printf " %d -> %d bytes\n", dels[i], adds[i]
				continue
			}
			ad = adds[i]; de = dels[i]
			ins += ad; del += de
			if (graphw <= maxch) {
				tot = scale(ad + de, graphw, maxch)
				if (tot < 2 && ad && de) tot = 2
				if (ad < de) { ad = scale(ad, graphw, maxch); de = tot - ad }
				else { de = scale(de, graphw, maxch); ad = tot - de }
			}
			printf "%s %*d%s%s%s\n", line, numw, adds[i] + dels[i],
				adds[i] + dels[i] ? " " : "", bar("+", ad), bar("-", de)
		}
		s = sprintf(" %d file%s changed", nf, nf == 1 ? "" : "s")
		if (ins || !del) s = s sprintf(", %d insertion%s(+)", ins, ins == 1 ? "" : "s")
		if (del || !ins) s = s sprintf(", %d deletion%s(-)", del, del == 1 ? "" : "s")
		print s
	}
	function scale(it, w, m) { return it ? 1 + int(it * (w - 1) / m) : 0 }
	function bar(c, n,    s) { s = ""; while (n-- > 0) s = s c; return s }
	'
}

# Does commit $1 (parents $2..., the empty tree for a root) change
# the paths?  A merge: only when it differs from every parent.
touches_paths() {
	dc_c=$1
	shift
	[ $# -gt 0 ] || set -- "$EMPTY_TREE"
	for dc_p; do
		eval "set -- $dc_paths"
		[ -n "$(diff-tree -r "$dc_p" "$dc_c" -- "$@")" ] || return 1
	done
	return 0
}

# The diff of commit $1 against $2: stat, patch or both.
show_diff() {
	eval "set -- \"\$1\" \"\$2\" $dc_paths"
	dc_c=$1 dc_from=$2
	shift 2
	if [ -n "$stat" ]; then
		diff-tree -r -p --full-index "$dc_from" "$dc_c" -- "$@" |
			diffstat || exit 128
		[ -z "$patch" ] || echo
	fi
	[ -z "$patch" ] || diff-tree -r -p "$dc_from" "$dc_c" -- "$@" ||
		exit 128
}

stat_cols=
[ -z "$stat" ] || stat_cols=$(stat_width)
set --
[ -z "$max" ] || [ "$npaths" -gt 0 ] || set -- --max-count="$max"
shown=0
rev-list "$@" "$start" | while read -r c; do
	[ -z "$max" ] || [ "$shown" -lt "$max" ] || break
	text=$(cat-file commit "$c") || exit 128
	parents=$(printf '%s\n' "$text" | sed -n '/^$/q; s/^parent //p')
	# shellcheck disable=SC2086 # one id a word
	set -- $parents
	if [ "$npaths" -gt 0 ]; then
		touches_paths "$c" "$@" || continue
		# shellcheck disable=SC2086 # one id a word
		set -- $parents
	fi
	if [ -z "$oneline" ] && [ "$shown" -gt 0 ]; then
		echo
	fi
	shown=$((shown + 1))
	merge=
	short=
	if [ $# -gt 1 ] && [ -z "$oneline" ]; then
		merge=$(rev-parse --short "$@" | tr '\n' ' ')
		merge=${merge% }
	fi
	[ -z "$oneline" ] || short=$(rev-parse --short "$c")
	printf '%s\n' "$text" | format_commit "$c" "$merge" "$short" ||
		exit 128
	if [ -z "$patch$stat" ] || [ $# -gt 1 ]; then
		continue
	fi
	from=${1:-$EMPTY_TREE}
	if [ -z "$oneline" ]; then
		if [ -n "$patch" ] && [ -n "$stat" ]; then
			echo ---
		else
			echo
		fi
	fi
	show_diff "$c" "$from"
done
