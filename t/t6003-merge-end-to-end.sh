#!/bin/sh
test_description='read-tree -m -u, merge-cache -o merge-one-file -a, write-tree: merges as git merge makes them'
. "$(dirname "$0")/test-lib.sh"

gd() {
	GIT_DIR=.dircache git "$@"
}

lines() {
	for l in "$@"
	do
		echo "$l"
	done
}

# A history in "hist" (built with git on our store): the base commit,
# then branches "ours" and "theirs" from it.
test_expect_success 'setup: the base' '
	test_create_repo hist && cd hist &&
	mkdir -p .dircache/info && echo /.dircache/ >.dircache/info/exclude &&
	gd symbolic-ref HEAD refs/heads/ours &&
	lines 1 2 3 4 5 6 7 8 9 10 >both-edit &&
	lines a b c d e f g h i j >conflict &&
	echo unchanged >same &&
	echo del-ours >del-ours && echo del-theirs >del-theirs &&
	echo del-both >del-both &&
	echo mode >mode-theirs && echo mode2 >mode-ours &&
	echo moved >rename-me && echo mod-del >mod-del &&
	mkdir -p dir/sub && echo x >dir/sub/x && echo y >dir/y &&
	mkdir keepdir && echo k >keepdir/k &&
	ln -s same link &&
	i=0 && mkdir many &&
	while test $i -lt 50
	do
		echo "file $i" >many/f$i && i=$((i + 1))
	done &&
	gd add -A && gd commit -q -m base && gd branch base
'

test_expect_success 'setup: ours' '
	cd hist &&
	lines 1 2 OURS 4 5 6 7 8 9 10 >both-edit &&
	lines a b OURS d e f g h i j >conflict &&
	gd rm -q del-ours del-both &&
	chmod +x mode-ours &&
	echo added by ours >add-ours &&
	echo same add >add-same &&
	echo ours add >add-both &&
	echo changed by ours >many/f3 &&
	echo "mod by ours" >mod-del &&
	gd add -A && gd commit -q -m ours
'

test_expect_success 'setup: theirs' '
	cd hist &&
	gd checkout -q -b theirs base &&
	lines 1 2 3 4 5 6 7 THEIRS 9 10 >both-edit &&
	lines a b THEIRS d e f g h i j >conflict &&
	gd rm -q del-theirs del-both &&
	chmod +x mode-theirs &&
	gd mv rename-me renamed &&
	gd rm -q -r dir && echo now a file >dir &&
	echo added by theirs >add-theirs &&
	echo same add >add-same &&
	echo theirs add >add-both &&
	echo changed by theirs >many/f7 &&
	gd rm -q many/f9 mod-del &&
	ln -sf keepdir/k link2 &&
	gd add -A && gd commit -q -m theirs &&
	gd checkout -q ours
'

# our_merge DIR BASE OURS THEIRS: DIR a checkout of OURS made by our
# tools, then the merge; merge-cache's status in DIR.rc.
our_merge() {
	rm -rf "$1" && mkdir "$1" && cp -R hist/.dircache "$1/" &&
	(cd "$1" && read-tree "$3" && checkout-cache -f -a &&
	 update-cache --refresh &&
	 read-tree -m -u "$2" "$3" "$4" &&
	 { merge-cache -o merge-one-file -a 2>../$1.err; echo $? >../$1.rc; })
}

# git_merge DIR OURS THEIRS: git merge in a copy; its status in DIR.rc.
git_merge() {
	rm -rf "$1" && mkdir "$1" && cp -R hist/.dircache "$1/" &&
	(cd "$1" && gd checkout -q -f "$2" &&
	 { gd merge -q --no-edit "$3" >/dev/null 2>&1; echo $? >../$1.rc; })
}

# Conflict markers with their labels cut off: git labels HEAD and the
# branch, we label ours and theirs.
unlabel() {
	sed -e "s/^\(<<<<<<<\|>>>>>>>\|||||||\) .*/\1/" "$1"
}

test_expect_success 'a clean merge: the tree git merge makes' '
	cd hist &&
	gd checkout -q -b clean-ours base &&
	lines 1 2 OURS 4 5 6 7 8 9 10 >both-edit &&
	gd rm -q del-ours del-both && chmod +x mode-ours &&
	echo added by ours >add-ours && echo same add >add-same &&
	echo changed by ours >many/f3 &&
	gd add -A && gd commit -q -m clean-ours &&
	gd checkout -q -b clean-theirs base &&
	lines 1 2 3 4 5 6 7 THEIRS 9 10 >both-edit &&
	gd rm -q del-theirs del-both && chmod +x mode-theirs &&
	gd mv rename-me renamed && gd rm -q -r dir &&
	echo now a file >dir && echo added by theirs >add-theirs &&
	echo same add >add-same && echo changed by theirs >many/f7 &&
	gd rm -q many/f9 && ln -sf keepdir/k link2 &&
	gd add -A && gd commit -q -m clean-theirs &&
	cd .. &&
	our_merge m base clean-ours clean-theirs &&
	test "$(cat m.rc)" = 0 &&
	(cd m && write-tree >../ours.tree && show-diff >../sd) &&
	git_merge g clean-ours clean-theirs &&
	test "$(cat g.rc)" = 0 &&
	(cd g && gd rev-parse HEAD^{tree}) >git.tree &&
	test_cmp git.tree ours.tree &&
	test ! -s sd
'

