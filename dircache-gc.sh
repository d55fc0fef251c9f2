#!/bin/sh
# dircache gc: tidy the store as git gc does: everything reachable
# into one pack (repack -a -d: the older packs and the loose copies of
# packed objects removed, objects only an old pack held written out
# loose), then the unreachable loose objects older than the grace
# period removed (prune --expire, default two weeks).  The grace
# period is what keeps a commit or a receive running meanwhile safe:
# the objects it wrote and has not made reachable yet are newer.
USAGE='gc [-q] [--prune=<time>]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

quiet=
expire=2.weeks.ago
while [ $# -gt 0 ]; do
	case $1 in
	-q) quiet=-q ;;
	--prune=?*) expire=${1#--prune=} ;;
	*) usage ;;
	esac
	shift
done
cd_to_top
dircache-repack -a -d $quiet || exit 128
prune --expire "$expire" || exit 128
