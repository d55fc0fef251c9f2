#!/bin/sh
# dircache init: an empty store in the current directory (init-db);
# --shared makes it group-writable, for several users pushing into it.
USAGE='init [--shared]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

case $# in
0) exec init-db ;;
1) [ "$1" = --shared ] || usage; exec init-db --shared ;;
*) usage ;;
esac
