#!/bin/sh
# dircache merge: merge a commit into HEAD, or undo or finish a merge
# that stopped on conflicts.  dircache pull merges through it.
#
# <commit>: into an unborn branch, a checkout (the work tree must be
# empty); when HEAD is an ancestor, a fast-forward (two-way read-tree
# -m -u, refusing to lose a local change); otherwise a three-way merge
# (merge-base, read-tree -m -u, merge-cache -o merge-one-file -a)
# committed with two parents, or, on conflicts, the unmerged paths
# listed and the merge left for "dircache commit" (MERGE_HEAD and
# MERGE_MSG name it, as in git).  The old HEAD goes to ORIG_HEAD once
# the merge is under way; a refused merge changes nothing.  -m gives
# the message (git's "Merge branch '<name>'" by default).
#
# --abort puts the index and the files the merge touched back at HEAD
# (reset-cache --merge, as git merge --abort runs git reset --merge),
# keeping the local changes the merge left alone, and forgets the
# merge.  --continue commits the resolved merge (dircache commit).
USAGE='merge [-m <msg>] <commit> | merge --abort | merge --continue'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

msg=
case ${1:-} in
--abort|--continue)
	[ $# -eq 1 ] || usage
	cd_to_top
	[ -f "$(git_dir)/MERGE_HEAD" ] || {
		[ "$1" = --abort ] &&
			die "there is no merge to abort (MERGE_HEAD missing)"
		die "there is no merge in progress (MERGE_HEAD missing)"
	}
	[ "$1" = --abort ] || exec dircache-commit
	exec dircache-reset --merge -q
	;;
-m)
	[ $# -eq 3 ] || usage
	msg=$2
	shift 2
	;;
-*) usage ;;
esac
[ $# -eq 1 ] || usage
cd_to_top
gd=$(git_dir)
[ ! -f "$gd/MERGE_HEAD" ] ||
	die "you have not concluded your merge (MERGE_HEAD exists): 'dircache commit' it or 'dircache merge --abort'"
new=$(rev-parse "$1" 2>/dev/null) || die "not something we can merge: '$1'"
[ "$(cat-file -t "$new")" = commit ] || die "not a commit: '$1'"
if [ -z "$msg" ]; then
	if rev-parse "refs/heads/$1" >/dev/null 2>&1; then
		msg="Merge branch '$1'"
	else
		msg="Merge commit '$1'"
	fi
	case $(head_branch) in
	master|main|'') ;;
	*) msg="$msg into $(head_branch)" ;;
	esac
fi
make_tmp

head=$(head_commit)
if [ -z "$head" ]; then
	# Nothing to lose only when nothing is here.
	work_tree_empty ||
		die "HEAD has no commit yet and the work tree is not empty; refusing to overwrite it"
	rm -f "$(index_file)"
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
	printf '%s\n' "$head" >"$gd/ORIG_HEAD"
	update-ref HEAD "$new" "$head" || exit 128
	exit 0
fi

base=$(merge-base "$head" "$new") || die "no common ancestor with '$1'"
merge_on_index_copy read-tree -m -u "$base" "$head" "$new" ||
	die "not merging: local changes would be lost"
printf '%s\n' "$head" >"$gd/ORIG_HEAD"
printf '%s\n' "$new" >"$gd/MERGE_HEAD"
printf '%s\n' "$msg" >"$gd/MERGE_MSG"
if ! merge-cache -o merge-one-file -a; then
	{
		printf '\n# Conflicts:\n'
		ls-files -u | cut -f2 | uniq | sed 's/^/#\t/'
	} >>"$gd/MERGE_MSG"
	say "Automatic merge failed; fix the conflicts, then 'dircache commit' (or 'dircache merge --abort'):"
	show-diff -s | sed -n 's/^U	/	/p' >&2
	exit 1
fi
dircache-commit -F "$gd/MERGE_MSG" >/dev/null || exit 128
say "Merge made: $(head_commit)"
