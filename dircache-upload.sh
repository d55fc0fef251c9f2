#!/bin/sh
# dircache upload: the sending side of a fetch from a local path or
# over ssh (the fetcher runs it there, as git runs upload-pack).  It
# reads "want <id>" and "have <id>" lines on stdin and writes on
# stdout one pack of every object reachable from the wanted ids and
# not from the ones the fetcher has (pack-objects --revs --stdout).
# A "have" this store does not hold is dropped (the fetcher's own
# commits); a "want" it does not hold is an error, before any byte of
# pack is written.  --progress: pack-objects shows its progress.
USAGE='upload [--progress] <store>'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
quiet=-q
[ "${1:-}" != --progress ] || { quiet=--progress; shift; }
[ $# -eq 1 ] || usage
case $1 in -*) usage ;; esac
store=$1
[ ! -d "$store/.dircache" ] || store=$store/.dircache
if [ ! -d "$store/objects" ] || [ ! -f "$store/HEAD" ]; then
	die "not a dircache store: $1"
fi
GIT_DIR=$store
export GIT_DIR
dc_set_hash
unset GIT_OBJECT_DIRECTORY SHA1_FILE_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES

revs=$(
	while read -r what id; do
		is_id "$id" || die "not an object id: '$id'"
		case $what in
		want)
			has_object "$id" || die "no object $id here"
			printf '%s\n' "$id"
			;;
		have)
			[ "$(cat-file -t "$id" 2>/dev/null)" != commit ] ||
				printf '^%s\n' "$id"
			;;
		*) die "not a want or have line: '$what $id'" ;;
		esac
	done
) || exit 128
[ -n "$revs" ] || die "nothing wanted"
printf '%s\n' "$revs" | pack-objects --revs --stdout $quiet ||
	die "pack-objects failed"
