#!/bin/sh
test_description='dircache status and add in one process, against git status and git add'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# git on our repository r (the work tree is r), renames detected as
# git status detects them by default, hints in our words.
git_r() {
	git --git-dir="$TRASH_DIRECTORY/r/.dircache" \
		--work-tree="$TRASH_DIRECTORY/r" "$@"
}

# Our status and git's, run from directory $1, in every form.
status_same() {
	(cd "$1" && dircache status -s) >ours.s &&
	(cd "$1" && git_r status -s) >theirs.s &&
	test_cmp theirs.s ours.s &&
	(cd "$1" && dircache status --porcelain) >ours.p &&
	(cd "$1" && git_r status --porcelain) >theirs.p &&
	test_cmp theirs.p ours.p &&
	(cd "$1" && dircache status -sb) >ours.b &&
	(cd "$1" && git_r status -sb) >theirs.b &&
	test_cmp theirs.b ours.b &&
	(cd "$1" && dircache status) >ours.l &&
	(cd "$1" && git_r status) | sed "s/\"git /\"dircache /g" >theirs.l &&
	test_cmp theirs.l ours.l
}

test_expect_success 'setup: a repository with a commit' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	mkdir -p r/.dircache/info && echo /.dircache >r/.dircache/info/exclude &&
	mkdir -p r/d/e r/f && echo a >r/d/e/a && echo b >r/b && echo c >r/c &&
	echo x >"r/sp ace" && echo k >r/d/keep && echo g >r/f/g &&
	ln -s b r/link && echo "*.o" >r/.gitignore &&
	(cd r && dircache add . && dircache commit -m one >/dev/null)
'

test_expect_success 'a clean tree, as git says it' '
	status_same r &&
	test_grep "^nothing to commit, working tree clean" ours.l
'

test_expect_success 'staged, modified, deleted, untracked, ignored' '
	echo m >>r/b && (cd r && dircache add b) && echo mm >>r/b &&
	rm r/c && echo z >>r/d/e/a && echo y >>"r/sp ace" &&
	echo new >r/newfile && (cd r && dircache add newfile) &&
	echo u >r/top && mkdir -p r/u/v && echo u >r/u/v/x &&
	echo t >r/d/untracked && echo o >r/junk.o && echo o >r/d/e/junk.o &&
	mkdir r/ign && echo i >r/ign/x.o &&
	rm r/link && echo nolink >r/link &&
	status_same r
'

test_expect_success 'from a subdirectory: paths relative to it, as git' '
	status_same r/d &&
	status_same r/d/e &&
	test_grep "^ M a$" ours.s &&
	test_grep "^ M d/e/a$" ours.p
'

test_expect_success 'a tracked file become a directory: not untracked, as git' '
	mkdir fd && (cd fd && dircache init 2>/dev/null) &&
	mkdir -p fd/.dircache/info && echo /.dircache >fd/.dircache/info/exclude &&
	mkdir fd/d && echo b >fd/d/b && echo c >fd/d/c &&
	(cd fd && dircache add . && dircache commit -m one >/dev/null) &&
	rm fd/d/b && mkdir fd/d/b && echo z >fd/d/b/z &&
	(cd fd && dircache status -s) >ours &&
	git --git-dir=fd/.dircache --work-tree=fd status -s >theirs &&
	test_cmp theirs ours
'

test_expect_success 'a staged rename, as git status shows it' '
	(cd r && dircache add -A) &&
	mv r/f/g r/f/h &&
	(cd r && dircache add -A) &&
	status_same r &&
	test_grep "^R  f/g -> f/h$" ours.s &&
	test_grep "renamed:    f/g -> f/h$" ours.l
'

test_expect_success 'status.renames=false: a deletion and an addition' '
	git_r config status.renames false &&
	status_same r &&
	git_r config --unset status.renames &&
	test_grep "^D  f/g$" ours.s &&
	test_grep "^A  f/h$" ours.s
'

