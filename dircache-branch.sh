#!/bin/sh
# dircache branch: without a name, list the branches, the current one
# marked "*", as git branch does; with one, create it at <commit> (HEAD
# by default).  An existing branch is never moved: update-ref is asked
# to create it only if it does not exist.
USAGE='branch [<name> [<commit>]]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
case ${1:-} in -*) usage ;; esac
[ $# -le 2 ] || usage
cd_to_top
gd=$(git_dir)

if [ $# -eq 0 ]; then
	cur=$(head_branch)
	[ -d "$gd/refs/heads" ] || exit 0
	(cd "$gd/refs/heads" && find . -type f) | sed 's|^\./||' |
		LC_ALL=C sort | while IFS= read -r b; do
			if [ "$b" = "$cur" ]; then
				printf '* %s\n' "$b"
			else
				printf '  %s\n' "$b"
			fi
		done
	exit 0
fi
check_new_ref_name branch "$1"
[ ! -e "$gd/refs/heads/$1" ] || die "a branch named '$1' already exists"
start=$(rev-parse "${2:-HEAD}") || exit 128
[ "$(cat-file -t "$start")" = commit ] || die "'${2:-HEAD}' is not a commit"
update-ref "refs/heads/$1" "$start" "$NULL_ID" || exit 128
