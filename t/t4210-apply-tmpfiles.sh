#!/bin/sh
test_description='apply: new contents wait in temporary files until the whole set applies'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-apply.sh"

# In the work tree alone, apply writes each new content to a temporary
# file as soon as the check has made it, and renames them all once the
# whole set has applied.  These cases are the ones that plan has to get
# right: a later patch of the set that takes up a path an earlier one
# wrote (read back from its temporary file), new files in directories
# that do not exist yet, a file that takes the place of a directory,
# and failures after temporary files were written, which must leave
# none behind.
#
# The oracle for a series in one input is the tree git committed, not
# git apply: git 2.39 takes the source of a rename or copy from the
# tree as it was before the set, not as earlier patches of the set left
# it (so it keeps "text" and loses the first change of "copied-text").

test_expect_success 'setup' '
	apply_setup &&
	(
		cd src &&
		git checkout -q -b series A &&
		sed -i "s/^line 20$/twenty/" text &&
		mkdir -p new/deep/er && echo "#!/bin/sh" >new/deep/er/run &&
		chmod +x new/deep/er/run &&
		git add -A && git commit -q -m one &&
		sed -i "s/^line 80$/eighty/" text &&
		git mv text moved-text &&
		echo more >>new/deep/er/run &&
		cp moved-text copied-text &&
		git add -A && git commit -q -m two &&
		git rm -q dir/sub/deep &&
		mkdir -p dir && echo "a file now" >dir/sub &&
		git add -A && git commit -q -m three &&
		git checkout -q -b copies A &&
		sed -i "s/^line 20$/twenty/" text &&
		git commit -q -a -m c1 &&
		sed "s/^line 70$/seventy/" text >text-copy &&
		git add -A && git commit -q -m c2 &&
		sed -i "s/^line 90$/ninety/" text &&
		git commit -q -a -m c3 &&
		git checkout -q A
	) &&
	{
		git -C src diff A series~2 &&
		git -C src diff -M series~2 series~1 &&
		git -C src diff series~1 series
	} >series.patch &&
	{
		git -C src diff A copies~2 &&
		git -C src diff -C -C copies~2 copies~1 &&
		git -C src diff copies~1 copies
	} >copy.patch &&
	test_grep "^copy from text" copy.patch &&
	git -C base fetch -q origin
'

no_tmp_left() {
	find "$1" -name ".apply-*" >left &&
	! test -s left
}

test_expect_success 'a series in one input: later patches take up earlier ones' '
	pair &&
	(cd ours && apply ../series.patch) &&
	no_tmp_left ours &&
	test -x ours/new/deep/er/run &&
	tree_of ours >got &&
	git -C src rev-parse series^{tree} >want &&
	test_cmp want got
'

test_expect_success '-R of the series: the same, from the other end' '
	pair origin/series &&
	(cd ours && apply -R ../series.patch) &&
	no_tmp_left ours &&
	! test -e ours/new &&
	tree_of ours >got &&
	git -C src rev-parse A^{tree} >want &&
	test_cmp want got
'

test_expect_success 'a copy of a file the set changed, then changed again' '
	pair &&
	(cd ours && apply ../copy.patch) &&
	no_tmp_left ours &&
	tree_of ours >got &&
	git -C src rev-parse copies^{tree} >want &&
	test_cmp want got
'

test_expect_success 'a failure after every temporary file: none left, nothing changed' '
	pair &&
	cat series.patch - >bad <<-\EOF &&
	diff --git a/trap b/trap
	new file mode 120000
	--- /dev/null
	+++ b/trap
	@@ -0,0 +1 @@
	+outside
	\ No newline at end of file
	diff --git a/trap/x b/trap/x
	new file mode 100644
	--- /dev/null
	+++ b/trap/x
	@@ -0,0 +1 @@
	+x
	EOF
	state_of ours >before &&
	(cd ours && test_must_fail apply ../bad 2>../err) &&
	test_grep "beyond a symbolic link" err &&
	state_of ours >after &&
	test_cmp before after &&
	! test -e ours/new
