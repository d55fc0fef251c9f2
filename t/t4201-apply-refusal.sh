#!/bin/sh
test_description='apply: every refusal leaves the tree and the index as they were'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-apply.sh"

# Each bad patch is applied with and without --index; the work tree
# and the index must be byte for byte what they were, and the message
# must say why.

test_expect_success 'setup' '
	apply_setup &&
	pair
'

# refused PATCH PATTERN [OPTIONS]: apply refuses PATCH in ours/ (plain
# and with --index), says PATTERN, and changes nothing.
refused() {
	patch=$1 pattern=$2 &&
	shift 2 &&
	state_of ours >before &&
	for idx in "" --index; do
		(cd ours && test_must_fail env GIT_DIR=.git \
			apply $idx "$@" "$patch" 2>../err) &&
		test_grep "$pattern" err &&
		state_of ours >after &&
		test_cmp before after || return 1
	done
}

test_expect_success 'context that does not match' '
	sed "s/^ line 48\$/ line forty-eight/" patches/modify >bad &&
	refused ../bad "text: hunk #2 (line 47) does not apply" &&
	test_grep "^apply: patch failed: text:47\$" err &&
	(cd theirs && test_must_fail git apply ../bad 2>../git-err) &&
	test_grep "patch failed: text:47" git-err
'

test_expect_success 'a later file failing stops the earlier ones too' '
	{ cat patches/add patches/rename &&
	  sed "s/^-line 50\$/-line 51/" patches/modify; } >bad &&
	refused ../bad "text: hunk #2 (line 47) does not apply"
'

test_expect_success 'the exit status of a hunk failure is 1' '
	(cd ours && test_expect_code 1 apply ../bad 2>/dev/null)
'

test_expect_success 'a path with ..' '
	sed "s|b/added|b/../outside|g; s|a/added|a/../outside|g" \
		patches/add >bad &&
	refused ../bad "invalid path" &&
	! test -e outside
'

test_expect_success 'an absolute path and a .git path' '
	printf -- "--- /dev/null\n+++ $TRASH_DIRECTORY/abs\n@@ -0,0 +1 @@\n+x\n" \
		>bad &&
	refused ../bad "invalid path" -p0 &&
	! test -e abs &&
	sed "s|added|.git/hooks/x|g" patches/add >bad &&
	refused ../bad "invalid path" &&
	sed "s|added|sub/.GIT/config|g" patches/add >bad &&
	refused ../bad "invalid path"
'

test_expect_success 'writing through a symlink in a leading directory' '
	mkdir -p outside-dir &&
	(cd ours && ln -s ../outside-dir escape) &&
	(cd theirs && ln -s ../outside-dir escape) &&
	sed "s|newdir/x/y|escape/y|g" patches/add >bad &&
	refused ../bad "beyond a symbolic link" &&
	test_must_fail ls outside-dir/y &&
	(cd theirs && test_must_fail git apply ../bad 2>../git-err) &&
	test_grep "beyond a symbolic link" git-err
'

test_expect_success 'writing through a symlink the same patch creates' '
	cat >bad <<-\EOF &&
	diff --git a/trap b/trap
	new file mode 120000
	index 0000000..e69de29
	--- /dev/null
	+++ b/trap
	@@ -0,0 +1 @@
	+../outside-dir
	\ No newline at end of file
	diff --git a/trap/owned b/trap/owned
	new file mode 100644
	index 0000000..e69de29
	--- /dev/null
	+++ b/trap/owned
	@@ -0,0 +1 @@
	+gotcha
	EOF
	refused ../bad "beyond a symbolic link" &&
	test_must_fail ls outside-dir/owned &&
	(cd theirs && test_must_fail git apply ../bad 2>../git-err) &&
	test_must_fail ls outside-dir/owned
'

test_expect_success 'a patch to a file that does not exist' '
	sed "s|text|no-such-file|g" patches/modify >bad &&
	refused ../bad "no-such-file: No such file or directory\|does not exist in index"
'

test_expect_success 'a new file that is already there' '
	sed "s|added|text|g" patches/add >bad &&
	refused ../bad "text: already exists"
'

test_expect_success 'a truncated hunk, a git header with nothing after it' '
	head -n 7 patches/modify >bad &&
	refused ../bad "corrupt patch at line 8" &&
	(cd ours && test_expect_code 128 apply ../bad 2>/dev/null) &&
	head -n 12 patches/modify >bad &&
	refused ../bad "patch with only garbage at line 13" &&
	(cd ours && test_expect_code 128 apply ../bad 2>/dev/null)
'

test_expect_success 'a hunk with a line that is not one' '
	sed "8s/^ /X/" patches/modify >bad &&
	refused ../bad "corrupt patch at line 8"
'

test_expect_success 'garbage, and an empty input' '
	printf "hello\nthis is no patch\n" >bad &&
	refused ../bad "no valid patches" &&
	: >empty-input &&
	refused ../empty-input "no valid patches" &&
	head -c 3000 "$TOP/apply" >bad &&
	refused ../bad "no valid patches\|corrupt"
'

test_expect_success 'a header that both creates and deletes its file' '
	printf "diff --git a/x b/x\nnew file mode 100644\ndeleted file mode 100644\n" \
		>bad &&
	refused ../bad "both creates and deletes"
'

test_expect_success 'a binary patch that does not decode, or does not fit' '
	sed "/^literal/{n;s/^./~/}" patches/binlit >bad &&
	refused ../bad "corrupt binary patch" &&
	pair bindelta &&
	refused ../patches/bindelta "does not match the current contents"
'

test_expect_success 'a deletion of a file whose content differs' '
	pair &&
	echo changed >>ours/gone &&
	refused ../patches/delete "hunk #1 (line 1) does not apply\|gone: does not match index"
'

test_expect_success '--index: a work-tree file that differs from the index' '
	pair &&
	echo local >>ours/text &&
	state_of ours >before &&
	(cd ours && test_must_fail env GIT_DIR=.git apply --index \
		../patches/modify 2>../err) &&
	test_grep "text: does not match index" err &&
	state_of ours >after &&
	test_cmp before after &&
	(cd ours && apply ../patches/add)
'

test_expect_success '--index: the index lock is left as it was' '
	pair &&
	: >ours/.git/index.lock &&
	state_of ours >before &&
	(cd ours && test_must_fail env GIT_DIR=.git apply --index \
		../patches/modify 2>../err) &&
	state_of ours >after &&
	test_cmp before after &&
	rm ours/.git/index.lock
'

test_expect_success 'wrong usage exits 129 and -h prints the usage' '
	test_expect_code 129 apply --no-such-option &&
	test_expect_code 129 apply --index --cached patches/add &&
	apply -h >out &&
	test_grep "^usage: apply \[--check\]" out
'

test_done
