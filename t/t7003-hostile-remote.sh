#!/bin/sh
test_description='dircache pull from hostile remotes: refused, nothing changed here'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# A commit object in store $1 with tree $2 and parent $3 (hand-made,
# so that the tree may be anything).
mkcommit() {
	printf "tree %s\nparent %s\nauthor A U Thor <author@example.com> 1112911993 -0700\ncommitter C O Mitter <committer@example.com> 1112912053 -0700\n\nhostile\n" \
		"$2" "$3" | $WO commit --objects "$1/.dircache/objects"
}

# A copy of the origin in $1 whose master is $2 (a commit made there).
hostile_remote() {
	rm -rf "$1" && cp -a a "$1"
}

# The pull from $1 must fail, name the problem ($2) and leave b
# byte-identical: store, refs, index, work tree, no quarantine left.
# The objects come by rsync, as they are in the hostile store (the
# remote's dircache-upload would refuse to pack them; t7030 sends
# hostile packs).
pull_refused() {
	state=$(repo_state b) &&
	(cd b && DIRCACHE_UPLOAD=none \
		test_expect_code 128 dircache pull "../$1" 2>../err) &&
	test_grep "$2" err &&
	test "$state" = "$(repo_state b)"
}

test_expect_success 'setup: an origin, a clone, and a good next commit' '
	mkdir a && (cd a && dircache init 2>/dev/null) &&
	echo one >a/file && mkdir a/dir && echo two >a/dir/f &&
	(cd a && dircache add . && dircache commit -m first >/dev/null) &&
	dircache clone a b 2>/dev/null &&
	base=$(cat a/.dircache/refs/heads/master) &&
	echo $base >base &&
	echo "new content" >a/file &&
	(cd a && dircache commit -a -m second >/dev/null) &&
	blob=$(git_in a rev-parse HEAD:file) && echo $blob >blob
'

test_expect_success 'a corrupt object (bad zlib) is refused' '
	hostile_remote h1 &&
	f=h1/$(obj_file $(cat blob)) && chmod +w $f &&
	printf "garbage, not zlib" >$f &&
	pull_refused h1 "bad object $(cat blob)"
'

test_expect_success 'an object whose content is not its name is refused' '
	hostile_remote h2 &&
	echo "other content" | $WO blob --objects h2/.dircache/objects \
		--name $(cat blob) >/dev/null &&
	pull_refused h2 "bad object $(cat blob)"
'

test_expect_success 'a missing object is refused' '
	hostile_remote h3 &&
	rm -f h3/$(obj_file $(cat blob)) &&
	pull_refused h3 "missing blob $(cat blob)"
'

test_expect_success 'a tree with a ".." entry is refused' '
	hostile_remote h4 &&
	tree=$(printf "100644 .. %s\n" $(cat blob) |
		$WO tree --tree-spec --objects h4/.dircache/objects) &&
	mkcommit h4 $tree $(cat base) >h4/.dircache/refs/heads/master &&
	pull_refused h4 "bad object $tree"
'

test_expect_success 'a tree with a .dircache or .git entry is refused' '
	for name in .dircache .GIT ".git."; do
		hostile_remote h5 &&
		tree=$(printf "100644 %s %s\n" "$name" $(cat blob) |
			$WO tree --tree-spec --objects h5/.dircache/objects) &&
		mkcommit h5 $tree $(cat base) >h5/.dircache/refs/heads/master &&
		pull_refused h5 "bad object $tree" || return 1
	done
'

test_expect_success 'a commit whose tree is a blob is refused' '
	hostile_remote h6 &&
	mkcommit h6 $(cat blob) $(cat base) >h6/.dircache/refs/heads/master &&
	pull_refused h6 "which is a blob"
'

test_expect_success 'a ref naming a blob is refused' '
	hostile_remote h7 &&
	cp blob h7/.dircache/refs/heads/master &&
	pull_refused h7 "is a blob, not a commit"
'

test_expect_success 'a ref that is not an id is refused' '
	hostile_remote h8 &&
	echo "../../../etc/passwd" >h8/.dircache/refs/heads/master &&
	pull_refused h8 "has no branch" &&
	printf "ref: refs/heads/../../x\n" >h8/.dircache/HEAD &&
	pull_refused h8 "bad branch name"
