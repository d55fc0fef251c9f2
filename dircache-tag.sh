#!/bin/sh
# dircache tag: name a commit.  A lightweight tag is a ref under
# refs/tags/; -a -m (or -F) stores a tag object first, built byte for
# byte as git tag -a builds it (object, type, tag, tagger, a blank
# line, the message cleaned as git cleans it), so the ids are git's.
# The tagger is the committer commit-tree would write (var
# GIT_COMMITTER_IDENT: the environment, then the config).  An existing tag is never moved.
# Without arguments, the tags are listed.
USAGE='tag [-a] [(-m <msg> | -F <file>)] <name> [<commit>] | tag -d <name>...'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

annotate=
msg=
have_msg=
file=
delete=
# Options and names in any order, as git takes them; "--" ends options.
names=
while [ $# -gt 0 ]; do
	case $1 in
	-a|--annotate) annotate=1 ;;
	-m) [ $# -ge 2 ] || usage; add_message "$2"; shift ;;
	-m*) add_message "${1#-m}" ;;
	--message=*) add_message "${1#--message=}" ;;
	-F)
		[ $# -ge 2 ] || usage
		file=$2
		shift
		;;
	--file=*) file=${1#--file=} ;;
	-d|--delete) delete=1 ;;
	--)
		shift
		for a; do
			names="$names $(shell_quote "$a")"
		done
		break
		;;
	-*) usage ;;
	*) names="$names $(shell_quote "$1")" ;;
	esac
	shift
done
eval "set -- $names"
[ -n "$have_msg$file" ] && annotate=1
case $file in ''|/*|-) ;; *) file=$(pwd -P)/$file ;; esac
cd_to_top

if [ -n "$delete" ]; then
	[ -z "$annotate" ] || usage
	[ $# -gt 0 ] || usage
	ret=0
	for t; do
		if ! id=$(rev-parse "refs/tags/$t" 2>/dev/null); then
			say "dircache tag: tag '$t' not found"
			ret=1
			continue
		fi
		delete_ref "refs/tags/$t" "$id" || { ret=1; continue; }
		printf "Deleted tag '%s' (was %s)\n" "$t" "$(rev-parse --short "$id")"
	done
	exit $ret
fi
if [ $# -eq 0 ]; then
	[ -z "$annotate" ] || usage
	local_refs tags | sed 's|^refs/tags/||; s| [0-9a-f]*$||'
	exit 0
fi
[ $# -le 2 ] || usage
name=$1
check_new_ref_name tag "$name"
target=$(rev-parse "${2:-HEAD}") || exit 128
ref=refs/tags/$name
! rev-parse "$ref" >/dev/null 2>&1 || die "tag '$name' already exists"

if [ -n "$annotate" ]; then
	[ -n "$have_msg$file" ] || die "an annotated tag needs -m <msg> or -F <file>"
	make_tmp
	if [ -n "$file" ]; then
		cat -- "$file" >"$dc_tmp/msg" || die "cannot read '$file'"
	else
		printf '%s\n' "$msg" >"$dc_tmp/msg"
	fi
	type=$(cat-file -t "$target") || exit 128
	tagger=$(var GIT_COMMITTER_IDENT) || exit 128
	{
		printf 'object %s\ntype %s\ntag %s\ntagger %s\n\n' \
			"$target" "$type" "$name" "$tagger"
		clean_message strip <"$dc_tmp/msg"
	} >"$dc_tmp/tag" || die "cannot write the tag"
	target=$(mktag <"$dc_tmp/tag") || exit 128
fi
update-ref "$ref" "$target" "$NULL_ID" || exit 128
