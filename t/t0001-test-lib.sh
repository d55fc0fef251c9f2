#!/bin/sh
test_description='test-lib.sh: the trash directory sees no repository around it'
. "$(dirname "$0")/test-lib.sh"

# A copy of test-lib.sh and a script beside it, in outer/t, run with
# TEST_ROOT inside outer, a git repository (as a stress run does with
# its trash directories under a work tree): git in the trash directory
# must find no repository, or the sha256 hash-object oracle and every
# git command there would use outer's.
test_expect_success 'TEST_ROOT inside a repository: git there finds none' '
	git init -q outer &&
	mkdir outer/t &&
	cp "$TEST_DIRECTORY/test-lib.sh" outer/t/ &&
	cat >outer/t/t9999-probe.sh <<-\EOS &&
	#!/bin/sh
	test_description="probe"
	. "$(dirname "$0")/test-lib.sh"
	test_expect_success "no repository around the trash directory" "
		test_must_fail git rev-parse --git-dir
	"
	test_done
	EOS
	TEST_ROOT=$TRASH_DIRECTORY/outer/root sh outer/t/t9999-probe.sh >out &&
	grep "^ok 1 - no repository around" out
'

test_done
