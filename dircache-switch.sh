#!/bin/sh
# dircache switch: git switch's everyday forms, on dircache checkout:
# "switch <branch>" moves HEAD, the index and the work tree to the
# branch (carrying local changes, refusing to lose one), and "switch
# -c <new-branch> [<start>]" makes the branch first, at <start> or
# HEAD.  No paths: restoring files is dircache restore's job.
USAGE='switch <branch> | switch (-c | --create) <new-branch> [<start>]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

case ${1:-} in
-c|--create)
	shift
	if [ $# -lt 1 ] || [ $# -gt 2 ]; then
		usage
	fi
	case $1 in -*) usage ;; esac
	exec dircache-checkout -b "$@"
	;;
--) shift ;;
-*) usage ;;
esac
[ $# -eq 1 ] || usage
# A branch only: checkout would take a file of that name as a path to
# put back, and switch never touches a file by name.
rev-parse "refs/heads/$1" >/dev/null 2>&1 ||
	[ -n "$(remote_tracking_matches "$1")" ] ||
	die "invalid reference: $1"
exec dircache-checkout "$1"
