#!/bin/sh
# dircache add: bring the index up to date with the work tree below the
# paths given, as git add 2.x does: changed files are staged, files
# the index does not know are added (those .gitignore, info/exclude or
# core.excludesFile exclude left out; -f adds them), and files gone
# from the work tree leave the index.  -A with no path is the whole
# tree, -u only the files already tracked.  One process does it
# (add-files): it hashes only the files whose stat data changed since
# the index saw them and writes the index once.  An ignored path named
# on the command line is refused with git's hint (the others are
# added, exit 1).
USAGE='add [-A | -u] [-f] [--] <pathspec>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
opts=
whole=
dashdash=
# options anywhere before "--", as git's parser takes them
for arg; do
	shift
	if [ -n "$dashdash" ]; then
		set -- "$@" "$arg"
		continue
	fi
	case $arg in
	--) dashdash=1 ;;
	-A|--all|-u|--update) opts="$opts $arg"; whole=1 ;;
	-f|--force) opts="$opts $arg" ;;
	-*) usage ;;
	*) set -- "$@" "$arg" ;;
	esac
done
[ $# -gt 0 ] || [ -n "$whole" ] || usage
cd_to_top
# shellcheck disable=SC2086
exec add-files $opts --prefix="$prefix" -- "$@"
