#!/bin/sh
test_description='the manual pages: one per tool and command, linted, shown by --help and help'
. "$(dirname "$0")/test-lib.sh"

DOC=$TOP/Documentation

# A page as plain text, as mandoc renders it (bold and underline gone).
render() {
	mandoc -T ascii "$1" | perl -pe 's/.\x08//g'
}

# The text of section $2 ("SYNOPSIS") of the page $1, rendered.
section() {
	render "$1" | awk -v want="$2" '
		/^[A-Z]/ { on = ($0 == want); next }
		on { print }'
}

test_expect_success 'mandoc, groff and man are here (.ci/run installs them)' '
	for t in mandoc groff man; do
		command -v $t >/dev/null || {
			echo "$t is not installed" >&2
			return 1
		}
	done
'

test_expect_success 'the names: every tool and every porcelain command' '
	make -s -C "$TOP" print-programs | tr " " "\n" | grep . >tools &&
	(cd "$TOP" && ls dircache-*.sh) | sed "s/\.sh$//" |
		grep -v "^dircache-lib$" >commands &&
	test -s tools && test -s commands &&
	{ echo dircache; cat commands tools; } >names &&
	for n in $(cat names); do
		test ! -f "$DOC/$n.1" || echo $n
	done >have
'

test_expect_success 'each has its page' '
	for n in $(cat names); do
		test -f "$DOC/$n.1" || { echo "no Documentation/$n.1" >&2; return 1; }
	done
'

test_expect_success 'and no page is there without its tool or command' '
	(cd "$DOC" && ls *.1) | sed "s/\.1$//" | sort >pages &&
	sort names >sorted &&
	test_cmp sorted pages
'

test_expect_success 'title line and the sections in order' '
	printf "%s\n" NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" \
		EXAMPLES "SEE ALSO" >want &&
	for n in $(cat have); do
		up=$(printf %s "$n" | tr a-z A-Z) &&
		head -n 1 "$DOC/$n.1" >th &&
		echo ".TH $up 1 2026-12-07 \"dircache\" \"dircache manual\"" >th.want &&
		test_cmp th.want th &&
		sed -n "s/^\.SH //p" "$DOC/$n.1" | tr -d "\"" >got &&
		test_cmp want got || { echo "in $n.1" >&2; return 1; }
	done
'

test_expect_success 'NAME is "name \- what it does"' '
	for n in $(cat have); do
		section "$DOC/$n.1" NAME >line &&
		test_grep "^ *$n - [a-z]" line || return 1
	done
'

test_expect_success 'every hyphen of an option in OPTIONS is \-' '
	perl -ne "
		\$s = \$1 if /^\.SH (.*)/;
		print \"\$ARGV: \$_\" if \$tp && \$s eq q(OPTIONS) && /(^|[^\\\\])-/;
		\$tp = /^\.TP/;
		close ARGV if eof;
	" "$DOC"/*.1 >bare &&
	{ test ! -s bare || { cat bare >&2; false; }; }
'

test_expect_success 'mandoc -T lint -W warning: clean' '
	(cd "$DOC" && mandoc -T lint -W warning *.1) >lint 2>&1 ||
	{ cat lint >&2; return 1; } &&
	test ! -s lint
'

test_expect_success 'make doc-lint (mandoc and groff -man -ww -z) passes' '
	make -s -C "$TOP" doc-lint >out 2>&1 || { cat out >&2; return 1; } &&
	test ! -s out
'

