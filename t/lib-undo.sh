# t/lib-undo.sh: git's porcelain as the oracle for dircache's undo
# commands.  Two copies of one repository: "ours" gets the dircache
# command, "theirs" the same git command (git reads our store, whose
# formats are git's); then index, work tree, HEAD, ORIG_HEAD,
# MERGE_HEAD, stdout and exit status must be the same.

# The state of the work tree $1: its index, files, refs and merge.
undo_state() {
	(cd "$1" &&
	 git --git-dir=.dircache ls-files -s &&
	 find . -path ./.dircache -prune -o -type f -print | LC_ALL=C sort |
	 while IFS= read -r f; do
		printf '%s %s\n' "$f" "$(cksum <"$f")"
	 done &&
	 git --git-dir=.dircache rev-parse HEAD 2>/dev/null;
	 git --git-dir=.dircache symbolic-ref HEAD 2>/dev/null;
	 for f in ORIG_HEAD MERGE_HEAD MERGE_MSG; do
		[ ! -f ".dircache/$f" ] || { echo "$f:"; cat ".dircache/$f"; }
	 done)
}

# Copy the work tree $1 to ours and theirs.
undo_copies() {
	rm -rf ours theirs &&
	cp -R "$1" ours && cp -R "$1" theirs
}

# "dircache $*" in ours and "git $*" in theirs; the same results.
same_as_git() {
	(cd ours && dircache "$@") >ours.out 2>ours.err
	echo "exit $?" >>ours.out
	(cd theirs && git --git-dir=.dircache --work-tree=. "$@") \
		>theirs.out 2>theirs.err
	echo "exit $?" >>theirs.out
	test_cmp theirs.out ours.out &&
	undo_state ours >ours.state &&
	undo_state theirs >theirs.state &&
	test_cmp theirs.state ours.state
}
