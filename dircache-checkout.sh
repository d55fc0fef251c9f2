#!/bin/sh
# dircache checkout: switch the work tree and HEAD to a branch.  The
# two-way read-tree -m -u moves the index and the files from HEAD's
# tree to the branch's, carrying local changes along, and refuses,
# changing nothing, when one would be lost.  HEAD is then rewritten
# under HEAD.lock (created exclusively, renamed into place).  -b
# creates the branch at HEAD first.  A <branch> we lack that exactly
# one remote has (refs/remotes/<remote>/<branch>, as fetch records
# them) is made from it, once the switch is done, as git checkout
# does, with the remote's branch as its upstream (branch.<name>.remote
# and .merge, which pull and push use); two remotes having it is an
# error (name the start with "dircache branch").  -b <branch> <start>
# starts the new branch at <start> instead, and switches to it as to
# any branch.
#
# With paths ("checkout [<tree-ish>] -- <path>..."), HEAD stays and
# the paths' files are put back: from the index, or from <tree-ish>
# into the index and the work tree, as git checkout does (overlay: a
# path the tree lacks is kept).  A path that names nothing is an
# error that changes nothing.  Without "--", a first argument that is
# no branch but a path, or a commit followed by more arguments, means
# the same, as in git.
USAGE='checkout <branch> | checkout -b <new-branch> [<start>] | checkout [<tree-ish>] [--] <path>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

# checkout [<tree-ish>] -- <path>...: sets tree_ish and checkout_paths
# (the paths as words to eval) when the arguments are of that form.
find_paths_form() {
	tree_ish=
	checkout_paths=
	case "$*" in
	'--'|*' -- '*|'-- '*|*' --') ;;
	*)
		[ $# -ge 1 ] || return 1
		case $1 in -*) return 1 ;; esac
		if [ $# -eq 1 ]; then
			! rev-parse "refs/heads/$1" >/dev/null 2>&1 &&
				[ -z "$(remote_tracking_matches "$1")" ] &&
				[ -e "$prefix$1" ] || return 1
			prefix_paths "$1"
			checkout_paths=$dc_paths
			return 0
		fi
		rev-parse "$1" >/dev/null 2>&1 || return 1
		tree_ish=$1
		shift
		prefix_paths "$@"
		checkout_paths=$dc_paths
		return 0
		;;
	esac
	if [ "$1" != -- ]; then
		tree_ish=$1
		shift
	fi
	[ "${1:-}" = -- ] || usage
	shift
	[ $# -gt 0 ] || usage
	prefix_paths "$@"
	checkout_paths=$dc_paths
}

# shellcheck disable=SC2120 # the paths are in checkout_paths
checkout_paths_form() {
	eval "set -- $checkout_paths"
	if [ -z "$tree_ish" ]; then
		exec reset-cache -u --from-index -- "$@"
	fi
	id=$(rev-parse "$tree_ish" 2>/dev/null) ||
		die "invalid reference: $tree_ish"
	exec reset-cache -u --overlay "$id" -- "$@"
}

case ${1:-} in
-b|--) ;;
-*) usage ;;
esac
if [ "${1:-}" != -b ]; then
	cd_to_top
	if find_paths_form "$@"; then
		# shellcheck disable=SC2119 # the paths are in checkout_paths
		checkout_paths_form
	fi
fi
create=
start=
[ "${1:-}" != -b ] || { create=1; shift; }
if [ -n "$create" ] && [ $# -eq 2 ]; then
	start=$2
	set -- "$1"
fi
[ $# -eq 1 ] || usage
case $1 in -*) usage ;; esac
branch=$1
check_name branch "$branch"
cd_to_top
gd=$(git_dir)

head=$(head_commit)
if [ -n "$create" ]; then
	[ -n "$head$start" ] || die "HEAD has no commit to start '$branch' from"
	dircache-branch "$branch" ${start:+"$start"} || exit 128
fi
from_remote=
if ! target=$(rev-parse "refs/heads/$branch" 2>/dev/null); then
	[ -z "$create" ] || exit 128
	matches=$(remote_tracking_matches "$branch")
	case $matches in
	'') die "no branch '$branch'" ;;
	*"
"*)
		die "'$branch' is a branch of several remotes ($(printf '%s' "$matches" | tr '\n' ' ')); make it with 'dircache branch $branch <remote>/$branch'"
		;;
	esac
	from_remote=$matches
	# its upstream is written last: refuse now if it cannot be
	[ ! -e "$(common_dir)/config.lock" ] ||
		die "$(common_dir)/config.lock exists: another command is changing the config"
	target=$(rev-parse "refs/remotes/$from_remote") || exit 128
	[ "$(cat-file -t "$target")" = commit ] ||
		die "'$from_remote' is not a commit"
fi
# The changes the switch carried, as git lists them on stdout: the
# work tree against the commit now checked out, in name-status form.
show_local_changes() {
	diff-cache -r "$1" |
		sed 's/^:[0-7]* [0-7]* [0-9a-f]* [0-9a-f]* \([A-Z][0-9]*\)	/\1	/'
}

[ -n "$from_remote" ] || [ "$(head_branch)" != "$branch" ] || {
	show_local_changes "$target"
	say "Already on '$branch'"
	exit 0
}
make_tmp
if [ -n "$head" ]; then
	merge_on_index_copy read-tree -m -u "$head" "$target" ||
		die "not switching to '$branch': local changes would be lost"
else
	work_tree_empty ||
		die "HEAD has no commit and the work tree is not empty"
	read-tree -m -u "$target" || exit 128
fi
if [ -n "$from_remote" ]; then
	update-ref "refs/heads/$branch" "$target" "$NULL_ID" || exit 128
fi
(set -C && printf 'ref: refs/heads/%s\n' "$branch" >"$gd/HEAD.lock") 2>/dev/null ||
	die "$gd/HEAD.lock exists: another command is changing HEAD"
mv -f "$gd/HEAD.lock" "$gd/HEAD" || { rm -f "$gd/HEAD.lock"; die "cannot write HEAD"; }
# The upstream last: a config we cannot write loses only that.
if [ -n "$from_remote" ]; then
	set_upstream "$branch" "${from_remote%%/*}" "refs/heads/$branch"
	say "branch '$branch' set up to track '$from_remote'."
fi
show_local_changes "$target"
say "Switched to branch '$branch'"
