#!/bin/sh
# dircache diff: git diff's four forms, as patches, on the plumbing:
#   diff                    the work tree against the index (show-diff)
#   diff --cached [<tree>]  the index against a tree, HEAD by default
#                           (diff-cache --cached -p)
#   diff <tree>             the work tree against a tree (diff-cache -p)
#   diff <tree> <tree>      two trees (diff-tree -r -p)
# Paths after "--" limit any of them; without "--", the first word
# that names no revision but a file starts the paths, as in git.
# Revisions are git's (HEAD~1, HEAD:dir, @); options in any order.
USAGE='diff [--cached] [<tree-ish> [<tree-ish>]] [[--] <path>...]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

cached=
a=
b=
dashdash=
# Options in any order; before "--", a word that names a revision is
# one, a word that names a file starts the paths (as git decides).
cd_to_top
for arg; do
	shift
	if [ -n "$dashdash" ]; then
		set -- "$@" "$arg"
		continue
	fi
	case $arg in
	--cached|--staged) cached=1 ;;
	--) dashdash=1 ;;
	-*) usage ;;
	*)
		if ! rev-parse "$arg" >/dev/null 2>&1; then
			[ -e "$prefix$arg" ] || [ -L "$prefix$arg" ] ||
				die "ambiguous argument '$arg': unknown revision or path not in the working tree (use '--' to separate paths from revisions)"
			dashdash=1
			set -- "$@" "$arg"
			continue
		fi
		if [ -e "$prefix$arg" ] || [ -L "$prefix$arg" ]; then
			die "ambiguous argument '$arg': both revision and filename (use '--' to separate paths from revisions)"
		fi
		if [ -z "$a" ]; then a=$arg
		elif [ -z "$b" ]; then b=$arg
		else usage
		fi
		;;
	esac
done
[ -z "$cached" ] || [ -z "$b" ] || usage
prefix_paths "$@"
eval "set -- $dc_paths"

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
