#!/bin/sh
# dircache status: the paths that differ, in git status's categories:
# staged (the index against HEAD: ls-tree -r and ls-files -s side by
# side), changed in the work tree (show-diff -s), unmerged (the index
# stages, named as git names them: UU, AA, DU, UD, AU, UA, DD) and
# untracked (ls-files -o with .gitignore and info/exclude; a directory
# holding nothing tracked shows as "dir/").  -s prints git status -s's
# lines; the long form groups the same lines under git's headings,
# without git's hints.  Renames are shown as a deletion and an
# addition: there is no rename detection here.
USAGE='status [-s]'
# shellcheck source=dircache-lib.sh
. "$(dirname "$0")/dircache-lib.sh"
handle_help "$@"
short=
case $# in
0) ;;
1) [ "$1" = -s ] || [ "$1" = --short ] || usage; short=1 ;;
*) usage ;;
esac
cd_to_top
gd=$(git_dir)
make_tmp

head=$(head_commit)
set -- --exclude-per-directory=.gitignore
[ ! -f "$gd/info/exclude" ] || set -- "$@" --exclude-from="$gd/info/exclude"
{
	[ -z "$head" ] || ls-tree -r "$head" | sed 's/^/T /' || exit 128
	ls-files -s | sed 's/^/I /' || exit 128
	show-diff -s | sed 's/^/W /'
	ls-files -o "$@" | sed 's/^/O /' || exit 128
} >"$dc_tmp/all"

# One "XY path" line per path, in path order, untracked ones last.
awk '
function strip(p) { return substr(p, 1, 1) == "\"" ? substr(p, 2, length(p) - 2) : p }
function requote(p) { return index(p, "\\") ? "\"" p "\"" : p }
# git status -s quotes a path with a space too, as the long form does not.
function sp(p) { return (substr(p, 1, 1) != "\"" && index(p, " ")) ? "\"" p "\"" : p }
{
	tag = substr($0, 1, 1); line = substr($0, 3)
	tab = index(line, "\t"); meta = substr(line, 1, tab - 1)
	path = substr(line, tab + 1)
}
tag == "T" { split(meta, m, " "); tree[path] = m[1] " " m[3]; seen[path] = 1; next }
tag == "I" {
	split(meta, m, " ")
	if (m[3] == 0) index_[path] = m[1] " " m[2]
	else stages[path] = stages[path] m[3]
	seen[path] = 1
	n = split(strip(path), c, "/"); d = ""
	for (i = 1; i < n; i++) { d = d c[i] "/"; tracked[d] = 1 }
	next
}
tag == "W" { if (meta != "U") work[path] = meta; seen[path] = 1; next }
tag == "O" { other[++nother] = path }
END {
	code["123"] = "UU"; code["23"] = "AA"; code["13"] = "DU"
	code["12"] = "UD"; code["2"] = "AU"; code["3"] = "UA"; code["1"] = "DD"
	for (p in seen) {
		if (p in stages) { xy = code[stages[p]] }
		else {
			x = " "
			if ((p in index_) && !(p in tree)) x = "A"
			else if (!(p in index_) && (p in tree)) x = "D"
			else if ((p in index_) && index_[p] != tree[p]) {
				split(index_[p], a, " "); split(tree[p], b, " ")
				x = (a[2] == b[2] || substr(a[1], 1, 2) == substr(b[1], 1, 2)) ? "M" : "T"
			}
			y = (p in work) ? work[p] : " "
			xy = x y
		}
		if (xy != "  ") print "0\t" strip(p) "\t" xy " " sp(p) "\t" xy " " p
	}
	for (i = 1; i <= nother; i++) {
		p = strip(other[i]); n = split(p, c, "/"); d = ""
		for (j = 1; j < n; j++) {
			d = d c[j] "/"
			if (!(d in tracked)) break
		}
		out = (j < n) ? requote(d) : other[i]
		if (!(out in shown)) { shown[out] = 1; print "1\t" strip(out) "\t?? " sp(out) "\t?? " out }
	}
}' "$dc_tmp/all" | LC_ALL=C sort -t '	' -k1,1 -k2,2 >"$dc_tmp/sorted"
cut -f3 "$dc_tmp/sorted" >"$dc_tmp/short"
cut -f4 "$dc_tmp/sorted" >"$dc_tmp/long"

if [ -n "$short" ]; then
	cat "$dc_tmp/short"
	exit 0
fi
branch=$(head_branch)
if [ -n "$branch" ]; then
	printf 'On branch %s\n' "$branch"
else
	printf 'HEAD detached at %s\n' "$(printf %.7s "$head")"
fi
[ -n "$head" ] || printf '\nNo commits yet\n\n'
awk '
function label(c) {
	return c == "A" ? "new file:   " : c == "D" ? "deleted:    " : \
		c == "T" ? "typechange: " : "modified:   "
}
{ xy = substr($0, 1, 2); p = substr($0, 4) }
xy == "??" { untracked = untracked "\t" p "\n"; next }
xy ~ /U|AA|DD/ {
	l = xy == "UU" ? "both modified:   " : xy == "AA" ? "both added:      " : \
	    xy == "DU" ? "deleted by us:   " : xy == "UD" ? "deleted by them: " : \
	    xy == "AU" ? "added by us:     " : xy == "UA" ? "added by them:   " : \
	    "both deleted:    "
	unmerged = unmerged "\t" l p "\n"; next
}
{
	x = substr(xy, 1, 1); y = substr(xy, 2, 1)
	if (x != " ") staged = staged "\t" label(x) p "\n"
	if (y != " ") changed = changed "\t" label(y) p "\n"
}
function section(title, list) {
	if (list == "") return
	printf "%s%s:\n%s", sep, title, list
	sep = "\n"
}
END {
	section("Changes to be committed", staged)
	section("Unmerged paths", unmerged)
	section("Changes not staged for commit", changed)
	section("Untracked files", untracked)
	if (staged changed unmerged untracked == "")
		printf "nothing to commit, working tree clean\n"
}' "$dc_tmp/long"
