# t/lib-wt.sh: helpers shared by the write-tree, commit-tree and
# cat-file tests (t1100, t1200, t1300).  Source it after test-lib.sh.
# Scratch output goes to the trash directory, outside every work tree.

# Every object file in the store, sorted: to show nothing was written.
wt_objects() {
	find .dircache/objects -type f | sort
}

# The files and symlinks of the work tree, NUL-separated, .dircache left
# out, in index order.
wt_files() {
	find . -path ./.dircache -prune -o \( -type f -o -type l \) -print0 |
	sed -z 's|^\./||' | LC_ALL=C sort -z
}

# Add every file with update-cache, then check that write-tree gives
# what git write-tree gives on the same index and on a separate git
# repository holding the same files.  Our tree id ends in
# $TRASH_DIRECTORY/tree.
wt_check_tree() {
	wt_files >"$TRASH_DIRECTORY/files" &&
	update-cache --add -z --stdin <"$TRASH_DIRECTORY/files" &&
	write-tree >"$TRASH_DIRECTORY/tree" &&
	GIT_DIR=.dircache git write-tree >"$TRASH_DIRECTORY/git-same" &&
	test_cmp "$TRASH_DIRECTORY/git-same" "$TRASH_DIRECTORY/tree" &&
	rm -rf "$TRASH_DIRECTORY/oracle" &&
	env -u GIT_DIR git init -q "$TRASH_DIRECTORY/oracle" &&
	git --git-dir="$TRASH_DIRECTORY/oracle/.git" --work-tree=. \
		update-index --add -z --stdin <"$TRASH_DIRECTORY/files" &&
	git --git-dir="$TRASH_DIRECTORY/oracle/.git" write-tree \
		>"$TRASH_DIRECTORY/git-own" &&
	test_cmp "$TRASH_DIRECTORY/git-own" "$TRASH_DIRECTORY/tree" &&
	wt_fsck
}

# git fsck --strict on .dircache: nothing but dangling objects and
# notices about refs may be reported.
wt_fsck() {
	GIT_DIR=.dircache git fsck --strict >"$TRASH_DIRECTORY/fsck" 2>&1 &&
	! grep -v -e '^dangling ' -e '^notice: ' "$TRASH_DIRECTORY/fsck"
}

# Run commit-tree and git commit-tree with the same arguments,
# environment and message ($TRASH_DIRECTORY/msg); the ids must agree.
# Our id ends in $TRASH_DIRECTORY/commit.
wt_commit_both() {
	commit-tree "$@" <"$TRASH_DIRECTORY/msg" >"$TRASH_DIRECTORY/commit" &&
	GIT_DIR=.dircache git commit-tree "$@" <"$TRASH_DIRECTORY/msg" \
		>"$TRASH_DIRECTORY/git-commit" &&
	test_cmp "$TRASH_DIRECTORY/git-commit" "$TRASH_DIRECTORY/commit"
}

# Replace byte $2 (0-based) of file $1 with its complement.
wt_flip_byte() {
	chmod u+w "$1" &&
	v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ') &&
	printf "\\$(printf %o $((255 - v)))" |
	dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
