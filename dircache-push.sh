#!/bin/sh
# dircache push: send a branch to a remote.  Objects first (rsync
# --ignore-existing: an object's name is its content, and rsync's
# temporary files never bear an object's name), the ref last, so the
# remote never names an object it lacks.  Only a fast-forward of the
# remote's branch is pushed, and the remote's ref is read again just
# before it is written: a ref that moved meanwhile is a refusal, never
# an overwrite (on a local remote, update-ref checks it under the
# ref's lock; over rsync, a push racing ours between that last read
# and the write cannot be seen, as rsync has no lock).  A remote with a
# work tree gets only its store updated.
USAGE='push <remote> [<branch>]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
case ${1:-} in -*) usage ;; esac
case $# in 1|2) ;; *) usage ;; esac
remote_from_arg "$1"
cd_to_top
make_tmp
find_remote

branch=${2:-$(head_branch)}
[ -n "$branch" ] || die "HEAD names no branch; name one"
check_name branch "$branch"
ours=$(rev-parse "refs/heads/$branch" 2>/dev/null) ||
	die "no branch '$branch' here"

fetch_remote_refs "$dc_tmp/before"
old=$(remote_ref "$dc_tmp/before" "refs/heads/$branch") || old=
if [ -n "$old" ]; then
	if [ "$old" = "$ours" ]; then
		say "Everything up to date."
		exit 0
	fi
	if ! { cat-file -e "$old" 2>/dev/null &&
	       is_ancestor "$old" "$ours"; }; then
		die "not a fast-forward of the remote's '$branch' ($old): pull first"
	fi
fi

objects=$(object_dir)
$RSYNC -r --ignore-existing \
	--include='/[0-9a-f][0-9a-f]/' --include='/[0-9a-f][0-9a-f]/*' \
	--exclude='*' "$objects/" "$remote_store/objects/" ||
	die "could not send the objects (rsync exit $?); the remote's ref is unchanged"

ref=refs/heads/$branch
if is_remote_url "$remote_url"; then
	fetch_remote_refs "$dc_tmp/after"
	now=$(remote_ref "$dc_tmp/after" "$ref") || now=
	[ "$now" = "$old" ] ||
		die "the remote's '$branch' moved meanwhile (now ${now:-gone}); pull first"
	printf '%s\n' "$ours" >"$dc_tmp/ref"
	# Every ref file has the same size, and rsync's quick check would
	# skip one written in the same second as ours: --ignore-times.
	$RSYNC --ignore-times "$dc_tmp/ref" "$remote_store/$ref" ||
		die "could not write the remote's '$branch' (rsync exit $?)"
else
	(
		unset GIT_OBJECT_DIRECTORY SHA1_FILE_DIRECTORY GIT_INDEX_FILE
		GIT_DIR=$remote_store
		export GIT_DIR
		update-ref "$ref" "$ours" "${old:-$NULL_ID}"
	) || die "the remote's '$branch' moved meanwhile; pull first"
fi
if [ -n "$remote_name" ]; then
	update-ref "refs/remotes/$remote_name/$branch" "$ours" || exit 128
fi
say "$(printf %.7s "${old:-0000000}")..$(printf %.7s "$ours")  $branch -> $branch"
