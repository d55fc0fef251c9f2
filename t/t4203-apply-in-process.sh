#!/bin/sh
test_description='the patch library applying many sets in one process'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-apply.sh"

# test-tool apply-sets applies each patch as its own set with --index
# in one process and writes the index once, as applymbox does.

TT="$TEST_DIRECTORY/helper/test-tool"

test_expect_success 'setup: a series of six mails on one file' '
	apply_setup &&
	(
		cd src &&
		git checkout -q -b series A &&
		for n in 1 2 3 4 5 6; do
			sed -i "s/^line $((n * 7))\$/edit $n/" text &&
			echo "tail $n" >>text &&
			gen $n >"file-$n" &&
			git add -A && git commit -q -m "edit $n" || exit 1
		done &&
		git format-patch -q -o ../mails A &&
		git checkout -q A
	) &&
	ls mails/* >mail-list &&
	test $(wc -l <mail-list) = 6
'

test_expect_success 'one process, six sets: the tree and index of the series' '
	pair &&
	(cd ours && GIT_DIR=.git "$TT" apply-sets ../mails/*) &&
	git -C ours write-tree >got &&
	git -C src rev-parse series^{tree} >want &&
	test_cmp want got &&
	git -C ours diff-files --name-only >dirty &&
	test_cmp /dev/null dirty
'

test_expect_success 'a failing set stops the run; the earlier ones stay' '
	pair &&
	sed -i "s/^-line 21\$/-line twenty-one/" mails/0003-* &&
	(cd ours && test_expect_code 1 env GIT_DIR=.git "$TT" apply-sets \
		../mails/* >../out) &&
	test_grep "0003-edit-3.patch: text: hunk #1 (line 18) does not apply" out &&
	git -C src rev-parse series~4^{tree} >want &&
	git -C ours write-tree >got &&
	test_cmp want got &&
	git -C ours diff-files --name-only >dirty &&
	test_cmp /dev/null dirty
'

test_expect_success 'a symlink one set puts where a directory was is not followed by the next' '
	pair &&
	mkdir -p outside &&
	cat >one <<-\EOF &&
	diff --git a/dir b/dir
	new file mode 120000
	index 0000000..c2cbe62
	--- /dev/null
	+++ b/dir
	@@ -0,0 +1 @@
	+../outside
	\ No newline at end of file
	diff --git a/dir/sub/deep b/dir/sub/deep
	deleted file mode 100644
	index 0b4a1ad..0000000
	--- a/dir/sub/deep
	+++ /dev/null
	@@ -1 +0,0 @@
	-deep
	EOF
	cat >two <<-\EOF &&
	diff --git a/dir/sub/evil b/dir/sub/evil
	new file mode 100644
	index 0000000..e69de29
	--- /dev/null
	+++ b/dir/sub/evil
	@@ -0,0 +1 @@
	+gotcha
	EOF
	mkdir -p outside/sub &&
	(cd ours && test_expect_code 1 env GIT_DIR=.git "$TT" apply-sets \
		../one ../two >../out) &&
	test_grep "beyond a symbolic link" out &&
	test -h ours/dir &&
	! test -e outside/sub/evil
'

test_done
