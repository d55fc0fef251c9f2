#!/bin/sh
test_description='ls-files -o: the walk cut into tasks on every core, as git lists it'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=$TRASH_DIRECTORY/store
export GIT_DIR

. "$TEST_DIRECTORY/lib-ls-files.sh"

# 120 small top directories (each its own task: the walk goes parallel
# past 64 tasks) and one big one, cut again into its subdirectories;
# tracked and untracked files at every level, ignore files deep down,
# an untracked directory, a nested repository and an excluded directory.
test_expect_success 'setup: a tree wide enough to be walked in tasks' '
	init-db >/dev/null 2>&1 && mkdir w && cd w &&
	for i in $(seq 120); do
		mkdir -p "d$i/s" &&
		echo "$i" >"d$i/t.c" && echo "$i" >"d$i/s/t.c" &&
		echo "$i" >"d$i/u.o" || return 1
	done &&
	for i in $(seq 40); do
		mkdir -p "big/b$i/deep" &&
		echo "$i" >"big/b$i/t.c" && echo "$i" >"big/b$i/deep/t.h" &&
		echo "$i" >"big/b$i/deep/new.c" || return 1
	done &&
	echo "*.o" >big/b7/.gitignore && echo "new.c" >d5/.gitignore &&
	echo ignored >big/b7/x.o && echo new >d5/s/new.c &&
	mkdir -p untracked/a/b && echo u >untracked/a/b/f &&
	mkdir -p nested/.git/objects nested/.git/refs &&
	echo "ref: refs/heads/main" >nested/.git/HEAD &&
	echo top >top.c &&
	find . -name t.c -o -name t.h | sort | update-cache --add --stdin &&
	test $(ls-files | wc -l) -eq 320
'

test_expect_success 'untracked files of every task, sorted as git sorts them' '
	cd w &&
	same_as_git -o &&
	test $(wc -l <../ours) -gt 160
'

test_expect_success 'excludes from the command line and per directory' '
	cd w &&
	same_as_git -o --exclude="*.o" &&
	same_as_git -o --exclude-per-directory=.gitignore &&
	same_as_git -o -i --exclude-per-directory=.gitignore &&
	same_as_git -o --exclude=big/ --exclude-per-directory=.gitignore &&
	same_as_git -o -i --exclude="b1*" --exclude="*.h"
'

test_expect_success 'with pathspecs' '
	cd w &&
	same_as_git -o big d1 &&
	same_as_git -o "big/b1*" "d2*"
'

test_expect_success 'a directory gone or replaced while listed is not an error' '
	cd w &&
	rm -rf d9 && echo file >d9 &&
	same_as_git -o
'

test_done
