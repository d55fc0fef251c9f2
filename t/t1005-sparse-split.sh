#!/bin/sh
test_description='sparse and split indexes written by git: read, kept, written back'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

test_expect_success 'setup: a sparse index (cone c)' '
	sparse_repo s && cd s
'

test_expect_success 'ls-files lists it whole as git, --sparse as it is' '
	cd s &&
	git ls-files -s >expect && ls-files -s >actual &&
	test_cmp expect actual &&
	git ls-files -t >expect && ls-files -t >actual &&
	test_cmp expect actual &&
	git ls-files --sparse -s >expect && ls-files --sparse -s >actual &&
	test_cmp expect actual
'

test_expect_success 'what is not checked out is neither deleted nor modified' '
	cd s &&
	ls-files -d -m >actual && ! test -s actual &&
	show-diff -s >actual && ! test -s actual &&
	update-cache --refresh &&
	git diff-index HEAD >expect && diff-cache HEAD >actual &&
	test_cmp expect actual
'

test_expect_success 'a change in the cone keeps the index sparse' '
	cd s &&
	echo five >c/h && update-cache c/h &&
	git ls-files --sparse -s >out && test_grep "^040000 .*	a/$" out &&
	grep -q sdir .git/index &&
	git status --porcelain --untracked-files=no >actual &&
	echo "M  c/h" >expect && test_cmp expect actual &&
	write-tree >actual && git write-tree >expect && test_cmp expect actual &&
	git diff-index --cached HEAD >expect &&
	diff-cache --cached HEAD >actual && test_cmp expect actual
'

test_expect_success 'a path inside a sparse directory expands it, as git' '
	cd s &&
	cp .git/index ../sparse &&
	id=$(git hash-object -w top) &&
	git update-index --cacheinfo 100644,$id,a/b/f &&
	git ls-files -s -t >expect &&
	cp ../sparse .git/index &&
	update-cache --cacheinfo 100644 $id a/b/f &&
	git ls-files -s -t >actual && test_cmp expect actual &&
	write-tree >actual && git write-tree >expect && test_cmp expect actual &&
	cp ../sparse .git/index
'

test_expect_success 'checkout-cache refuses a path not checked out, as git' '
	cd s &&
	test_expect_code 1 checkout-cache a/g 2>err &&
	test_grep "a/g. has skip-worktree enabled" err &&
	test_must_fail git checkout-index a/g 2>/dev/null &&
	! test -e a/g &&
	checkout-cache -f c/h
'

test_expect_success 'read-tree -m on a sparse index' '
	cd s &&
	read-tree -m HEAD &&
	git ls-files -s >actual && git ls-tree -r HEAD >tree &&
	test $(wc -l <actual) = $(wc -l <tree) &&
	git ls-files -t >out && test_grep "^S a/g" out
'

test_expect_success 'setup: a split index with replaced, deleted and new entries' '
	git init -q sp && cd sp &&
	for i in 1 2 3 4 5 6; do echo $i >f$i; done &&
	mkdir d && echo x >d/x &&
	git add . && git commit -qm base &&
	git update-index --split-index &&
	echo two >f2 && git update-index f2 &&
	git rm -q --cached f4 &&
	echo n >new && git update-index --add new &&
	grep -q link .git/index && ls .git/sharedindex.* >/dev/null
'

test_expect_success 'a split index reads as git reads it' '
	cd sp &&
	git ls-files -s >expect && ls-files -s >actual &&
	test_cmp expect actual &&
	git ls-files -m >expect && ls-files -m >actual &&
	test_cmp expect actual &&
	write-tree >actual && git write-tree >expect && test_cmp expect actual
'

test_expect_success 'written back split: git sees the same index' '
	cd sp &&
	git ls-files -s >before &&
	echo three >f3 && update-cache f3 &&
	grep -q link .git/index &&
	git ls-files -s >actual &&
	sed "s/^100644 [0-9a-f]* 0	f3$/100644 $(git hash-object f3) 0	f3/" \
		before >expect &&
	test_cmp expect actual &&
	git status --porcelain --untracked-files=no >actual &&
	printf "M  f2\nM  f3\nD  f4\nA  new\n" >expect && test_cmp expect actual &&
	git update-index --split-index && grep -q link .git/index
'

test_expect_success 'a split index whose shared index is gone is refused' '
	cd sp &&
	mkdir ../keep && mv .git/sharedindex.* ../keep/ &&
	test_expect_code 128 ls-files -s 2>err &&
	test_grep "shared index .* is missing" err &&
	mv ../keep/* .git/
'

test_done
