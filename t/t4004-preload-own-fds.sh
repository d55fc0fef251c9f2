#!/bin/sh
test_description='the stat data of a big index, looked at on threads of
their own (each with its own file table, its own directory fds): every
change seen, in nested directories, as git diff-files sees it'
. "$(dirname "$0")/test-lib.sh"

GIT_CEILING_DIRECTORIES=$(dirname "$TRASH_DIRECTORY")
export GIT_CEILING_DIRECTORIES

# 1,600 files (preload_index works on threads from 1,000 entries), in
# directories three deep, so that the threads open and leave many.
test_expect_success 'setup: 1,600 files in nested directories' '
	test_create_repo repo &&
	(cd repo &&
	 i=0 &&
	 while test $i -lt 1600; do
		d=a$((i % 4))/b$((i % 10))/c$((i % 5)) &&
		mkdir -p $d &&
		echo "file $i" >$d/f$i &&
		i=$((i + 1)) || return 1
	 done &&
	 find a? -type f | sort >../files &&
	 update-cache --add --stdin <../files &&
	 sleep 1 && update-cache --refresh)
'

git_diff_files() {
	(cd repo &&
	 { GIT_DIR=.dircache git update-index -q --refresh >/dev/null || :; } &&
	 GIT_DIR=.dircache git diff-files "$@")
}

test_expect_success 'a clean tree: nothing, exit 0' '
	(cd repo && show-diff >../out && show-diff -q) &&
	test ! -s out
'

test_expect_success 'changes everywhere, a directory gone, one a link' '
	(cd repo &&
	 echo more >>a0/b0/c0/f0 &&
	 echo more >>a3/b9/c4/f1599 &&
	 chmod +x a1/b1/c1/f1 &&
	 rm a2/b2/c2/f2 &&
	 touch -d 2001-01-01 a3/b3/c3/f3 &&
	 rm -r a1/b3/c3 &&
	 rm -r a2/b4/c4 && ln -s ../../a0 a2/b4/c4 &&
	 show-diff -s >../ours) &&
	git_diff_files --name-status >theirs &&
	test_cmp theirs ours &&
	test $(wc -l <ours) -gt 100 &&
	(cd repo && show-diff >../ours) &&
	git_diff_files -p >theirs &&
	test_cmp theirs ours
'

test_expect_success 'the link a directory again: as git diff-files says' '
	(cd repo && rm a2/b4/c4 && mkdir a2/b4/c4 &&
	 test_expect_code 1 show-diff -q &&
	 show-diff -s >../ours) &&
	git_diff_files --name-status >theirs &&
	test_cmp theirs ours
'

test_done