test_expect_success 'the cache tree status records is the index'"'"'s tree' '
	(cd r && dircache commit -m two >/dev/null) &&
	(cd r && dircache status >/dev/null) &&
	git_r ls-files -s >entries &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/fresh" git_r update-index \
		--index-info <entries &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/fresh" git_r write-tree >expect &&
	cp r/.dircache/index idx &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/idx" git_r write-tree >actual &&
	test_cmp expect actual &&
	git_r rev-parse HEAD^{tree} >head &&
	test_cmp head actual &&
	echo more >>r/d/e/a && (cd r && dircache add d/e/a) &&
	git_r ls-files -s >entries &&
	rm fresh &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/fresh" git_r update-index \
		--index-info <entries &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/fresh" git_r write-tree >expect &&
	cp r/.dircache/index idx &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/idx" git_r write-tree >actual &&
	test_cmp expect actual &&
	status_same r
'

test_expect_success 'add refuses an ignored path named, adds the others' '
	echo n >r/named &&
	(cd r && test_expect_code 1 dircache add named junk.o 2>../err) &&
	test_grep "^The following paths are ignored by one of your .gitignore files:$" err &&
	test_grep "^junk.o$" err &&
	test_grep "^hint: Use -f if you really want to add them.$" err &&
	git_r ls-files >list &&
	test_grep "^named$" list &&
	test_must_fail grep "junk.o" list &&
	(cd r && dircache add -f junk.o) &&
	git_r ls-files >list &&
	test_grep "^junk.o$" list
'

test_expect_success 'add . leaves ignored files out, as git add .' '
	cp -R r g && rm -rf g/.dircache && git init -q g &&
	(cd g && git add -f junk.o && git add -A . && git ls-files -s) >expect &&
	(cd r && dircache add .) &&
	git_r ls-files -s >actual &&
	test_cmp expect actual
'

test_expect_success 'core.excludesFile and info/exclude, as git reads them' '
	echo "*.tmp" >"$TRASH_DIRECTORY/user-ignore" &&
	git_r config core.excludesFile "$TRASH_DIRECTORY/user-ignore" &&
	echo "*.bak" >>r/.dircache/info/exclude &&
	echo t >r/x.tmp && echo b >r/x.bak && echo k >r/x.keep &&
	status_same r &&
	test_must_fail grep "x.tmp\|x.bak" ours.s &&
	(cd r && dircache add .) &&
	git_r ls-files >list &&
	test_grep "^x.keep$" list &&
	test_must_fail grep "x.tmp\|x.bak" list
'

test_expect_success 'add of a pathspec that matches nothing changes nothing' '
	cp r/.dircache/index before &&
	echo q >>r/b &&
	(cd r && test_expect_code 128 dircache add b nosuch 2>err) &&
	test_grep "did not match any files" r/err && rm r/err &&
	cmp before r/.dircache/index
'

test_expect_success 'add -u stages changes and removals, adds nothing new' '
	echo w >r/brand-new && rm r/d/keep &&
	(cd r && dircache add -u) &&
	git_r status --porcelain --no-renames >st &&
	test_grep "^M  b$" st &&
	test_grep "^D  d/keep$" st &&
	test_grep "^?? brand-new$" st
'

test_expect_success 'add . in a subdirectory: only below it' '
	echo s >r/d/sub-new && echo s >r/top-new &&
	(cd r/d && dircache add .) &&
	git_r status --porcelain >st &&
	test_grep "^A  d/sub-new$" st &&
	test_grep "^?? top-new$" st &&
	(cd r/d && dircache add ../top-new) &&
	git_r status --porcelain >st &&
	test_grep "^A  top-new$" st
'

test_expect_success 'add with nothing changed hashes nothing, writes no index' '
	(cd r && dircache add -A && dircache commit -m three >/dev/null) &&
	find r -path r/.dircache -prune -o -type f -print |
		while read -r f; do touch -d @1000000000 "$f" || exit 1; done &&
	(cd r && dircache add -A) &&
	cp r/.dircache/index before &&
	(cd r && DIRCACHE_TEST_HASH_LOG="$TRASH_DIRECTORY/hashed" dircache add .) &&
	test_must_fail test -s hashed &&
	cmp before r/.dircache/index &&
	echo change >>r/b && touch -d @1000000001 r/b &&
	(cd r && DIRCACHE_TEST_HASH_LOG="$TRASH_DIRECTORY/hashed" dircache add .) &&
	echo b >expect &&
	test_cmp expect hashed
'

