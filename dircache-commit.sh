#!/bin/sh
# dircache commit: record the index as a commit on the current branch
# and print its id.  The trees (add-files --write-tree), then
# commit-tree with HEAD as parent (and MERGE_HEAD as the second, when
# a pull left a merge to finish), then update-ref moves the branch under its lock, only if it still
# holds the parent we read: a commit racing ours is never overwritten.
# -a stages the tracked files that changed or went, in the same pass
# (add-files --write-tree) that writes the trees and the index once;
# it works on a copy of the index, put in place once the branch moved,
# so a commit that fails leaves the index as it was.  Paths commit
# those paths' work-tree files on top of HEAD, the rest of the index
# staged as it was (git's --only): a copy of the index gets them
# staged (the index after the commit), and an index read from HEAD
# takes those paths from it (the commit's tree).  --amend replaces
# HEAD: its parents, its author, its message unless -m or -F.
# An empty message, and a commit whose tree is its parent's, are
# refused unless asked for; the message is cleaned as git commit
# cleans it.  -q prints nothing.
USAGE='commit [-a | [--] <path>...] [-m <msg>]... [-F <file>] [--amend [--no-edit]] [-q | --quiet] [--allow-empty] [--allow-empty-message]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

# take_author COMMIT-FILE: its author's name, email and date for
# commit-tree, as git commit --amend keeps them.
take_author() {
	ta_line=$(sed -n '/^$/q; s/^author //p' "$1")
	[ -n "$ta_line" ] || die "the commit to amend has no author"
	GIT_AUTHOR_NAME=${ta_line%% <*}
	ta_rest=${ta_line#* <}
	GIT_AUTHOR_EMAIL=${ta_rest%%> *}
	GIT_AUTHOR_DATE=${ta_rest#*> }
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
}

# commit_paths PATH...: git's commit --only.  The paths' tracked files
# are staged in new_index (the index after the commit); an index read
# from HEAD takes those paths from it; its tree is the commit's.  The
# tree on stdout; status 1 with the unmerged paths, as add-files.
commit_paths() {
	for cp_p; do
		[ -n "$(ls-files -- "$cp_p")" ] ||
			{ [ -n "$head" ] &&
			  [ -n "$(ls-tree -r "$head" -- "$cp_p")" ]; } ||
			die "pathspec '$cp_p' did not match any file known to dircache"
	done
	cp_all=$(GIT_INDEX_FILE=$new_index add-files -u --write-tree \
		-- "$@") || { cp_rc=$?; printf '%s\n' "$cp_all"; return $cp_rc; }
	if [ -n "$head" ]; then
		GIT_INDEX_FILE=$dc_tmp/only read-tree "$head" || exit 128
	fi
	GIT_INDEX_FILE=$dc_tmp/only reset-cache "$cp_all" -- "$@" || exit 128
	GIT_INDEX_FILE=$dc_tmp/only write-tree
}

all=
msg=
have_msg=
file=
allow_empty=
allow_empty_msg=
amend=
quiet=
paths=
while [ $# -gt 0 ]; do
	case $1 in
	-a|--all) all=1 ;;
	--amend) amend=1 ;;
	--no-edit) ;;
	-q|--quiet) quiet=1 ;;
	--)
		shift
		for p; do paths="$paths $(shell_quote "$p")"; done
		break
		;;
	-m) [ $# -ge 2 ] || usage; add_message "$2"; shift ;;
	-m*) add_message "${1#-m}" ;;
	-F)
		[ $# -ge 2 ] || usage
		file=$2
		shift
		;;
	--allow-empty) allow_empty=1 ;;
	--allow-empty-message) allow_empty_msg=1 ;;
	-?*) usage ;;
	*) paths="$paths $(shell_quote "$1")" ;;
	esac
	shift
done
[ -n "$have_msg" ] && [ -n "$file" ] && die "-m and -F cannot be used together"
if [ -n "$all" ] && [ -n "$paths" ]; then
	die "paths with -a make no sense: -a commits every tracked file"
