#!/bin/sh
test_description='ls-files -o in directories bigger than one read of them'
. "$(dirname "$0")/test-lib.sh"

# dir.c reads a directory 32 KiB of entries at a time (getdents64 on
# Linux): directories of 3,000 long names take several reads, and a
# refill must neither lose nor repeat a name.  git is the oracle.

if ! test_have_prereq GIT; then
	echo "1..0 # SKIP git is needed as the oracle"
	exit 0
fi

long=abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz

test_expect_success 'setup: two big directories, some files indexed' '
	test_create_repo repo &&
	cd repo &&
	mkdir -p big/inner other &&
	i=0 &&
	while test $i -lt 3000; do
		: >big/$long-$i &&
		i=$((i + 1))
	done &&
	i=0 &&
	while test $i -lt 1500; do
		: >big/inner/$long$long-$i &&
		: >other/f$i &&
		i=$((i + 1))
	done &&
	ls big | sed -n "1~7p" | sed "s|^|big/|" | grep -v "/inner$" >../add &&
	update-cache --add --stdin <../add &&
	git init -q &&
	git update-index --add --stdin <../add &&
	test $(wc -l <../add) -gt 400
'

test_expect_success 'every untracked name once, in git'"'"'s order' '
	cd repo &&
	git ls-files -o --exclude=.dircache/ >../expect &&
	ls-files -o --exclude=.dircache/ >../actual &&
	cd .. &&
	test_cmp expect actual &&
	test $(wc -l <actual) = $((3000 + 1500 + 1500 - $(wc -l <add))) &&
	test $(sort actual | uniq -d | wc -l) = 0
'

test_expect_success 'the same below a path' '
	cd repo &&
	git ls-files -o --exclude=.dircache/ big/inner >../expect &&
	ls-files -o --exclude=.dircache/ big/inner >../actual &&
	cd .. &&
	test_cmp expect actual &&
	test $(wc -l <actual) = 1500
'

test_done