test_expect_success 'status hashes only what stat says may have changed' '
	(cd r && dircache commit -m four >/dev/null) &&
	touch -d @1000000002 r/d/e/a &&
	(cd r && DIRCACHE_TEST_HASH_LOG="$TRASH_DIRECTORY/st-hashed" dircache status -s) >out &&
	test_must_fail test -s out &&
	echo d/e/a >expect &&
	test_cmp expect st-hashed &&
	(cd r && DIRCACHE_TEST_HASH_LOG="$TRASH_DIRECTORY/st-hashed2" dircache status -s) &&
	test_must_fail test -s st-hashed2
'

test_expect_success 'a big add stores one pack, the index git add makes' '
	mkdir big && (cd big && dircache init 2>/dev/null) &&
	mkdir -p big/.dircache/info && echo /.dircache >big/.dircache/info/exclude &&
	mkdir big/d &&
	for i in $(seq 1 1100); do echo $i >big/d/$i || return 1; done &&
	(cd big && dircache add .) &&
	test $(ls big/.dircache/objects/pack/*.pack | wc -l) = 1 &&
	git --git-dir=big/.dircache fsck --strict 2>/dev/null &&
	git --git-dir=big/.dircache ls-files -s >actual &&
	cp -R big gbig && rm -rf gbig/.dircache && git init -q gbig &&
	(cd gbig && git add . && git ls-files -s) >expect &&
	test_cmp expect actual
'

test_expect_success 'a merge in progress: named, with what to run next' '
	mkdir m && (cd m && dircache init 2>/dev/null) &&
	printf "1\n2\n3\n" >m/both && echo gone >m/gone && echo k >m/keep &&
	(cd m && dircache add . && dircache commit -m base >/dev/null) &&
	dircache clone m n 2>/dev/null &&
	(cd m && printf "1\nm\n3\n" >both && echo m2 >>gone &&
	 dircache add . && dircache commit -m m >/dev/null) &&
	(cd n && printf "1\nn\n3\n" >both && dircache rm gone &&
	 dircache add both && dircache commit -m n >/dev/null) &&
	(cd n && test_expect_code 1 dircache pull origin >/dev/null 2>&1) &&
	test -f n/.dircache/MERGE_HEAD &&
	rm -rf r && mv n r &&
	mkdir -p r/.dircache/info && echo /.dircache >r/.dircache/info/exclude &&
	status_same r &&
	test_grep "^You have unmerged paths.$" ours.l &&
	test_grep "dircache merge --abort" ours.l &&
	test_grep "deleted by us:" ours.l &&
	printf "1\nboth\n3\n" >r/both && (cd r && dircache add both && dircache rm gone) &&
	status_same r &&
	test_grep "^All conflicts fixed but you are still merging.$" ours.l
'

test_expect_success 'an applymbox run stopped: named, with what to run next' '
	cat >bad.mbox <<-\EOF &&
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.com>
	Date: Thu, 7 Apr 2005 15:13:13 -0700
	Subject: [PATCH] change a file that is not there

	---
	diff --git a/nosuch b/nosuch
	--- a/nosuch
	+++ b/nosuch
	@@ -1 +1 @@
	-x
	+y
	EOF
	(cd m && test_expect_code 1 applymbox ../bad.mbox >/dev/null 2>&1) &&
	(cd m && dircache status) >out &&
	test_grep "^You are in the middle of an applymbox run.$" out &&
	test_grep "applymbox --continue" out &&
	test_grep "applymbox --skip" out &&
	test_grep "applymbox --abort" out &&
	(cd m && dircache status -s) >out &&
	test_must_fail test -s out
'

test_expect_success 'add: a path beyond a symbolic link is refused, as git refuses it' '
	mkdir sy && (cd sy && dircache init 2>/dev/null) &&
	mkdir sy/d && echo x >sy/d/f && ln -s d sy/l &&
	(cd sy && test_expect_code 128 dircache add l/f 2>../ours.err) &&
	grep "pathspec .l/f. is beyond a symbolic link" ours.err &&
	(cd sy && ls-files >../ours.ls) && ! test -s ours.ls &&
	mkdir gy && (cd gy && git init -q && mkdir d && echo x >d/f &&
		ln -s d l && test_expect_code 128 git add l/f 2>../git.err) &&
	grep "pathspec .l/f. is beyond a symbolic link" git.err
'

test_done
