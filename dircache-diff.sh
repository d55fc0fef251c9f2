#!/bin/sh
# dircache diff: git diff's four forms, as patches, on the plumbing:
#   diff                    the work tree against the index (show-diff)
#   diff --cached [<tree>]  the index against a tree, HEAD by default
#                           (diff-cache --cached -p)
#   diff <tree>             the work tree against a tree (diff-cache -p)
#   diff <tree> <tree>      two trees (diff-tree -r -p)
# Paths after "--" limit any of them; without "--", the first word
# that names no revision but a file starts the paths, as in git.
# Revisions are git's (HEAD~1, HEAD:dir, @); options in any order;
# --name-only and --name-status print the paths (with their status)
# instead of a patch; --stat, --shortstat and --numstat git's diffstat
# (diff-stat on the raw lines).  The last of these five wins.  --color
# colours the bars of --stat (the front end, dircache, passes it when
# it colours the patch on a terminal).  Renames are found as git diff
# finds them (diff.renames; -M[<n>], --find-renames[=<n>],
# --no-renames): in the work tree only to an intent-to-add file.
USAGE='diff [--cached] [--name-only | --name-status | --stat | --shortstat | --numstat] [-M[<n>] | --find-renames[=<n>] | --no-renames] [--color] [<tree-ish> [<tree-ish>]] [[--] <path>...]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

cached=
names=
color=
renames=--diff-renames
a=
b=
dashdash=
# An unknown option is a usage error before anything else, in a
# repository or not.
for arg; do
	case $arg in
	--) break ;;
	--cached|--staged|--name-only|--name-status) ;;
	--stat|--shortstat|--numstat|--color) ;;
	-M|-M[0-9.]*|--find-renames|--find-renames=*|--no-renames) ;;
	-*) usage ;;
	esac
done
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
	--name-only) names=only ;;
	--name-status) names=status ;;
	--stat|--shortstat|--numstat) names=${arg#--} ;;
	--color) color=--color ;;
	-M|-M[0-9.]*|--find-renames|--find-renames=*|--no-renames)
		renames=$arg ;;
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

if [ -z "$a$cached" ]; then
	[ -n "$names" ] || exec show-diff "$renames" -- "$@"
	case $names in
	only|status) set -- show-diff -s "$renames" -- "$@" ;;
	*) set -- show-diff -z "$renames" -- "$@" ;;
	esac
else
	if [ -z "$a" ]; then
		a=$(head_commit)
		[ -n "$a" ] || die "HEAD has no commit yet"
	fi
	if [ -n "$b" ]; then
		set -- diff-tree -r "$renames" "$a" "$b" "$@"
	else
		set -- diff-cache ${cached:+--cached} -r "$renames" "$a" "$@"
	fi
	if [ -z "$names" ]; then
		cmd=$1
		shift
		exec "$cmd" -p "$@"
	fi
fi

# --stat, --shortstat, --numstat: diff-stat counts the raw lines.
case $names in
stat|shortstat|numstat)
	cmd=$1
	shift
	[ "$cmd" = show-diff ] || set -- -z "$@"
	make_tmp
	"$cmd" "$@" >"$dc_tmp/raw" || exit 128
	diff-stat "--$names" $color <"$dc_tmp/raw"
	exit
	;;
esac

# --name-only, --name-status: from the raw lines (show-diff -s gives
# the status lines itself), as git prints them.
make_tmp
"$@" >"$dc_tmp/raw" || exit 128
if [ "$1" = show-diff ]; then
	mv "$dc_tmp/raw" "$dc_tmp/names"
else
	awk -F '\t' 'BEGIN { OFS = "\t" } {
		n = split($1, f, " ")
		$1 = f[n]
		print
	}' "$dc_tmp/raw" >"$dc_tmp/names"
fi
if [ "$names" = only ]; then
	# a rename's new name only, as git
	awk -F '\t' '{ print $NF }' "$dc_tmp/names"
else
	cat "$dc_tmp/names"
fi
