#!/bin/sh
test_description='ls-files: git exclude rules and globs, compared with git'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=$TRASH_DIRECTORY/store
export GIT_DIR

. "$TEST_DIRECTORY/lib-ls-files.sh"

# Every listing that exclusion changes, for one set of exclude options.
all_same_as_git() {
	same_as_git -o "$@" &&
	same_as_git -o -i "$@" &&
	same_as_git -c -i "$@" &&
	same_as_git -t -o -c -i "$@"
}

test_expect_success 'setup: a tree of names for patterns to catch' '
	init-db >/dev/null 2>&1 && mkdir w && cd w &&
	for d in . a a/b a/b/c b doc doc/sub "sp ace" build logs logs/keep x.d; do
		mkdir -p "$d" &&
		for f in f.c f.o f.log README "-dash" "#hash" "!bang" "t r" \
			"back\\slash" "[br]" "star*" "q?" "$(printf "\303\251")" \
			Makefile a.c.orig; do
			echo "$d/$f" >"$d/$f" || return 1
		done
	done &&
	ln -s a link && ln -s nowhere dangling &&
	update-cache --add a/f.c a/b/f.o doc/README b/f.log Makefile "t r" link
'

for p in "*.o" "*.c" "f.*" "a" "a/" "/a" "/a/" "a/b" "a/b/" "b" "b/" "*/f.c" \
	"a/*/f.c" "a/**" "**/f.c" "a/**/f.c" "**/b" "**/b/" "**" "*" \
	"a**" "**a" "a/**/c/**" "doc/**/README" "*.[oc]" "*.[!o]" "*.[^o]" \
	"f.[a-d]" "[[:upper:]]*" "[[:punct:]]*" "[[:space:]]*" "[[:alpha:]].c" \
	"[[:bogus:]]*" "[abc" "\\#hash" "\\!bang" "#hash" "!bang" "star\\*" \
	"q\\?" "q?" "t\\ r" "?" "??" "?.c" "*/" "x.d" "link" "link/" "dangling" \
	"$(printf "\303\251")" "*.c.orig" "back\\\\slash" "[br]" "\\[br]" \
	"[]]" "[!]]*" "[a-]*" "-dash" "sp ace/" "sp*/f.c"
do
	test_expect_success "--exclude='$p' matches git" "
		cd w &&
		all_same_as_git --exclude='$p'
	"
done

test_expect_success 'negation: the last matching pattern wins' '
	cd w &&
	all_same_as_git --exclude="*.c" --exclude="!a/*.c" &&
	all_same_as_git --exclude="!a/*.c" --exclude="*.c" &&
	all_same_as_git --exclude="a/" --exclude="!a/f.c" &&
	all_same_as_git --exclude="*" --exclude="!*/" --exclude="!*.c"
'

test_expect_success 'per-directory files, at every depth' '
	cd w &&
	printf "*.o\n# a comment\n!a/b/f.o\nlogs/\n/x.d\nsp ace/  \n\n\\\\#hash\n" >.ignore &&
	printf "*.log\n!f.c\nc/\n/README\n" >a/.ignore &&
	printf "!*.log\nf.*\n" >a/b/.ignore &&
	printf "!f.o\r\n*.orig \\ \n" >doc/.ignore &&
	printf "f.c\n" >logs/.ignore &&
	all_same_as_git --exclude-per-directory=.ignore &&
	all_same_as_git --exclude-per-directory=.ignore --exclude="!f.log" &&
	all_same_as_git --exclude-per-directory=.ignore -- a doc &&
	all_same_as_git --exclude-per-directory=nothere
'

test_expect_success 'a symlinked per-directory file is not followed' '
	cd w &&
	printf "f.c\n" >../real-ignore &&
	ln -s ../../real-ignore b/.ignore &&
	ls-files -o --exclude-per-directory=.ignore >../ours 2>../err &&
	git ls-files -o --exclude-per-directory=.ignore >../theirs 2>/dev/null &&
	rm b/.ignore &&
	test_cmp ../theirs ../ours &&
	test_grep "b/.ignore" ../err &&
	test_grep "^b/f.c$" ../ours
'

test_expect_success '--exclude-from files: the later file first' '
	cd w &&
	printf "*.c\n" >../one && printf "!a/*.c\n" >../two &&
	printf "\357\273\277*.o\n" >../bom &&
	all_same_as_git --exclude-from=../one --exclude-from=../two &&
	all_same_as_git --exclude-from=../two --exclude-from=../one &&
	all_same_as_git --exclude-from=../bom &&
	all_same_as_git --exclude-from=../two --exclude="*.c" \
		--exclude-per-directory=.ignore
'

test_expect_success 'groups: --exclude before per-directory before files' '
	cd w &&
	printf "!*.c\n" >../neg &&
	all_same_as_git --exclude="*.c" --exclude-from=../neg &&
	all_same_as_git --exclude="!*.o" --exclude-per-directory=.ignore &&
	all_same_as_git --exclude-from=../neg --exclude-per-directory=.ignore
'

test_done
