#!/bin/sh
# dircache repack: put objects into packs, as git repack does.
# Without -a, the loose objects that the refs and HEAD reach go into one
# new pack (unreachable ones stay loose, for prune).  With -a,
# everything the refs and HEAD reach goes into one new pack.  -d then
# removes what the new pack made redundant: with -a, every older pack
# but those a .keep file holds (the objects that only such a pack holds,
# unreachable ones, are written out loose first, so that prune and its
# grace period, not repack, decide when they go), then the loose
# objects a pack holds (prune-packed).
#
# Crash safety: pack-objects writes the new pack and then its idx, each
# under a temporary name, synced and renamed; only then is anything
# removed, the loose copies of an old pack's missing objects having
# been written and synced first, an old pack's idx before its pack.
# Killed at any moment, the store still holds every object.
USAGE='repack [-a] [-d] [-q] [--window=N] [--depth=N]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

all=
delete=
quiet=
opts=
while [ $# -gt 0 ]; do
	case $1 in
	-a) all=1 ;;
	-d) delete=1 ;;
	-q) quiet=1 ;;
	--window=*|--depth=*)
		case ${1#*=} in ''|*[!0-9]*) usage ;; esac
		opts="$opts $1"
		;;
	-ad|-da) all=1; delete=1 ;;
	*) usage ;;
	esac
	shift
done
cd_to_top
gd=$(git_dir)
od=$(object_dir)
pd=$od/pack
mkdir -p "$pd" || die "cannot create $pd"
make_tmp

# The ids of every ref (loose and packed) and of HEAD, one a line.
ref_tips() {
	if [ -d "$gd/refs" ]; then
		find "$gd/refs" -type f ! -name '*.lock' |
		while read -r f; do
			rev-parse "${f#"$gd"/}" 2>/dev/null
		done
	fi
	[ -f "$gd/packed-refs" ] &&
		sed -n "s/^\([0-9a-f]\{$DC_HEXSZ\}\) refs\/.*/\1/p" "$gd/packed-refs"
	head_commit
}

# The loose objects of the store, one id a line.
loose_ids() {
	lo_rest=$((DC_HEXSZ - 2))
	(cd "$od" && find . -path './[0-9a-f][0-9a-f]/*' -type f) |
		sed -n "s|^\./\([0-9a-f][0-9a-f]\)/\([0-9a-f]\{$lo_rest\}\)\$|\1\2|p"
}

# Pack what stdin lists (pack-objects options in $@) into
# objects/pack/pack-<hex>; prints the hex.
pack_list() {
	# shellcheck disable=SC2086 # opts holds whole options
	if [ -n "$quiet" ]; then
		pack-objects -q $opts "$@" "$pd/pack"
	else
		pack-objects $opts "$@" "$pd/pack"
	fi
}

ref_tips | sort -u >"$dc_tmp/tips" || die "cannot list the refs"
new=
if [ -n "$all" ]; then
	if [ -s "$dc_tmp/tips" ]; then
		new=$(pack_list --revs <"$dc_tmp/tips") ||
			die "pack-objects failed"
	fi
else
	loose_ids | sort >"$dc_tmp/loose"
	if [ -s "$dc_tmp/loose" ] && [ -s "$dc_tmp/tips" ]; then
		# shellcheck disable=SC2046 # one argument an id
		rev-list --objects $(cat "$dc_tmp/tips") >"$dc_tmp/reach" ||
			die "cannot walk the history"
		awk 'NR == FNR { loose[$1] = 1; next } ($1 in loose)' \
			"$dc_tmp/loose" "$dc_tmp/reach" >"$dc_tmp/list"
		if [ -s "$dc_tmp/list" ]; then
			new=$(pack_list <"$dc_tmp/list") ||
				die "pack-objects failed"
		fi
	fi
fi
[ -z "$quiet" ] && [ -n "$new" ] && say "pack-$new"

[ -n "$delete" ] || exit 0

# The ids idx $1 lists, sorted.  show-index reads the idx alone (and
# checks it): verify-pack would read every object and, for a kernel's
# pack, take twice the memory pack-objects took.  The objects an old
# pack alone holds are read (and so checked) when written out loose.
pack_ids() {
	show-index <"$1" >"$dc_tmp/ids" || return 1
	cut -d' ' -f2 "$dc_tmp/ids" | sort
}

# Write the objects of an old pack that the store keeps nowhere else
# (listed in $dc_tmp/missing) as loose objects: packed on their own,
# exploded into a scratch store, each moved in with a rename, synced.
loosen_missing() {
	dc_objs=$dc_tmp/objs
	rm -rf "$dc_objs"
	mkdir "$dc_objs" || die "cannot make $dc_objs"
	pack-objects -q --stdout <"$dc_tmp/missing" >"$dc_tmp/missing.pack" ||
		die "cannot read the objects only $1 holds"
	SHA1_FILE_DIRECTORY=$dc_objs GIT_OBJECT_DIRECTORY=$dc_objs \
		unpack-objects -q <"$dc_tmp/missing.pack" ||
		die "cannot write out the objects only $1 holds"
	while read -r id; do
		dc_fan=${id%??????????????????????????????????????}
		dc_rest=${id#??}
		mkdir -p "$od/$dc_fan" || die "cannot make $od/$dc_fan"
		[ -e "$od/$dc_fan/$dc_rest" ] ||
			mv "$dc_objs/$dc_fan/$dc_rest" "$od/$dc_fan/$dc_rest" ||
			die "cannot move object $id into the store"
	done <"$dc_tmp/missing"
	[ "${DIRCACHE_NO_SYNC:-}" = 1 ] || sync -f "$od" ||
		die "cannot sync $od"
}

if [ -n "$all" ]; then
	if [ -n "$new" ]; then
		pack_ids "$pd/pack-$new.idx" >"$dc_tmp/have" ||
			die "cannot read the new pack"
	fi
	loose_ids >>"$dc_tmp/have"
	sort -u -o "$dc_tmp/have" "$dc_tmp/have"
	for idx in "$pd"/pack-*.idx; do
		[ -f "$idx" ] || continue
		base=${idx%.idx}
		[ "$base" != "$pd/pack-$new" ] || continue
		[ ! -e "$base.keep" ] || continue
		# what only this pack holds is written out loose first
		pack_ids "$idx" >"$dc_tmp/old" || die "cannot read $idx"
		comm -23 "$dc_tmp/old" "$dc_tmp/have" >"$dc_tmp/missing"
		if [ -s "$dc_tmp/missing" ]; then
			loosen_missing "$base.pack"
			sort -u -o "$dc_tmp/have" "$dc_tmp/have" \
				"$dc_tmp/missing"
		fi
		rm -f "$idx" || die "cannot remove $idx"
		rm -f "$base.pack" || die "cannot remove $base.pack"
	done
fi
if [ -n "$quiet" ]; then
	prune-packed -q
else
	prune-packed
fi
