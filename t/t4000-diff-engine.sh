#!/bin/sh
test_description='the diff engine: patches byte for byte as git prints them'
. "$(dirname "$0")/test-lib.sh"

# git apply in a trash subdirectory must not find the project's own
# repository above it
GIT_CEILING_DIRECTORIES=$(dirname "$TRASH_DIRECTORY")
export GIT_CEILING_DIRECTORIES

# check_pair OLD NEW: index OLD as f, put NEW in its place; show-diff
# must print what git diff prints, and the patch must turn a copy of
# OLD into NEW under git apply.
check_pair() {
	rm -rf repo applied &&
	test_create_repo repo &&
	cp "$1" repo/f &&
	(cd repo && update-cache --add f) &&
	cp "$2" repo/f &&
	(cd repo && show-diff >../actual &&
	 GIT_DIR=.dircache git diff >../expect) &&
	test_cmp expect actual &&
	check_apply "$1" "$2"
}

# check_apply OLD NEW: ./actual applied to a copy of OLD gives NEW.
check_apply() {
	mkdir applied &&
	cp "$1" applied/f &&
	if test -s actual; then
		(cd applied && git apply ../actual)
	fi &&
	cmp "$2" applied/f
}

lines() {
	for l in "$@"; do
		echo "$l"
	done
}

test_expect_success 'setup' '
	lines a b c d e f g h i j k l m n o p >base &&
	printf "" >empty
'

test_expect_success 'identical files give no output' '
	check_pair base base &&
	test_must_fail test -s actual
'

test_expect_success 'empty to non-empty and back' '
	check_pair empty base &&
	test_grep "^@@ -0,0 +1,16 @@$" actual &&
	check_pair base empty &&
	test_grep "^@@ -1,16 +0,0 @@$" actual
'

test_expect_success 'no newline at end of the old, the new or both' '
	printf "a\nb\nc" >nonl &&
	printf "a\nb\nC" >nonl2 &&
	lines a b c >nl &&
	check_pair nonl nl &&
	test_grep "^\\\\ No newline at end of file$" actual &&
	check_pair nl nonl &&
	check_pair nonl nonl2 &&
	test $(grep -c "^\\\\ No newline" actual) = 2
'

test_expect_success 'insertions at the start, middle and end' '
	lines NEW a b c d e f g h i j k l m n o p >start &&
	lines a b c d e f g NEW h i j k l m n o p >middle &&
	lines a b c d e f g h i j k l m n o p NEW >end &&
	check_pair base start &&
	test_grep "^@@ -1,3 +1,4 @@$" actual &&
	check_pair base middle &&
	check_pair base end &&
	test_grep "^@@ -14,3 +14,4 @@ m$" actual
'

test_expect_success 'deletions at the start, middle and end' '
	lines b c d e f g h i j k l m n o p >start &&
	lines a b c d e f g i j k l m n o p >middle &&
	lines a b c d e f g h i j k l m n o >end &&
	check_pair base start &&
	check_pair base middle &&
	check_pair base end
'

test_expect_success 'a single-line file: ",1" is omitted' '
	lines one >one &&
	lines two >two &&
	check_pair one two &&
	test_grep "^@@ -1 +1 @@$" actual
'

test_expect_success 'changes 7 lines apart make two hunks' '
	lines a B c d e f g h i J k l m n o p >two-hunks &&
	check_pair base two-hunks &&
	test $(grep -c "^@@" actual) = 2
'

test_expect_success 'changes 6 lines apart make one hunk' '
	lines a B c d e f g h I j k l m n o p >one-hunk &&
	check_pair base one-hunk &&
	test $(grep -c "^@@" actual) = 1 &&
	test_grep "^@@ -1,12 +1,12 @@$" actual
'

test_expect_success 'CRLF lines' '
	printf "a\r\nb\r\nc\r\nd\r\n" >crlf &&
	printf "a\r\nB\r\nc\r\nd\r\n" >crlf2 &&
	printf "a\nb\nc\nd\n" >lf &&
	check_pair crlf crlf2 &&
	check_pair crlf lf &&
	test $(grep -c "^-" actual) = 5
'

