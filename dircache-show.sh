#!/bin/sh
# dircache show: an object as git show shows it: a commit as "log -1
# -p" (log-tree; log's options pass through: --stat, --oneline, renames,
# --color; no diff for a merge; a commit named twice is shown once), an
# annotated tag as its "tag", "Tagger:", "Date:" lines and message,
# then the object it tags, a tree as "tree <name>" and its entries (a
# directory with a trailing "/"), a blob as its content.
USAGE='show [--oneline] [--stat] [-p] [-M[<n>] | --find-renames[=<n>] | --no-renames] [--color[=<when>] | --no-color] [--decorate[=<style>] | --no-decorate] [<object>...]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

opts=
names=
for a; do
	case $a in
	--oneline|--stat|-p|-u|--patch|--color|--no-color|--color=always|\
	--color=never|--color=auto|--decorate|--decorate=short|\
	--decorate=full|--decorate=auto|--decorate=no|--no-decorate|\
	-M|-M[0-9.]*|--find-renames|--find-renames=*|--no-renames)
		opts="$opts $a" ;;
	-*) usage ;;
	*) names="$names $(shell_quote "$a")" ;;
	esac
done
case "$opts " in
*' --stat '*|*' -p '*|*' -u '*|*' --patch '*) ;;
*) opts="$opts -p" ;;
esac
eval "set -- $names"
[ $# -gt 0 ] || set -- HEAD
cd_to_top

# Show object $2 (named $1 on the command line).
show_object() {
	case $(cat-file -t "$2") in
	commit)
		case " $shown " in *" $2 "*) return 0 ;; esac
		shown="$shown $2"
		[ -n "$first" ] || echo
		first=
		# shellcheck disable=SC2086 # the options, one a word
		log-tree --name='dircache show' --max-count=1 $opts "$2" -- ||
			exit 128
		;;
	tag) show_tag "$1" "$2" ;;
	tree)
		printf 'tree %s\n\n' "$1"
		ls-tree "$2" | awk -F '\t' '{ split($1, f, " ")
			print $2 (f[2] == "tree" ? "/" : "") }'
		;;
	blob) cat-file blob "$2" ;;
	*) die "cannot show '$1'" ;;
	esac
}

show_tag() {
	dc_text=$(cat-file tag "$2") || exit 128
	printf '%s\n' "$dc_text" | awk "$DC_AWK_DATE"'
	body { print; next }
	/^$/ { print "tag " tag; print "Tagger: " who
	       print "Date:   " when; print ""; body = 1; next }
	/^tag / { tag = substr($0, 5) }
	/^tagger / { person(substr($0, 8)) }'
	echo
	dc_obj=$(printf '%s\n' "$dc_text" | sed -n '1s/^object //p')
	show_object "$dc_obj" "$dc_obj"
}

# git shows a commit once, and a blank line between two commits
first=1
shown=
for name; do
	id=$(rev-parse "$name" 2>/dev/null) ||
		die "bad revision '$name'"
	show_object "$name" "$id"
done