'

test_expect_success 'a file in place of one the set removes, in either order' '
	pair &&
	git -C src diff series~1 series >swap.patch &&
	(cd ours && apply ../swap.patch) &&
	(cd theirs && git apply ../swap.patch) &&
	test -f ours/dir/sub && test -f theirs/dir/sub &&
	tree_of ours >got && tree_of theirs >want && test_cmp want got &&
	(cd ours && apply -R ../swap.patch) &&
	(cd theirs && git apply -R ../swap.patch) &&
	no_tmp_left ours &&
	test -f ours/dir/sub/deep && test -f theirs/dir/sub/deep &&
	tree_of ours >got && tree_of theirs >want && test_cmp want got
'

test_expect_success 'a new path below a file the set keeps is refused' '
	pair &&
	printf "%s\n" "diff --git a/text/x b/text/x" "new file mode 100644" \
		"--- /dev/null" "+++ b/text/x" "@@ -0,0 +1 @@" "+x" >bad &&
	state_of ours >before &&
	(cd ours && test_must_fail apply ../bad 2>../err) &&
	test_grep "beyond a symbolic link" err &&
	state_of ours >after &&
	test_cmp before after
'

test_expect_success 'a hunk failing in the last file: earlier new directories not made' '
	pair &&
	{ cat series.patch &&
	  git -C src diff A modify -- multi | sed "s/^-line 1\$/-line one/"
	} >bad &&
	state_of ours >before &&
	(cd ours && test_must_fail apply ../bad 2>../err) &&
	test_grep "does not apply" err &&
	state_of ours >after &&
	test_cmp before after
'

test_expect_success '--check and --index keep contents in memory: no temporary file' '
	pair &&
	state_of ours >before &&
	(cd ours && apply --check ../series.patch) &&
	state_of ours >after &&
	test_cmp before after &&
	(cd ours && GIT_DIR=.git apply --index ../series.patch) &&
	no_tmp_left ours &&
	git -C ours write-tree >got &&
	git -C src rev-parse series^{tree} >want &&
	test_cmp want got &&
	tree_of ours >got &&
	test_cmp want got
'

# More files than one batch of temporary files (512) and than the pool
# starts threads for: the batches are written and renamed on every
# core, and a patch after a batch was written takes up its file.
test_expect_success 'setup: a set of 700 files' '
	git init -q big &&
	(
		cd big &&
		for d in 0 1 2 3 4 5 6; do
			mkdir d$d &&
			for f in 0 1 2 3 4 5 6 7 8 9; do
				for g in 0 1 2 3 4 5 6 7 8 9; do
					echo "$d$f$g" >d$d/f$f$g || exit 1
				done
			done
		done &&
		git add -A && git commit -q -m base &&
		for f in d*/f*; do echo changed >>$f; done &&
		mkdir -p new/dir && echo new >new/dir/file &&
		git rm -q -f d6/f99 &&
		git add -A && git commit -q -m many &&
		echo again >>d0/f00 &&
		git commit -q -a -m again
	) &&
	{ git -C big diff HEAD~2 HEAD~1 && git -C big diff HEAD~1 HEAD; } \
		>big.patch &&
	git -C big rev-parse HEAD^{tree} >big-want &&
	git -C big rev-parse HEAD~2^{tree} >big-base
'

test_expect_success 'the set of 700 files, forward and back' '
	rm -rf big-ours && cp -a big big-ours &&
	git -C big-ours checkout -q HEAD~2 &&
	(cd big-ours && apply ../big.patch) &&
	no_tmp_left big-ours &&
	tree_of big-ours >got &&
	test_cmp big-want got &&
	(cd big-ours && apply -R ../big.patch) &&
	no_tmp_left big-ours &&
	tree_of big-ours >got &&
	test_cmp big-base got
