#!/bin/sh
# dircache status: the paths that differ, in git status's categories:
# staged (the index against HEAD), changed in the work tree, unmerged
# and untracked (.gitignore, info/exclude and core.excludesFile
# honoured; a directory holding nothing tracked shows as "dir/"), and
# a merge or an applymbox run under way with what to run next.  One
# process does it all (wt-status): it reads the index once, skips the
# directories whose cache tree says they are HEAD's, and hashes only
# the files whose stat data changed.  -s and --porcelain print git
# status -s's lines (-s relative to the current directory, -b the
# branch first, -z NUL-terminated); the long form is git's, hints in
# our words.  Staged renames are found as git status finds them
# (status.renames, diff.renames, --no-renames, --find-renames[=<n>]).
# On a terminal, and unless NO_COLOR is set, the paths are in git's
# colours (color.status, color.ui, --color[=<when>] and --no-color as
# git takes them).
USAGE='status [-s | --short | --porcelain] [-b] [-z] [--find-renames[=<n>] | --no-renames] [--color[=<when>] | --no-color]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
for arg; do
	case $arg in
	-s|--short|--porcelain|-b|--branch|-sb|-bs|-z) ;;
	--color|--color=always|--color=never|--color=auto|--no-color) ;;
	--no-renames|--find-renames|--find-renames=*) ;;
	*) usage ;;
	esac
done
cd_to_top
exec wt-status --prefix="$prefix" "$@"
