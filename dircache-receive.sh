#!/bin/sh
# dircache-receive: the remote side of a push.  It takes ref updates,
# "<ref> <old> <new>" a line (old all zeros for a new ref), and a pack
# of the objects they need, and answers "ok <ref>" or "ng <ref>
# <reason>" for each ref.
#
# The pack is hostile input until proven otherwise: it is stored and
# indexed (index-pack --strict) in a quarantine directory under the
# store's objects/, exploded there into loose objects that
# verify-objects checks as a pull checks what it fetched (each object
# as fsck-cache --strict would, and everything reachable from the new
# ids present in the quarantine or the store).  Only then is it moved
# into objects/pack, the pack before its idx (readers find a pack by
# its idx).  Each ref is then changed by update-ref under the ref's
# lock, only if it still holds <old>: of two pushes racing for one
# ref, one wins and the other hears "fetch first", and nothing is
# overwritten.  A store with a work tree refuses its checked-out
# branch (its index and files would silently fall behind), unless its
# config says receive.denyCurrentBranch = ignore, as git's does.
#
# Three ways in:
#   dircache-receive <store>    the request on stdin, then a line
#                               "pack" and the pack, or no such line
#                               (a local push, or one over ssh);
#                               answers on stdout
#   dircache-receive --rsyncd   as an rsync daemon module's pre-xfer
#                               exec: a push uploads incoming/<id>/
#                               request and pack into the store, then
#                               fetches incoming/<id>/result, and
#                               that fetch makes this write it
USAGE='receive (<store> | --rsyncd)'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
[ $# -eq 1 ] || usage
# The tools installed with this script, whatever PATH the daemon or the
# ssh login gave it.
PATH=$(cd "$(dirname "$0")" && pwd -P):$PATH
export PATH
unset GIT_OBJECT_DIRECTORY SHA1_FILE_DIRECTORY GIT_INDEX_FILE \
	GIT_ALTERNATE_OBJECT_DIRECTORIES

# The store a path names: <path>/.dircache, or <path> itself when it is
# one; sets rc_store, absolute.
receive_store() {
	if [ -d "$1/.dircache" ]; then
		rc_store=$1/.dircache
	elif [ -d "$1/objects" ] && [ -f "$1/HEAD" ]; then
		rc_store=$1
	else
		die "not a dircache store: $1"
	fi
	rc_store=$(cd "$rc_store" && pwd -P) || die "cannot enter $rc_store"
}

# Under rsync's pre-xfer exec: is this transfer the fetch of
# <store>/incoming/<id>/result?  Sets rc_store and rc_dir.  Every
# other transfer of the module (the push's upload, a pull) goes on
# untouched.
rsyncd_request() {
	rc_req=${RSYNC_REQUEST:-}
	[ -n "$rc_req" ] && [ -n "${RSYNC_MODULE_PATH:-}" ] || return 1
	rc_req=${rc_req#"${RSYNC_MODULE_NAME:-}"}
	rc_req=${rc_req#/}
	case $rc_req in
	incoming/*/result|*/incoming/*/result) ;;
	*) return 1 ;;
	esac
	case /$rc_req/ in
	*[!A-Za-z0-9._/-]*|*//*|*/../*|*/./*)
		die "refusing the request '$RSYNC_REQUEST'"
		;;
	esac
	rc_dir=${rc_req%/result}
	rc_id=${rc_dir##*/}
	rc_base=${rc_dir%/*}
	case $rc_base in
	incoming) rc_base= ;;
	*/incoming) rc_base=/${rc_base%/incoming} ;;
	*) die "refusing the request '$RSYNC_REQUEST'" ;;
	esac
	case $rc_id in ''|.*) die "refusing the request '$RSYNC_REQUEST'" ;; esac
	rc_store=$RSYNC_MODULE_PATH$rc_base
	if [ ! -d "$rc_store/objects" ] || [ ! -f "$rc_store/HEAD" ]; then
		die "not a dircache store: $rc_store"
	fi
	rc_dir=$rc_store/incoming/$rc_id
	[ -f "$rc_dir/request" ] || die "no request in $rc_dir"
}

# Is the store a work tree's (.dircache or .git of a directory, and
# not marked bare)?
store_has_work_tree() {
	case ${GIT_DIR##*/} in
	.dircache|.git) ;;
	*) return 1 ;;
	esac
	case $(config_get "$GIT_DIR/config" core bare) in
	[Tt]rue|[Yy]es|[Oo]n|1) return 1 ;;
	esac
	return 0
}

