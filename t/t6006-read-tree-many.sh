#!/bin/sh
test_description='read-tree -m -u on trees of thousands of files, against git'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-merge.sh"

# make_files DIR SEED: 2000 files in 30 directories; SEED changes a
# third of them, drops some and adds others, so that trees differ.
make_files() {
	python3 - "$1" "$2" <<-\EOF
	import os, sys
	top, seed = sys.argv[1], int(sys.argv[2])
	for i in range(2000):
	    if seed and i % 97 == seed:
	        continue
	    d = os.path.join(top, "d%02d" % (i % 30), "s%d" % (i % 7))
	    os.makedirs(d, exist_ok=True)
	    text = "file %d\n" % i
	    if seed and i % 3 == seed % 3:
	        text += "changed by %d\n" % seed
	    with open(os.path.join(d, "f%d" % i), "w") as f:
	        f.write(text)
	    if i % 100 == 0:
	        os.chmod(os.path.join(d, "f%d" % i), 0o755 if seed % 2 else 0o644)
	if seed:
	    with open(os.path.join(top, "added-%d" % seed), "w") as f:
	        f.write("new\n")
	EOF
}

# tree_of SEED: the tree of make_files SEED, written by git.
tree_of() {
	rm -rf "$TRASH_DIRECTORY/gen" && mkdir "$TRASH_DIRECTORY/gen" &&
	make_files "$TRASH_DIRECTORY/gen" "$1" &&
	(cd "$TRASH_DIRECTORY/gen" &&
	 GIT_DIR="$TRASH_DIRECTORY/repo/.dircache" GIT_INDEX_FILE="$TRASH_DIRECTORY/gen.idx" \
		git add -A &&
	 GIT_DIR="$TRASH_DIRECTORY/repo/.dircache" GIT_INDEX_FILE="$TRASH_DIRECTORY/gen.idx" \
		git write-tree) &&
	rm -f "$TRASH_DIRECTORY/gen.idx"
}

test_expect_success 'setup: three trees of 2000 files' '
	setup_store &&
	tree_of 0 >T0 && tree_of 1 >T1 && tree_of 2 >T2 &&
	test "$(cd repo && gd ls-tree -r $(cat ../T0) | wc -l)" = 2000
'

test_expect_success 'two trees: the work tree moves from old to new as git moves it' '
	start "$(cat T0)" &&
	run_both -m -u -- "$(cat T0)" "$(cat T1)" &&
	same_as_git ok &&
	(cd ours && show-diff >../sd && gd diff-files --quiet) &&
	test ! -s sd
'

test_expect_success 'two trees with local changes carried: as git' '
	start "$(cat T0)" "echo local >>d05/s5/f5 && echo local >>d02/s2/f2" &&
	run_both -m -u -- "$(cat T0)" "$(cat T1)" &&
	same_as_git ok
'

test_expect_success 'two trees with a local change in the way: refused, nothing written' '
	start "$(cat T0)" "echo local >>d01/s1/f1 && echo local >>d04/s4/f4" &&
	run_both -m -u -- "$(cat T0)" "$(cat T1)" &&
	same_as_git fail &&
	test_grep "d01/s1/f1" ours.err && test_grep "d04/s4/f4" ours.err
'

test_expect_success 'three trees: the stages and the work tree as git' '
	start "$(cat T1)" &&
	run_both -m -u -- "$(cat T0)" "$(cat T1)" "$(cat T2)" &&
	same_as_git ok &&
	grep -q " 1	" ours.ls && grep -q " 3	" ours.ls
'

test_expect_success 'a file -u cannot write: named, the rest written, exit 128' '
	rm -rf fz && mkdir fz && cd fz && init-db 2>/dev/null &&
	echo a >a && echo b >b && update-cache --add a b &&
	t1=$(write-tree) &&
	head -c 300000 /dev/urandom >big && echo c >c && echo b2 >b &&
	update-cache --add big c b && t2=$(write-tree) &&
	read-tree $t1 && rm -f big c && checkout-cache -f -a &&
	update-cache --refresh &&
	(
		trap "" XFSZ &&
		ulimit -f 100 &&
		test_expect_code 128 read-tree -m -u $t1 $t2 2>../fz.err
	) &&
	test_grep "big" ../fz.err &&
	test_grep "1 file not updated; the index has the new entries" ../fz.err &&
	test "$(write-tree)" = "$t2" &&
	echo c >expect && test_cmp expect c &&
	echo b2 >expect && test_cmp expect b &&
	ls -A >../fz.ls && printf "%s\n" .dircache a b c expect >../expect &&
	test_cmp ../expect ../fz.ls &&
	{ show-diff >../fz.diff 2>&1 || :; } && test_grep big ../fz.diff &&
	checkout-cache -f -a && show-diff >../fz.diff && test ! -s ../fz.diff
'

test_done
