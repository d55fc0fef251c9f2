#!/bin/sh
# dircache pull: fetch a remote's branches and tags, merge one branch
# into HEAD.
#
# 1. The remote's refs first (one small rsync), then only the objects
#    we lack, into a quarantine directory next to the store, so that a
#    pull that dies leaves the store as it was, plus at worst a
#    quarantine, which a later pull deletes once a day old:
#    - from a local path or host:path (ssh), dircache-upload runs
#      there and sends one pack of what we lack (what the remote's
#      branches and new tags reach, less what our branches and
#      refs/remotes/ reach); index-pack --stdin --strict checks it
#      whole as it arrives and writes its idx in the quarantine;
#    - from an rsync daemon (no program of ours runs there), or when
#      the remote has no dircache-upload, rsync copies the remote's
#      packs we lack by name and the loose objects we lack (it skips
#      what the store holds: an object's name is its content), never
#      an idx: index-pack --strict computes each pack's.
#    DIRCACHE_UPLOAD names the program to run there instead of
#    dircache-upload; "none" takes the rsync way everywhere.
# 2. verify-objects checks every loose object in the quarantine (zlib,
#    header, SHA-1, strict parsing, hostile paths), the packs' trees,
#    commits and tags, and that everything reachable from the new
#    heads and from every packed object is there or in the store; a
#    bad or missing object refuses the pull, and nothing enters the
#    store.
# 3. It then moves the objects into the store (packs whole, pack then
#    idx); every remote branch is recorded as refs/remotes/<remote>/
#    <branch>, and the remote's tags we lack are created.
# 4. Merge of one branch (the named one; with no remote named, the
#    upstream branch.<name>.remote and .merge give both, as in git;
#    else the remote's branch of HEAD's branch name, else the one the
#    remote's HEAD names): into an unborn branch, a checkout (the work
#    tree must be empty); when HEAD is an ancestor, a fast-forward (two-way
#    read-tree -m -u, refusing to lose a local change); otherwise a
#    three-way merge (merge-base, read-tree -m -u, merge-cache -o
#    merge-one-file -a) committed with two parents, or, on conflicts,
#    the unmerged paths listed and left for "dircache commit".
#    --no-merge (dircache fetch) stops before this step.
USAGE='pull [--no-merge] [<remote> [<branch>]]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
no_merge=
[ "${1:-}" != --no-merge ] || { no_merge=1; shift; }
case ${1:-} in -*) usage ;; esac
case $# in 0|1|2) ;; *) usage ;; esac

# No remote named: the branch's upstream (branch.<name>.remote and
# .merge), as git pull; a fetch then asks the upstream's remote, else
# origin.  None: git's message, exit 1.
no_upstream() {
	[ -z "$no_merge" ] ||
		die "no remote named, no upstream and no origin: name the remote to fetch from"
	if [ -z "$1" ]; then
		say "You are not currently on a branch."
	else
		say "There is no tracking information for the current branch."
	fi
	say "Please specify which branch you want to merge with."
	say "See dircache-pull(1) for details."
	say ""
	say "    dircache pull <remote> <branch>"
	say ""
	exit 1
}

if [ $# -eq 0 ]; then
	cd_to_top
	up_branch=$(head_branch)
	up_remote=
	up_merge=
	if [ -n "$up_branch" ]; then
		up_remote=$(branch_config "$up_branch" remote)
		up_merge=$(branch_config "$up_branch" merge)
	fi
	case $up_merge in
	''|refs/heads/*) ;;
	*) die "the upstream of '$up_branch' is no branch: $up_merge" ;;
	esac
	if [ -n "$up_remote" ] && [ -n "$no_merge" ]; then
		set -- "$up_remote"
	elif [ -n "$up_remote" ] && [ -n "$up_merge" ]; then
		set -- "$up_remote" "${up_merge#refs/heads/}"
	elif [ -n "$no_merge" ] && remote_known origin; then
		set -- origin
	else
		no_upstream "$up_branch"
	fi
fi
remote_from_arg "$1"
cd_to_top
gd=$(git_dir)
make_tmp
find_remote

refs=$dc_tmp/remote
fetch_remote_refs "$refs"
remote_branches "$refs" >"$dc_tmp/branches"
# The branch to merge: the named one; else HEAD's upstream, the
# remote's branch of our branch's name; else the remote HEAD's.
branch=${2:-}
if [ -z "$branch" ]; then
	branch=$(head_branch)
	[ -n "$branch" ] && remote_ref "$refs" "refs/heads/$branch" >/dev/null ||
		branch=$(remote_head_branch "$refs")
fi
if [ -n "$branch" ]; then
	check_name branch "$branch"
	new=$(remote_ref "$refs" "refs/heads/$branch") ||
		die "$remote_url has no branch '$branch'"
elif [ -z "$no_merge" ]; then
	die "the remote's HEAD names no branch; name one"
fi

# Tags of the remote that we lack come along, verified with the rest.
remote_tags "$refs" | while read -r t id; do
	[ -e "$gd/refs/tags/$t" ] || printf '%s %s\n' "$t" "$id"
done >"$dc_tmp/tags"
cut -d' ' -f2 "$dc_tmp/branches" "$dc_tmp/tags" | LC_ALL=C sort -u \
	>"$dc_tmp/heads"
while read -r id; do
	has_object "$id" || printf 'want %s\n' "$id"
done <"$dc_tmp/heads" >"$dc_tmp/wants"

objects=$(object_dir)
clean_stale_fetches "$objects"
dc_quarantine=$(mktemp -d "$objects/tmp_objdir-incoming-XXXXXX") ||
	die "cannot create a quarantine in $objects"
progress=
! want_progress || progress=1

# index-pack in the quarantine ("$@": its arguments; its stdout in
# $dc_tmp/index-pack.out).  Its stderr goes to the terminal with
# progress, else to $dc_tmp/index-pack.err, folded into our one line.
index_pack() {
	if [ -n "$progress" ]; then
		exec 3>&2
	else
		exec 3>"$dc_tmp/index-pack.err"
	fi
	SHA1_FILE_DIRECTORY=$dc_quarantine GIT_OBJECT_DIRECTORY=$dc_quarantine \
		index-pack --strict ${progress:+-v} "$@" \
		2>&3 3>&- >"$dc_tmp/index-pack.out"
}

refuse_pack() {
	dc_why=
	[ -n "$progress" ] || dc_why=": $(tail -n 1 "$dc_tmp/index-pack.err")"
	die "refusing the pack from $remote_url$dc_why; nothing changed"
}

# On a terminal, what a pack brought: "Received pack-<hex>: <n>
# objects, <k> KiB" (n from the idx's last fan-out entry).
show_pack() {
	[ -n "$progress" ] || return 0
	dc_n=$(od -An -tu1 -j 1028 -N 4 "$1.idx" |
		awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
	dc_k=$(($(wc -c <"$1.pack") / 1024))
	say "Received ${1##*/}.pack: $dc_n objects, $dc_k KiB"
}

