#!/bin/sh
# dircache: the front end.  "dircache <command> [<args>]" runs
# dircache-<command> from the directory this script lives in (where
# make install put it with the tools), with that directory first on
# PATH, so the plumbing a command calls is the one installed with it.
# Reached through a symlink (~/bin/dircache -> ...), it follows the
# links to where it really is.  A mistyped command gets git's "did
# you mean" list: the commands nearest by git's weighted edit
# distance (a swap free, an insertion 1, a substitution 2, a deletion
# 3; a command the typo starts is nearest of all).
USAGE='[--version] [--help] [-P | --no-pager | -p | --paginate] <command> [<args>]'
DIRCACHE_VERSION='@@DIRCACHE_VERSION@@'

dc_self=$0
while [ -L "$dc_self" ]; do
	dc_link=$(readlink "$dc_self") || exit 128
	case $dc_link in
	/*) dc_self=$dc_link ;;
	*) dc_self=$(dirname "$dc_self")/$dc_link ;;
	esac
done
case $dc_self in
*/*) dc_exec_path=${dc_self%/*} ;;
*) dc_exec_path=. ;;
esac
dc_exec_path=$(cd "${dc_exec_path:-/}" && pwd -P) || exit 128
PATH=$dc_exec_path:$PATH
export PATH

list_commands() {
	cat <<'LIST'
init       create an empty store here (--shared: bare, for a group)
add        stage changes: new, changed and removed files
rm         remove files from the work tree and the index
commit     record the index as a commit on the current branch
log        show the history, as git log
diff       show changes: work tree, index, commits
status     show staged, changed, untracked and unmerged paths
tag        name a commit (-a -m: an annotated tag; -d: delete)
branch     list branches, or create one (-d, -D: delete)
show       show a commit (as log -1 -p), a tag, a tree or a blob
checkout   switch to a branch, keeping local changes; -- <path>: put files back
switch     switch to a branch (-c: a new one), never touching a file by name
reset      move the branch back (--soft, --mixed, --hard); unstage paths
restore    put files back from the index (--staged: the index from HEAD)
merge      merge a commit; --abort undoes a conflicted merge
remote     record a remote: remote add <name> <url>
fetch      fetch a remote's branches and tags, verified, as packs
pull       fetch a remote's branches, verified, and merge one
push       send branches or tags to a remote, fast-forward only
receive    the remote side of a push (push runs it there)
clone      init, pull and check out a remote
upload     send a pack to a fetch (fetch runs it on the remote)
repack     pack the loose objects (-a: everything reachable; -d: tidy)
gc         repack -a -d, then prune what is unreachable and old
help       this list; help <command>: its manual page, else its usage
LIST
}

# The manual page $1.1 beside this script: Documentation/ in the build
# tree, else ../share/man/man1 where make install puts it.  Sets dc_page
# ("" when there is none).
find_page() {
	for dc_page in "$dc_exec_path/Documentation/$1.1" \
		"$dc_exec_path/../share/man/man1/$1.1" ''; do
		[ -z "$dc_page" ] || [ -r "$dc_page" ] && break
	done
}

# Show the manual page $1 through man: ours (find_page), else one man
# finds when $2 is "any".  Paged on a terminal; plain text into a pipe
# or a file, so "dircache help log | cat" never waits on a pager.
# Returns 1 when there is no page or no man.
show_page() {
	command -v man >/dev/null 2>&1 || return 1
	find_page "$1"
	[ -t 1 ] || { MANPAGER=cat PAGER=cat; export MANPAGER PAGER; }
	[ -z "$dc_page" ] || exec man -l "$dc_page"
	[ "${2:-}" = any ] && man -w "$1" >/dev/null 2>&1 || return 1
	exec man "$1"
}

# help <command>: its manual page, else its usage.  help dircache and
# help <tool> (a plumbing tool installed here) show their pages too.
dc_help() {
	case $1 in
	*[!a-z-]*|-*|'')
		printf 'dircache: not a command: %s\n' "$1" >&2
		exit 129
		;;
	dircache)
		show_page dircache any
		list_commands
		exit 0
		;;
	esac
	if [ -x "$dc_exec_path/dircache-$1" ]; then
		show_page "dircache-$1" any
		exec "$dc_exec_path/dircache-$1" -h
	fi
	find_page "$1"
	if [ -x "$dc_exec_path/$1" ] &&
	   { [ -n "$dc_page" ] || [ -f "$dc_exec_path/$1.c" ]; }; then
		show_page "$1"
		exec "$dc_exec_path/$1" -h
	fi
	printf "dircache: '%s' is not a dircache command; see 'dircache help'\n" \
		"$1" >&2
	suggest "$1"
	exit 129
}

# The commands installed here, one a line.
installed_commands() {
	for dc_f in "$dc_exec_path"/dircache-*; do
		dc_f=${dc_f##*/dircache-}
		case $dc_f in lib|lib.sh|*.sh|*'*'*) continue ;; esac
		[ -x "$dc_exec_path/dircache-$dc_f" ] && printf '%s\n' "$dc_f"
	done
}

