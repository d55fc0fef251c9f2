# bench/ops/list.sh: the listing tools on the kernel checkout ($W/old,
# which holds both stores and both indexes of the old tree).  -o walks
# the whole tree and looks every file up in the index; both tools are
# told to skip .dircache, which git would otherwise enter.
op_list() {
	cd "$W/old"
	for i in $(seq $RUNS); do
		time_cmd ours-lss ls-files -s
		time_cmd git-lss git ls-files -s
		time_cmd ours-lso ls-files -o --exclude=.dircache/
		time_cmd git-lso git ls-files -o --exclude=.dircache/
	done
	ls-files -s >"$W/lss-ours"
	git ls-files -s >"$W/lss-git"
	cmp -s "$W/lss-ours" "$W/lss-git" ||
		{ echo "bench: ls-files -s differs from git" >&2; exit 1; }
	ls-files -o --exclude=.dircache/ >"$W/lso-ours"
	git ls-files -o --exclude=.dircache/ >"$W/lso-git"
	cmp -s "$W/lso-ours" "$W/lso-git" ||
		{ echo "bench: ls-files -o differs from git" >&2; exit 1; }
}

rows_list() {
	row "ls-files -s" lss
	row "ls-files -o" lso
}

OPS="$OPS list"