test_expect_success 'every page named in section 1 is here (or git, man)' '
	sed -n "s/^\.BR \([a-z\\-]*\) (1).*/\1/p" "$DOC"/*.1 | sed "s/\\\\-/-/g" |
		sort -u >refs &&
	for r in $(cat refs); do
		test -f "$DOC/$r.1" || case $r in git|man) ;; *)
			echo "a reference to $r(1), which has no page" >&2
			return 1 ;;
		esac || return 1
	done
'

test_expect_success 'SYNOPSIS names the command' '
	for n in $(grep ^dircache- have); do
		c=${n#dircache-} &&
		section "$DOC/$n.1" SYNOPSIS >syn &&
		grep -q "^ *dircache $c\( \|$\)" syn ||
		{ echo "$n.1 SYNOPSIS:" >&2; cat syn >&2; return 1; }
	done &&
	for n in $(grep -v "^dircache-" have); do
		section "$DOC/$n.1" SYNOPSIS >syn &&
		grep -q "^ *$n\( \|$\)" syn ||
		{ echo "$n.1 SYNOPSIS:" >&2; cat syn >&2; return 1; }
	done
'

test_expect_success 'every long option of the usage is in OPTIONS' '
	for n in $(cat have); do
		case $n in
		dircache) dircache -h | head -n 1 ;;
		dircache-*) dircache ${n#dircache-} -h ;;
		*) $n -h ;;
		esac >usage &&
		grep "^usage: " usage >/dev/null &&
		section "$DOC/$n.1" OPTIONS >opts &&
		for o in $(grep -o -- "--[a-z][a-z0-9-]*" usage | sort -u); do
			grep -q -e "$o\([^a-z0-9-]\|$\)" opts ||
			{ echo "$n.1: $o not in OPTIONS" >&2; return 1; }
		done || return 1
	done
'

test_expect_success 'dircache help <command> prints its page into a pipe' '
	for n in $(grep ^dircache- have); do
		dircache help ${n#dircache-} | cat >out &&
		test_grep "^NAME" out &&
		test_grep "^ *$n  *- " out || return 1
	done
'

test_expect_success 'dircache <command> --help and dircache help dircache' '
	dircache status --help >out &&
	test_grep "^ *dircache-status  *- " out &&
	dircache help dircache >out &&
	test_grep "^ *dircache  *- " out &&
	dircache help read-tree >out &&
	test_grep "^ *read-tree  *- " out
'

test_expect_success '<tool> --help prints its page into a pipe; -h the usage' '
	for n in $(grep -v ^dircache have); do
		$n --help | cat >out &&
		test_grep "^ *$n  *- " out &&
		$n -h >out &&
		test_grep "^usage: $n" out || return 1
	done
'

test_expect_success 'into a pipe, no pager runs, whatever MANPAGER says' '
	MANPAGER="sed s/^/PAGED/" PAGER="sed s/^/PAGED/" \
		read-tree --help >out &&
	test_grep "^ *read-tree  *- " out &&
	! grep PAGED out &&
	MANPAGER="sed s/^/PAGED/" PAGER="sed s/^/PAGED/" \
		dircache help add >out &&
	test_grep "^ *dircache-add  *- " out &&
	! grep PAGED out
'

test_expect_success 'on a terminal, the page goes through the pager' '
	MANPAGER="sed s/^/PAGED/" script -qec "read-tree --help" /dev/null \
		</dev/null >tty.out &&
	test_grep "^PAGED.*READ-TREE(1)" tty.out &&
	MANPAGER="sed s/^/PAGED/" script -qec "dircache help add" /dev/null \
		</dev/null >tty.out &&
	test_grep "^PAGED.*DIRCACHE-ADD(1)" tty.out
'

test_expect_success 'no page beside the binary: --help gives the usage' '
	mkdir nopage &&
	cp "$TOP/read-tree" "$TOP/dircache" "$TOP/dircache-add" \
		"$TOP/dircache-lib.sh" nopage/ &&
	nopage/read-tree --help >out &&
	read-tree -h >expect &&
	test_cmp expect out &&
	MANPATH="$PWD" nopage/dircache help add >out &&
	dircache add -h >expect &&
	test_cmp expect out
'

test_expect_success 'make install puts every page in man1, where --help finds it' '
	make -s -C "$TOP" install prefix=/opt/dc DESTDIR="$TRASH_DIRECTORY/inst" \
		>/dev/null &&
	man1=$TRASH_DIRECTORY/inst/opt/dc/share/man/man1 &&
	for n in $(cat have); do
		cmp "$DOC/$n.1" "$man1/$n.1" || return 1
	done &&
	bin=$TRASH_DIRECTORY/inst/opt/dc/bin &&
	mkdir home && ln -s "$bin/dircache" home/dc &&
	ln -s "$bin/read-tree" home/rt &&
	env PATH=/usr/bin:/bin home/dc help commit >out &&
	test_grep "^ *dircache-commit  *- " out &&
	env PATH=/usr/bin:/bin home/rt --help >out &&
	test_grep "^ *read-tree  *- " out
'

test_done
