#!/bin/sh
# dircache remote: name the stores we pull from and push to.  A remote
# is recorded as .dircache/remotes/<name> holding "URL: <url>" (the
# 2005 layout, which git still reads).  A URL is a local path (to a
# .dircache or a work tree holding one, made absolute here), host:path
# (rsync over ssh) or rsync://host[:port]/module/path.
USAGE='remote [-v] | remote add <name> <url> | remote rm <name>'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"

case ${1:-} in
add)
	[ $# -eq 3 ] || usage
	name=$2
	url=$3
	if [ -d "$url" ]; then
		url=$(cd "$url" && pwd -P) || die "cannot enter '$3'"
	fi
	;;
rm)
	[ $# -eq 2 ] || usage
	name=$2
	;;
''|-v)
	[ $# -le 1 ] || usage
	;;
*) usage ;;
esac
cd_to_top
gd=$(git_dir)

case ${1:-} in
add)
	check_remote_name "$name"
	case $url in *"
"*|'') die "a URL cannot hold a newline" ;; esac
	[ ! -e "$gd/remotes/$name" ] || die "remote '$name' already exists"
	mkdir -p "$gd/remotes" || die "cannot create $gd/remotes"
	{
		printf 'URL: %s\n' "$url" >"$gd/remotes/$name.tmp" &&
		mv "$gd/remotes/$name.tmp" "$gd/remotes/$name"
	} || die "cannot write $gd/remotes/$name"
	;;
rm)
	check_remote_name "$name"
	[ -f "$gd/remotes/$name" ] || die "no remote named '$name'"
	rm -f "$gd/remotes/$name"
	;;
*)
	[ -d "$gd/remotes" ] || exit 0
	for f in "$gd"/remotes/*; do
		[ -f "$f" ] || continue
		if [ "${1:-}" = -v ]; then
			printf '%s\t%s\n' "${f##*/}" "$(sed -n 's/^URL: //p' "$f")"
		else
			printf '%s\n' "${f##*/}"
		fi
	done
	;;
esac