# Why the update "$1 $2 $3" (ref old new) is refused before any object
# is looked at; empty when it may go on.
precheck_update() {
	case $1 in
	refs/heads/*|refs/tags/*) ;;
	*) echo "only refs/heads/ and refs/tags/ take pushes"; return ;;
	esac
	case ${1#refs/*/} in
	''|*[!A-Za-z0-9._/-]*|/*|*/|*//*|.*|*/.*|*..*|*.lock)
		echo "bad ref name"; return ;;
	esac
	if ! is_id "$2" || ! is_id "$3" || [ "$3" = "$NULL_ID" ]; then
		case ${#2}:${#3} in
		40:40|64:64)
			echo "ids of another object format than this store's ($DC_FORMAT)"
			;;
		*) echo "malformed request" ;;
		esac
		return
	fi
	if [ "$1" = "refs/heads/$(head_branch)" ] && store_has_work_tree &&
	   [ "$(config_get "$GIT_DIR/config" receive denycurrentbranch)" != ignore ]
	then
		echo "branch is currently checked out"
	fi
}

# The id ref $1 holds in the store, or NULL_ID.
current_ref() {
	rev-parse "$1" 2>/dev/null || echo "$NULL_ID"
}

# The tests' hooks at a step: DIRCACHE_TEST_KILL=<step> is a kill -9
# there; DIRCACHE_TEST_PAUSE waits there (test_pause_at).
test_kill_at() {
	[ "${DIRCACHE_TEST_KILL:-}" != "$1" ] || kill -9 $$
	test_pause_at "receive:$1"
}

