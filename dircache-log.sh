#!/bin/sh
# dircache log: the history, in git log's formats and order (rev-list's),
# printed by log-tree in one process.  The default format is "commit
# <id>", "Merge: <parents>" for a merge, "Author:", "Date:" in the
# author's own zone, then the message indented by four spaces;
# --oneline is "<short id> <subject>".  -p adds each commit's patch
# against its parent (a root commit against the empty tree; none for a
# merge, as git), --stat git's diffstat of it (80 columns, or
# $COLUMNS, or the terminal's).  Paths limit the history as git's
# default simplification does, and the patches to those paths.
# Renames are detected as git log detects them (diff.renames, -M[<n>],
# --find-renames[=<n>], --no-renames; diff.renameLimit).  --color and
# --no-color as git's; the front end (dircache) sets the colour and
# the pager on a terminal.  Branch and tag names follow the ids on a
# terminal (git's log.decorate=auto; --decorate, --no-decorate).
USAGE='log [-n <n>] [--oneline] [-p] [--stat] [-M[<n>] | --find-renames[=<n>] | --no-renames] [--color[=<when>] | --no-color] [--decorate[=<style>] | --no-decorate] [<commit>...] [[--] <path>...]'
case $0 in */*) dc_here=${0%/*} ;; *) dc_here=. ;; esac
# shellcheck source=dircache-lib.sh
. "$dc_here/dircache-lib.sh"
handle_help "$@"

opts=
revs=
while [ $# -gt 0 ]; do
	case $1 in
	-n|--max-count)
		[ $# -ge 2 ] || usage
		case $2 in ''|*[!0-9]*) usage ;; esac
		opts="$opts --max-count=$2"
		shift
		;;
	-n?*|--max-count=*|-[0-9]*)
		case $1 in
		-n*) v=${1#-n} ;;
		--max-count=*) v=${1#--max-count=} ;;
		*) v=${1#-} ;;
		esac
		case $v in ''|*[!0-9]*) usage ;; esac
		opts="$opts --max-count=$v"
		;;
	-p|-u|--patch|--stat|--oneline|--no-color|--color|--color=always|\
	--color=never|--color=auto|--decorate|--decorate=short|\
	--decorate=full|--decorate=auto|--decorate=no|--no-decorate|\
	-M|-M[0-9.]*|--find-renames|--find-renames=*|--no-renames)
		opts="$opts $(shell_quote "$1")" ;;
	--) shift; break ;;
	-*) usage ;;
	*)
		case $1 in
		*..*|^*) ;;
		*) rev-parse "$1" >/dev/null 2>&1 || break ;;
		esac
		revs="$revs $(shell_quote "$1")"
		;;
	esac
	shift
done
cd_to_top
prefix_paths "$@"
# shellcheck disable=SC2086 # the options, one a word
eval "exec log-tree --name='dircache log' $opts $revs -- $dc_paths"
