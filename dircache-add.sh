#!/bin/sh
# dircache add: put files into the index (update-cache --add).  A
# directory is walked for its files and symlinks; .dircache and .git
# directories are skipped, as they are never content.  find hands the
# names to update-cache as arguments, never as text, so any byte but
# NUL and "/" in a name is safe.
USAGE='add <path>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
case ${1:-} in
--) shift ;;
-*) usage ;;
esac
[ $# -gt 0 ] || usage
cd_to_top

for p; do
	case $p in
	/*) ;;
	*) p=$prefix$p ;;
	esac
	p=${p:-.}
	if [ -d "$p" ] && [ ! -L "$p" ]; then
		find "$p" \( -name .dircache -o -name .git \) -prune -o \
			\( -type f -o -type l \) \
			-exec update-cache --add -- {} + || exit 128
	else
		update-cache --add -- "$p" || exit 128
	fi
done
