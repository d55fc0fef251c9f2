#!/bin/sh
test_description='checkout-cache: new files made and linked in their open directory'
. "$(dirname "$0")/test-lib.sh"

# The files of one directory are written together: the directory is
# opened once and each new file made (O_TMPFILE) and linked relative
# to it, not by a path walked again for each.  The result is git's.

test_expect_success 'setup: files at the top, in deep and in many directories' '
	init-db 2>/dev/null &&
	mkdir -p a/b/c d &&
	for i in 1 2 3 4 5 6; do
		echo $i >top$i && echo b$i >a/b/c/f$i && echo d$i >d/g$i ||
		return 1
	done &&
	echo run >a/b/exe && chmod +x a/b/exe &&
	find . -path ./.dircache -prune -o -type f -print | sed "s|^\./||" |
		sort >list &&
	update-cache --add $(cat list) &&
	git init -q && git add $(cat list)
'

test_expect_success 'into an empty directory: the same files and modes as git' '
	mkdir ours && (cd ours && GIT_INDEX_FILE=../.dircache/index \
		SHA1_FILE_DIRECTORY=../.dircache/objects checkout-cache -a) &&
	mkdir theirs && GIT_WORK_TREE=theirs git checkout-index -a &&
	(cd ours && find . -type f -exec ls -l {} + |
		awk "{ print \$1, \$5, \$NF }" | sort) >got &&
	(cd theirs && find . -type f -exec ls -l {} + |
		awk "{ print \$1, \$5, \$NF }" | sort) >want &&
	test_cmp want got &&
	diff -r ours theirs
'

# Only the directories are opened by path; every file is made in "."
# of a directory's fd (or of the work tree's top) and linked by its
# own name alone.
test_expect_success STRACE 'no path walked for each file' '
	rm -rf ours && mkdir ours && (cd ours &&
		checkout_traced openat,open,linkat -a) &&
	diff -r ours theirs &&
	grep "O_TMPFILE" trace >tmpfiles &&
	test $(wc -l <tmpfiles) = $(wc -l <list) &&
	! grep -v "openat([0-9A-Z_]*, \".\"," tmpfiles &&
	grep "linkat(" trace >links &&
	test $(wc -l <links) = $(wc -l <list) &&
	! grep "linkat([^)]*/" links &&
	grep "O_PATH|O_DIRECTORY" trace | grep -vc "objects/" >dirs &&
	sed -n "s|/[^/]*\$||p" list | sort -u | wc -l >want-dirs &&
	test $(cat want-dirs) -ge 3 &&
	test $(cat dirs) = $(cat want-dirs)
'

test_expect_success 'with a prefix, the same' '
	(GIT_INDEX_FILE=.dircache/index \
		SHA1_FILE_DIRECTORY=.dircache/objects \
		checkout-cache -a --prefix=exp/ &&
	 GIT_INDEX_FILE=.dircache/index \
		SHA1_FILE_DIRECTORY=.dircache/objects \
		checkout-cache -a --prefix=pre-) &&
	diff -r exp theirs &&
	for f in $(cat list); do
		cmp $f pre-$f || return 1
	done
'

test_done
