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

# The formatter: one awk for the whole history.  Its input is a
# stream of records, each opened by a line starting with \001: "I" then
# ids and "A" then their short forms (in the same order), "C <id>
# <parents>" then the commit's text, "S" then a patch (--full-index)
# to show as a diffstat, "P" (the first) or "D" then a patch to pass
# through, "X" for a failure (exit 128), "E" the end.
format_log() {
	awk -v oneline="$oneline" -v both="$patch$stat" -v width="$stat_cols" "
	$DC_AWK_DATE$DC_AWK_STAT"'
	function flush() {
		if (oneline && pending) print short[id] " " subject
		pending = 0
		if (mode == "S") {
			stat_print(width)
			if (both == "11") print ""
		}
	}
	/^\001/ {
		tag = substr($0, 2, 1)
		if (tag == "I") { mode = "I"; ni = 0; next }
		if (tag == "A") { mode = "A"; na = 0; next }
		flush()
		if (tag == "X") exit 128
		if (tag == "E") exit 0
		if (tag == "D") { mode = "D"; next }
		if (tag == "S" || tag == "P") {
			if (!oneline) print (both == "11" ? "---" : "")
			mode = tag == "S" ? "S" : "D"
			next
		}
		# "C <id> <parents>"
		n = split(substr($0, 4), f, " ")
		id = f[1]
		merge = ""
		if (n > 2)
			for (i = 2; i <= n; i++)
				merge = merge (i > 2 ? " " : "") short[f[i]]
		if (!oneline && shown++) print ""
		mode = "C"; body = 0; lines = 0; subject = ""; pending = 1
		next
	}
	mode == "I" { ids[++ni] = $0; next }
	mode == "A" { short[ids[++na]] = $0; next }
	mode == "D" { print; next }
	mode == "S" { stat_feed($0); next }
	oneline && body {
		if (done) next
		if ($0 ~ /^[ \t]*$/) { if (lines) done = 1; next }
		line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
		subject = lines++ ? subject " " line : line
		next
	}
	body { print ($0 == "" ? "    " : "    " $0); next }
	/^$/ {
		body = 1; done = 0
		if (oneline) next
		print "commit " id
		if (merge != "") print "Merge: " merge
		print "Author: " who
		print "Date:   " when
		print ""
		next
	}
	/^author / { person(substr($0, 8)) }
	END { flush() }
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

# awk functions for git's diffstat of a patch (diff-tree -p
# --full-index) fed line by line to stat_feed: stat_print prints it,
# names scaled into width, counts, +/- bars, "Bin <old> -> <new>
# bytes" for a binary file (the blobs' sizes, from cat-file -s).
# shellcheck disable=SC2016 # awk's $, not the shell's
DC_AWK_STAT='
	function stat_file_done() {
		if (name == "") return
		nf++; names[nf] = name; adds[nf] = a; dels[nf] = d
		bin[nf] = isbin
		if (isbin) {
			adds[nf] = blob_size(newid); dels[nf] = blob_size(oldid)
		}
		name = ""
	}
	function blob_size(id,    cmd, s) {
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
	function stat_feed(l,    rest, q, parts, ids) {
		if (l ~ /^diff --git /) {
			stat_file_done(); inhunk = 0; isbin = 0; a = 0; d = 0
			oldid = ""; newid = ""
			rest = substr(l, 12)
			if (substr(rest, 1, 1) == "\"") {
				q = substr(rest, 1, (length(rest) - 1) / 2)
				name = "\"" substr(q, 4)
			} else {
				name = substr(rest, 3, (length(rest) - 5) / 2)
			}
			return
		}
		if (inhunk) {
			if (l ~ /^\+/) a++
			else if (l ~ /^-/) d++
			return
		}
		if (l ~ /^@@ /) inhunk = 1
		else if (l ~ /^index /) {
			split(l, parts, " "); split(parts[2], ids, "\\.\\.")
			oldid = ids[1]; newid = ids[2]
		} else if (l ~ /^Binary files /) isbin = 1
	}
	function scale(it, w, m) { return it ? 1 + int(it * (w - 1) / m) : 0 }
	function bar(c, n,    s) { s = ""; while (n-- > 0) s = s c; return s }
	function stat_print(width,    i, w, maxlen, maxch, numw, binw, graphw,
			    namew, ins, del, nm, pre, len, sl, pad, line, ad,
			    de, tot, s) {
		stat_file_done()
		if (!nf) return
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
		for (i = 1; i <= nf; i++) {
			delete names[i]; delete adds[i]; delete dels[i]
			delete bin[i]
		}
		nf = 0
	}
'

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

# The diff of commit $1 against $2 as records: the patch for the
# diffstat, the patch to show, or both.
show_diff() {
	eval "set -- \"\$1\" \"\$2\" $dc_paths"
	dc_c=$1 dc_from=$2
	shift 2
	if [ -n "$stat" ]; then
		printf '\001S\n'
		diff-tree -r -p --full-index "$dc_from" "$dc_c" -- "$@" || return 1
	fi
	if [ -n "$patch" ]; then
		if [ -n "$stat" ]; then
			printf '\001D\n'
		else
			printf '\001P\n'
		fi
		diff-tree -r -p "$dc_from" "$dc_c" -- "$@"
	fi
}

stat_cols=
[ -z "$stat" ] || stat_cols=$(stat_width)
set --
[ -z "$max" ] || [ "$npaths" -gt 0 ] || set -- --max-count="$max"
list=$(rev-list --parents "$@" "$start") || exit 128
# The short ids git prints: every commit's for --oneline, the parents'
# of a merge otherwise; one rev-parse for them all.
need=$(printf '%s\n' "$list" | awk -v one="$oneline" '
	one { print $1 }
	!one && NF > 2 { for (i = 2; i <= NF; i++) print $i }')
shorts=
if [ -n "$need" ]; then
	shorts=$(printf '%s\n' "$need" | xargs rev-parse --short) || exit 128
fi

{
	printf '\001I\n%s\n\001A\n%s\n' "$need" "$shorts"
	shown=0
	printf '%s\n' "$list" | while read -r c parents; do
		[ -z "$max" ] || [ "$shown" -lt "$max" ] || break
		# shellcheck disable=SC2086 # one id a word
		set -- $parents
		if [ "$npaths" -gt 0 ]; then
			touches_paths "$c" "$@" || continue
		fi
		shown=$((shown + 1))
		printf '\001C %s %s\n' "$c" "$parents"
		cat-file commit "$c" || { printf '\001X\n'; exit 128; }
		if [ -z "$patch$stat" ] || [ $# -gt 1 ]; then
			continue
		fi
		show_diff "$c" "${1:-$EMPTY_TREE}" || { printf '\001X\n'; exit 128; }
	done
	printf '\001E\n'
} | format_log
