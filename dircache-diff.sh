#!/bin/sh
# dircache diff: git diff's four forms, as patches, on the plumbing:
#   diff                    the work tree against the index (show-diff)
#   diff --cached [<tree>]  the index against a tree, HEAD by default
#                           (diff-cache --cached -p)
#   diff <tree>             the work tree against a tree (diff-cache -p)
#   diff <tree> <tree>      two trees (diff-tree -r -p)
# Paths after "--" limit any of them.  --name-only and --name-status
# list the paths instead of the patch, from the plumbing's raw lines.
USAGE='diff [--cached] [--name-only | --name-status] [<tree-ish> [<tree-ish>]] [-- <path>...]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

cached=
a=
b=
names=
while [ $# -gt 0 ]; do
	case $1 in
	--cached|--staged) cached=1 ;;
	--name-only) names=only ;;
	--name-status) names=status ;;
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

# The raw lines on stdin (or show-diff -s's) as git's --name-only or
# --name-status: the status letter (with its score) and the path, as
# the plumbing quoted it.
raw_to_names() {
	if [ "$names" = only ]; then
		sed 's/^[^	]*	//'
	else
		sed 's/^:[0-7]* [0-7]* [0-9a-f]* [0-9a-f]* \([A-Z][0-9]*\)	/\1	/'
	fi
}

# The diff asked for, on stdout: a patch, or with --name-* raw lines.
run_diff() {
	if [ -n "$b" ]; then
		diff-tree -r $patch "$a" "$b" "$@"
	elif [ -z "$cached$a" ]; then
		show-diff ${names:+-s} -- "$@"
	elif [ -n "$cached" ]; then
		diff-cache --cached -r $patch "$a" "$@"
	else
		diff-cache -r $patch "$a" "$@"
	fi
}

if [ -z "$b" ] && [ -n "$cached$a" ] && [ -z "$a" ]; then
	a=$(head_commit)
	[ -n "$a" ] || die "HEAD has no commit yet"
fi
patch=-p
if [ -z "$names" ]; then
	run_diff "$@"
	exit
fi
# The plumbing's exit status, not the filter's: it comes back on fd 3.
patch=
exec 4>&1
rc=$( { { run_diff "$@"; echo $? >&3; } | raw_to_names >&4; } 3>&1 )
exec 4>&-
exit "$rc"
