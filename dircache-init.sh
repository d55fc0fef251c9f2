#!/bin/sh
# dircache init: an empty store in the current directory (init-db).
# --shared makes a store for several users to push into: group-writable,
# and without a work tree (its config says core.bare = true, as git
# init --bare --shared does), so that a push may move any branch of it,
# the one HEAD names too.
USAGE='init [--shared]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

case $# in
0) exec init-db ;;
1) [ "$1" = --shared ] || usage ;;
*) usage ;;
esac
config=$(git_dir)/config
existed=
[ ! -f "$(git_dir)/HEAD" ] || existed=1
init-db --shared || exit
[ -z "$existed" ] || exit 0
if ! sed 's/^\([[:space:]]*bare[[:space:]]*=[[:space:]]*\)false/\1true/' \
	"$config" >"$config+" || ! mv -f "$config+" "$config"; then
	die "cannot mark $config bare"
fi
