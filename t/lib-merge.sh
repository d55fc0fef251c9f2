# t/lib-merge.sh: helpers of the read-tree -m tests (t6001, t6002):
# the same starting state built twice, once for our read-tree and
# once for git's, so that the two indexes and work trees can be
# compared byte for byte.  Source it after test-lib.sh.

gd() {
	GIT_DIR=.dircache git "$@"
}

# blob TEXT: store a blob holding TEXT and a newline, print its id.
blob() {
	printf '%s\n' "$1" | gd hash-object -w --stdin
}

# mk_tree "<mode> <id>\t<path>"...: the tree of exactly these entries.
mk_tree() {
	rm -f "$TRASH_DIRECTORY/mk.idx" &&
	if test $# -gt 0
	then
		printf '%s\n' "$@" |
		GIT_INDEX_FILE="$TRASH_DIRECTORY/mk.idx" gd update-index \
			--index-info
	fi &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/mk.idx" gd write-tree
}

# setup_store: a repository "repo" whose store the cases copy.
setup_store() {
	mkdir repo && (cd repo && init-db 2>/dev/null)
}

# prepare DIR INDEX_TREE: DIR as a copy of repo whose index holds
# INDEX_TREE ("noindex": no index file), checked out and clean, with
# every file older than the index so that no entry is racy.
prepare() {
	rm -rf "$1" && mkdir "$1" && cp -R repo/.dircache "$1/" &&
	if test "$2" != noindex
	then
		(cd "$1" && gd read-tree "$2" && gd checkout-index -a -f &&
		 find . -path ./.dircache -prune -o -print |
		 xargs touch -h -d @1000000000 &&
		 gd update-index --refresh >/dev/null)
	fi
}

# wt_state DIR [DIR2 FILE2]: every path of DIR's work tree with its
# kind, mode bits and content, so that two work trees can be compared;
# DIR2's in FILE2 by the same process.
wt_state() {
	python3 - "$@" <<-\EOF
	import hashlib, os, stat, sys
	def state(top):
	    out = []
	    for root, dirs, files in os.walk(top):
	        rel = os.path.relpath(root, top)
	        if rel == ".dircache" or rel.startswith(".dircache/"):
	            continue
	        out.append("dir " + rel)
	        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
	            p = os.path.join(root, name)
	            r = os.path.normpath(os.path.join(rel, name))
	            st = os.lstat(p)
	            if stat.S_ISLNK(st.st_mode):
	                out.append("link %s -> %s" % (r, os.readlink(p)))
	            else:
	                with open(p, "rb") as f:
	                    h = hashlib.sha1(f.read()).hexdigest()
	                kind = "exe" if st.st_mode & 0o100 else "file"
	                out.append("%s %s %s" % (kind, r, h))
	    return "".join(sorted(l + "\n" for l in out))
	sys.stdout.write(state(sys.argv[1]))
	if len(sys.argv) > 2:
	    with open(sys.argv[3], "w") as f:
	        f.write(state(sys.argv[2]))
	EOF
}

# cache_tree_of DIR: DIR's index's TREE extension, one node a line.
cache_tree_of() {
	if test -f "$1/.dircache/index"
	then
		python3 "$TEST_DIRECTORY/dump-cache-tree.py" \
			"$1/.dircache/index" $((OID_HEXSZ / 2))
	else
		echo "no index"
	fi
}

# run_both OPTS -- TREES: our read-tree in "ours", git's in "gits"; the
# exit statuses in ours.rc and gits.rc, the indexes as git lists them
# in ours.ls and gits.ls, their cache trees in ours.ct and gits.ct,
# the work trees in ours.wt and gits.wt.
run_both() {
	opts=
	while test "$1" != --
	do
		opts="$opts $1"
		shift
	done
	shift
	(cd ours && read-tree $opts "$@" 2>../ours.err; echo $? >../ours.rc)
	(cd gits && gd read-tree $opts "$@" 2>../gits.err; echo $? >../gits.rc)
	(cd ours && gd ls-files --stage >../ours.ls 2>&1)
	(cd gits && gd ls-files --stage >../gits.ls 2>&1)
	cache_tree_of ours >ours.ct && cache_tree_of gits >gits.ct &&
	wt_state ours gits gits.wt >ours.wt
}

# same_as_git ok|fail: both succeeded (or both refused) as the row
# says, with the same index and work tree; a refusal changed nothing.
same_as_git() {
	if test "$1" = ok
	then
		test "$(cat ours.rc)" = 0 && test "$(cat gits.rc)" = 0
	else
		test "$(cat ours.rc)" = 128 && test "$(cat gits.rc)" != 0 &&
		test -s ours.err && cmp before.ls ours.ls &&
		cmp before.wt ours.wt
	fi &&
	test_cmp gits.ls ours.ls &&
	test_cmp gits.ct ours.ct &&
	test_cmp gits.wt ours.wt
}

# start INDEX_TREE [ACTION]: prepare ours and gits alike, then run
# ACTION (a shell command) in both work trees; keep the "before".
start() {
	prepare ours "$1" && prepare gits "$1" &&
	if test -n "$2"
	then
		(cd ours && eval "$2") && (cd gits && eval "$2")
	fi &&
	(cd ours && gd ls-files --stage >../before.ls 2>&1) &&
	wt_state ours >before.wt
}
