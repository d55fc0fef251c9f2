# dircache-lib.sh: what every dircache-<command> script shares.  Sourced,
# not run: messages and exits as the tools give them, finding the work
# tree's top (the plumbing runs there), HEAD and temporary files that go
# away however the script ends.
# shellcheck shell=sh

dc_cmd=${0##*/}
dc_cmd=${dc_cmd#dircache-}
NULL_ID=0000000000000000000000000000000000000000

say() {
	printf '%s\n' "$*" >&2
}

die() {
	printf 'dircache %s: %s\n' "$dc_cmd" "$*" >&2
	exit 128
}

usage() {
	printf 'usage: dircache %s\n' "$USAGE" >&2
	exit 129
}

# -h or --help as the first argument: the usage on stdout, exit 0.
handle_help() {
	case ${1:-} in
	-h|--help)
		printf 'usage: dircache %s\n' "$USAGE"
		exit 0
		;;
	esac
}

# Go to the top of the work tree (the directory holding .dircache) and
# set prefix to where we were below it ("" or "dir/"), so that paths
# given on the command line can be made relative to the top.  With
# GIT_DIR set, the current directory is the top, as for the tools.
cd_to_top() {
	prefix=
	if [ -n "${GIT_DIR:-}" ]; then
		[ -d "$GIT_DIR" ] || die "not a dircache repository: $GIT_DIR"
		return 0
	fi
	dc_here=$(pwd -P) || die "cannot find the current directory"
	dc_dir=$dc_here
	while [ ! -d "$dc_dir/.dircache" ]; do
		[ "$dc_dir" = / ] || [ -z "$dc_dir" ] &&
			die "not a dircache repository (or any parent): $dc_here"
		prefix=${dc_dir##*/}/$prefix
		dc_dir=${dc_dir%/*}
		[ -n "$dc_dir" ] || dc_dir=/
	done
	cd "$dc_dir" || die "cannot enter $dc_dir"
	GIT_DIR=.dircache
}

git_dir() {
	printf '%s\n' "${GIT_DIR:-.dircache}"
}

# The branch HEAD names (without refs/heads/), empty when detached.
head_branch() {
	sed -n '1s|^ref: refs/heads/||p' "$(git_dir)/HEAD"
}

# The commit HEAD names, empty on an unborn branch.
head_commit() {
	rev-parse HEAD 2>/dev/null || :
}

# A temporary directory inside the store (same file system, so a rename
# from it is atomic), removed on any exit.
make_tmp() {
	dc_tmp=$(mktemp -d "$(git_dir)/tmp-$dc_cmd-XXXXXX") ||
		die "cannot create a temporary directory"
	trap 'rm -rf "$dc_tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}

# Is $1 forty lowercase hex digits?
is_id() {
	case $1 in
	*[!0-9a-f]*) return 1 ;;
	esac
	[ ${#1} -eq 40 ]
}

# The message cleanup git commit and git tag make: trailing blanks
# removed, runs of empty lines made one, leading and trailing empty
# lines dropped; with $1 = strip, lines starting with "#" go too.
clean_message() {
	awk -v strip="${1:-}" '
		strip == "strip" && /^#/ { next }
		{ sub(/[ \t\r\f\v]+$/, "") }
		/^$/ { if (seen) blank = 1; next }
		{ if (blank) print ""; blank = 0; seen = 1; print }
	'
}

# The parents of commit $1, one a line.
commit_parents() {
	cat-file commit "$1" | sed -n '/^$/q; s/^parent //p'
}

# Is commit $1 an ancestor of (or equal to) commit $2?  merge-base when
# the store has it, else a walk of every parent line from $2.
is_ancestor() {
	[ "$1" = "$2" ] && return 0
	if command -v merge-base >/dev/null 2>&1; then
		dc_base=$(merge-base "$1" "$2" 2>/dev/null) || return 1
		[ "$dc_base" = "$1" ]
		return
	fi
	dc_todo=$2
	dc_seen=
	while [ -n "$dc_todo" ]; do
		dc_next=
		for dc_c in $dc_todo; do
			case " $dc_seen " in *" $dc_c "*) continue ;; esac
			dc_seen="$dc_seen $dc_c"
			[ "$dc_c" = "$1" ] && return 0
			dc_next="$dc_next $(commit_parents "$dc_c")" || return 1
		done
		dc_todo=$dc_next
	done
	return 1
}
