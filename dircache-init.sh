#!/bin/sh
# dircache init: an empty store in the current directory (init-db), or
# in <directory>, made when missing, as git init <directory>; -q says
# nothing.
# --shared makes a store for several users to push into: group-writable,
# and without a work tree (its config says core.bare = true, as git
# init --bare --shared does), so that a push may move any branch of it,
# the one HEAD names too.
# --object-format=sha256 names objects by SHA-256 (init-db's option; git
# init's): the default is sha1, or GIT_DEFAULT_HASH when set.
USAGE='init [-q | --quiet] [--shared] [--object-format=<format>] [<directory>]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

quiet=
shared=
format=
dir=
while [ $# -gt 0 ]; do
	case $1 in
	-q|--quiet) quiet=-q ;;
	--shared) shared=--shared ;;
	--object-format=*) format=$1 ;;
	--) shift; [ $# -le 1 ] || usage; dir=${1-}; break ;;
	-*) usage ;;
	*) [ -z "$dir" ] || usage; dir=$1 ;;
	esac
	shift
done
if [ -n "$dir" ]; then
	# As git init <directory>: made when missing, then the store in it.
	mkdir -p -- "$dir" || die "cannot make '$dir'"
	cd -- "$dir" || die "cannot enter '$dir'"
fi
[ -n "$shared" ] || exec init-db $quiet ${format:+"$format"}
config=$(git_dir)/config
existed=
[ ! -f "$(git_dir)/HEAD" ] || existed=1
init-db $quiet --shared ${format:+"$format"} || exit
[ -z "$existed" ] || exit 0
if ! sed 's/^\([[:space:]]*bare[[:space:]]*=[[:space:]]*\)false/\1true/' \
	"$config" >"$config+" || ! mv -f "$config+" "$config"; then
	die "cannot mark $config bare"
fi