test_expect_success 'the clean merge: the work tree is the merged tree' '
	(cd m && find . -path ./.dircache -prune -o \( -type f -o -type l \) -print |
	 sed "s|^\./||" | LC_ALL=C sort) >ours.files &&
	(cd g && find . -path ./.dircache -prune -o \( -type f -o -type l \) -print |
	 sed "s|^\./||" | LC_ALL=C sort) >git.files &&
	test_cmp git.files ours.files &&
	while read f
	do
		if test -L "m/$f"
		then
			test "$(readlink "m/$f")" = "$(readlink "g/$f")"
		else
			cmp "m/$f" "g/$f" &&
			test "$(test -x "m/$f" && echo x)" = "$(test -x "g/$f" && echo x)"
		fi || return 1
	done <git.files &&
	test -d m/keepdir && test ! -e m/del-both && test -f m/dir
'

test_expect_success 'a merge with conflicts: merge-cache fails, write-tree refuses' '
	our_merge c base ours theirs &&
	test "$(cat c.rc)" != 0 &&
	test_grep "content conflict in conflict" c.err &&
	(cd c && test_must_fail write-tree 2>/dev/null) &&
	git_merge h ours theirs &&
	test "$(cat h.rc)" != 0
'

test_expect_success 'the conflicts: the same unmerged paths and stages as git merge' '
	(cd c && gd ls-files -u) >ours.u &&
	(cd h && gd ls-files -u) >git.u &&
	test_cmp git.u ours.u &&
	grep -q "	conflict$" ours.u && grep -q "	add-both$" ours.u &&
	grep -q "	mod-del$" ours.u
'

test_expect_success 'the conflicts: the merged paths are git merge'"'"'s' '
	(cd c && gd ls-files -s | grep " 0	") >ours.0 &&
	(cd h && gd ls-files -s | grep " 0	") >git.0 &&
	test_cmp git.0 ours.0
'

test_expect_success 'the conflict files: git merge'"'"'s text and markers' '
	unlabel c/conflict >ours.conflict &&
	unlabel h/conflict >git.conflict &&
	test_cmp git.conflict ours.conflict &&
	test_grep "^<<<<<<< ours$" c/conflict &&
	test_grep "^>>>>>>> theirs$" c/conflict &&
	unlabel c/add-both >ours.add &&
	unlabel h/add-both >git.add &&
	test_cmp git.add ours.add &&
	cmp c/both-edit h/both-edit &&
	test "$(cat c/mod-del)" = "mod by ours"
'

test_expect_success 'show-diff shows the unmerged paths as git diff-files' '
	(cd c && show-diff -s >../sd.ours; test $? -le 1) &&
	(cd c && gd diff-files --name-status >../sd.git; test $? -le 1) &&
	test_cmp sd.git sd.ours &&
	test_grep "^U	conflict$" sd.ours
'

# git_merge_index DIR BASE OURS THEIRS: the 2005 way with git's tools;
# the index as git lists it in DIR.ls.
git_merge_index() {
	rm -rf "$1" && mkdir "$1" && cp -R hist/.dircache "$1/" &&
	(cd "$1" && gd checkout -q -f "$3" &&
	 gd read-tree -m -u "$2" "$3" "$4" &&
	 { gd merge-index -o git-merge-one-file -a >/dev/null 2>&1; :; } &&
	 gd ls-files -s) >"$1.ls"
}

# git's merge-one-file takes a path removed on both sides for a mode
# conflict and leaves its stage 1; ours removes it (as git merge does).
test_expect_success 'the same as git read-tree -m -u + git merge-index -o git-merge-one-file -a' '
	git_merge_index gi base ours theirs &&
	grep "	del-both$" gi.ls &&
	grep -v "	del-both$" gi.ls >gi.expect &&
	(cd c && gd ls-files -s) >c.ls &&
	test_cmp gi.expect c.ls
'

test_expect_success 'merge-one-file: a mode conflict is a conflict, named' '
	cd hist &&
	gd checkout -q -b mode-a base && chmod +x same && gd commit -q -a -m a &&
	gd checkout -q -b mode-b base && echo other >same && gd commit -q -a -m b &&
	cd .. &&
	our_merge mc base mode-a mode-b &&
	test "$(cat mc.rc)" != 0 &&
	test_grep "mode conflict in same: 100644->100755,100644" mc.err &&
	(cd mc && gd ls-files -s) >mc.ls &&
	git_merge_index mg base mode-a mode-b &&
	test_cmp mg.ls mc.ls &&
	test "$(cat mc/same)" = other && test -x mc/same
'

test_expect_success 'merge-one-file: binary files are a conflict, ours kept' '
	cd hist &&
	gd checkout -q -b bin-base base && printf "a\0b\n" >bin &&
	gd add bin && gd commit -q -m bb &&
	gd checkout -q -b bin-a bin-base && printf "a\0A\n" >bin &&
	gd commit -q -a -m ba &&
	gd checkout -q -b bin-b bin-base && printf "a\0B\n" >bin &&
	gd commit -q -a -m bb2 &&
	cd .. &&
	our_merge bm bin-base bin-a bin-b &&
	test "$(cat bm.rc)" != 0 &&
	test_grep "binary" bm.err &&
	printf "a\0A\n" >want && cmp want bm/bin &&
	(cd bm && gd ls-files -s) >bm.ls &&
	test "$(grep -c "	bin$" bm.ls)" = 3 &&
	git_merge_index bg bin-base bin-a bin-b &&
	test_cmp bg.ls bm.ls
'

test_done
