#!/bin/sh
test_description='the harness, and every tool answers -h as the README says'
. "$(dirname "$0")/test-lib.sh"

TOOLS="init-db update-cache write-tree commit-tree read-tree checkout-cache
show-diff diff-tree cat-file"

test_expect_success 'the harness runs a passing test' '
	true
'

test_expect_success 'test_must_fail refuses success and crashes' '
	! test_must_fail true &&
	! test_must_fail sh -c "exit 134" &&
	! test_must_fail sh -c "exit 120" &&
	test_must_fail sh -c "exit 128"
'

test_expect_success 'the environment is scrubbed' '
	test "$TZ" = UTC && test "$LANG" = C &&
	test -z "$GIT_DIR" && test -z "$SHA1_FILE_DIRECTORY"
'

test_expect_success 'every tool is built' '
	for t in $TOOLS; do
		test -x "$TOP/$t" || { echo "missing $t"; return 1; }
	done
'

test_expect_success '-h prints the usage on stdout and exits 0' '
	for t in $TOOLS; do
		$t -h >out 2>err &&
		test_grep "^usage: $t" out &&
		test_must_fail test -s err || return 1
	done
'

test_expect_success 'each usage line is the README synopsis, word for word' '
	for t in $TOOLS; do
		line=$($t -h | sed "s/^usage: //") &&
		grep -F -x -q "    $line" "$TOP/README" ||
		{ echo "README lacks: $line"; return 1; }
	done
'

test_expect_success 'an unknown option is a usage error: exit 129, stderr only' '
	init-db 2>/dev/null &&
	for t in $TOOLS; do
		test_expect_code 129 $t --no-such-option >out 2>err &&
		test_grep "^usage: $t" err &&
		test_must_fail test -s out || return 1
	done
'

test_done
