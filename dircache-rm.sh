#!/bin/sh
# dircache rm: remove files from the work tree and the index.  A file
# whose content differs from the index would be lost, so it is refused
# unless -f is given.  Every path is checked before any is removed.
# Paths are relative to the current directory (".." resolved), options
# anywhere before "--".
USAGE='rm [-f] [--] <file>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

force=
dashdash=
# options anywhere before "--", as git's parser takes them
for arg; do
	shift
	if [ -n "$dashdash" ]; then
		set -- "$@" "$arg"
		continue
	fi
	case $arg in
	-f|--force) force=1 ;;
	--) dashdash=1 ;;
	-*) usage ;;
	*) set -- "$@" "$arg" ;;
	esac
done
[ $# -gt 0 ] || usage
cd_to_top

# Check every path before removing any: all or nothing.
prefix_paths "$@"
eval "set -- $dc_paths"
for p; do
	[ -d "$p" ] && [ ! -L "$p" ] && die "'$p' is a directory"
	if [ -z "$force" ] && [ -e "$p" ] &&
	   ! show-diff -q -- "$p" >/dev/null 2>&1; then
		die "'$p' has changes not in the index (use -f to lose them)"
	fi
done
rm -f -- "$@" || die "could not remove the files"
update-cache --remove -- "$@" || exit 128
