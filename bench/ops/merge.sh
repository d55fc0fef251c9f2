# bench/ops/merge.sh: a three-way merge of the kernel trees through the
# index.  Base: the old tree; ours: the new one; theirs: the old tree
# with the 1% of files setup_stores changed (sd1-*).  Ours: read-tree -m +
# merge-cache -o merge-one-file -a; git: git read-tree -m + git
# merge-index -o git-merge-one-file -a, each in a checkout of ours.
# Between runs the index and the files the merge wrote are restored,
# and stat data refreshed, outside the timing.

# theirs_tree: the old tree with the modified files of sd1-ours (ours'
# store) and sd1-git (git's), the 1% setup_stores changed, which must
# give the same id, and not the old tree's.
theirs_tree() {
	cd "$W/sd1-ours"
	cp .dircache/index "$W/theirs.index"
	SHA1_FILE_DIRECTORY=$W/old/.dircache/objects \
		GIT_INDEX_FILE=$W/theirs.index update-cache --stdin <"$W/modified"
	THEIRS_TREE=$(SHA1_FILE_DIRECTORY=$W/old/.dircache/objects \
		GIT_INDEX_FILE=$W/theirs.index write-tree)
	cd "$W/sd1-git"
	cp "$W/sd1-git.index" "$W/theirs-git.index"
	GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/theirs-git.index \
		git update-index --stdin <"$W/modified"
	t=$(GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/theirs-git.index git write-tree)
	[ "$t" = "$THEIRS_TREE" ] ||
		{ echo "bench: theirs tree differs from git's" >&2; exit 1; }
	[ "$THEIRS_TREE" != "$OLD_TREE" ] ||
		{ echo "bench: theirs tree is the old tree" >&2; exit 1; }
}

# Checkouts of ours, one per tool, with clean stat data.
merge_checkouts() {
	discard "$W/mg-ours" "$W/mg-git"
	mkdir "$W/mg-ours" "$W/mg-git"
	cd "$W/mg-ours" && init-db 2>/dev/null
	SHA1_FILE_DIRECTORY=$W/old/.dircache/objects \
		sh -c "read-tree $NEW_TREE && checkout-cache -a"
	cd "$W/mg-git"
	GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/mg-git.index \
		git read-tree $NEW_TREE
	GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/mg-git.index GIT_WORK_TREE=. \
		git checkout-index -a
	sleep 1
	cd "$W/mg-ours" && SHA1_FILE_DIRECTORY=$W/old/.dircache/objects \
		update-cache --refresh >/dev/null
	cp .dircache/index "$W/mg-ours.saved"
	cd "$W/mg-git" && GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/mg-git.index \
		git update-index --refresh >/dev/null
	cp "$W/mg-git.index" "$W/mg-git.saved"
}

# Put back the index and the files the last merge wrote, in mg-ours
# or in mg-git.  Files written in the index's second would be racy:
# wait one out before the refresh.
reset_ours() {
	cd "$W/mg-ours"
	export SHA1_FILE_DIRECTORY=$W/old/.dircache/objects
	cp "$W/mg-ours.saved" .dircache/index
	xargs -r -d '\n' checkout-cache -f -- <"$W/merged" >/dev/null 2>&1 || :
	[ -s "$W/merged" ] && sleep 1
	update-cache --refresh >/dev/null || :
	unset SHA1_FILE_DIRECTORY
}

reset_git() {
	cd "$W/mg-git"
	cp "$W/mg-git.saved" "$W/mg-git.index"
	export GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/mg-git.index
	GIT_WORK_TREE=. xargs -r -d '\n' git checkout-index -f -- \
		<"$W/merged" >/dev/null 2>&1 || :
	[ -s "$W/merged" ] && sleep 1
	git update-index --refresh >/dev/null || :
	unset GIT_DIR GIT_INDEX_FILE
}

op_merge() {
	theirs_tree
	merge_checkouts
	: >"$W/merged"
	# The paths the merge leaves unmerged: what merge-one-file writes.
	(cd "$W/mg-ours" && SHA1_FILE_DIRECTORY=$W/old/.dircache/objects \
		read-tree -i -m $OLD_TREE $NEW_TREE $THEIRS_TREE)
	GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/mg-ours/.dircache/index \
		git ls-files -u >"$W/merged.u"
	cut -f2 <"$W/merged.u" | sort -u >"$W/merged"
	MERGES=$(wc -l <"$W/merged")
	for i in $(seq $RUNS); do
		reset_ours
		time_cmd ours-rt3 env SHA1_FILE_DIRECTORY=$W/old/.dircache/objects \
			read-tree -m $OLD_TREE $NEW_TREE $THEIRS_TREE
		reset_git
		time_cmd git-rt3 env GIT_DIR=$W/old/.git \
			GIT_INDEX_FILE=$W/mg-git.index GIT_WORK_TREE=. \
			git read-tree -m $OLD_TREE $NEW_TREE $THEIRS_TREE
		reset_ours
		time_cmd ours-merge env SHA1_FILE_DIRECTORY=$W/old/.dircache/objects \
			sh -c "read-tree -m $OLD_TREE $NEW_TREE $THEIRS_TREE &&
			{ merge-cache -o -q merge-one-file -a 2>/dev/null; :; }"
		reset_git
		time_cmd git-merge env GIT_DIR=$W/old/.git \
			GIT_INDEX_FILE=$W/mg-git.index GIT_WORK_TREE=. \
			sh -c "git read-tree -m $OLD_TREE $NEW_TREE $THEIRS_TREE &&
			{ git merge-index -o -q git-merge-one-file -a >/dev/null 2>&1; :; }"
	done
	# Both indexes as git lists them must agree.
	GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/mg-ours/.dircache/index \
		git ls-files -s >"$W/merge-ours.ls"
	(GIT_DIR=$W/old/.git GIT_INDEX_FILE=$W/mg-git.index git ls-files -s) \
		>"$W/merge-git.ls"
	cmp -s "$W/merge-ours.ls" "$W/merge-git.ls" ||
		echo "bench: note: merged indexes differ from git's" >&2
}

rows_merge() {
	row "read-tree -m, three trees" rt3
	row "  + merge-cache ($MERGES paths)" merge
}

OPS="$OPS merge"
