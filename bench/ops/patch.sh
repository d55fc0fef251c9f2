# bench/ops/patch.sh: a 250-patch series (make-series.sh: old tree to
# new) applied by applymbox, by git am, and by a bare `patch -p1` loop
# (no commits, no index), each into a fresh copy of the old tree whose
# objects are already in the store; runs alternate.  The copy gives
# every file a new inode and ctime, so each copy's index is refreshed
# before the clock starts, for applymbox and git am alike: a
# maintainer's own tree is fresh, and rehashing 1.2 GB (a third of
# either tool's run) would measure the copy, not the patches.

PATCHES=${PATCHES:-250}

# The series, and one committed copy of the old tree for each tool.
patch_prepare() {
	if [ -n "$QUICK" ]; then
		ps_old=$OLD_SRC/$SUBDIR ps_new=$NEW_SRC/$SUBDIR
	else
		ps_old=$OLD_SRC ps_new=$NEW_SRC
	fi
	ms=$top/../shared/bench/make-series.sh
	[ -x "$ms" ] || ms=/work/shared/bench/make-series.sh
	"$ms" "$ps_old" "$ps_new" \
		"$W/series" "$PATCHES" >/dev/null
	NPATCH=$(ls "$W/series" | grep -c '^[0-9]*\.patch$')
	mkdir -p "$W/pt-ours" "$W/pt-git" "$W/pt-plain"
	cp -a "$ps_old/." "$W/pt-ours/"
	cp -a "$ps_old/." "$W/pt-git/"
	cp -a "$ps_old/." "$W/pt-plain/"
	(
		cd "$W/pt-ours" && init-db >/dev/null 2>&1 &&
		find . -path ./.dircache -prune -o \( -type f -o -type l \) \
			-print0 | update-cache --add -z --stdin &&
		echo old | commit-tree $(write-tree) >.dircache/refs/heads/master
	) || exit 1
	(
		cd "$W/pt-git" && git init -q && git config gc.auto 0 &&
		git add -A -f . && git commit -q -m old
	) || exit 1
}

# patch_copy TEMPLATE DIR: a fresh copy; loose objects never change
# once written, so the stores are hard-linked, the files copied.
patch_copy() {
	discard "$2"
	mkdir "$2"
	(cd "$1" && tar -cf - --exclude=./.dircache/objects \
		--exclude=./.git/objects .) | (cd "$2" && tar -xf -)
	for s in .dircache/objects .git/objects; do
		[ -d "$1/$s" ] && cp -al "$1/$s" "$2/$s"
	done
	true
}

# The bare loop: every patch through patch(1), failures noted.
PATCH_LOOP='for p in "$1"/[0-9]*.patch; do
	patch -p1 -s -f --no-backup-if-mismatch <"$p" >/dev/null 2>&1 ||
		echo "$p" >>"$2"
done'

op_patch() {
	patch_prepare
	for i in $(seq $RUNS); do
		patch_copy "$W/pt-ours" "$W/pr-ours"
		cd "$W/pr-ours"
		update-cache --refresh >/dev/null
		time_cmd ours-am applymbox "$W/series/series.mbox"
		patch_copy "$W/pt-git" "$W/pr-git"
		cd "$W/pr-git"
		git update-index -q --refresh
		time_cmd git-am git am -q "$W/series/series.mbox"
		patch_copy "$W/pt-plain" "$W/pr-plain"
		cd "$W/pr-plain"
		rm -f "$W/patch-failed"
		time_cmd plain-am sh -c "$PATCH_LOOP" sh "$W/series" \
			"$W/patch-failed"
	done
	cd "$W/pr-ours"
	PT_OURS=$(git --git-dir=.dircache rev-parse HEAD^{tree})
	PT_GIT=$(git -C "$W/pr-git" rev-parse HEAD^{tree})
	PT_FAILED=$(cat "$W/patch-failed" 2>/dev/null | wc -l)
	cp "$W/plain-am" "$W/git-plain"
	cp "$W/ours-am" "$W/ours-plain"
}

rows_patch() {
	row "applymbox $NPATCH mails (git am)" am
	row "  the same against a patch -p1 loop" plain
	o=$(cut -d" " -f1 <"$W/ours-am" | median)
	g=$(cut -d" " -f1 <"$W/git-am" | median)
	p=$(cut -d" " -f1 <"$W/plain-am" | median)
	awk -v o="$o" -v g="$g" -v p="$p" -v n="$NPATCH" 'BEGIN {
		printf "  per patch: applymbox %.1f ms, git am %.1f ms, patch -p1 %.1f ms\n",
			o * 1000 / n, g * 1000 / n, p * 1000 / n }'
	if [ "$PT_OURS" = "$PT_GIT" ]; then
		echo "  final tree equals git am's: $PT_OURS"
	else
		echo "  FINAL TREE DIFFERS: ours $PT_OURS, git am $PT_GIT"
	fi
	[ "$PT_FAILED" = 0 ] ||
		echo "  patch -p1 refused $PT_FAILED patches (git binary patches)"
}

OPS="$OPS patch"
