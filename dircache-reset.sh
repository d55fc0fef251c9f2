#!/bin/sh
# dircache reset: move the current branch to <commit> (HEAD by
# default), as git reset does.  --soft moves the branch only; --mixed
# (the default) makes the index the commit's tree too and lists what
# the work tree still changes ("Unstaged changes after reset:"); --hard
# makes the work tree the tree's as well, removing the tracked files
# the tree lacks, and says "HEAD is now at <id> <subject>".  The old
# HEAD goes to ORIG_HEAD and a merge in progress is forgotten, as in
# git.  With paths, only their index entries are reset (reset-cache)
# and HEAD stays.  The index and work tree change before the branch
# does, so a refusal (a bad commit, a locked index) changes nothing.
USAGE='reset [--soft | --mixed | --hard | --merge] [-q] [<commit>] [--] [<path>...]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

mode=
quiet=
while [ $# -gt 0 ]; do
	case $1 in
	--soft|--mixed|--hard|--merge)
		[ -z "$mode" ] || [ "$mode" = "${1#--}" ] ||
			die "--$mode and $1 cannot be used together"
		mode=${1#--}
		;;
	-q|--quiet) quiet=1 ;;
	--) break ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
cd_to_top
gd=$(git_dir)
make_tmp

# <commit> [--] <path>..., or -- <path>..., or <path>... (a first
# argument that names no commit is a path, as in git).
rev=HEAD
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	if rev-parse "$1" >/dev/null 2>&1; then
		rev=$1
		shift
	elif [ "${2:-}" = -- ]; then
		die "not a valid commit: '$1'"
	elif [ ! -e "${prefix}$1" ] &&
	     [ -z "$(ls-files -- "${prefix}$1" 2>/dev/null)" ]; then
		die "ambiguous argument '$1': unknown revision or path not in the working tree"
	fi
fi
[ "${1:-}" != -- ] || shift
npaths=$#
prefix_paths "$@"
eval "set -- $dc_paths"

head=$(head_commit)
if [ -z "$head" ] && [ "$rev" = HEAD ]; then
	target=
else
	target=$(rev-parse "$rev" 2>/dev/null) ||
		die "not a valid commit: '$rev'"
	[ "$(cat-file -t "$target" 2>/dev/null)" = commit ] ||
		die "'$rev' is not a commit"
fi
# The tree of target (the empty tree on an unborn branch).
tree_of_target() {
	if [ -n "$target" ]; then
		printf '%s\n' "$target"
	else
		GIT_INDEX_FILE=$dc_tmp/empty write-tree
	fi
}

# What the work tree still changes, as git lists it after a reset.
show_unstaged() {
	[ -z "$quiet" ] || return 0
	update-cache --refresh >/dev/null 2>&1
	show-diff -s >"$dc_tmp/unstaged" 2>/dev/null
	if [ -s "$dc_tmp/unstaged" ]; then
		echo 'Unstaged changes after reset:'
		cat "$dc_tmp/unstaged"
	fi
}

if [ "$npaths" -gt 0 ]; then
	case $mode in
	soft|hard|merge) die "cannot do a $mode reset with paths" ;;
	esac
	tree=$(tree_of_target) || exit 128
	reset-cache "$tree" -- "$@" || exit 128
	show_unstaged
	exit 0
fi

mode=${mode:-mixed}
if [ "$mode" = soft ]; then
	if [ -f "$gd/MERGE_HEAD" ] || ls-files -u | grep -q .; then
		die "cannot do a soft reset in the middle of a merge"
	fi
else
	tree=$(tree_of_target) || exit 128
	case $mode in
	mixed) reset-cache "$tree" || exit 128 ;;
	hard) reset-cache --hard "$tree" || exit 128 ;;
	merge) reset-cache --merge "$tree" || exit 128 ;;
	esac
fi
if [ -n "$target" ]; then
	if [ -n "$head" ]; then
		printf '%s\n' "$head" >"$gd/ORIG_HEAD" ||
			die "cannot write ORIG_HEAD"
	fi
	update-ref HEAD "$target" "${head:-$NULL_ID}" || exit 128
fi
[ "$mode" = soft ] || rm -f "$gd/MERGE_HEAD" "$gd/MERGE_MSG"
case $mode in
mixed) show_unstaged ;;
hard)
	[ -n "$quiet" ] || [ -z "$target" ] ||
		printf 'HEAD is now at %s %s\n' "$(rev-parse --short "$target")" \
			"$(commit_subject "$target")"
	;;
esac
exit 0
