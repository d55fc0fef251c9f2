#!/bin/sh
# dircache: the front end.  "dircache <command> [<args>]" runs
# dircache-<command> from the directory this script lives in (where
# make install put it with the tools), with that directory first on
# PATH, so the plumbing a command calls is the one installed with it.
USAGE='<command> [<args>]'

dc_exec_path=$(cd "$(dirname "$0")" && pwd -P) || exit 128
PATH=$dc_exec_path:$PATH
export PATH

list_commands() {
	cat <<'LIST'
init       create an empty store here (--shared: bare, for a group)
add        add files (directories walked) to the index
rm         remove files from the work tree and the index
commit     record the index as a commit on the current branch
log        show the history, as git log
diff       show changes: work tree, index, commits
status     show staged, changed, untracked and unmerged paths
tag        name a commit (-a -m: an annotated tag; -d: delete)
branch     list branches, or create one (-d, -D: delete)
show       show a commit (as log -1 -p), a tag, a tree or a blob
checkout   switch to a branch, keeping local changes; -- <path>: put files back
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
help       this list
LIST
}

case ${1:-} in
''|-h|--help)
	printf 'usage: dircache %s\n\n' "$USAGE"
	list_commands
	[ -n "${1:-}" ] || exit 129
	exit 0
	;;
help)
	list_commands
	exit 0
	;;
esac

cmd=$1
shift
case $cmd in
*[!a-z-]*|-*)
	printf 'dircache: not a command: %s\n' "$cmd" >&2
	exit 129
	;;
esac
if [ ! -x "$dc_exec_path/dircache-$cmd" ]; then
	printf "dircache: '%s' is not a dircache command; see 'dircache help'\n" \
		"$cmd" >&2
	exit 129
fi
exec "$dc_exec_path/dircache-$cmd" "$@"
