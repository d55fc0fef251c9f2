#!/bin/sh
# dircache branch: without a name, list the branches, the current one
# marked "*", as git branch does; with one, create it at <commit> (HEAD
# by default).  An existing branch is never moved: update-ref is asked
# to create it only if it does not exist; one started from a remote's
# branch (<remote>/<branch>) gets it as its upstream, as in git.  -d
# deletes branches (their upstream settings too) that HEAD has merged
# (git's "not fully merged" refusal otherwise), -D any but the current
# one; each goes only if it still holds what was read ("Deleted branch
# <name> (was <id>)."), and a refused one leaves it as it was; the
# exit status is 1 when any was refused, as in git.  -v lists each
# with its commit's short id and subject, as git's.
USAGE='branch [-v] [<name> [<commit>]] | branch (-d | -D) <name>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

delete=
force=
verbose=
while [ $# -gt 0 ]; do
	case $1 in
	-v|--verbose) verbose=1 ;;
	-d|--delete) delete=1 ;;
	-D) delete=1; force=1 ;;
	-f|--force) force=1 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
cd_to_top

# Delete branch $1; 1 when refused.
delete_branch() {
	id=$(rev-parse "refs/heads/$1" 2>/dev/null) || {
		say "dircache branch: branch '$1' not found"
		return 1
	}
	if [ "$(head_branch)" = "$1" ]; then
		say "dircache branch: cannot delete branch '$1' checked out at '$(pwd -P)'"
		return 1
	fi
	head=$(head_commit)
	if [ -z "$force" ] && ! { [ -n "$head" ] && is_ancestor "$id" "$head"; }; then
		say "dircache branch: the branch '$1' is not fully merged"
		say "If you are sure you want to delete it, run 'dircache branch -D $1'."
		return 1
	fi
	delete_ref "refs/heads/$1" "$id" || return 1
	drop_branch_config "$1"
	printf 'Deleted branch %s (was %s).\n' "$1" "$(rev-parse --short "$id")"
}

if [ -n "$delete" ]; then
	[ $# -gt 0 ] || die "branch name required"
	ret=0
	for b; do
		delete_branch "$b" || ret=1
	done
	exit $ret
fi
[ $# -le 2 ] || usage
if [ $# -eq 0 ]; then
	cur=$(head_branch)
	names=$(local_refs heads | sed 's|^refs/heads/||; s| [0-9a-f]*$||')
	width=0
	[ -z "$verbose" ] || width=$(printf '%s\n' "$names" |
		awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
	[ -n "$names" ] || exit 0
	printf '%s\n' "$names" |
		while IFS= read -r b; do
			mark=' '
			[ "$b" != "$cur" ] || mark='*'
			if [ -z "$verbose" ]; then
				printf '%s %s\n' "$mark" "$b"
				continue
			fi
			id=$(rev-parse "refs/heads/$b") || exit 128
			printf '%s %-*s %s %s\n' "$mark" "$width" "$b" \
				"$(rev-parse --short "$id")" "$(commit_subject "$id")"
		done
	exit
fi
[ -z "$verbose" ] || usage
check_new_ref_name branch "$1"
! rev-parse "refs/heads/$1" >/dev/null 2>&1 ||
	die "a branch named '$1' already exists"
start=$(rev-parse "${2:-HEAD}") || exit 128
[ "$(cat-file -t "$start")" = commit ] || die "'${2:-HEAD}' is not a commit"
tracked=
[ -z "${2:-}" ] || tracked=$(tracked_remote_branch "$2")
if [ -n "$tracked" ] && [ -e "$(common_dir)/config.lock" ]; then
	die "$(common_dir)/config.lock exists: another command is changing the config"
fi
update-ref "refs/heads/$1" "$start" "$NULL_ID" || exit 128
if [ -n "$tracked" ]; then
	set_upstream "$1" "${tracked%%/*}" "refs/heads/${tracked#*/}"
	say "branch '$1' set up to track '$tracked'."
fi
