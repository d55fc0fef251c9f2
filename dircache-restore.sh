#!/bin/sh
# dircache restore: put paths back, as git restore does.  Without
# options the work-tree files are made the index's again; --staged
# puts the index entries back at HEAD's (or --source's) instead, and
# --staged --worktree both.  --source=<tree-ish> takes another tree;
# the paths the source lacks are removed from what is restored, and a
# path that names nothing is an error that changes nothing (the
# pathspecs are checked before anything is written).  reset-cache does
# the work.
USAGE='restore [-s <tree-ish> | --source=<tree-ish>] [-S | --staged] [-W | --worktree] [--] <path>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

source=
staged=
worktree=
dashdash=
want_source=
# options anywhere before "--", as git's parser takes them
for arg; do
	shift
	if [ -n "$want_source" ]; then
		source=$arg
		want_source=
		continue
	fi
	if [ -n "$dashdash" ]; then
		set -- "$@" "$arg"
		continue
	fi
	case $arg in
	-s|--source) want_source=1 ;;
	--source=*) source=${arg#--source=} ;;
	-S|--staged) staged=1 ;;
	-W|--worktree) worktree=1 ;;
	-SW|-WS) staged=1; worktree=1 ;;
	--) dashdash=1 ;;
	-*) usage ;;
	*) set -- "$@" "$arg" ;;
	esac
done
[ -z "$want_source" ] || usage
[ $# -gt 0 ] || die "you must specify path(s) to restore"
[ -n "$staged" ] || worktree=1
cd_to_top
prefix_paths "$@"
eval "set -- $dc_paths"

if [ -z "$staged" ] && [ -z "$source" ]; then
	exec reset-cache -u --from-index -- "$@"
fi
source=${source:-HEAD}
id=$(rev-parse "$source" 2>/dev/null) ||
	die "could not resolve '$source'"
if [ -z "$staged" ]; then
	exec reset-cache --worktree-only "$id" -- "$@"
elif [ -z "$worktree" ]; then
	exec reset-cache --error-unmatch "$id" -- "$@"
fi
exec reset-cache -u "$id" -- "$@"
