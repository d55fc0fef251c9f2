#!/bin/sh
test_description='the untracked cache (UNTR) is written back as it was read while no path comes or goes'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

# The UNTR extension's bytes (hex, to the checksum), or nothing.
untr_ext() {
	od -A n -v -t x1 .git/index | tr -d " \n" |
	sed -n "s/.*\(554e5452.*\)/\1/p" | sed "s/.\{$OID_HEXSZ\}\$//"
}

test_expect_success 'setup: git status fills the untracked cache' '
	git init -q r && cd r &&
	git config core.untrackedCache true &&
	mkdir -p a/b c && echo 1 >a/b/f && echo 2 >c/g && echo 3 >top &&
	echo junk >a/untracked && echo junk >c/untracked &&
	git add a/b/f c/g top && git commit -qm base &&
	git status --porcelain >../expect-status &&
	git status --porcelain >/dev/null &&
	test -n "$(untr_ext)" && untr_ext >../untr-before
'

test_expect_success 'update-cache of a changed file keeps it byte for byte' '
	cd r && echo changed >top && update-cache top &&
	untr_ext >../untr-after &&
	test_cmp ../untr-before ../untr-after &&
	git status --porcelain >../actual &&
	{ echo "M  top" && cat ../expect-status; } >../expect &&
	test_cmp ../expect ../actual
'

test_expect_success 'git status still sees a new untracked file' '
	cd r && echo new >a/b/new &&
	git status --porcelain >../actual &&
	grep "^?? a/b/new" ../actual && rm a/b/new
'

test_expect_success 'a path added: the cache is dropped, git status right' '
	cd r && update-cache --add a/untracked &&
	test -z "$(untr_ext)" &&
	git status --porcelain >../actual &&
	grep "^A  a/untracked" ../actual && ! grep "?? a/untracked" ../actual &&
	grep "^?? c/untracked" ../actual
'

test_done
