#!/bin/sh
# make demo: track this project's own source tree with the tools just
# built, the way the 2005 announcement did, and let git check the result.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PATH="$top:$PATH"
work=$(mktemp -d "${TMPDIR:-/tmp}/dircache-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

cd "$top"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z
else
	find . \( -name '*.[ch]' -o -name Makefile -o -name README \
		-o -path './t/*' -o -path './bench/*' \) -type f -print0
fi | (cd "$top" && xargs -0 cp --parents -t "$work")

cd "$work"
export DIRCACHE_NO_SYNC=1
init-db 2>/dev/null
find . -path ./.dircache -prune -o -type f -print | update-cache --add --stdin
tree=$(write-tree)
commit=$(echo "Initial revision of the dircache tools" | commit-tree "$tree")
echo "$commit" >.dircache/refs/heads/master

echo "tracked $(find . -path ./.dircache -prune -o -type f -print | wc -l) files"
echo "tree:   $tree"
echo "commit: $commit"
echo
cat-file -p "$commit"
echo
if command -v git >/dev/null 2>&1; then
	if GIT_DIR=.dircache git fsck --strict --no-progress 2>/dev/null &&
	   [ "$(GIT_DIR=.dircache git write-tree)" = "$tree" ]; then
		echo "git agrees: fsck --strict is clean and git write-tree gives $tree"
	else
		echo "git DISAGREES: see GIT_DIR=$work/.dircache git fsck --strict"
		trap - EXIT
		exit 1
	fi
fi
