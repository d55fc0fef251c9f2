# bench/ops/pack.sh: the tools on a packed repository (issue 14).  A
# git repository holding the old tree, then the new one, committed in
# turn and packed by `git gc`; then, with GIT_DIR pointing at it:
# read-tree + checkout-cache -a against git read-tree + checkout-index
# -a, diff-tree -r old new against git diff-tree -r, and fsck-cache
# against git fsck.

pack_repo() {
	P=$W/packrepo
	rm -rf "$P" && mkdir -p "$P"
	export GIT_DIR=$P/.git
	git init -q && git config gc.auto 0
	(cd "$W/old" && GIT_INDEX_FILE=$P/index git update-index --add -z \
		--stdin <"$W/old.list")
	PACK_OLD=$(GIT_INDEX_FILE=$P/index git write-tree)
	c1=$(echo old | git commit-tree $PACK_OLD)
	rm -f "$P/index"
	(cd "$W/new" && GIT_INDEX_FILE=$P/index git update-index --add -z \
		--stdin <"$W/new.list")
	PACK_NEW=$(GIT_INDEX_FILE=$P/index git write-tree)
	c2=$(echo new | git commit-tree $PACK_NEW -p $c1)
	git update-ref refs/heads/master $c2
	rm -f "$P/index"
	git gc -q
	unset GIT_DIR
}

op_pack() {
	pack_repo
	for i in $(seq $RUNS); do
		discard "$W/pco-ours" && mkdir "$W/pco-ours" && cd "$W/pco-ours"
		time_cmd ours-pco env GIT_DIR=$P/.git \
			GIT_INDEX_FILE=$W/pco-ours.index sh -c \
			"read-tree $PACK_NEW && checkout-cache -a"
		rm -f "$W/pco-ours.index"
		discard "$W/pco-git" && mkdir "$W/pco-git" && cd "$W/pco-git"
		time_cmd git-pco env GIT_DIR=$P/.git \
			GIT_INDEX_FILE=$W/pco-git.index GIT_WORK_TREE=. sh -c \
			"git read-tree $PACK_NEW && git checkout-index -a"
		rm -f "$W/pco-git.index"
	done
	diff -r "$W/pco-ours" "$W/pco-git" >/dev/null ||
		{ echo "bench: packed checkout differs from git's" >&2; exit 1; }
	cd "$P"
	for i in $(seq $RUNS); do
		time_cmd ours-pdt env GIT_DIR=$P/.git diff-tree -r $PACK_OLD $PACK_NEW
		time_cmd git-pdt env GIT_DIR=$P/.git git diff-tree -r $PACK_OLD $PACK_NEW
	done
	GIT_DIR=$P/.git diff-tree -r $PACK_OLD $PACK_NEW >"$W/pdt-ours"
	GIT_DIR=$P/.git git diff-tree -r $PACK_OLD $PACK_NEW >"$W/pdt-git"
	cmp -s "$W/pdt-ours" "$W/pdt-git" ||
		{ echo "bench: packed diff-tree differs from git's" >&2; exit 1; }
	for i in $(seq $RUNS); do
		time_cmd ours-pfsck env GIT_DIR=$P/.git fsck-cache
		time_cmd git-pfsck env GIT_DIR=$P/.git git fsck --no-progress
	done
}

rows_pack() {
	row "packed: read-tree + checkout -a" pco
	row "packed: diff-tree -r old new" pdt
	row "packed: fsck-cache" pfsck
}

OPS="$OPS pack"
