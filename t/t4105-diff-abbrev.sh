#!/bin/sh
test_description='patches: abbreviated ids and function lines as git'"'"'s'
. "$(dirname "$0")/test-lib.sh"

# Every patch here is compared with git diff-tree -p on the same store:
# the ids on "index" lines (core.abbrev, --abbrev, --full-index, and
# git's automatic length, which grows with the objects in packs) and
# the function text of hunk headers (80 bytes, then valid UTF-8 only).

# same OPTIONS...: our diff-tree -p and git's print the same patch.
same() {
	diff-tree -p "$@" $(cat A) $(cat B) >ours &&
	GIT_DIR=.dircache git diff-tree -p "$@" $(cat A) $(cat B) >theirs &&
	test_cmp theirs ours
}

# funcfile FILE BYTES: FILE's first line is "f" and the python bytes
# literal BYTES, then ten lines that are no function lines.
funcfile() {
	python3 -c "import sys; sys.stdout.buffer.write(b'f' + $2 + b'\n' +
		b''.join(b' line %d\n' % i for i in range(10)))" >"$1"
}

test_expect_success 'setup: function lines cut in and after characters' '
	test_create_repo . &&
	mkdir w &&
	funcfile w/cut2 "b\"x\" * 78 + \"\\u00e9yy\".encode()" &&
	funcfile w/cut3 "b\"x\" * 77 + \"\\u5148yy\".encode()" &&
	funcfile w/cut4 "b\"x\" * 76 + \"\\U0001f600yy\".encode()" &&
	funcfile w/whole4 "b\"x\" * 75 + \"\\U0001f600yy\".encode()" &&
	funcfile w/latin1 "b\"xx\\xe9yy\"" &&
	funcfile w/space "b\"x\" * 77 + b\" \\xc3\\xa9\"" &&
	funcfile w/overlong "b\"xx\\xc0\\x80yy\"" &&
	funcfile w/surrogate "b\"xx\\xed\\xa0\\x80yy\"" &&
	funcfile w/nonchar "b\"xx\\xef\\xbf\\xbeyy\"" &&
	funcfile w/toobig "b\"xx\\xf4\\x90\\x80\\x80yy\"" &&
	funcfile w/max "b\"xx\\xf4\\x8f\\xbf\\xbfyy\"" &&
	snap A &&
	for f in w/*
	do
		sed "s/line 8/LINE 8/" $f >tmp && mv tmp $f || return 1
	done &&
	snap B
'

test_expect_success 'function lines are cut where git cuts them' '
	same &&
	grep "^@@" ours >hunks &&
	test $(wc -l <hunks) = 11
'

test_expect_success 'ids: 7 digits in a small store' '
	same &&
	grep "^index [0-9a-f]\{7\}\.\.[0-9a-f]\{7\} " ours >/dev/null
'

test_expect_success 'ids: --abbrev=<n>, --abbrev, --full-index' '
	same --abbrev=12 &&
	grep "^index [0-9a-f]\{12\}\.\." ours >/dev/null &&
	same --abbrev=2 &&
	same --abbrev=99 &&
	same --abbrev &&
	same --full-index &&
	grep "^index [0-9a-f]\{$OID_HEXSZ\}\.\." ours >/dev/null
'

test_expect_success 'ids: core.abbrev from the config' '
	GIT_DIR=.dircache git config core.abbrev 10 &&
	same &&
	grep "^index [0-9a-f]\{10\}\.\." ours >/dev/null &&
	same --abbrev=5 &&
	GIT_DIR=.dircache git config core.abbrev false &&
	same &&
	GIT_DIR=.dircache git config core.abbrev auto &&
	same
'

test_expect_success 'ids: the raw diff abbreviates with --abbrev' '
	diff-tree -r --abbrev=6 $(cat A) $(cat B) >ours &&
	GIT_DIR=.dircache git diff-tree -r --abbrev=6 $(cat A) $(cat B) >theirs &&
	test_cmp theirs ours
'

test_expect_success 'ids: diff-cache abbreviates its raw lines with --abbrev too' '
	read-tree $(cat B) &&
	for opts in "--abbrev=6 --cached" "--abbrev --cached" "--abbrev=9" "--cached"
	do
		diff-cache $opts $(cat A) >ours &&
		GIT_DIR=.dircache git diff-index $opts $(cat A) >theirs &&
		test_cmp theirs ours || return 1
	done &&
	diff-cache --abbrev=6 --cached $(cat A) >ours &&
	grep "^:[0-7]* [0-7]* [0-9a-f]\{6\} [0-9a-f]\{6\} " ours >/dev/null
'

test_expect_success 'ids: the automatic length grows with the packs' '
	python3 -c "
import sys
for i in range(16384):
    d = b\"blob %d\\n\" % i
    sys.stdout.buffer.write(b\"blob\\ndata %d\\n%s\\n\" % (len(d), d))
" | GIT_DIR=.dircache git fast-import --quiet &&
	same &&
	grep "^index [0-9a-f]\{8\}\.\.[0-9a-f]\{8\} " ours >/dev/null &&
	GIT_DIR=.dircache git config core.abbrev 7 &&
	same &&
	grep "^index [0-9a-f]\{7\}\.\." ours >/dev/null
'

test_done