'

test_expect_success 'the set of 700 files failing at its end: none left' '
	rm -rf big-ours && cp -a big big-ours &&
	git -C big-ours checkout -q HEAD~2 &&
	git -C big-ours update-index -q --refresh &&
	{ cat big.patch &&
	  printf "%s\n" "diff --git a/d1/f10 b/d1/f10" "--- a/d1/f10" \
		"+++ b/d1/f10" "@@ -1 +1 @@" "-nothing" "+something"
	} >big-bad &&
	state_of big-ours >before &&
	(cd big-ours && test_must_fail apply ../big-bad 2>../err) &&
	test_grep "does not apply" err &&
	state_of big-ours >after &&
	test_cmp before after
'

test_expect_success 'a file changed twice within one read-ahead batch' '
	{ git -C big diff HEAD~2 HEAD~1 -- d0/f00 &&
	  git -C big diff HEAD~1 HEAD -- d0/f00 &&
	  git -C big diff HEAD~2 HEAD~1 -- d1 d2 &&
	  git -C big diff HEAD~2 HEAD~1 -- d0/f01
	} >twice.patch &&
	rm -rf big-ours big-git && cp -a big big-ours &&
	git -C big-ours checkout -q HEAD~2 && cp -a big-ours big-git &&
	(cd big-ours && apply ../twice.patch) &&
	(cd big-git && git apply ../twice.patch) &&
	no_tmp_left big-ours &&
	tree_of big-git >want && tree_of big-ours >got &&
	test_cmp want got &&
	grep -c again big-ours/d0/f00 >n && test $(cat n) -eq 1 &&
	(cd big-ours && apply -R ../twice.patch) &&
	tree_of big-ours >got && test_cmp big-base got
'

# A signal while the temporary files are being written (SIGTERM, ^C,
# a hang-up) removes them before apply dies: none stay in the work
# tree, and every file is its old content or its new one.  Each round
# kills apply once its first temporary file is there; a round whose
# apply ended first proves nothing, so at least one must catch it.
test_expect_success 'a signal while the temporary files are written leaves none' '
	mkdir sig-old &&
	for d in 1 2 3 4 5 6 7 8 9 10; do
		mkdir sig-old/d$d &&
		for f in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 \
			 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 \
			 38 39 40 41 42 43 44 45 46 47 48 49 50; do
			seq 1 300 >sig-old/d$d/f$f || return 1
		done
	done &&
	cp -R sig-old sig-new &&
	find sig-new -type f -exec sed -i "s/^150$/changed/" {} + &&
	git diff --no-index --no-prefix sig-old sig-new >sig.diff;
	test -s sig.diff &&
	caught=0 && round=0 &&
	while [ $round -lt 8 ]; do
		rm -rf w && cp -R sig-old w &&
		{ (cd w && exec apply -p1 ../sig.diff 2>../sig.err) & } &&
		pid=$! && n=0 &&
		while [ $n -lt 2000 ] &&
		      ! find w -name "*.apply-*" | grep -q .; do
			n=$((n + 1))
		done &&
		kill -TERM $pid 2>/dev/null;
		wait $pid;
		test $? = 143 && test $n -lt 2000 && caught=$((caught + 1));
		find w -name "*.apply-*" >left &&
		test ! -s left &&
		{ find w -type f -exec grep -L "^changed$" {} + >old || :; } &&
		for f in $(cat old); do
			cmp -s $f sig-old/${f#w/} || return 1
		done &&
		{ find w -type f -exec grep -l "^changed$" {} + >new || :; } &&
		test $(($(wc -l <old) + $(wc -l <new))) = 500 &&
		for f in $(cat new); do
			cmp -s $f sig-new/${f#w/} || return 1
		done &&
		round=$((round + 1)) || return 1
	done &&
	echo "caught $caught of 8" &&
	test $caught -gt 0
'

test_done
