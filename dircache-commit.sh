#!/bin/sh
# dircache commit: record the index as a commit on the current branch
# and print its id.  The trees (add-files --write-tree), then
# commit-tree with HEAD as parent (and MERGE_HEAD as the second, when
# a pull left a merge to finish), then update-ref moves the branch under its lock, only if it still
# holds the parent we read: a commit racing ours is never overwritten.
# -a stages the tracked files that changed or went, in the same pass
# (add-files --write-tree) that writes the trees and the index once.
# An empty message, and a commit whose tree is its parent's, are
# refused unless asked for; the message is cleaned as git commit
# cleans it.
USAGE='commit [-a] [-m <msg>]... [-F <file>] [--allow-empty] [--allow-empty-message]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

all=
msg=
have_msg=
file=
allow_empty=
allow_empty_msg=
while [ $# -gt 0 ]; do
	case $1 in
	-a|--all) all=1 ;;
	-m) [ $# -ge 2 ] || usage; add_message "$2"; shift ;;
	-m*) add_message "${1#-m}" ;;
	-F)
		[ $# -ge 2 ] || usage
		file=$2
		shift
		;;
	--allow-empty) allow_empty=1 ;;
	--allow-empty-message) allow_empty_msg=1 ;;
	*) usage ;;
	esac
	shift
done
[ -n "$have_msg" ] && [ -n "$file" ] && die "-m and -F cannot be used together"
case $file in ''|/*|-) ;; *) file=$(pwd -P)/$file ;; esac
cd_to_top
gd=$(git_dir)
make_tmp

merge_head=
if [ -f "$gd/MERGE_HEAD" ]; then
	merge_head=$(cat "$gd/MERGE_HEAD")
	is_id "$merge_head" || die "$gd/MERGE_HEAD is not an id"
fi
if [ -n "$file" ]; then
	if [ "$file" = - ]; then
		cat >"$dc_tmp/msg" || die "cannot read the message"
	else
		cat -- "$file" >"$dc_tmp/msg" || die "cannot read '$file'"
	fi
elif [ -n "$have_msg" ]; then
	printf '%s\n' "$msg" >"$dc_tmp/msg"
elif [ -n "$merge_head" ] && [ -f "$gd/MERGE_MSG" ]; then
	# its "# Conflicts:" lines go, as git's editor cleanup drops them
	clean_message strip <"$gd/MERGE_MSG" >"$dc_tmp/msg"
else
	die "no message: use -m <msg> or -F <file>"
fi
clean_message whitespace <"$dc_tmp/msg" >"$dc_tmp/clean" || exit 128
if [ ! -s "$dc_tmp/clean" ] && [ -z "$allow_empty_msg" ]; then
	die "refusing an empty message (--allow-empty-message to force)"
fi

# One pass (add-files): -a's changes staged, the trees written with
# the index's cache tree, the index written once; nothing when paths
# are unmerged (they are listed instead).
if [ -n "$all" ]; then
	tree=$(add-files -u --write-tree)
else
	tree=$(add-files --write-tree)
fi
case $? in
0) ;;
1)
	say "dircache commit: cannot commit, these paths are unmerged:"
	printf '%s\n' "$tree" | sed 's/^/\t/' >&2
	die "fix them and 'dircache add' them (or 'dircache merge --abort')"
	;;
*) exit 128 ;;
esac
parent=$(head_commit)
if [ -n "$parent" ] && [ -z "$merge_head" ] && [ -z "$allow_empty" ]; then
	ptree=$(rev-parse "$parent^{tree}") || exit 128
	[ "$ptree" != "$tree" ] ||
		die "nothing to commit: the tree is the parent's (--allow-empty to force)"
fi

set --
[ -z "$parent" ] || set -- -p "$parent"
[ -z "$merge_head" ] || set -- "$@" -p "$merge_head"
commit=$(commit-tree "$tree" "$@" <"$dc_tmp/clean") || exit 128
update-ref HEAD "$commit" "${parent:-$NULL_ID}" || exit 128
rm -f "$gd/MERGE_HEAD" "$gd/MERGE_MSG"
printf '%s\n' "$commit"
