#!/bin/sh
# dircache pull: fetch a remote's branch and merge it into HEAD.
#
# 1. The remote's refs first (one small rsync), then only the objects
#    we lack, into a quarantine directory next to the store: rsync
#    skips what the store holds (--compare-dest: an object's name is
#    its content) and its temporary files never bear an object's name,
#    so a pull that dies leaves the store as it was, plus at worst a
#    quarantine to delete.
# 2. verify-objects checks every object in the quarantine (zlib,
#    header, SHA-1, strict parsing, hostile paths) and that everything
#    reachable from the new head is there or in the store; a bad or
#    missing object refuses the pull, and nothing enters the store.
# 3. It then moves the reachable objects into the store; the remote
#    head is recorded as refs/remotes/<remote>/<branch>, and the
#    remote's tags we lack are created.
# 4. Merge: into an unborn branch, a checkout (the work tree must be
#    empty); when HEAD is an ancestor, a fast-forward (two-way
#    read-tree -m -u, refusing to lose a local change); otherwise a
#    three-way merge (merge-base, read-tree -m -u, merge-cache -o
#    merge-one-file -a) committed with two parents, or, on conflicts,
#    the unmerged paths listed and left for "dircache commit".
#    --no-merge (dircache fetch) stops before this step.
USAGE='pull [--no-merge] <remote> [<branch>]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
no_merge=
[ "${1:-}" != --no-merge ] || { no_merge=1; shift; }
case ${1:-} in -*) usage ;; esac
case $# in 1|2) ;; *) usage ;; esac
remote_from_arg "$1"
cd_to_top
gd=$(git_dir)
make_tmp
find_remote

# The remote's packs we do not hold by name (git gc'd it) came into
# the quarantine's pack/: each is checked whole by unpack-objects
# (trailer, every entry, every delta applied within bounds, every id)
# and exploded there as loose objects -- only those the store lacks,
# for the store is its alternate -- so that verify-objects below
# treats them as any other.  The packs themselves never enter the
# store.
explode_packs() {
	[ -d "$dc_quarantine/pack" ] || return 0
	mv "$dc_quarantine/pack" "$dc_quarantine/incoming-packs" || exit 128
	for p in "$dc_quarantine/incoming-packs"/pack-*.pack; do
		[ -f "$p" ] || continue
		SHA1_FILE_DIRECTORY=$dc_quarantine GIT_OBJECT_DIRECTORY=$dc_quarantine \
		GIT_ALTERNATE_OBJECT_DIRECTORIES=$objects \
			unpack-objects -q <"$p" ||
			die "refusing $(basename "$p") from $remote_url; nothing changed"
	done
	rm -rf "$dc_quarantine/incoming-packs"
}

refs=$dc_tmp/remote
fetch_remote_refs "$refs"
branch=${2:-$(remote_head_branch "$refs")}
[ -n "$branch" ] || die "the remote's HEAD names no branch; name one"
check_name branch "$branch"
new=$(remote_ref "$refs" "refs/heads/$branch") ||
	die "$remote_url has no branch '$branch'"

# Tags of the remote that we lack come along, verified with the rest.
remote_tags "$refs" | while read -r t id; do
	[ -e "$gd/refs/tags/$t" ] || printf '%s %s\n' "$t" "$id"
done >"$dc_tmp/tags"

objects=$(object_dir)
dc_quarantine=$(mktemp -d "$objects/tmp_objdir-incoming-XXXXXX") ||
	die "cannot create a quarantine in $objects"
$RSYNC -r -m --ignore-existing --size-only --compare-dest="$objects" \
	--include='/[0-9a-f][0-9a-f]/' --include='/[0-9a-f][0-9a-f]/*' \
	--include='/pack/' --include='/pack/pack-*.pack' \
	--exclude='*' "$remote_store/objects/" "$dc_quarantine/" ||
	die "could not fetch the objects of $remote_url (rsync exit $?); nothing changed"
explode_packs
# shellcheck disable=SC2046 # ids: one word each
verify-objects --install "$dc_quarantine" "$new" \
	$(cut -d' ' -f2 "$dc_tmp/tags") ||
	die "refusing what $remote_url sent; nothing changed"
rm -rf "$dc_quarantine"
dc_quarantine=

if [ -n "$remote_name" ]; then
	update-ref "refs/remotes/$remote_name/$branch" "$new" || exit 128
fi
while read -r t id; do
	update-ref "refs/tags/$t" "$id" "$NULL_ID" 2>/dev/null ||
		say "warning: tag '$t' not created (it appeared meanwhile?)"
done <"$dc_tmp/tags"

[ -z "$no_merge" ] || exit 0

# ---- merging it ----

head=$(head_commit)
what="branch '$branch' of $remote_url"

if [ -z "$head" ]; then
	# Nothing to lose only when nothing is here.
	work_tree_empty ||
		die "HEAD has no commit yet and the work tree is not empty; refusing to overwrite it"
	rm -f "$gd/index"
	read-tree -m -u "$new" || exit 128
	update-ref HEAD "$new" "$NULL_ID" || exit 128
	exit 0
fi
if is_ancestor "$new" "$head"; then
	say "Already up to date."
	exit 0
fi
if is_ancestor "$head" "$new"; then
	say "Fast-forward $(printf %.7s "$head")..$(printf %.7s "$new")"
	merge_on_index_copy read-tree -m -u "$head" "$new" ||
		die "not fast-forwarding: local changes would be lost"
	update-ref HEAD "$new" "$head" || exit 128
	exit 0
fi

base=$(merge-base "$head" "$new") || die "no common ancestor with $what"
merge_on_index_copy read-tree -m -u "$base" "$head" "$new" ||
	die "not merging: local changes would be lost"
printf '%s\n' "$new" >"$gd/MERGE_HEAD"
printf "Merge %s\n" "$what" >"$gd/MERGE_MSG"
if ! merge-cache -o merge-one-file -a; then
	say "Automatic merge failed; fix the conflicts, then 'dircache commit':"
	show-diff -s | sed -n 's/^U	/	/p' >&2
	exit 1
fi
dircache-commit -F "$gd/MERGE_MSG" >/dev/null || exit 128
say "Merge made: $(head_commit)"