fi
case $file in ''|/*|-) ;; *) file=$(pwd -P)/$file ;; esac
cd_to_top
eval "set -- $paths"
prefix_paths "$@"
eval "set -- $dc_paths"
gd=$(git_dir)
index=$(index_file)
make_tmp

merge_head=
if [ -f "$gd/MERGE_HEAD" ]; then
	merge_head=$(cat "$gd/MERGE_HEAD")
	is_id "$merge_head" || die "$gd/MERGE_HEAD is not an id"
fi
head=$(head_commit)
if [ -n "$amend" ]; then
	[ -n "$head" ] || die "nothing to amend: HEAD has no commit yet"
	[ -z "$merge_head" ] ||
		die "a merge is under way: finish it before amending"
	cat-file commit "$head" >"$dc_tmp/amended" || exit 128
	take_author "$dc_tmp/amended"
fi
if [ -n "$file" ]; then
	if [ "$file" = - ]; then
		cat >"$dc_tmp/msg" || die "cannot read the message"
	else
		cat -- "$file" >"$dc_tmp/msg" || die "cannot read '$file'"
	fi
elif [ -n "$have_msg" ]; then
	printf '%s\n' "$msg" >"$dc_tmp/msg"
elif [ -n "$amend" ]; then
	sed '1,/^$/d' "$dc_tmp/amended" >"$dc_tmp/msg"
elif [ -n "$merge_head" ] && [ -f "$gd/MERGE_MSG" ]; then
	# its "# Conflicts:" lines go, as git's editor cleanup drops them
	clean_message strip <"$gd/MERGE_MSG" >"$dc_tmp/msg"
else
	die "no message: use -m <msg> or -F <file>"
fi
clean_message whitespace <"$dc_tmp/msg" >"$dc_tmp/clean" || exit 128
if [ ! -s "$dc_tmp/clean" ] && [ -z "$allow_empty_msg" ]; then
	die "refusing an empty message (--allow-empty-message to force)"
fi

# One pass (add-files): -a's changes staged, the trees written with
# the index's cache tree, the index written once; nothing when paths
# are unmerged (they are listed instead).  -a and paths work on a copy
# of the index (new_index), put in place once the commit is made.
new_index=
if [ -n "$all$paths" ]; then
	new_index=$dc_tmp/index
	[ ! -f "$index" ] || cp -p "$index" "$new_index" ||
		die "cannot copy the index"
fi
if [ -n "$paths" ]; then
	tree=$(commit_paths "$@")
elif [ -n "$all" ]; then
	tree=$(GIT_INDEX_FILE=$new_index add-files -u --write-tree)
else
	tree=$(add-files --write-tree)
fi
case $? in
0) ;;
1)
	say "dircache commit: cannot commit, these paths are unmerged:"
	printf '%s\n' "$tree" | sed 's/^/\t/' >&2
	die "fix them and 'dircache add' them (or 'dircache merge --abort')"
	;;
*) exit 128 ;;
esac

# The parents: HEAD's, or with --amend those of the commit replaced.
if [ -n "$amend" ]; then
	parents=$(commit_parents "$head")
else
	parents=$head
fi
# shellcheck disable=SC2086 # ids, one a word
set -- $parents
if [ $# -eq 1 ] && [ -z "$merge_head" ] && [ -z "$allow_empty" ]; then
	ptree=$(rev-parse "$1^{tree}") || exit 128
	[ "$ptree" != "$tree" ] ||
		die "nothing to commit: the tree is the parent's (--allow-empty to force)"
fi

set --
for p in $parents; do
	set -- "$@" -p "$p"
done
[ -z "$merge_head" ] || set -- "$@" -p "$merge_head"
commit=$(commit-tree "$tree" "$@" <"$dc_tmp/clean") || exit 128
update-ref HEAD "$commit" "${head:-$NULL_ID}" || exit 128
if [ -n "$new_index" ]; then
	mv -f "$new_index" "$index" || die "cannot write the index"
fi
rm -f "$gd/MERGE_HEAD" "$gd/MERGE_MSG"
[ -n "$quiet" ] || printf '%s\n' "$commit"
