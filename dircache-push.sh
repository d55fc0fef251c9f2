#!/bin/sh
# dircache push: send branches or tags to a remote.  What the remote
# lacks (rev-list --objects of ours, not of the remote's refs we have)
# goes as one pack (pack-objects), with the ref updates "<ref> <old>
# <new>", to dircache-receive on the remote side, which checks the
# pack in a quarantine before it enters the store and moves each ref
# only if it still holds the <old> we read (under the ref's lock):
# two pushes racing for a branch cannot both win, and the loser hears
# "fetch first".  Only fast-forwards of branches are sent, and a tag
# the remote has is never moved.
#
# The receiver is run directly for a local path, through $RSYNC_RSH
# (ssh) for host:path, and for an rsync daemon by the module's
# "pre-xfer exec" (see README): the request and the pack are uploaded
# to incoming/<id>/ in the remote store, and fetching
# incoming/<id>/result makes the receiver run and write the answer.
# Without that exec the result never appears, and the push fails with
# the remote's refs untouched.
USAGE='push [-u] [<remote> [<branch>... | --tags | --all]]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
set_up=
push_tags=
push_all=
remote=
branches=
for arg; do
	case $arg in
	-u|--set-upstream) set_up=1 ;;
	--tags) push_tags=1 ;;
	--all) push_all=1 ;;
	-*) usage ;;
	*)
		if [ -z "$remote" ]; then
			remote=$arg
		else
			check_name branch "$arg"
			branches="$branches $arg"
		fi
		;;
	esac
done

# No remote named: the current branch's upstream, pushed to the branch
# of the same name there (git's push.default "simple"); none is an
# error in git's words.
push_to_upstream() {
	cd_to_top
	up_branch=$(head_branch)
	if [ -z "$up_branch" ]; then
		say "dircache push: you are not currently on a branch."
		die "name the remote and the branch: dircache push <remote> <branch>"
	fi
	up_remote=$(branch_config "$up_branch" remote)
	up_merge=$(branch_config "$up_branch" merge)
	if [ -z "$up_remote" ] || [ -z "$up_merge" ]; then
		[ -n "$(ls "$(common_dir)/remotes" 2>/dev/null)" ] ||
			remote_known origin ||
			die "no configured push destination: add one with 'dircache remote add <name> <url>', then 'dircache push <name>'"
		say "dircache push: the current branch $up_branch has no upstream branch."
		say "To push the current branch and set the remote as upstream, use"
		say ""
		say "    dircache push -u origin $up_branch"
		say ""
		exit 128
	fi
	[ "$up_merge" = "refs/heads/$up_branch" ] ||
		die "the upstream branch of '$up_branch' ($up_merge) is not of its name: name the remote and branch"
	remote=$up_remote
}

[ -n "$remote" ] || [ -n "$push_all$push_tags" ] || push_to_upstream
[ -n "$remote" ] || usage
remote_from_arg "$remote"
cd_to_top
make_tmp
# Ours while we run; those of pushes killed with -9 go.
mark_owner "$dc_tmp" || die "cannot write in $dc_tmp"
remove_stale_dirs "$(git_dir)"/tmp-push-*
find_remote
# What the remote has, first: one of another object format is refused
# before anything else is looked at.
fetch_remote_refs "$dc_tmp/before"

# -u: each branch pushed gets the remote's branch as its upstream.
track_pushed() {
	[ -n "$set_up" ] || return 0
	sed -n 's|^refs/heads/\([^ ]*\) .*|\1|p' "$dc_tmp/ours" |
		while read -r b; do
			set_upstream "$b" "$remote_arg" "refs/heads/$b"
			say "branch '$b' set up to track '$remote_arg/$b'."
		done
}

# ---- what we push: "<ref> <id>" lines in $dc_tmp/ours ----
: >"$dc_tmp/ours"
[ -z "$push_all" ] || local_refs heads >>"$dc_tmp/ours"
[ -z "$push_tags" ] || local_refs tags >>"$dc_tmp/ours"
for arg in $branches; do
	id=$(rev-parse "refs/heads/$arg" 2>/dev/null) ||
		die "no branch '$arg' here"
	printf 'refs/heads/%s %s\n' "$arg" "$id" >>"$dc_tmp/ours"
done
if [ ! -s "$dc_tmp/ours" ] && [ -z "$push_all$push_tags" ]; then
	branch=$(head_branch)
	[ -n "$branch" ] || die "HEAD names no branch; name one"
	id=$(rev-parse "refs/heads/$branch" 2>/dev/null) ||
		die "no branch '$branch' here"
	printf 'refs/heads/%s %s\n' "$branch" "$id" >>"$dc_tmp/ours"
fi

# ---- the updates the remote needs ----
failed=
: >"$dc_tmp/request"
: >"$dc_tmp/tips"
while read -r ref ours; do
	name=${ref#refs/*/}
	old=$(remote_ref "$dc_tmp/before" "$ref") || old=
	[ "$old" != "$ours" ] || continue
	if [ -n "$old" ] && [ "${ref#refs/tags/}" != "$ref" ]; then
		say " ! [rejected]        $name -> $name (already exists)"
		failed=1
		continue
	fi
	if [ -n "$old" ] && ! { cat-file -e "$old" 2>/dev/null &&
				is_ancestor "$old" "$ours"; }; then
		say "dircache push: not a fast-forward of the remote's '$name' ($old): pull first"
		say " ! [rejected]        $name -> $name (non-fast-forward)"
		failed=1
		continue
	fi
	printf '%s %s %s\n' "$ref" "${old:-$NULL_ID}" "$ours" >>"$dc_tmp/request"
	printf '%s\n' "$ours" >>"$dc_tmp/tips"
done <"$dc_tmp/ours"
if [ ! -s "$dc_tmp/request" ]; then
	[ -z "$failed" ] || exit 128
	say "Everything up to date."
	track_pushed
	exit 0
fi

# ---- one pack of what the remote lacks ----
remote_ids "$dc_tmp/before" | while read -r id; do
	! cat-file -e "$id" 2>/dev/null || printf '^%s\n' "$id"
done >"$dc_tmp/haves"
# shellcheck disable=SC2046 # ids and ^ids: one word each
rev-list --objects $(LC_ALL=C sort -u "$dc_tmp/tips") \
	$(cat "$dc_tmp/haves") >"$dc_tmp/objects" ||
	die "cannot list the objects to send"
pack=
if [ -s "$dc_tmp/objects" ]; then
	pack=$dc_tmp/pack
	pack-objects -q --stdout <"$dc_tmp/objects" >"$pack" ||
		die "cannot make the pack"
fi

# ---- to the receiver, and its answer ----
test_pause_at push:packed
send_to_receiver "$dc_tmp/request" "$pack" "$dc_tmp/result"
while read -r ref old new; do
	name=${ref#refs/*/}
	answer=$(awk -v r="$ref" '$2 == r { print; exit }' "$dc_tmp/result")
	case $answer in
	"ok $ref")
		say "$(printf %.7s "$old")..$(printf %.7s "$new")  $name -> $name"
		case $ref in
		refs/heads/*)
			[ -z "$remote_name" ] ||
				update-ref "refs/remotes/$remote_name/$name" \
					"$new" || failed=1
			;;
		esac
		;;
	"ng $ref "*)
		say " ! [rejected]        $name -> $name (${answer#ng "$ref" })"
		failed=1
		;;
	*)
		say " ! [remote failure]  $name -> $name (no answer)"
		failed=1
		;;
	esac
done <"$dc_tmp/request"
[ -z "$failed" ] || exit 128
track_pushed
