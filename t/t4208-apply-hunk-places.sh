#!/bin/sh
test_description='apply: hunks land where git apply puts them, in any order'
. "$(dirname "$0")/test-lib.sh"

# apply keeps a file's lines with a gap where the last hunk went, and
# moves the gap from hunk to hunk.  These are the cases where the gap
# moves back (a hunk that goes above the one before it), a long way
# (hunks far apart, at the top and at the bottom), and where the file
# grows and shrinks by many lines.  git apply is the oracle: the same
# patch applied by both to copies of the same file gives the same
# bytes.

# gen N: N numbered lines.
gen() {
	seq 1 "$1" | sed "s/^/line /"
}

# same_as_git PATCH [ARGS]: apply PATCH in ours/ and git/ (copies of
# base/), with ARGS; both succeed and leave the same files.
same_as_git() {
	rm -rf ours git &&
	cp -R base ours && cp -R base git &&
	(cd ours && apply $2 "../$1") &&
	(cd git && git apply $2 "../$1") &&
	diff -r ours git
}

test_expect_success 'setup' '
	mkdir base new &&
	gen 200 >base/text &&
	gen 200 | sed -e "s/^line 10$/ten/" -e "s/^line 100$/hundred/" \
		-e "s/^line 190$/one-ninety/" >new/text &&
	gen 3 >base/grow &&
	{ gen 3; gen 2000 | sed "s/line/more/"; } >new/grow &&
	gen 3000 >base/shrink &&
	gen 3000 | awk "NR % 10" >new/shrink &&
	printf "a\nb\nc\nd" >base/noeol &&
	printf "a\nb\nc\nD" >new/noeol &&
	for f in text grow shrink noeol; do
		git diff --no-index -U2 --src-prefix=a/ --dst-prefix=b/ \
			"base/$f" "new/$f" |
		sed -e "s|a/base/|a/|g" -e "s|b/new/|b/|g" >"$f.patch" ||
		return 1
	done &&
	test "$(grep -c "^@@" text.patch)" = 3 &&
	test "$(grep -c "^@@" shrink.patch)" -gt 100
'

test_expect_success 'hunks in order, far apart' '
	same_as_git text.patch &&
	cmp ours/text new/text
'

# The last hunk first, then the other two: each goes above the gap
# the one before it left.
test_expect_success 'hunks given bottom up' '
	awk "/^@@/ { n++ } n == 0 { print > \"head\" }
	     n > 0 { print > (\"h\" n) }" text.patch &&
	cat head h3 h2 h1 >reversed.patch &&
	same_as_git reversed.patch &&
	cmp ours/text new/text
'

test_expect_success 'hunks at an offset, up and down' '
	{ gen 7 | sed "s/line/extra/"; gen 200 | sed "/^line 5[0-9]$/d"; } \
		>base/text &&
	same_as_git text.patch &&
	grep -x ten ours/text && grep -x hundred ours/text &&
	grep -x one-ninety ours/text &&
	gen 200 >base/text
'

test_expect_success 'a file grown by many lines, and back' '
	same_as_git grow.patch &&
	cmp ours/grow new/grow &&
	cp new/grow base/grow &&
	same_as_git grow.patch -R &&
	gen 3 >expect &&
	cmp ours/grow expect
'

test_expect_success 'a file shrunk by many hunks, and back' '
	gen 3 >base/grow &&
	same_as_git shrink.patch &&
	cmp ours/shrink new/shrink &&
	cp new/shrink base/shrink &&
	same_as_git shrink.patch -R &&
	gen 3000 >expect &&
	cmp ours/shrink expect &&
	gen 3000 >base/shrink
'

test_expect_success 'the last line, without a newline' '
	same_as_git noeol.patch &&
	cmp ours/noeol new/noeol
'

test_done
