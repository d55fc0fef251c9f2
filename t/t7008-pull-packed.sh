#!/bin/sh
test_description='dircache pull and clone from a remote whose objects git has packed'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# a: a dircache repository with a few commits, then `git gc` of its
# store (every object packed, deltas among them, no loose object left);
# b: a clone of a made before the gc.
test_expect_success 'setup: a history, a clone, then the origin packed by git gc' '
	mkdir a && (cd a && dircache init 2>/dev/null) &&
	seq 1 200 >a/file && mkdir a/dir && echo two >a/dir/f &&
	(cd a && dircache add . && dircache commit -m first >/dev/null) &&
	dircache clone a b 2>/dev/null &&
	for i in 2 3 4 5; do
		sed -i "${i}0s/\$/ change $i/" a/file &&
		echo "file $i" >a/dir/g$i &&
		(cd a && dircache add . && dircache commit -m "change $i" \
			>/dev/null) || return 1
	done &&
	git_in a config gc.auto 0 &&
	git_in a gc -q --prune=now &&
	ls a/.dircache/objects/pack/pack-*.pack >/dev/null &&
	test -z "$(find a/.dircache/objects -path "*/[0-9a-f][0-9a-f]/*")"
'

test_expect_success 'a clone of the packed origin: one pack, git agrees' '
	dircache clone a c 2>/dev/null &&
	test "$(git_in c rev-parse HEAD)" = "$(git_in a rev-parse HEAD)" &&
	test $(ls c/.dircache/objects/pack/pack-*.pack | wc -l) = 1 &&
	test -z "$(find c/.dircache/objects -path "*/[0-9a-f][0-9a-f]/*")" &&
	git_accepts c &&
	cmp a/file c/file && cmp a/dir/g5 c/dir/g5 &&
	test -z "$(ls -d c/.dircache/objects/tmp_objdir* 2>/dev/null)"
'

test_expect_success 'a fast-forward pull of the packed origin' '
	(cd b && dircache pull ../a >/dev/null 2>&1) &&
	test "$(git_in b rev-parse HEAD)" = "$(git_in a rev-parse HEAD)" &&
	git_accepts b && cmp a/file b/file
'

test_expect_success 'only the objects the store lacks are written' '
	# b has every object now; a new commit in a, packed again.
	echo more >>a/dir/f &&
	(cd a && dircache commit -a -m more >/dev/null) &&
	git_in a gc -q --prune=now &&
	ls b/.dircache/objects/pack/*.idx >before 2>/dev/null || : &&
	(cd b && dircache pull ../a >/dev/null 2>&1) &&
	ls b/.dircache/objects/pack/*.idx >after &&
	# the commit, its tree, dir/ and dir/f: four new objects, packed.
	new=$(comm -13 before after) &&
	test -n "$new" &&
	git_in b verify-pack -v $new >list &&
	test $(grep -c "^[0-9a-f]\{$OID_HEXSZ\} " list) = 4 &&
	git_accepts b
'

# A hostile pack: its bytes changed after git wrote it.  The pull (by
# rsync: the remote's dircache-upload would not send it) must refuse it
# in one line and leave b as it was, with no quarantine.
test_expect_success 'a corrupt pack is refused, nothing changed' '
	echo again >>a/dir/f &&
	(cd a && dircache commit -a -m again >/dev/null) &&
	git_in a gc -q --prune=now &&
	rm -rf h && cp -a a h &&
	p=$(ls h/.dircache/objects/pack/pack-*.pack) &&
	chmod +w "$p" &&
	size=$(wc -c <"$p") &&
	printf "\377\377\377\377" |
		dd of="$p" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null &&
	state=$(repo_state b) &&
	(cd b && DIRCACHE_UPLOAD=none \
		test_expect_code 128 dircache pull ../h 2>../err) &&
	test_grep "refusing the pack from .*/h: " err &&
	test $(wc -l <err) = 1 &&
	test "$state" = "$(repo_state b)"
'

# A tree with a ".." entry, packed by git (git pack-objects packs what
# it is given): unpack-objects takes it (the pack is sound), the strict
# checks of verify-objects refuse it.
test_expect_success 'a pack with a ".." tree inside is refused' '
	rm -rf h2 && cp -a a h2 &&
	o=h2/.dircache/objects &&
	blob=$(git_in h2 rev-parse HEAD:file) &&
	tree=$(printf "100644 .. %s\n" $blob |
		$WO tree --tree-spec --objects $o) &&
	commit=$(printf "tree %s\nparent %s\nauthor A U Thor <author@example.com> 1112911993 -0700\ncommitter C O Mitter <committer@example.com> 1112912053 -0700\n\nhostile\n" \
		$tree $(git_in h2 rev-parse HEAD) | $WO commit --objects $o) &&
	printf "%s\n%s\n" $commit $tree |
		git_in h2 pack-objects -q $o/pack/pack >/dev/null &&
	rm -f $(obj_file $commit $o) $(obj_file $tree $o) &&
	echo $commit >h2/.dircache/refs/heads/master &&
	state=$(repo_state b) &&
	(cd b && DIRCACHE_UPLOAD=none \
		test_expect_code 128 dircache pull ../h2 2>../err) &&
	test_grep "$tree" err &&
	test "$state" = "$(repo_state b)"
'

test_done
