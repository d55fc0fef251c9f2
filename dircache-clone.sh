#!/bin/sh
# dircache clone: init, pull and check out, in a new directory.  The
# remote is recorded as "origin" and HEAD names the branch the
# remote's HEAD names, origin's branch its upstream (as git clone); the
# store names objects by the remote's hash (sha1 or sha256).  The
# clone is made in a hidden directory next to the new one
# (.<dir>.clone-XXXXXX), removed when anything fails, and renamed to
# <dir> once whole: a clone is whole or absent, even when killed (then
# the hidden directory stays, never <dir>).
USAGE='clone <url> [<dir>]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
case ${1:-} in -*) usage ;; esac
case $# in 1|2) ;; *) usage ;; esac
remote_from_arg "$1"
dir=${2:-}
if [ -z "$dir" ]; then
	dir=${remote_arg%/}
	dir=${dir%/.dircache}
	dir=${dir##*/}
	dir=${dir##*:}
fi
[ -n "$dir" ] || die "cannot guess a directory name; give one"
if [ -e "$dir" ] || [ -L "$dir" ]; then
	die "'$dir' exists already"
fi
case $dir in
*/*) parent=${dir%/*} base=${dir##*/} ;;
*) parent=. base=$dir ;;
esac
[ -n "$parent" ] || parent=/
[ -n "$base" ] || die "cannot clone into '$dir'"
final=$(cd "$parent" && pwd -P)/$base || die "cannot enter '$parent'"
# The traps before mktemp: a signal while it runs waits until made
# holds the name, and the exit it makes removes the directory.
made=
trap '[ -z "$made" ] || rm -rf "$made"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
made=$(mktemp -d "${final%/*}/.$base.clone-XXXXXX") ||
	die "cannot create a directory next to '$dir'"
# mktemp made it 0700: the mode mkdir would have given.
chmod "$(printf '%o' $((0777 & ~$(umask))))" "$made" || exit 128
cd "$made" || exit 128
unset GIT_DIR GIT_OBJECT_DIRECTORY SHA1_FILE_DIRECTORY GIT_INDEX_FILE
# The remote's refs and config first: the store is made with the
# remote's object format (a clone of a sha256 store is one).
mkdir .dircache || exit 128
(
	GIT_DIR=.dircache
	find_remote
	copy_remote_refs .dircache/clone-refs
) || exit 128
init-db --object-format="$(dc_object_format .dircache/clone-refs)" \
	2>/dev/null || exit 128
dircache-remote add origin "$remote_arg" || exit 128
(
	GIT_DIR=.dircache
	branch=$(remote_head_branch .dircache/clone-refs)
	rm -rf .dircache/clone-refs
	[ -n "$branch" ] || die "the remote's HEAD names no branch"
	check_name branch "$branch"
	printf 'ref: refs/heads/%s\n' "$branch" >.dircache/HEAD
	set_upstream "$branch" origin "refs/heads/$branch"
) || exit 128
dircache-pull origin || exit 128
if [ -e "$final" ] || [ -L "$final" ]; then
	die "'$dir' exists already"
fi
mv -- "$made" "$final" || die "cannot rename the clone to '$dir'"
trap - EXIT
say "Cloned into '$dir'."