'

test_expect_success 'a malformed commit (strict parsing) is refused' '
	hostile_remote h9 &&
	tree=$(git_in a rev-parse HEAD^{tree}) &&
	c=$(printf "tree %s\nparent %s\nauthor nobody\ncommitter C <c@e> 1 +0000\n\nx\n" \
		$tree $(cat base) | $WO commit --objects h9/.dircache/objects) &&
	echo $c >h9/.dircache/refs/heads/master &&
	pull_refused h9 "bad object $c"
'

test_expect_success 'a bad object that nothing reaches is refused too' '
	hostile_remote h10 &&
	name=$(printf "%s" 0123456789012345678901234567890123456789 \
		012345678901234567890123 | cut -c 1-$OID_HEXSZ) &&
	echo junk | $WO blob --objects h10/.dircache/objects \
		--name $name >/dev/null &&
	pull_refused h10 "bad object $name"
'

test_expect_success 'a remote tag naming a missing object refuses the pull' '
	hostile_remote h11 &&
	printf "%s" 89abcdef0123456789abcdef0123456789abcdef \
		0123456789abcdef01234567 | cut -c 1-$OID_HEXSZ \
		>h11/.dircache/refs/tags/evil &&
	pull_refused h11 "missing head 89abcdef"
'

test_expect_success 'rsync killed mid-transfer: nothing changed, no quarantine' '
	hostile_remote h12 &&
	head -c 2000000 /dev/urandom >h12/big &&
	(cd h12 && dircache add big && dircache commit -m big >/dev/null) &&
	cat >killed-rsync <<-\EOS &&
	#!/bin/sh
	# Objects come slowly, and the transfer is killed half-way.
	case "$*" in
	*tmp_objdir*) ;;
	*) exec rsync "$@" ;;
	esac
	rsync --bwlimit=20 "$@" &
	pid=$!
	sleep 1
	kill -9 $pid
	wait $pid
	EOS
	chmod +x killed-rsync &&
	state=$(repo_state b) &&
	(cd b && DIRCACHE_RSYNC=$TRASH_DIRECTORY/killed-rsync \
		DIRCACHE_UPLOAD=none test_expect_code 128 dircache pull ../h12 2>../err) &&
	test_grep "could not fetch the objects" err &&
	test "$state" = "$(repo_state b)"
'

test_expect_success 'after all that, the good remote pulls as a fast-forward' '
	(cd b && dircache pull origin 2>/dev/null) &&
	test "$(cat b/.dircache/refs/heads/master)" = "$(cat a/.dircache/refs/heads/master)" &&
	cmp a/file b/file &&
	git_accepts b
'

# verify-objects takes the parent's trees' word for the links that
# they make too (vouch_trees): the word covers the type as well.
test_expect_success 'a tree naming the parent'"'"'s subtree as a blob is refused' '
	hostile_remote h12 &&
	dir=$(git_in a rev-parse $(cat base):dir) &&
	file=$(git_in a rev-parse $(cat base):file) &&
	tree=$(printf "100644 dir %s\n100644 file %s\n" $dir $file |
		$WO tree --tree-spec --objects h12/.dircache/objects) &&
	mkcommit h12 $tree $(cat base) >h12/.dircache/refs/heads/master &&
	pull_refused h12 "names blob $dir, which is a tree"
'

test_expect_success 'a changed subtree naming a stored blob as a tree is refused' '
	hostile_remote h13 &&
	file=$(git_in a rev-parse $(cat base):file) &&
	sub=$(printf "40000 f %s\n" $file |
		$WO tree --tree-spec --objects h13/.dircache/objects) &&
	tree=$(printf "40000 dir %s\n100644 file %s\n" $sub $file |
		$WO tree --tree-spec --objects h13/.dircache/objects) &&
	mkcommit h13 $tree $(cat base) >h13/.dircache/refs/heads/master &&
	pull_refused h13 "names tree $file, which is a blob"
'

test_done
