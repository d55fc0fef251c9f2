#!/bin/sh
test_description='update-cache --add of many paths: D/F refusals and order, as git'
. "$(dirname "$0")/test-lib.sh"

# The paths of one update-cache are merged into the index at once; a
# list that comes sorted is not sorted again, and the files above a
# path are looked up once a directory.  Each path must still be
# refused when a file of the index is one of its directories, or it is
# a file where the index has entries below it, whichever path of a
# directory it is; and any order of the list gives the same index.

test_expect_success 'setup: an index with files at several depths' '
	init-db 2>/dev/null &&
	mkdir -p a/b e/x m && echo 1 >a/b/f && echo 2 >d && echo 3 >e/x/z &&
	echo 4 >m/n && echo 5 >top &&
	update-cache --add a/b/f d e/x/z m/n top &&
	cp .dircache/index base
'

test_expect_success 'a sorted and a shuffled list give git'"'"'s index' '
	mkdir -p a/c && for f in a/b/g a/b/h a/c/i a/j b1 b2; do
		echo $f >$f || return 1
	done &&
	printf "%s\n" a/b/g a/b/h a/c/i a/j b1 b2 >sorted &&
	printf "%s\n" b2 a/c/i a/b/h b1 a/j a/b/g >shuffled &&
	update-cache --add --stdin <sorted && ls-files --stage >one &&
	cp base .dircache/index &&
	update-cache --add --stdin <shuffled && ls-files --stage >two &&
	test_cmp one two &&
	git init -q g && git --git-dir=g/.git --work-tree=. \
		update-index --add a/b/f d e/x/z m/n top &&
	git --git-dir=g/.git --work-tree=. update-index --add \
		--stdin <sorted &&
	git --git-dir=g/.git ls-files -s >expect &&
	test_cmp expect two
'

refused() {
	cp base .dircache/index &&
	test_must_fail update-cache --add --stdin <list 2>err &&
	test_grep "'$1' appears as both a file and as a directory" err &&
	cmp base .dircache/index
}

test_expect_success 'a file of the index as the directory of the second path of a list' '
	rm d && mkdir d && echo 6 >d/1 && echo 7 >d/2 && mkdir -p c &&
	echo 8 >c/1 && echo 9 >c/2 &&
	printf "%s\n" c/1 c/2 d/1 d/2 >list &&
	refused d/1
'

test_expect_success 'a deeper file of the index, after a path of its parent directory' '
	rm m/n && mkdir m/n && echo 10 >m/n/x && echo 11 >m/a &&
	printf "%s\n" m/a m/n/x >list &&
	refused m/n/x
'

test_expect_success 'a file where the index has entries below it' '
	mv e/x e/x.dir && echo 12 >e/x && echo 13 >e/w &&
	printf "%s\n" e/w e/x >list &&
	refused e/x
'

# A file now where the index has a directory: its entries' paths end in
# ENOTDIR, gone as git sees them (not "beyond a symbolic link"), so
# --remove drops them and the file goes in, as git update-index does.
test_expect_success 'a file in place of a directory: its entries removed, the file added' '
	rm -rf fd && mkdir fd && init-db 2>/dev/null &&
	mkdir -p fd/a/b && echo 1 >fd/a/b/c && echo 2 >fd/a/d &&
	update-cache --add fd/a/b/c fd/a/d &&
	cp .dircache/index fd-base &&
	rm -r fd/a/b && echo file >fd/a/b &&
	test_must_fail update-cache --add fd/a/b/c 2>err &&
	test_grep "does not exist and --remove not passed" err &&
	update-cache --add --remove fd/a/b/c fd/a/b &&
	cp fd-base fd-git.index &&
	GIT_INDEX_FILE=fd-git.index git --git-dir=.dircache \
		update-index --add --remove fd/a/b/c fd/a/b &&
	GIT_INDEX_FILE=fd-git.index git --git-dir=.dircache ls-files -s >expect &&
	git --git-dir=.dircache ls-files -s >actual &&
	test_cmp expect actual &&
	grep "fd/a/b\$" actual
'

test_expect_success SYMLINKS 'a symlink in place of a directory is still refused' '
	rm -rf fd/a/b && mkdir fd/real && echo 3 >fd/real/c &&
	ln -s ../real fd/a/b && test -f fd/a/b/c &&
	cp fd-base .dircache/index &&
	test_must_fail update-cache --add --remove fd/a/b/c 2>err &&
	test_grep "beyond a symbolic link" err &&
	cmp fd-base .dircache/index
'

test_done
