#!/bin/sh
# dircache fetch: the first three steps of pull (refs, objects into a
# quarantine, verification, then the store and refs/remotes/), without
# touching HEAD, the index or the work tree.  With no remote, the
# current branch's upstream remote, else origin.
USAGE='fetch [<remote> [<branch>]]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
case ${1:-} in -*) usage ;; esac
case $# in 0|1|2) ;; *) usage ;; esac
exec "$(dirname "$0")/dircache-pull" --no-merge "$@"