# The commands nearest to the typo $1, as git lists them (help.c).
suggest() {
	installed_commands | awk -v typo="$1" '
	function lev(s1, s2,    l1, l2, i, j, r0, r1, r2, c, t) {
		l1 = length(s1); l2 = length(s2)
		for (j = 0; j <= l2; j++) r1[j] = j * 1
		for (i = 0; i < l1; i++) {
			r2[0] = (i + 1) * 3
			for (j = 0; j < l2; j++) {
				c = r1[j] + 2 * (substr(s1, i + 1, 1) != substr(s2, j + 1, 1))
				if (i > 0 && j > 0 &&
				    substr(s1, i, 1) == substr(s2, j + 1, 1) &&
				    substr(s1, i + 1, 1) == substr(s2, j, 1) &&
				    c > r0[j - 1])
					c = r0[j - 1]
				if (c > r1[j + 1] + 3) c = r1[j + 1] + 3
				if (c > r2[j] + 1) c = r2[j] + 1
				r2[j + 1] = c
			}
			for (j = 0; j <= l2; j++) { r0[j] = r1[j]; r1[j] = r2[j] }
		}
		return r1[l2]
	}
	{
		n++; name[n] = $0
		score[n] = index($0, typo) == 1 ? 0 : lev(typo, $0) + 1
	}
	END {
		best = -1
		for (i = 1; i <= n; i++)
			if (best < 0 || score[i] < best) best = score[i]
		if (best < 0 || best >= 7) exit
		k = 0
		for (i = 1; i <= n; i++) if (score[i] == best) hit[++k] = name[i]
		printf "\n%s\n", k == 1 ? "The most similar command is" : \
			"The most similar commands are"
		for (i = 1; i <= k; i++) printf "\t%s\n", hit[i]
	}' >&2
}

# --no-pager (-P): never a pager; -p (--paginate): one for any command.
dc_no_pager=
dc_paginate=
while :; do
	case ${1:-} in
	--no-pager|-P) dc_no_pager=1 ;;
	-p|--paginate) dc_paginate=1 ;;
	*) break ;;
	esac
	shift
done

case ${1:-} in
''|-h|--help)
	printf 'usage: dircache %s\n\n' "$USAGE"
	list_commands
	[ -n "${1:-}" ] || exit 129
	exit 0
	;;
--version|version)
	printf 'dircache version %s\n' "$DIRCACHE_VERSION"
	exit 0
	;;
help)
	[ $# -gt 1 ] || { list_commands; exit 0; }
	dc_help "$2"
	;;
esac

cmd=$1
shift
# "dircache <command> --help" is "dircache help <command>", as in git.
[ "${1:-}" != --help ] || [ $# -ne 1 ] || dc_help "$cmd"
case $cmd in
*[!a-z-]*|-*)
	printf 'dircache: not a command: %s\n' "$cmd" >&2
	exit 129
	;;
esac
if [ ! -x "$dc_exec_path/dircache-$cmd" ]; then
	printf "dircache: '%s' is not a dircache command; see 'dircache help'\n" \
		"$cmd" >&2
	suggest "$cmd"
	exit 129
fi
# log, show and diff: colour and a pager on a terminal (dircache-lib.sh).
case $cmd in
log|show|diff)
	# Not a terminal: no pager; log and show take the colour options
	# themselves, diff only through dc_run_viewer.
	if [ ! -t 1 ]; then
		dc_colour=
		if [ "$cmd" = diff ]; then
			for dc_a; do
				case $dc_a in
				--) break ;;
				--color|--color=*|--no-color) dc_colour=1; break ;;
				esac
			done
		fi
		[ -n "$dc_colour" ] || exec "$dc_exec_path/dircache-$cmd" "$@"
	fi
	# shellcheck source=dircache-lib.sh
	. "$dc_exec_path/dircache-lib.sh"
	dc_run_viewer "$cmd" "$@"
	exit
	;;
esac
if [ -n "$dc_paginate" ] && [ -z "$dc_no_pager" ]; then
	# shellcheck source=dircache-lib.sh
	. "$dc_exec_path/dircache-lib.sh"
	dc_pg=
	[ ! -t 1 ] || dc_pg=$(dc_pager)
	if [ -n "$dc_pg" ]; then
		run_paged "$dc_pg" "$dc_exec_path/dircache-$cmd" "$@"
		exit
	fi
fi
exec "$dc_exec_path/dircache-$cmd" "$@"
