#!/bin/sh
test_description='patches of random files, byte for byte as git'"'"'s'
. "$(dirname "$0")/test-lib.sh"

# t/diff-corpus.py makes a few hundred pairs of files of the kinds
# where several shortest diffs exist and git's choice among them shows:
# repeated lines, blank lines, indentation, code edited as people edit
# it, odd white space, and files big enough for the search's shortcuts
# (see the script).  The old files are stored as tree A and kept in the
# index, the new ones as tree B and left in the work tree; then
# diff-tree -p and show-diff must print git's patches byte for byte.
# DIFF_CORPUS_SEED picks another corpus.

seed=${DIFF_CORPUS_SEED:-4103}
CORPUS="$TEST_DIRECTORY/diff-corpus.py"
classes="alpha=80 code=80 real=60 edge=60 lost=40 shuffle=6 huge=1"

test_expect_success "setup: random pairs of files (seed $seed)" '
	python3 "$CORPUS" $seed corpus "$TOP" $classes &&
	test_create_repo . &&
	(cd corpus/old && find . -type f | sort) >files &&
	cp -R corpus/old/. . &&
	update-cache --add --stdin <files &&
	write-tree >A &&
	cp -R corpus/new/. . &&
	GIT_INDEX_FILE=.dircache/index-b update-cache --add --stdin <files &&
	GIT_INDEX_FILE=.dircache/index-b write-tree >B &&
	test $(wc -l <files) = 327
'

test_expect_success 'diff-tree -p: every patch is git'"'"'s' '
	GIT_DIR=.dircache git diff-tree -p $(cat A) $(cat B) >expect &&
	diff-tree -p $(cat A) $(cat B) >actual &&
	test_cmp expect actual &&
	for c in alpha code real edge lost shuffle huge; do
		n=$(grep -c "^diff --git a/$c/" actual) &&
		echo "$c: $n patches" &&
		test $n -gt 0 || return 1
	done &&
	test $(grep -c "^diff --git" actual) -ge 300
'

test_expect_success 'diff-tree -p backwards: git'"'"'s too' '
	GIT_DIR=.dircache git diff-tree -p $(cat B) $(cat A) >expect &&
	diff-tree -p $(cat B) $(cat A) >actual &&
	test_cmp expect actual
'

test_expect_success 'show-diff: the work tree against the index, as git diff' '
	GIT_DIR=.dircache git diff >expect &&
	show-diff >actual &&
	test_cmp expect actual
'

test_expect_success 'the patch turns the old files into the new' '
	rm -rf applied && mkdir applied &&
	cp -R corpus/old/. applied/ &&
	(cd applied && git apply ../actual) &&
	diff -r corpus/new applied
'

test_done
