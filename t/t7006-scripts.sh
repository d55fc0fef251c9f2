#!/bin/sh
test_description='the porcelain scripts: sh -n, shellcheck, make install, help'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'every script parses with sh -n' '
	for f in "$TOP"/dircache.sh "$TOP"/dircache-*.sh; do
		sh -n "$f" || return 1
	done
'

test_expect_success 'every script passes shellcheck' '
	command -v shellcheck >/dev/null || {
		echo "shellcheck is not installed (.ci/run installs it)" >&2
		return 1
	} &&
	(cd "$TOP" && shellcheck -x -s sh dircache.sh dircache-*.sh)
'

test_expect_success 'make install puts the front end next to the tools' '
	make -s -C "$TOP" install DESTDIR="$TRASH_DIRECTORY/inst" prefix=/usr \
		>/dev/null &&
	bin=$TRASH_DIRECTORY/inst/usr/bin &&
	test -x "$bin/dircache" && test -x "$bin/dircache-pull" &&
	test -f "$bin/dircache-lib.sh" && test -x "$bin/verify-objects" &&
	mkdir r && cd r &&
	env PATH=/usr/bin:/bin "$bin/dircache" init 2>/dev/null &&
	echo x >f && env PATH=/usr/bin:/bin "$bin/dircache" add f &&
	env PATH=/usr/bin:/bin "$bin/dircache" commit -m one >id &&
	test "$(cat .dircache/refs/heads/master)" = "$(cat id)"
'

test_expect_success 'help lists every command there is, and only those' '
	dircache help | cut -d" " -f1 | grep -v "^help$" | sort >listed &&
	(cd "$TOP" && ls dircache-*.sh) | sed "s/^dircache-//; s/\.sh$//" |
		grep -v "^lib$" | sort >present &&
	test_cmp present listed &&
	for c in $(cat present); do
		dircache $c -h >out && test_grep "^usage: dircache $c" out &&
		test_expect_code 129 dircache $c --no-such-option 2>/dev/null ||
		return 1
	done
'

test_done
