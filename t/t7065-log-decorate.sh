#!/bin/sh
test_description='dircache log and show: branch and tag names after the id, as git log --decorate'
. "$(dirname "$0")/test-lib.sh"

unset NO_COLOR PAGER DIRCACHE_PAGER

# git log and ours with the same arguments, byte for byte.
same_log() {
	git -c diff.renames=false log "$@" >expect &&
	dircache log "$@" >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: branches, tags, remotes, a stash, other refs' '
	git init -q r && cd r &&
	echo a >a && git add a && git commit -q -m one &&
	git tag v1 && git tag -a -m "annotated" v2 && git tag -a -m "on a tag" v3 v2 &&
	git branch feat && git branch zz &&
	git update-ref refs/remotes/origin/master HEAD &&
	git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/master &&
	git update-ref refs/other/x HEAD && git update-ref refs/bisect/bad HEAD &&
	echo b >>a && git commit -q -a -m two &&
	echo c >>a && git stash -q && git checkout -q -b side &&
	echo s >s && git add s && git commit -q -m side &&
	git checkout -q master
'

test_expect_success '--decorate: long and --oneline forms, plain and in colour' '
	cd r &&
	for f in "" --oneline --color --color=always "--oneline --color" \
		 "-n 1" "side" "side master"; do
		same_log --decorate $f || return 1
	done
'

test_expect_success '--decorate=full and --decorate=short' '
	cd r && same_log --decorate=full && same_log --decorate=full --oneline &&
	same_log --decorate=short --oneline
'

test_expect_success 'a detached HEAD is "HEAD", apart from the branch' '
	cd r && git checkout -q --detach &&
	same_log --decorate --oneline && same_log --decorate --color --oneline &&
	git checkout -q HEAD~1 && same_log --decorate --oneline &&
	git checkout -q master
'

test_expect_success 'no decorations into a pipe, with --no-decorate, or log.decorate=false' '
	cd r && git log --no-decorate --oneline >expect &&
	dircache log --oneline >actual && test_cmp expect actual &&
	dircache log --decorate --no-decorate --oneline >actual &&
	test_cmp expect actual &&
	git config log.decorate false &&
	dircache log --oneline >actual && test_cmp expect actual &&
	git config log.decorate full && same_log --oneline &&
	git config log.decorate short && same_log --oneline &&
	git config --unset log.decorate
'

test_expect_success 'dircache show decorates as git show' '
	cd r && git show --decorate --oneline side >expect &&
	dircache show --decorate --oneline side >actual && test_cmp expect actual &&
	git show --decorate --stat HEAD >expect &&
	dircache show --decorate --stat HEAD >actual && test_cmp expect actual
'

test_expect_success 'a bad --decorate value is usage' '
	cd r && test_expect_code 129 dircache log --decorate=sometimes &&
	test_expect_code 129 log-tree --decorate=sometimes
'

if command -v script >/dev/null 2>&1; then
# CMD run on a pseudo-terminal (script from util-linux).
on_tty() {
	script -qec "$1" /dev/null </dev/null | tr -d '\r'
}

test_expect_success 'on a terminal, and into the pager there: decorated' '
	cd r && git log --decorate --oneline --color >expect &&
	PAGER=cat on_tty "dircache log --oneline" >actual &&
	test_cmp expect actual &&
	DIRCACHE_PAGER="sed s/^/P:/" on_tty "dircache log --oneline" >actual &&
	sed s/^/P:/ expect >expect.paged && test_cmp expect.paged actual &&
	git log --decorate --oneline >expect &&
	NO_COLOR=1 PAGER=cat on_tty "dircache log --oneline" >actual &&
	test_cmp expect actual
'
fi

test_done
