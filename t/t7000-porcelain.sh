#!/bin/sh
test_description='dircache front end: init, add, rm, commit, tag, branch against git'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# The same work in ours (d/) and in a git repository (g/), same
# identities and dates: the ids must be equal.
test_expect_success 'setup: the same files in ours and in git' '
	mkdir d g &&
	(cd d && dircache init 2>/dev/null) &&
	git init -q g &&
	for r in d g; do
		mkdir -p $r/dir/sub &&
		echo one >$r/dir/sub/one &&
		echo two >"$r/with space" &&
		printf "nl\n" >"$r/new
line" &&
		echo exe >$r/exe && chmod +x $r/exe &&
		ln -s exe $r/link || return 1
	done
'

test_expect_success 'add walks directories, commit gives git commit id' '
	(cd d && dircache add . && dircache commit -m "first" >../ours) &&
	(cd g && git add . && git commit -q -m first && git rev-parse HEAD) >theirs &&
	test_cmp theirs ours &&
	test "$(cat d/.dircache/refs/heads/master)" = "$(cat ours)" &&
	test "$(cat d/.dircache/HEAD)" = "ref: refs/heads/master" &&
	git_accepts d
'

test_expect_success 'add skips .dircache and .git directories' '
	mkdir -p e/inner/.git e/inner/.dircache &&
	(cd e && dircache init 2>/dev/null) &&
	echo x >e/inner/.git/config && echo y >e/inner/.dircache/HEAD &&
	echo z >e/inner/file && echo w >e/top &&
	(cd e && dircache add .) &&
	git_in e ls-files >list &&
	printf "inner/file\ntop\n" >expect &&
	test_cmp expect list
'

test_expect_success 'commit -a records changes and removals as git commit -a' '
	for r in d g; do
		echo more >>$r/dir/sub/one && rm $r/exe || return 1
	done &&
	(cd g && git commit -q -a -m "second

body line" && git rev-parse HEAD) >theirs &&
	(cd d && dircache commit -a -m second -m "body line" >../ours) &&
	test_cmp theirs ours &&
	git_accepts d
'

test_expect_success 'commit from a subdirectory; add takes paths from there' '
	echo deep >d/dir/sub/two && echo deep >g/dir/sub/two &&
	(cd d/dir/sub && dircache add two && dircache commit -m "third" >../../../ours) &&
	(cd g/dir/sub && git add two && git commit -q -m third && git rev-parse HEAD) >theirs &&
	test_cmp theirs ours
'

test_expect_success 'commit refuses an empty message and an unchanged tree' '
	state=$(repo_state d) &&
	(cd d && test_expect_code 128 dircache commit -m "  " &&
	 test_expect_code 128 dircache commit -m "same tree") &&
	test "$state" = "$(repo_state d)" &&
	(cd d && dircache commit --allow-empty -m "empty" >../ours) &&
	(cd g && git commit -q --allow-empty -m empty && git rev-parse HEAD) >theirs &&
	test_cmp theirs ours
'

test_expect_success 'commit -F: the message cleaned as git cleans it' '
	printf "\n\nsubject  \n\n\n\nbody\t\n\n" >msg &&
	echo f >>d/with\ space && echo f >>g/with\ space &&
	(cd d && dircache commit -a -F ../msg >../ours) &&
	(cd g && git commit -q -a -F ../msg && git rev-parse HEAD) >theirs &&
	test_cmp theirs ours
'

test_expect_success 'tag: lightweight, and -a -m byte-identical to git tag -a' '
	(cd d && dircache tag light && dircache tag -a -m "release one" v1) &&
	(cd g && git tag light && git tag -a -m "release one" v1) &&
	test "$(cat d/.dircache/refs/tags/light)" = "$(git -C g rev-parse light)" &&
	test "$(cat d/.dircache/refs/tags/v1)" = "$(git -C g rev-parse v1)" &&
	(cd d && dircache tag) >ours && git -C g tag >theirs &&
	test_cmp theirs ours &&
	(cd d && test_expect_code 128 dircache tag v1) &&
	git_accepts d
'

test_expect_success 'branch: create and list as git branch' '
	(cd d && dircache branch topic && dircache branch other light) &&
	(cd g && git branch topic && git branch other light) &&
	(cd d && dircache branch) >ours && git -C g branch >theirs &&
	test_cmp theirs ours &&
	(cd d && test_expect_code 128 dircache branch topic) &&
	test "$(cat d/.dircache/refs/heads/other)" = "$(git -C g rev-parse other)"
'

test_expect_success 'rm: refuses a changed file, removes a clean one' '
	echo changed >>d/dir/sub/two &&
	state=$(repo_state d) &&
	(cd d && test_expect_code 128 dircache rm dir/sub/two "with space") &&
	test "$state" = "$(repo_state d)" &&
	(cd d && dircache rm "with space" && test_must_fail test -e "with space" &&
	 dircache rm -f dir/sub/two && dircache commit -m "removed" >../ours) &&
	(cd g && git rm -q "with space" dir/sub/two && git commit -q -m removed &&
	 git rev-parse HEAD) >theirs &&
	test_cmp theirs ours
'

test_expect_success 'git log reads the same history' '
	git_in d log --format="%H %P %s" >ours &&
	git -C g log --format="%H %P %s" >theirs &&
	test_cmp theirs ours &&
	git_accepts d
'

test_expect_success 'help, -h and wrong commands' '
	dircache help >out &&
	test_grep "^pull " out &&
	for c in init add rm commit tag branch remote pull push clone; do
		dircache $c -h >out &&
		test_grep "^usage: dircache $c" out || return 1
	done &&
	test_expect_code 129 dircache no-such-command &&
	test_expect_code 129 dircache "../bin/sh" &&
	test_expect_code 129 dircache
'

test_expect_success 'init --shared: group-writable setgid store, git agrees' '
	mkdir s && (cd s && dircache init --shared 2>/dev/null) &&
	for dir in .dircache .dircache/objects .dircache/objects/00 \
		.dircache/objects/ff .dircache/refs/heads; do
		test "$(stat -c %a s/$dir)" = 2775 || return 1
	done &&
	test "$(git_in s config core.sharedrepository)" = 1 &&
	echo x >s/f && (cd s && dircache add f && dircache commit -m one >/dev/null) &&
	git_accepts s
'

test_expect_success 'init -q says nothing; init <directory> makes it, as git init' '
	mkdir quiet && (cd quiet && dircache init -q) 2>err &&
	! test -s err && test -f quiet/.dircache/HEAD &&
	dircache init -q new/deeper 2>err && ! test -s err &&
	test -f new/deeper/.dircache/HEAD &&
	GIT_DIR=new/deeper/.dircache git fsck --strict 2>/dev/null &&
	dircache init other 2>err && test_grep "initialized empty" err &&
	test -d other/.dircache/objects &&
	test_expect_code 129 dircache init one two 2>/dev/null &&
	! test -e one
'

test_done
