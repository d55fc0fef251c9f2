# bench/ops/apply.sh: apply against git apply.  The patch is git's
# diff of the old tree to the new one (binary hunks included); each run
# applies it forward to a copy of the old tree and back again with -R,
# ours and git's alternately, so no run pays for a fresh copy.

op_apply() {
	git --git-dir="$W/old/.git" diff --binary $OLD_TREE $NEW_TREE \
		>"$W/apply.patch"
	APPLY_FILES=$(grep -c "^diff --git " "$W/apply.patch")
	discard "$W/apply-tree"
	mkdir "$W/apply-tree"
	(cd "$W/old" && tar -c --exclude=./.git --exclude=./.dircache .) |
		tar -x -C "$W/apply-tree"
	cd "$W/apply-tree"
	apply "$W/apply.patch"
	(cd "$W/new" && find . \( -type f -o -type l \) \
		! -path "./.git/*" ! -path "./.dircache/*" | sort) >"$W/apply-want"
	find . \( -type f -o -type l \) | sort >"$W/apply-got"
	cmp -s "$W/apply-want" "$W/apply-got" &&
		diff -r --no-dereference -x .git -x .dircache . "$W/new" >/dev/null ||
		{ echo "bench: apply did not make the new tree" >&2; exit 1; }
	apply -R "$W/apply.patch"
	for i in $(seq $RUNS); do
		time_cmd ours-apply apply "$W/apply.patch"
		time_cmd ours-applyR apply -R "$W/apply.patch"
		time_cmd git-apply git apply "$W/apply.patch"
		time_cmd git-applyR git apply -R "$W/apply.patch"
	done
	cd "$W"
}

rows_apply() {
	row "apply, old to new ($APPLY_FILES files)" apply
	row "apply -R, new to old" applyR
}

OPS="$OPS apply"
