#!/bin/sh
# dircache diff: git diff's four forms, as patches, on the plumbing:
#   diff                    the work tree against the index (show-diff)
#   diff --cached [<tree>]  the index against a tree, HEAD by default
#                           (diff-cache --cached -p)
#   diff <tree>             the work tree against a tree (diff-cache -p)
#   diff <tree> <tree>      two trees (diff-tree -r -p)
# Paths after "--" limit any of them.
USAGE='diff [--cached] [<tree-ish> [<tree-ish>]] [-- <path>...]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

cached=
a=
b=
while [ $# -gt 0 ]; do
	case $1 in
	--cached|--staged) cached=1 ;;
	--) shift; break ;;
	-*) usage ;;
	*)
		if [ -z "$a" ]; then a=$1
		elif [ -z "$b" ]; then b=$1
		else usage
		fi
		;;
	esac
	shift
done
[ -z "$cached" ] || [ -z "$b" ] || usage
cd_to_top
n=$#
while [ "$n" -gt 0 ]; do
	p=$1
	shift
	n=$((n - 1))
	set -- "$@" "$prefix$p"
done

if [ -n "$b" ]; then
	exec diff-tree -r -p "$a" "$b" "$@"
fi
if [ -z "$cached$a" ]; then
	exec show-diff -- "$@"
fi
if [ -z "$a" ]; then
	a=$(head_commit)
	[ -n "$a" ] || die "HEAD has no commit yet"
fi
if [ -n "$cached" ]; then
	exec diff-cache --cached -r -p "$a" "$@"
fi
exec diff-cache -r -p "$a" "$@"