# What receivers killed with -9 left: their quarantines and temporary
# directories (removed as soon as their owner is dead), uploads of
# pushes killed on the way (incoming/<id>, once untouched for a
# while), and packs moved without their idx (invisible to readers).
remove_stale_receives() {
	remove_stale_dirs "$GIT_DIR"/objects/incoming-* \
		"$GIT_DIR"/tmp-receive-* "$GIT_DIR"/incoming/*
	for rs_p in "$GIT_DIR"/objects/pack/pack-*.pack; do
		rs_b=${rs_p%.pack}
		if [ -f "$rs_p" ] && [ ! -f "$rs_b.idx" ] &&
		   [ ! -f "$rs_b.keep" ] &&
		   [ -z "$(find "$rs_p" -mmin -"$DC_STALE_MINUTES")" ]; then
			rm -f "$rs_p"
		fi
	done
}

# Check the pack $1 in a quarantine under objects/ and, when it and
# everything reachable from the ids "$2" checks out, move it into
# objects/pack: the pack first, then the idx that makes it seen.
install_pack() {
	dc_quarantine=$(mktemp -d "$GIT_DIR/objects/incoming-XXXXXX") ||
		return 1
	mark_owner "$dc_quarantine" &&
	mkdir "$dc_quarantine/pack" "$dc_quarantine/loose" || return 1
	ip_out=$(SHA1_FILE_DIRECTORY=$dc_quarantine \
		index-pack --stdin --strict <"$1") || return 1
	ip_hex=${ip_out#pack	}
	is_id "$ip_hex" || { say "index-pack said '$ip_out'"; return 1; }
	ip_pack=$dc_quarantine/pack/pack-$ip_hex
	test_kill_at indexed
	SHA1_FILE_DIRECTORY=$dc_quarantine/loose \
		unpack-objects -q <"$ip_pack.pack" || return 1
	# shellcheck disable=SC2086 # ids: one word each
	verify-objects "$dc_quarantine/loose" $2 >/dev/null || return 1
	test_kill_at verified
	# Fresh, so that remove_stale_receives leaves it alone until the
	# idx follows.
	touch "$ip_pack.pack" && mkdir -p "$GIT_DIR/objects/pack" &&
	mv -f "$ip_pack.pack" "$GIT_DIR/objects/pack/" || return 1
	test_kill_at pack-moved
	mv -f "$ip_pack.idx" "$GIT_DIR/objects/pack/" || return 1
	rm -rf "$dc_quarantine"
	dc_quarantine=
	test_kill_at installed
}

# The objects for the updates in the file $1 are there without a
# pack: every new id is a commit (or a tag of one) the store holds.
check_without_pack() {
	mkdir "$dc_tmp/empty" || return 1
	# shellcheck disable=SC2086 # ids: one word each
	verify-objects "$dc_tmp/empty" $1 >/dev/null
}

# Move one ref from old to new, under its lock; "ok" or "ng" line.
update_one() {
	uo_cur=$(current_ref "$1")
	if [ "$uo_cur" != "$2" ]; then
		echo "ng $1 fetch first"
	elif [ "$2" != "$NULL_ID" ] && [ "${1#refs/tags/}" != "$1" ]; then
		echo "ng $1 already exists"
	elif [ "$2" != "$NULL_ID" ] && ! is_ancestor "$2" "$3"; then
		echo "ng $1 non-fast-forward"
	elif update-ref "$1" "$3" "$2" 2>"$dc_tmp/update-err"; then
		echo "ok $1"
	elif [ "$(current_ref "$1")" != "$2" ]; then
		echo "ng $1 fetch first"
	else
		echo "ng $1 $(sed -n '1s/^update-ref: //p' "$dc_tmp/update-err")"
	fi
}

# The request in the file $1 with the pack in the file $2 (none when
# empty): the answer on stdout.  Fails when any ref was refused.
receive_pack() {
	: >"$dc_tmp/todo"
	rp_ret=0
	while read -r rp_ref rp_old rp_new rp_rest; do
		[ -n "$rp_ref" ] || continue
		rp_why=$(precheck_update "$rp_ref" "$rp_old" "$rp_new")
		[ -z "$rp_rest" ] || rp_why="malformed request"
		if [ -n "$rp_why" ]; then
			printf 'ng %s %s\n' "$rp_ref" "$rp_why"
			rp_ret=1
		else
			printf '%s %s %s\n' "$rp_ref" "$rp_old" "$rp_new" \
				>>"$dc_tmp/todo"
		fi
	done <"$1"
	[ -s "$dc_tmp/todo" ] || return 1
	rp_ids=$(cut -d' ' -f3 "$dc_tmp/todo" | LC_ALL=C sort -u)
	if [ -n "$2" ]; then
		install_pack "$2" "$rp_ids" 2>"$dc_tmp/pack-err"
	else
		check_without_pack "$rp_ids" 2>"$dc_tmp/pack-err"
	fi || {
		cat "$dc_tmp/pack-err" >&2
		rp_why=$(sed -n '$p' "$dc_tmp/pack-err")
		while read -r rp_ref rp_old rp_new; do
			printf 'ng %s pack refused: %s\n' "$rp_ref" "$rp_why"
		done <"$dc_tmp/todo"
		return 1
	}
	while read -r rp_ref rp_old rp_new; do
		update_one "$rp_ref" "$rp_old" "$rp_new"
		test_kill_at updated
	done <"$dc_tmp/todo" >"$dc_tmp/answers"
	cat "$dc_tmp/answers"
	! grep -q '^ng ' "$dc_tmp/answers" && [ $rp_ret -eq 0 ]
}

# Our temporary directory, marked ours; the leftovers of killed
# receivers removed.  A pusher that went away makes our answer fail
# (EPIPE), not kill us before we clean up.
start_receive() {
	GIT_DIR=$rc_store
	export GIT_DIR
	dc_set_hash
	make_tmp
	trap '' PIPE
	mark_owner "$dc_tmp" || die "cannot write in $dc_tmp"
	remove_stale_receives
}

if [ "$1" = --rsyncd ]; then
	rsyncd_request || exit 0
	[ ! -f "$rc_dir/result" ] || exit 0
	mark_owner "$rc_dir" || die "cannot write in $rc_dir"
	start_receive
	test_kill_at request
	pack=
	[ ! -f "$rc_dir/pack" ] || pack=$rc_dir/pack
	receive_pack "$rc_dir/request" "$pack" >"$rc_dir/result+"
	mv -f "$rc_dir/result+" "$rc_dir/result" ||
		die "cannot write $rc_dir/result"
	# The pusher fetches the result now and removes the directory; if
	# it is killed first, a later push removes it once it is stale.
	rm -f "$rc_dir/request" "$rc_dir/pack" "$rc_dir/owner"
	exit 0
fi

case $1 in -*) usage ;; esac
receive_store "$1"
start_receive
pack=
while IFS= read -r line; do
	[ "$line" != pack ] || { pack=$dc_tmp/pack; break; }
	printf '%s\n' "$line"
done >"$dc_tmp/request"
test_kill_at request
[ -z "$pack" ] || cat >"$pack" || die "cannot read the pack"
receive_pack "$dc_tmp/request" "$pack"
