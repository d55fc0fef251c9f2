# dircache-lib.sh: what every dircache-<command> script shares.  Sourced,
# not run: messages and exits as the tools give them, finding the work
# tree's top (the plumbing runs there), HEAD and temporary files that go
# away however the script ends.
# shellcheck shell=sh
# shellcheck disable=SC2034 # variables set here are the scripts'

dc_cmd=${0##*/}
dc_cmd=${dc_cmd#dircache-}
# The store's hash sets these (dc_set_hash, which cd_to_top calls):
# its name, the hex digits of an id, and the id of no object.
DC_FORMAT=sha1
DC_HEXSZ=40
NULL_ID=0000000000000000000000000000000000000000

# A closed stderr becomes /dev/null, as git's sanitize_stdfds makes it,
# and say ignores a message it cannot write: a command that did its
# work does not fail for its last words (git exits 0 so too).
true >&2 || exec 2>/dev/null

say() {
	printf '%s\n' "$*" >&2 || :
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

# Go to the top of the work tree (the directory holding .dircache, or
# a .git: a repository git made, or a gitfile "gitdir: <dir>" as in a
# "git worktree add" worktree) and set prefix to where we were below
# it ("" or "dir/"), so that paths given on the command line can be
# made relative to the top.  With GIT_DIR set, the current directory
# is the top, as for the tools.  GIT_DIR is set (not exported: the
# tools find the same store from the top) to the git directory: the
# worktree's own for a gitfile (its HEAD and index; common_dir has
# the refs and objects), as rev-parse --git-dir names it.
cd_to_top() {
	prefix=
	if [ -n "${GIT_DIR:-}" ]; then
		[ -d "$GIT_DIR" ] || die "not a dircache repository: $GIT_DIR"
		dc_set_hash
		return 0
	fi
	dc_here=$(pwd -P) || die "cannot find the current directory"
	dc_dir=$dc_here
	while [ ! -d "$dc_dir/.dircache" ] && [ ! -d "$dc_dir/.git" ] &&
	      [ ! -f "$dc_dir/.git" ]; do
		[ "$dc_dir" = / ] || [ -z "$dc_dir" ] &&
			die "not a dircache repository (or any parent): $dc_here"
		prefix=${dc_dir##*/}/$prefix
		dc_dir=${dc_dir%/*}
		[ -n "$dc_dir" ] || dc_dir=/
		! is_ceiling "$dc_dir" ||
			die "not a dircache repository (or any parent): $dc_here"
	done
	cd "$dc_dir" || die "cannot enter $dc_dir"
	# for the tools: "<rev>:./<path>" is relative to where we were
	DIRCACHE_PREFIX=$prefix
	export DIRCACHE_PREFIX
	if [ -d .dircache ]; then
		GIT_DIR=.dircache
	elif [ -d .git ]; then
		GIT_DIR=.git
	else
		GIT_DIR=$(rev-parse --git-dir) ||
			die "not a dircache repository: $dc_dir/.git"
	fi
	dc_set_hash
}

# ---- the store's hash: sha1 or sha256, as git records it ----

# config_get <file> <section> <key>: section.key (no subsection) in a
# git config file, the last one set; empty when unset or when there is
# no such file.  Names are compared without case.
config_get() {
	config_file_value "$1" "$2" "" "$3"
}

# config_file_value <file> <section> <subsection> <key>: section
# "subsection".key (an empty subsection: none) in a git config file,
# the last one set; empty when unset or when there is no such file.
# Section and key names are compared without case, the subsection with.
config_file_value() {
	[ -f "$1" ] || return 0
	awk -v s="$2" -v b="$3" -v k="$4" '
		/^[ \t]*\[/ {
			sec = $0
			sub(/^[ \t]*\[[ \t]*/, "", sec)
			if (b == "") {
				sub(/[ \t]*\].*$/, "", sec)
				ours = tolower(sec) == tolower(s)
				next
			}
			name = sec
			sub(/[ \t"].*/, "", name)
			sub(/^[^ \t"]*[ \t]*/, "", sec)
			ours = tolower(name) == tolower(s) && sec == "\"" b "\"]"
			next
		}
		ours && /^[ \t]*[A-Za-z0-9-]+[ \t]*=/ {
			key = $0
			sub(/[ \t]*=.*/, "", key)
			gsub(/[ \t]/, "", key)
			if (tolower(key) != tolower(k))
				next
			val = $0
			sub(/^[^=]*=[ \t]*/, "", val)
			sub(/[ \t]+[#;].*$/, "", val)
			sub(/[ \t\r]+$/, "", val)
			if (val ~ /^".*"$/)
				val = substr(val, 2, length(val) - 2)
		}
		END { if (val != "") print val }
	' "$1"
}

# dc_read_format <config>: dc_of is the object format the config file
# records (extensions.objectformat, names without case), sha1 when it
# records none.  Read by the shell alone: every command runs it, and a
# fork or two would cost more than all the rest of the lookup.
dc_read_format() {
	dc_of=sha1
	[ -f "$1" ] || return 0
	dc_in=
	while IFS= read -r dc_l || [ -n "$dc_l" ]; do
		dc_l=${dc_l#"${dc_l%%[! 	]*}"}
		case $dc_l in
		\[*)
			dc_l=${dc_l#\[}
			dc_l=${dc_l#"${dc_l%%[! 	]*}"}
			dc_l=${dc_l#[Ee][Xx][Tt][Ee][Nn][Ss][Ii][Oo][Nn][Ss]}
			dc_l=${dc_l#"${dc_l%%[! 	]*}"}
			case $dc_l in
			\]*) dc_in=1 ;;
			*) dc_in= ;;
			esac
			continue
			;;
		esac
		[ -n "$dc_in" ] || continue
		dc_v=${dc_l#[Oo][Bb][Jj][Ee][Cc][Tt][Ff][Oo][Rr][Mm][Aa][Tt]}
		[ "$dc_v" != "$dc_l" ] || continue
		dc_v=${dc_v#"${dc_v%%[! 	]*}"}
		case $dc_v in =*) ;; *) continue ;; esac
		dc_v=${dc_v#=}
		dc_v=${dc_v#"${dc_v%%[! 	]*}"}
		dc_v=${dc_v%%[	 #;]*}
		dc_v=${dc_v#\"}
		dc_of=${dc_v%\"}
	done <"$1"
}

# dc_object_format [<store>]: the hash that names the objects of the
# store (ours by default), as dc_read_format reads its config.
dc_object_format() {
	dc_read_format "${1:-$(common_dir)}/config"
	printf '%s\n' "$dc_of"
}

# dc_hexsz [<store>]: the hex digits of an id in the store (ours by
# default): 64 for sha256, else 40.
dc_hexsz() {
	case $(dc_object_format "$@") in
	sha256) echo 64 ;;
	*) echo 40 ;;
	esac
}

# Set DC_FORMAT, DC_HEXSZ and NULL_ID for our store (GIT_DIR or .dircache), with
# no fork unless the store is a worktree's.
dc_set_hash() {
	if [ -z "${GIT_COMMON_DIR:-}" ] &&
	   [ ! -f "${GIT_DIR:-.dircache}/commondir" ]; then
		dc_read_format "${GIT_DIR:-.dircache}/config"
	else
		dc_read_format "$(common_dir)/config"
	fi
	DC_FORMAT=$dc_of
	case $dc_of in
	sha256)
		DC_HEXSZ=64
		NULL_ID=0000000000000000000000000000000000000000000000000000000000000000
		;;
	*)
		DC_HEXSZ=40
		NULL_ID=0000000000000000000000000000000000000000
		;;
	esac
}

# check_same_format <store> <url>: refuse, in one line naming both, a
# remote store whose objects another hash names than ours (the copy
# of its refs and config at <store>): no object, pack or ref of one
# means anything in the other.
check_same_format() {
	dc_ours=$(dc_object_format)
	dc_theirs=$(dc_object_format "$1")
	[ "$dc_ours" = "$dc_theirs" ] ||
		die "mismatched object formats: $2 is $dc_theirs, this store is $dc_ours"
}

# Is $1 one of GIT_CEILING_DIRECTORIES (as written there), which the
# search for the top does not move up into, as git's and the tools'?
is_ceiling() {
	case :${GIT_CEILING_DIRECTORIES:-}: in
	*:"$1":*) return 0 ;;
	esac
	return 1
}

git_dir() {
	printf '%s\n' "${GIT_DIR:-.dircache}"
}

# The directory of the refs, objects, config and remotes: the git
# directory, or what its commondir names (a worktree's repository).
common_dir() {
	if [ -n "${GIT_COMMON_DIR:-}" ]; then
		printf '%s\n' "$GIT_COMMON_DIR"
	elif [ -f "$(git_dir)/commondir" ]; then
		rev-parse --git-common-dir
	else
		git_dir
	fi
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
# from it is atomic), removed on any exit (a closed pipe too: "| head").
# The traps come first: a signal while mktemp runs then waits until
# dc_tmp holds the name, and the exit it makes removes the directory.
make_tmp() {
	trap 'dc_cleanup' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	trap 'exit 141' PIPE
	dc_tmp=$(mktemp -d "$(git_dir)/tmp-$dc_cmd-XXXXXX") ||
		die "cannot create a temporary directory"
}

dc_cleanup() {
	[ -z "${dc_lock:-}" ] || rm -f "$dc_lock"
	[ -z "${dc_quarantine:-}" ] || rm -rf "$dc_quarantine"
	[ -z "${dc_tmp:-}" ] || rm -rf "$dc_tmp"
}

# The object directory, absolute (rsync compares against it).
object_dir() {
	dc_o=${GIT_OBJECT_DIRECTORY:-${SHA1_FILE_DIRECTORY:-$(common_dir)/objects}}
	(cd "$dc_o" && pwd -P) || die "no object directory: $dc_o"
}

# Does the work tree (the current directory) hold nothing but the store?
work_tree_empty() {
	for dc_f in .* *; do
		case $dc_f in .|..|.dircache) continue ;; esac
		[ -e "$dc_f" ] || [ -L "$dc_f" ] && return 1
	done
	return 0
}

# Is $1 an id of our store: DC_HEXSZ lowercase hex digits?
is_id() {
	case $1 in
	*[!0-9a-f]*) return 1 ;;
	esac
	[ ${#1} -eq "$DC_HEXSZ" ]
}

# add_message TEXT: the text of one -m; several -m are paragraphs, as
# in git commit and git tag.  Sets msg and have_msg.
add_message() {
	msg=${have_msg:+$msg

}$1
	have_msg=1
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

# Remote and branch names become file names: only the characters a
# ref name may safely hold, no component starting with ".", no "..".
check_name() {
	case $2 in
	''|*[!A-Za-z0-9._/-]*|/*|*/|*//*|.*|*/.*|*..*|*.lock)
		die "bad $1 name: '$2'"
		;;
	esac
}

# A new branch or tag name ($1 the kind): "HEAD" and "@" are HEAD
# itself on every command line, so a ref of that name would only make
# HEAD ambiguous.  git refuses "git branch HEAD"; we refuse all four.
check_new_ref_name() {
	case $2 in
	HEAD|@) die "'$2' is not a valid $1 name" ;;
	esac
}

check_remote_name() {
	check_name remote "$1"
	case $1 in */*) die "bad remote name: '$1'" ;; esac
}

# ---- remotes: where they are and what they hold ----

RSYNC=${DIRCACHE_RSYNC:-rsync}

# A command-line remote: a name recorded by "dircache remote add" or a
# URL; a local directory given directly is made absolute (call before
# cd_to_top).  Sets remote_arg.
remote_from_arg() {
	remote_arg=$1
	if [ -d "$1" ]; then
		remote_arg=$(cd "$1" && pwd -P) || die "cannot enter '$1'"
	fi
}

# Is the URL $1 on another machine (host:path or rsync://)?
is_remote_url() {
	case $1 in
	rsync://*) return 0 ;;
	*:*)
		case ${1%%:*} in ''|*/*) return 1 ;; esac
		return 0
		;;
	esac
	return 1
}

# A remote named is looked for as remotes/<name>, then as git records
# one (remote.<name>.url in the config: git remote add, git clone).
# Sets remote_name (empty for a URL given directly), remote_url and
# remote_store (the URL of the store itself: the .dircache of a work
# tree, or the URL when it is a store).
find_remote() {
	remote_name=
	remote_url=$remote_arg
	if [ -f "$(common_dir)/remotes/$remote_arg" ]; then
		check_remote_name "$remote_arg"
		remote_name=$remote_arg
		remote_url=$(sed -n '1s/^URL: //p' "$(common_dir)/remotes/$remote_arg")
		[ -n "$remote_url" ] || die "remote '$remote_arg' has no URL"
	elif [ ! -d "$remote_arg" ] && remote_known "$remote_arg"; then
		check_remote_name "$remote_arg"
		remote_name=$remote_arg
		remote_url=$(config_value remote "$remote_arg" url)
	fi
	remote_url=${remote_url%/}
	if is_remote_url "$remote_url"; then
		if $RSYNC --list-only "$remote_url/.dircache/HEAD" \
			>/dev/null 2>&1; then
			remote_store=$remote_url/.dircache
		else
			remote_store=$remote_url
		fi
	elif [ -d "$remote_url/.dircache" ]; then
		remote_store=$remote_url/.dircache
	elif [ -d "$remote_url/objects" ] && [ -f "$remote_url/HEAD" ]; then
		remote_store=$remote_url
	else
		die "not a dircache store: $remote_url"
	fi
}

# Copy the remote's HEAD, packed-refs, refs/ and config (one small
# rsync) into $1; absent ones (a store without tags/) are not an error.
copy_remote_refs() {
	mkdir -p "$1" || die "cannot create $1"
	$RSYNC -r --include=/HEAD --include=/packed-refs --include='/refs/***' \
		--include=/config --exclude='*' "$remote_store/" "$1/" ||
		die "could not read the refs of $remote_url (rsync exit $?)"
	[ -f "$1/HEAD" ] || die "not a dircache store: $remote_url (no HEAD)"
}

# copy_remote_refs, then refuse a remote of another object format.
fetch_remote_refs() {
	copy_remote_refs "$1"
	check_same_format "$1" "$remote_url"
}

# The id ref $2 holds in the copy $1 of a remote's refs; fails when it
# holds none.  Anything but an id on the first line is no id.
remote_ref() {
	if [ -f "$1/$2" ]; then
		dc_id=$(sed -n '1p' "$1/$2")
	elif [ -f "$1/packed-refs" ]; then
		dc_id=$(awk -v r="$2" '$2 == r && NF == 2 { print $1; exit }' \
			"$1/packed-refs")
	else
		return 1
	fi
	is_id "$dc_id" || return 1
	printf '%s\n' "$dc_id"
}

# The branch the remote's HEAD names, in the copy $1 of its refs.
remote_head_branch() {
	sed -n '1s|^ref: refs/heads/||p' "$1/HEAD"
}

# The tags in the copy $1 of a remote's refs, "<name> <id>" a line,
# those whose name is not a safe file name left out with a warning.
remote_tags() {
	{
		[ ! -d "$1/refs/tags" ] ||
			(cd "$1/refs/tags" && find . -type f) | sed 's|^\./||'
		[ ! -f "$1/packed-refs" ] ||
			sed -n "s|^[0-9a-f]\{$DC_HEXSZ\} refs/tags/||p" "$1/packed-refs"
	} | LC_ALL=C sort -u | while IFS= read -r dc_t; do
		case $dc_t in
		''|*[!A-Za-z0-9._/-]*|/*|*/|*//*|.*|*/.*|*..*|*.lock)
			say "warning: skipping the remote tag '$dc_t': bad name"
			continue
			;;
		esac
		dc_id=$(remote_ref "$1" "refs/tags/$dc_t") || continue
		printf '%s %s\n' "$dc_t" "$dc_id"
	done
}

# Run a merge ("$@": read-tree -m ...) on a refreshed copy of the
# index, holding index.lock: git refreshes the stat data first (a file
# merely touched is no local change), but a refused merge must leave
# the index byte for byte as it was, so the refresh goes to the copy,
# and the copy replaces the index only when the merge succeeds.
merge_on_index_copy() {
	dc_index=${GIT_INDEX_FILE:-$(git_dir)/index}
	(set -C && : >"$dc_index.lock") 2>/dev/null ||
		die "$dc_index.lock exists: another command is using the index"
	dc_lock=$dc_index.lock
	if [ -f "$dc_index" ]; then
		cp -p "$dc_index" "$dc_tmp/index" || die "cannot copy the index"
	fi
	GIT_INDEX_FILE=$dc_tmp/index update-cache --refresh >/dev/null 2>&1
	if GIT_INDEX_FILE=$dc_tmp/index "$@"; then
		mv -f "$dc_tmp/index" "$dc_index" || die "cannot replace the index"
		dc_ret=0
	else
		dc_ret=1
	fi
	rm -f "$dc_lock"
	dc_lock=
	return $dc_ret
}

# ---- push: our refs, the remote's ids, and the receiver ----

# Our refs of a kind ($1: heads or tags), "<ref> <id>" a line, loose
# refs winning over packed-refs.
local_refs() {
	{
		[ ! -d "$(common_dir)/refs/$1" ] ||
			(cd "$(common_dir)/refs/$1" && find . -type f) |
			sed "s|^\./|refs/$1/|"
		[ ! -f "$(common_dir)/packed-refs" ] ||
			sed -n "s|^[0-9a-f]\{$DC_HEXSZ\} \(refs/$1/.*\)|\1|p" \
				"$(common_dir)/packed-refs"
	} | LC_ALL=C sort -u | while IFS= read -r dc_r; do
		case ${dc_r#refs/*/} in
		''|*[!A-Za-z0-9._/-]*|/*|*/|*//*|.*|*/.*|*..*|*.lock)
			say "warning: skipping '$dc_r': bad name"
			continue
			;;
		esac
		dc_id=$(rev-parse "$dc_r" 2>/dev/null) || continue
		printf '%s %s\n' "$dc_r" "$dc_id"
	done
}

# Every id the copy $1 of a remote's refs holds, one a line.
remote_ids() {
	{
		[ ! -d "$1/refs" ] ||
			find "$1/refs" -type f -exec awk 'FNR == 1' {} +
		[ ! -f "$1/packed-refs" ] ||
			sed -n "s/^\^\{0,1\}\([0-9a-f]\{$DC_HEXSZ\}\)\( .*\)\{0,1\}\$/\1/p" \
				"$1/packed-refs"
	} | grep -x "[0-9a-f]\{$DC_HEXSZ\}" | LC_ALL=C sort -u
}

# $1 in single quotes, for a remote shell.
shell_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# Hand the request file $1 and the pack file $2 (none when empty) to
# the remote's dircache-receive; its answer ("ok <ref>" / "ng <ref>
# <reason>" lines) goes to the file $3.
send_to_receiver() {
	if ! is_remote_url "$remote_url"; then
		dc_request_stream "$1" "$2" |
			dircache-receive "$remote_store" >"$3"
		return 0
	fi
	case $remote_store in
	rsync://*)
		send_to_rsyncd "$@"
		;;
	*)
		dc_request_stream "$1" "$2" |
			${RSYNC_RSH:-ssh} "${remote_store%%:*}" \
			"${DIRCACHE_RECEIVE:-dircache-receive} $(shell_quote "${remote_store#*:}")" \
			>"$3"
		;;
	esac
	return 0
}

# The request, then "pack" and the pack when there is one.
dc_request_stream() {
	cat "$1" && if [ -n "$2" ]; then
		echo pack && cat "$2"
	fi
}

# To an rsync daemon: upload incoming/<id>/request and pack into the
# remote store, fetch incoming/<id>/result (which the module's
# pre-xfer exec, dircache-receive --rsyncd, writes), remove the
# directory.
send_to_rsyncd() {
	dc_id=$(date +%s)-$$-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
	mkdir -p "$dc_tmp/up/$dc_id" "$dc_tmp/none" || die "cannot stage the push"
	cp "$1" "$dc_tmp/up/$dc_id/request" || die "cannot stage the push"
	[ -z "$2" ] || mv "$2" "$dc_tmp/up/$dc_id/pack" ||
		die "cannot stage the push"
	$RSYNC -r "$dc_tmp/up/" "$remote_store/incoming/" ||
		die "could not upload the pack (rsync exit $?); the remote's refs are unchanged"
	if $RSYNC "$remote_store/incoming/$dc_id/result" "$3" \
		2>"$dc_tmp/rsync-err"; then
		dc_ret=0
	else
		dc_ret=$?
	fi
	$RSYNC -r --delete --include="/$dc_id/***" --exclude='*' \
		"$dc_tmp/none/" "$remote_store/incoming/" >/dev/null 2>&1 || :
	[ $dc_ret -eq 0 ] && return 0
	if grep -q 'pre-xfer exec' "$dc_tmp/rsync-err"; then
		cat "$dc_tmp/rsync-err" >&2
		die "the remote's dircache-receive failed; its refs are unchanged"
	fi
	die "the remote runs no dircache-receive; see README (\"rsync daemon\"); its refs are unchanged"
}
# ---- what killed pushes leave: owned directories, test hooks ----

# Minutes a directory no live process owns stays untouched before a
# push or receiver removes it as a killed push's.
DC_STALE_MINUTES=60

# Mark the directory $1 as this process's ("<pid> <host>" in
# $1/owner): while the process runs, no push removes it.
mark_owner() {
	printf '%s %s\n' $$ "$(uname -n)" >"$1/owner"
}

# Is the directory $1 a killed push's?  Yes when its owner is a
# process of this host that runs no more; when it has no owner (or one
# on another host sharing the store), once nothing in it has changed
# for DC_STALE_MINUTES; with a live owner (or a pid since reused),
# once nothing has changed for a day.
dir_is_stale() {
	dc_age=$DC_STALE_MINUTES
	if [ -f "$1/owner" ]; then
		dc_pid=''
		dc_host=''
		read -r dc_pid dc_host 2>/dev/null <"$1/owner"
		case $dc_pid in
		''|*[!0-9]*) ;;
		*)
			# kill -0 fails for another user's process too:
			# then ps, slower, tells (exit 1: no such process;
			# any other failure proves nothing).
			if [ "$dc_host" = "$(uname -n)" ]; then
				if ! kill -0 "$dc_pid" 2>/dev/null; then
					ps -p "$dc_pid" >/dev/null 2>&1
					[ $? -ne 1 ] || return 0
				fi
				dc_age=1440
			fi
			;;
		esac
	fi
	[ -z "$(find "$1" -mmin -"$dc_age" 2>/dev/null | sed -n 1p)" ]
}

# Remove the directories among "$@" (globs that matched nothing are
# skipped) that dir_is_stale finds stale.
remove_stale_dirs() {
	for dc_d; do
		if [ -d "$dc_d" ] && [ ! -L "$dc_d" ] && dir_is_stale "$dc_d"
		then
			rm -rf "$dc_d"
		fi
	done
	return 0
}

# The tests' hook at a step of a push ("push:packed",
# "receive:indexed", ...): when the file DIRCACHE_TEST_PAUSE names
# holds the step, the first process there writes its pid to that
# name plus ".pid" and waits while the file holds the step (the test
# kills it there, or lets it go on); others pass.
test_pause_at() {
	[ -n "${DIRCACHE_TEST_PAUSE:-}" ] || return 0
	[ "$(cat "$DIRCACHE_TEST_PAUSE" 2>/dev/null)" = "$1" ] || return 0
	(set -C && echo $$ >"$DIRCACHE_TEST_PAUSE.pid") 2>/dev/null ||
		return 0
	while [ "$(cat "$DIRCACHE_TEST_PAUSE" 2>/dev/null)" = "$1" ]; do
		sleep 0.05
	done
}

# ---- fetching packs (dircache pull, fetch, clone, upload) ----

# The branches in the copy $1 of a remote's refs, "<name> <id>" a line,
# those whose name is not a safe file name left out with a warning.
remote_branches() {
	{
		[ ! -d "$1/refs/heads" ] ||
			(cd "$1/refs/heads" && find . -type f) | sed 's|^\./||'
		[ ! -f "$1/packed-refs" ] ||
			sed -n "s|^[0-9a-f]\{$DC_HEXSZ\} refs/heads/||p" "$1/packed-refs"
	} | LC_ALL=C sort -u | while IFS= read -r dc_b; do
		case $dc_b in
		''|*[!A-Za-z0-9._/-]*|/*|*/|*//*|.*|*/.*|*..*|*.lock)
			say "warning: skipping the remote branch '$dc_b': bad name"
			continue
			;;
		esac
		dc_id=$(remote_ref "$1" "refs/heads/$dc_b") || continue
		printf '%s %s\n' "$dc_b" "$dc_id"
	done
}

# Does the store hold object $1?
has_object() {
	cat-file -e "$1" 2>/dev/null
}

# The ids our refs under refs/$1 hold (loose and packed), one a line.
local_ref_ids() {
	dc_gd=$(common_dir)
	{
		[ ! -d "$dc_gd/refs/$1" ] ||
			find "$dc_gd/refs/$1" -type f -exec awk 'FNR == 1' {} +
		[ ! -f "$dc_gd/packed-refs" ] ||
			awk -v p="refs/$1/" 'index($2, p) == 1 { print $1 }' \
				"$dc_gd/packed-refs"
	} | grep -x "[0-9a-f]\{$DC_HEXSZ\}" | LC_ALL=C sort -u
}

# Is progress wanted (stderr a terminal)?
want_progress() {
	[ -t 2 ]
}

# The remote-tracking branches named <remote>/$1 (loose and packed),
# "<remote>/$1" a line.
remote_tracking_matches() {
	dc_gd=$(common_dir)
	{
		for dc_r in "$dc_gd"/refs/remotes/*; do
			[ -f "$dc_r/$1" ] || continue
			printf '%s/%s\n' "${dc_r##*/}" "$1"
		done
		[ ! -f "$dc_gd/packed-refs" ] ||
			awk -v b="$1" 'NF == 2 && index($2, "refs/remotes/") == 1 {
				r = substr($2, 14)
				i = index(r, "/")
				if (i > 1 && substr(r, i + 1) == b)
					print r
			}' "$dc_gd/packed-refs"
	} | LC_ALL=C sort -u
}

# What fetches killed with -9 left (their quarantines in the object
# directory $1, their temporary directories in the store): removed
# once untouched for a day, as a running fetch adds files to its own.
clean_stale_fetches() {
	find "$1" -maxdepth 1 -type d -name 'tmp_objdir-incoming-*' \
		-mtime +0 -exec rm -rf {} + 2>/dev/null
	find "$(git_dir)" -maxdepth 1 -type d -name 'tmp-pull-*' \
		-mtime +0 -exec rm -rf {} + 2>/dev/null
	return 0
}

# The subject of commit $1 as git's %s gives it: the first paragraph
# of the message, its lines joined by spaces.
commit_subject() {
	cat-file commit "$1" | awk '
		body && /^[ \t]*$/ { if (n) exit; next }
		body { sub(/^[ \t]+/, ""); sub(/[ \t]+$/, "")
		       s = n++ ? s " " $0 : $0; next }
		/^$/ { body = 1 }
		END { print s }'
}

# The command-line paths "$@" made relative to the top (cd_to_top set
# prefix), as words to eval: sets dc_paths.
prefix_paths() {
	dc_paths=
	for dc_p; do
		dc_p=$(top_path "$dc_p") || exit 128
		dc_paths="$dc_paths '$(printf '%s' "$dc_p" | sed "s/'/'\\\\''/g")'"
	done
}

# top_path <path>: the path given from where the command was run, as
# from the top ($prefix prepended, "." and ".." resolved, "." for the
# top itself); one outside the work tree is refused in git's words.
top_path() {
	case $1 in
	/*) die "'$1' is outside the repository" ;;
	esac
	case $prefix$1 in
	*/.*|.*) ;;
	*) printf '%s\n' "$prefix$1"; return 0 ;;
	esac
	dc_tp=$(printf '%s\n' "$prefix$1" | awk '{
		n = split($0, c, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (c[i] == "." || (c[i] == "" && i < n))
				continue
			if (c[i] == "..") {
				if (!k) { bad = 1; break }
				k--
				continue
			}
			o[++k] = c[i]
		}
		if (bad)
			exit 1
		p = ""
		for (i = 1; i <= k; i++)
			p = p (i > 1 ? "/" : "") o[i]
		print (p == "" ? "." : p)
	}') || die "'$1' is outside the repository"
	printf '%s\n' "$dc_tp"
}

# The index file (GIT_INDEX_FILE, else the git directory's).
index_file() {
	printf '%s\n' "${GIT_INDEX_FILE:-$(git_dir)/index}"
}

# Delete ref $1 (refs/...) if it still holds $2: its loose file and its
# packed-refs line go under their locks, as git deletes a ref.
delete_ref() {
	dc_cd=$(common_dir)
	dc_rl=$dc_cd/$1.lock
	dc_bad=
	(set -C && : >"$dc_rl") 2>/dev/null ||
		die "cannot lock '$1': $dc_rl exists"
	dc_lock=$dc_rl
	if [ "$(rev-parse "$1" 2>/dev/null)" != "$2" ]; then
		rm -f "$dc_rl"
		die "'$1' moved meanwhile; not deleted"
	fi
	if [ -f "$dc_cd/packed-refs" ] &&
	   awk -v r="$1" '$2 == r { f = 1 } END { exit !f }' \
		"$dc_cd/packed-refs"; then
		(set -C && : >"$dc_cd/packed-refs.lock") 2>/dev/null || {
			rm -f "$dc_rl"
			die "cannot lock packed-refs: $dc_cd/packed-refs.lock exists"
		}
		# the ref's line and the "^<peeled>" line after it go
		awk -v r="$1" '
			skip && /^\^/ { next }
			{ skip = 0 }
			$2 == r { skip = 1; next }
			{ print }' "$dc_cd/packed-refs" >"$dc_cd/packed-refs.lock" ||
			dc_bad=1
		if [ -n "${dc_bad:-}" ] ||
		   ! mv -f "$dc_cd/packed-refs.lock" "$dc_cd/packed-refs"; then
			rm -f "$dc_cd/packed-refs.lock" "$dc_rl"
			die "cannot rewrite packed-refs"
		fi
	fi
	rm -f "$dc_cd/$1"
	rm -f "$dc_rl"
	dc_lock=
	# the directories it leaves empty, as git
	dc_d=${1%/*}
	while case $dc_d in refs/*/*) true ;; *) false ;; esac; do
		rmdir "$dc_cd/$dc_d" 2>/dev/null || break
		dc_d=${dc_d%/*}
	done
	return 0
}

# awk functions: show_date(epoch, "+hhmm") is git's default date format
# ("Thu Apr 7 15:13:13 2005 -0700") in the zone given, computed by
# arithmetic, not by date(1), so it needs nothing beyond POSIX.
# shellcheck disable=SC2016 # awk's $, not the shell's
DC_AWK_DATE='
	function civil(t,    days, secs, z, era, doe, yoe, doy, mp) {
		days = int(t / 86400)
		if (days * 86400 > t) days--
		secs = t - days * 86400
		wday = (days + 4) % 7
		if (wday < 0) wday += 7
		z = days + 719468
		era = int(z / 146097)
		if (era * 146097 > z) era--
		doe = z - era * 146097
		yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
		year = yoe + era * 400
		doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
		mp = int((5 * doy + 2) / 153)
		mday = doy - int((153 * mp + 2) / 5) + 1
		mon = mp < 10 ? mp + 3 : mp - 9
		if (mon <= 2) year++
		hh = int(secs / 3600); mm = int(secs % 3600 / 60); ss = secs % 60
	}
	function show_date(epoch, tz,    off) {
		off = (substr(tz, 2, 2) * 3600 + substr(tz, 4, 2) * 60)
		if (substr(tz, 1, 1) == "-") off = -off
		civil(epoch + off)
		return sprintf("%s %s %d %02d:%02d:%02d %d %s",
			substr("SunMonTueWedThuFriSat", wday * 3 + 1, 3),
			substr("JanFebMarAprMayJunJulAugSepOctNovDec", mon * 3 - 2, 3),
			mday, hh, mm, ss, year, tz)
	}
	# An author, committer or tagger line without its keyword: sets
	# who ("Name <email>") and when (its date as show_date gives it).
	function person(line,    gt, i, f) {
		gt = 0
		for (i = length(line); i > 0; i--)
			if (substr(line, i, 1) == ">") { gt = i; break }
		who = substr(line, 1, gt)
		split(substr(line, gt + 1), f, " ")
		when = show_date(f[1], f[2])
	}
'

# ---- upstreams: branch.<name>.remote and .merge, as git writes them ----

# config_value <section> <subsection> <key>: section "sub".key in the
# repository's config, the last one set; empty when unset.  Section
# and key names are compared without case, the subsection with it.
config_value() {
	config_file_value "$(common_dir)/config" "$1" "$2" "$3"
}

# branch_config <branch> <key>: branch.<branch>.<key> (remote, merge).
branch_config() {
	config_value branch "$1" "$2"
}

# Is $1 a remote we know: remotes/<name> (dircache remote add) or
# remote.<name>.url in the config (git remote add, git clone)?
remote_known() {
	[ -f "$(common_dir)/remotes/$1" ] ||
		[ -n "$(config_value remote "$1" url)" ]
}

# tracked_remote_branch <start>: "<remote>/<branch>" when the start
# point names a remote-tracking branch of a remote we know (git's
# branch.autoSetupMerge), else nothing.
tracked_remote_branch() {
	dc_s=${1#refs/}
	dc_s=${dc_s#remotes/}
	case $dc_s in */*) ;; *) return 0 ;; esac
	remote_known "${dc_s%%/*}" || return 0
	[ "$(rev-parse "$1" 2>/dev/null)" = \
	  "$(rev-parse "refs/remotes/$dc_s" 2>/dev/null)" ] || return 0
	! rev-parse "refs/heads/$1" >/dev/null 2>&1 || return 0
	! rev-parse "refs/tags/$1" >/dev/null 2>&1 || return 0
	printf '%s\n' "$dc_s"
}

# drop_branch_config <branch>: its [branch "<name>"] sections go from
# the config, as git branch -d removes them.
drop_branch_config() {
	[ -n "$(branch_config "$1" remote)$(branch_config "$1" merge)" ] ||
		return 0
	dc_cfg=$(common_dir)/config
	(set -C && : >"$dc_cfg.lock") 2>/dev/null ||
		die "$dc_cfg.lock exists: another command is changing the config"
	dc_lock=$dc_cfg.lock
	awk -v b="$1" '
		/^[ \t]*\[/ {
			sec = $0
			sub(/^[ \t]*\[[ \t]*/, "", sec)
			name = sec
			sub(/[ \t"].*/, "", name)
			sub(/^[^ \t"]*[ \t]*/, "", sec)
			ours = tolower(name) == "branch" && sec == "\"" b "\"]"
		}
		!ours
	' "$dc_cfg" >"$dc_lock" || die "cannot write $dc_lock"
	mv -f "$dc_lock" "$dc_cfg" || die "cannot write $dc_cfg"
	dc_lock=
}

# set_upstream <branch> <remote> <ref>: branch.<branch>.remote and
# .merge, replacing those set, as "git branch --set-upstream-to" does;
# the config rewritten under config.lock, then renamed.
set_upstream() {
	dc_cfg=$(common_dir)/config
	(set -C && : >"$dc_cfg.lock") 2>/dev/null ||
		die "$dc_cfg.lock exists: another command is changing the config"
	dc_lock=$dc_cfg.lock
	{
		[ ! -f "$dc_cfg" ] || awk -v b="$1" '
			function flush() {
				if (head != "" && (body != "" || !ours))
					printf "%s%s", head, body
				head = ""; body = ""
			}
			/^[ \t]*\[/ {
				flush()
				sec = $0
				sub(/^[ \t]*\[[ \t]*/, "", sec)
				name = sec
				sub(/[ \t"].*/, "", name)
				sub(/^[^ \t"]*[ \t]*/, "", sec)
				ours = tolower(name) == "branch" &&
					sec == "\"" b "\"]"
				head = $0 "\n"
				next
			}
			ours && /^[ \t]*(remote|merge)[ \t]*=/ { next }
			head != "" { body = body $0 "\n"; next }
			{ print }
			END { flush() }
		' "$dc_cfg"
		printf '[branch "%s"]\n\tremote = %s\n\tmerge = %s\n' "$1" "$2" "$3"
	} >"$dc_lock" || die "cannot write $dc_lock"
	mv -f "$dc_lock" "$dc_cfg" || die "cannot write $dc_cfg"
	dc_lock=
}

# ---- the pager and colour of log, show and diff (the front end's) ----

# The pager for output to a terminal, as git picks it: DIRCACHE_PAGER,
# else PAGER, else less; nothing when the pager is empty or "cat".  The
# caller checks that stdout is a terminal (not in a $(...)).
dc_pager() {
	if [ -n "${DIRCACHE_PAGER+set}" ]; then
		dc_pg=$DIRCACHE_PAGER
	elif [ -n "${PAGER+set}" ]; then
		dc_pg=$PAGER
	else
		dc_pg=less
	fi
	case $dc_pg in ''|cat) return 0 ;; esac
	printf '%s\n' "$dc_pg"
}

# Colour by default: on a terminal only, and never with NO_COLOR set
# (to anything).
dc_color_default() {
	[ -t 1 ] && [ -z "${NO_COLOR+set}" ]
}

# The terminal's width into COLUMNS (unless set), for what the pager
# gets: the diffstat is as wide as the terminal, as git's.
dc_export_columns() {
	[ -z "${COLUMNS:-}" ] || return 0
	exec 7>&1
	dc_w=$(stty size 2>/dev/null <&7 | cut -d' ' -f2)
	exec 7>&-
	case $dc_w in ''|*[!0-9]*|0) return 0 ;; esac
	COLUMNS=$dc_w
	export COLUMNS
}

# run_paged PAGER CMD...: CMD's output through "sh -c PAGER" (its
# errors too when they go to the terminal), with LESS=FRX and LV=-c
# unless set, as git runs its pager; returns CMD's status (a pipe
# closed by the reader who quit counts as success).  CMD gets
# DIRCACHE_PAGER_IN_USE=1 (git's GIT_PAGER_IN_USE): its output goes to
# a terminal after all (log decorates so).
run_paged() {
	dc_pg=$1
	shift
	: "${LESS=FRX}" "${LV=-c}"
	DIRCACHE_PAGER_IN_USE=1
	export LESS LV DIRCACHE_PAGER_IN_USE
	dc_export_columns
	exec 3>&1
	dc_rc=$( ( (if [ -t 2 ]; then "$@" 2>&1; else "$@"; fi
		   echo $? >&4) | sh -c "$dc_pg" >&3 3>&- 4>&-) 4>&1)
	exec 3>&-
	case $dc_rc in 141) dc_rc=0 ;; esac
	return "${dc_rc:-1}"
}

# dc_run_viewer CMD ARGS...: log, show and diff as the front end runs
# them: --color[=always|never|auto] and --no-color decide the colour
# (the last one given; auto: a terminal without NO_COLOR), then the
# pager as dc_pager picks it unless dc_no_pager is set.  diff is
# coloured by log-tree --color-patch; log and show colour themselves.
dc_run_viewer() {
	dc_v=$1
	shift
	: "${dc_exec_path:=$(dirname "$0")}"
	dc_color=auto
	dc_n=$#
	dc_dd=
	while [ "$dc_n" -gt 0 ]; do
		dc_a=$1
		shift
		dc_n=$((dc_n - 1))
		case $dc_dd$dc_a in
		--) dc_dd=1 ;;
		--color|--color=always) dc_color=always; continue ;;
		--color=never|--no-color) dc_color=never; continue ;;
		--color=auto) dc_color=auto; continue ;;
		--color=*)
			printf "dircache %s: bad --color value '%s'\n" "$dc_v" \
				"${dc_a#--color=}" >&2
			return 129
			;;
		esac
		set -- "$@" "$dc_a"
	done
	if [ "$dc_color" = auto ]; then
		dc_color=never
		dc_color_default && dc_color=always
	fi
	dc_pg=
	[ -n "${dc_no_pager:-}" ] || ! [ -t 1 ] || dc_pg=$(dc_pager)
	if [ "$dc_v" = diff ]; then
		set -- dc_diff_colored "$dc_color" "$@"
	elif [ "$dc_color" = always ]; then
		set -- "$dc_exec_path/dircache-$dc_v" --color "$@"
	else
		set -- "$dc_exec_path/dircache-$dc_v" "$@"
	fi
	if [ -n "$dc_pg" ]; then
		run_paged "$dc_pg" "$@"
	elif [ "$dc_v" = diff ]; then
		"$@"
	else
		exec "$@"
	fi
}

# dc_diff_colored always|never ARGS...: dircache diff, coloured or not.
dc_diff_colored() {
	if [ "$1" != always ]; then
		shift
		"$dc_exec_path/dircache-diff" "$@"
		return
	fi
	shift
	exec 5>&1
	dc_drc=$( ( ("$dc_exec_path/dircache-diff" --color "$@"; echo $? >&6) |
		log-tree --color-patch >&5 5>&- 6>&-) 6>&1)
	exec 5>&-
	return "${dc_drc:-1}"
}