# The pack dircache-upload writes there, into index-pack --stdin;
# 127 when the remote has no dircache-upload (nothing was stored).
fetch_by_upload() {
	dc_up=${DIRCACHE_UPLOAD:-dircache-upload}${progress:+ --progress}
	{
		sed 's/^/have /' "$dc_tmp/haves"
		cat "$dc_tmp/wants"
	} >"$dc_tmp/upload-in"
	rm -f "$dc_tmp/upload-rc"
	# shellcheck disable=SC2086 # $RSYNC_RSH and $dc_up: words
	if is_remote_url "$remote_url"; then
		set -- ${RSYNC_RSH:-ssh} "${remote_url%%:*}" \
			"$dc_up $(shell_quote "${remote_store#*:}")"
	else
		set -- $dc_up "$remote_store"
	fi
	{
		"$@" <"$dc_tmp/upload-in" 2>"$dc_tmp/upload.err"
		echo $? >"$dc_tmp/upload-rc"
	} | {
		index_pack --stdin
		echo $? >"$dc_tmp/index-rc"
	}
	up=$(cat "$dc_tmp/upload-rc")
	[ "$up" != 127 ] || return 127
	[ "$up" = 0 ] ||
		die "$remote_url could not send a pack: $(tail -n 1 "$dc_tmp/upload.err"); nothing changed"
	[ "$(cat "$dc_tmp/index-rc")" = 0 ] || refuse_pack
	hex=$(sed -n 's/^pack	//p' "$dc_tmp/index-pack.out")
	! is_id "$hex" || show_pack "$dc_quarantine/pack/pack-$hex"
}

# rsync: the remote's packs we lack by name, the loose objects we
# lack; each pack then indexed (and named by its content).
fetch_by_rsync() {
	$RSYNC -r -m --ignore-existing --size-only --compare-dest="$objects" \
		${progress:+--info=progress2} \
		--include='/[0-9a-f][0-9a-f]/' --include='/[0-9a-f][0-9a-f]/*' \
		--include='/pack/' --include='/pack/pack-*.pack' \
		--exclude='*' "$remote_store/objects/" "$dc_quarantine/" ||
		die "could not fetch the objects of $remote_url (rsync exit $?); nothing changed"
	for p in "$dc_quarantine"/pack/pack-*.pack; do
		[ -f "$p" ] || continue
		index_pack "$p" || refuse_pack
		hex=$(sed -n '$p' "$dc_tmp/index-pack.out")
		is_id "$hex" || die "index-pack gave no pack name for $p"
		q=$dc_quarantine/pack/pack-$hex
		[ "$p" = "$q.pack" ] || {
			mv -f "${p%.pack}.idx" "$q.idx" && mv -f "$p" "$q.pack"
		} || die "cannot rename $p"
		show_pack "$q"
	done
}

{
	local_ref_ids remotes
	local_ref_ids heads
} | LC_ALL=C sort -u >"$dc_tmp/haves"
if [ ! -s "$dc_tmp/wants" ]; then
	:	# every head is here: nothing to fetch
elif [ "${DIRCACHE_UPLOAD:-}" = none ]; then
	fetch_by_rsync
elif case $remote_url in rsync://*) true ;; *) false ;; esac; then
	fetch_by_rsync
elif ! fetch_by_upload; then
	rm -rf "$dc_quarantine/pack"
	fetch_by_rsync
fi
# shellcheck disable=SC2046 # ids: one word each
[ ! -s "$dc_tmp/wants" ] ||
	verify-objects --install "$dc_quarantine" $(cat "$dc_tmp/heads") ||
	die "refusing what $remote_url sent; nothing changed"
rm -rf "$dc_quarantine"
dc_quarantine=

if [ -n "$remote_name" ]; then
	while read -r b id; do
		update-ref "refs/remotes/$remote_name/$b" "$id" || exit 128
	done <"$dc_tmp/branches"
fi
while read -r t id; do
	update-ref "refs/tags/$t" "$id" "$NULL_ID" 2>/dev/null ||
		say "warning: tag '$t' not created (it appeared meanwhile?)"
done <"$dc_tmp/tags"

[ -z "$no_merge" ] || exit 0

# ---- merging it ----

# Not exec: our temporary directory goes when we exit.
dircache-merge -m "Merge branch '$branch' of $remote_url" "$new"
