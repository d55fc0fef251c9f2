#!/bin/sh
test_description='apply: a mode change that changes the type is refused, as git refuses it'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-apply.sh"

# A git patch that turns a regular file into a symlink or a gitlink by
# its mode lines alone ("old mode 100644", "new mode 120000") has no
# content to give the new type: git diff writes a type change as a
# removal and a creation.  git apply refuses it; so do we, with the
# tree and the index left as they were.

test_expect_success 'setup' '
	git init -q repo &&
	echo hello >repo/g &&
	git -C repo add g &&
	git -C repo commit -q -m base &&
	for m in 120000 160000 100755; do
		printf "diff --git a/g b/g\nold mode 100644\nnew mode %s\n" \
			$m >mode-$m || return 1
	done &&
	printf "%s\n" "diff --git a/g b/h" "old mode 100644" \
		"new mode 120000" "similarity index 100%" \
		"rename from g" "rename to h" >rename-120000
'

# copies DIR...: fresh copies of repo, their index refreshed (cp gives
# the files new stat data).
copies() {
	for d in "$@"; do
		rm -rf $d &&
		cp -a repo $d &&
		git -C $d update-index -q --refresh || return 1
	done
}

# refused PATCH MESSAGE: git apply and apply refuse PATCH, plain, with
# --index and with --cached; the message is git's and nothing changes.
refused() {
	for opt in "" --index --cached; do
		copies ours theirs &&
		state_of ours >before &&
		state_of theirs >before-git &&
		(cd theirs && test_must_fail git apply $opt "../$1" 2>../git-err) &&
		test_grep "^error: $2\$" git-err &&
		(cd ours && test_expect_code 1 env GIT_DIR=.git \
			apply $opt "../$1" 2>../err) &&
		test_grep "^apply: $2\$" err &&
		state_of ours >after &&
		test_cmp before after &&
		state_of theirs >after-git &&
		test_cmp before-git after-git || return 1
	done
}

test_expect_success 'a regular file made a symlink by its mode is refused' '
	refused mode-120000 "new mode (120000) of g does not match old mode (100644)"
'

test_expect_success 'a regular file made a gitlink by its mode is refused' '
	refused mode-160000 "new mode (160000) of g does not match old mode (100644)"
'

test_expect_success 'a rename that changes the type is refused' '
	refused rename-120000 "new mode (120000) of h does not match old mode (100644) of g"
'

test_expect_success 'refused with -R too (the symlink back to a file)' '
	copies ours &&
	(cd ours && ln -sf target link && git add link) &&
	printf "diff --git a/link b/link\nold mode 100644\nnew mode 120000\n" >to-link &&
	state_of ours >before &&
	(cd ours && test_must_fail env GIT_DIR=.git \
		apply -R --index ../to-link 2>../err) &&
	test_grep "new mode (100644) of link does not match old mode (120000)" err &&
	state_of ours >after &&
	test_cmp before after
'

test_expect_success 'a mode change within the type still applies as git' '
	copies ours theirs &&
	(cd ours && GIT_DIR=.git apply --index ../mode-100755) &&
	(cd theirs && git apply --index ../mode-100755) &&
	stat -c "%n %a" ours/g >got &&
	stat -c "%n %a" theirs/g | sed s/theirs/ours/ >want &&
	test_cmp want got &&
	git -C ours ls-files -s >got &&
	git -C theirs ls-files -s >want &&
	test_cmp want got
'

# The new files are made with their permissions, which the umask cuts
# as it cuts git apply's.
test_expect_success 'new and changed files get the permissions git gives' '
	for m in 022 077 002; do
		copies ours theirs &&
		(umask $m && cd ours && GIT_DIR=.git apply ../mode-100755) &&
		(umask $m && cd theirs && git apply ../mode-100755) &&
		printf "%s\n" "diff --git a/n b/n" "new file mode 100644" \
			"--- /dev/null" "+++ b/n" "@@ -0,0 +1 @@" "+n" >new-n &&
		(umask $m && cd ours && GIT_DIR=.git apply ../new-n) &&
		(umask $m && cd theirs && git apply ../new-n) &&
		stat -c "%n %a" ours/g ours/n >got &&
		stat -c "%n %a" theirs/g theirs/n | sed s/theirs/ours/ >want &&
		test_cmp want got || return 1
	done
'

test_done
