#!/bin/sh
# dircache rm: remove files from the work tree and the index.  A file
# whose content differs from the index would be lost, so it is refused
# unless -f is given.  Every path is checked before any is removed.
USAGE='rm [-f] [--] <file>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

force=
while [ $# -gt 0 ]; do
	case $1 in
	-f) force=1 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
[ $# -gt 0 ] || usage
cd_to_top

# Check every path before removing any: all or nothing.
n=$#
while [ "$n" -gt 0 ]; do
	p=$prefix$1
	shift
	n=$((n - 1))
	set -- "$@" "$p"
	[ -d "$p" ] && [ ! -L "$p" ] && die "'$p' is a directory"
	if [ -z "$force" ] && [ -e "$p" ] &&
	   ! show-diff -q -- "$p" >/dev/null 2>&1; then
		die "'$p' has changes not in the index (use -f to lose them)"
	fi
done
rm -f -- "$@" || die "could not remove the files"
update-cache --remove -- "$@" || exit 128