test_expect_success 'hunk headers name the function line above, as git' '
	cat >func.c <<-\EOF &&
	#include <stdio.h>
	static int a_function_with_a_very_long_name_that_goes_past_the_80_byte_limit(int x)   
	{
		int y = 1;
		int z = 2;
		int w = 3;
		return x + y;
	}

	$dollar_line
	_underscore(void)  	
	{
		int a;
		int b;
		int c;
		return 0;
	}
	EOF
	sed -e "s/return x + y/return x - y/" -e "s/return 0/return 1/" \
		func.c >func2.c &&
	check_pair func.c func2.c &&
	test_grep "^@@ -4,7 +4,7 @@ static int a_function_with_a_very_long_name_that_goes_past_the_80_byte_limit(int$" actual &&
	test_grep "^@@ .* @@ _underscore(void)$" actual
'

test_expect_success 'ambiguous changes slide as git slides them' '
	cat >slide.c <<-\EOF &&
	int f(void)
	{
		return 1;
	}

	int g(void)
	{
		return 2;
	}
	EOF
	cat >slide2.c <<-\EOF &&
	int f(void)
	{
		return 1;
	}

	int h(void)
	{
		return 3;
	}

	int g(void)
	{
		return 2;
	}
	EOF
	check_pair slide.c slide2.c &&
	lines a x a x a x >rep &&
	lines a x a x a x a x >rep2 &&
	check_pair rep rep2
'

test_expect_success 'paths with spaces and quoted bytes' '
	rm -rf repo && test_create_repo repo &&
	lines x >"repo/a b" &&
	lines x >"repo/t$(printf "\\t")ab" &&
	(cd repo && update-cache --add "a b" "t	ab" &&
	 lines y >"a b" && lines y >"t	ab" &&
	 show-diff >../actual && GIT_DIR=.dircache git diff >../expect) &&
	test_cmp expect actual &&
	test_grep "^--- a/a b	$" actual &&
	test_grep "^diff --git \"a/t\\\\tab\" \"b/t\\\\tab\"$" actual
'

test_expect_success 'binary content: "Binary files differ", as git' '
	printf "a\000b\n" >bin1 &&
	printf "a\000c\n" >bin2 &&
	rm -rf repo && test_create_repo repo &&
	cp bin1 repo/f &&
	(cd repo && update-cache --add f) &&
	cp bin2 repo/f &&
	(cd repo && show-diff >../actual &&
	 GIT_DIR=.dircache git diff >../expect) &&
	test_cmp expect actual &&
	test_grep "^Binary files a/f and b/f differ$" actual
'

test_expect_success 'binary content with --binary applies with git apply' '
	rm -rf repo applied &&
	test_create_repo repo &&
	cp bin1 repo/f &&
	(cd repo && update-cache --add f) &&
	cp bin2 repo/f &&
	(cd repo && show-diff --binary >../actual) &&
	test_grep "^GIT binary patch$" actual &&
	id1=$(git hash-object bin1) && id2=$(git hash-object bin2) &&
	test_grep "^index $id1\.\.$id2 100644$" actual &&
	check_apply bin1 bin2 &&
	(cd applied && git apply -R ../actual) &&
	cmp bin1 applied/f
'

# every other line of 100,000 changed: lines with no match on the other
# side never reach the O(ND) search
test_expect_success '100,000 lines with every other line changed' '
	awk "BEGIN { for (i = 1; i <= 100000; i++) print \"line \" i }" \
		>big1 &&
	awk "BEGIN { for (i = 1; i <= 100000; i++)
		if (i % 2) print \"line \" i; else print \"changed \" i }" \
		>big2 &&
	check_pair big1 big2 &&
	test $(grep -c "^-changed\|^+changed" actual) = 50000
'

# lines drawn from a small set all match somewhere: the search has to
# give up at its cost limit, and still git agrees and the patch applies
test_expect_success 'many repeated lines: the cost limit, as git' '
	awk "BEGIN { srand(7); for (i = 0; i < 30000; i++)
		print \"tok \" int(rand() * 300) }" >rep1 &&
	awk "BEGIN { srand(8) } { if (rand() < 0.3)
		print \"tok \" int(rand() * 300); else print }" rep1 >rep2 &&
	check_pair rep1 rep2
'

test_done
