# t/lib-porcelain.sh: helpers of the porcelain tests (t7000-t7099).
# Source it after test-lib.sh.

# Everything a refused command must leave alone in the repository at
# $1 (store, refs, index, work tree): each path with its kind and
# content, in a stable order.  Leftover temporary files show up too.
repo_state() {
	(cd "$1" && find . -print | LC_ALL=C sort |
	while IFS= read -r f; do
		if [ -L "$f" ]; then
			printf '%s L %s\n' "$f" "$(readlink "$f")"
		elif [ -f "$f" ]; then
			printf '%s F %s\n' "$f" "$(cksum <"$f")"
		else
			printf '%s D\n' "$f"
		fi
	done)
}

# git, reading the store of the work tree $1.
git_in() {
	_dir=$1
	shift
	git --git-dir="$_dir/.dircache" "$@"
}

# git fsck --strict passes on the store of $1, and git log there shows
# what git log shows (one line per commit, parents, the full ids).
git_accepts() {
	git_in "$1" fsck --strict --no-dangling >/dev/null
}

# A commit on the current branch of the repository in $1: file $2 gets
# line $3 appended; the message is $3.
commit_line() {
	(cd "$1" && printf '%s\n' "$3" >>"$2" && dircache add "$2" &&
	 dircache commit -m "$3" >/dev/null)
}
