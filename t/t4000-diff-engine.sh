#!/bin/sh
test_description='the diff engine: shortest diffs, in git'"'"'s patch format'
. "$(dirname "$0")/test-lib.sh"

# git apply in a trash subdirectory must not find the project's own
# repository above it
GIT_CEILING_DIRECTORIES=$(dirname "$TRASH_DIRECTORY")
export GIT_CEILING_DIRECTORIES

# check_pair OLD NEW: index OLD as f, put NEW in its place; show-diff
# must print what git diff prints, and the patch must turn a copy of
# OLD into NEW under git apply.
check_pair() {
	diff_both "$1" "$2" &&
	test_cmp expect actual &&
	check_apply "$1" "$2"
}

# diff_both OLD NEW: index OLD as repo/f, put NEW in its place; our
# patch goes to ./actual and git diff's to ./expect.
diff_both() {
	rm -rf repo applied &&
	test_create_repo repo &&
	cp "$1" repo/f &&
	(cd repo && update-cache --add f) &&
	cp "$2" repo/f &&
	(cd repo && show-diff >../actual &&
	 GIT_DIR=.dircache git diff >../expect)
}

# check_apply OLD NEW: ./actual applied to a copy of OLD gives NEW.
# (applied is a git repository so that git apply knows the store's hash)
check_apply() {
	git init -q applied &&
	cp "$1" applied/f &&
	if test -s actual; then
		(cd applied && git apply ../actual)
	fi &&
	cmp "$2" applied/f
}

# diff-pairs.py SEED NU NA: NU unambiguous pairs as old/u/N and
# new/u/N, NA ambiguous ones as old/a/N and new/a/N (see the test).
cat >diff-pairs.py <<\EOF
import os, random, sys

seed, nu, na = map(int, sys.argv[1:4])
rnd = random.Random(seed)
serial = [0]

def fresh(kind):
    serial[0] += 1
    return '%s %d' % (kind, serial[0])

def write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = ''.join(l + '\n' for l in lines)
    if data and rnd.random() < 0.1:
        data = data[:-1]
    with open(path, 'w') as f:
        f.write(data)

def mutate(old, new_line):
    new = []
    for l in old:
        r = rnd.random()
        if r < 0.1:
            continue
        if r < 0.2:
            new.append(new_line())
            continue
        if r < 0.3:
            new.append(new_line())
        new.append(l)
    if rnd.random() < 0.2:
        new.append(new_line())
    return new

for i in range(nu):
    old = [fresh('line') for _ in range(rnd.randint(0, 40))]
    new = mutate(old, lambda: fresh('new'))
    if new == old:
        new.append(fresh('new'))
    write('old/u/%03d' % i, old)
    write('new/u/%03d' % i, new)

alphabet = ['a', 'b', '{', '}', '', 'x y']
for i in range(na):
    old = [rnd.choice(alphabet) for _ in range(rnd.randint(0, 30))]
    new = mutate(old, lambda: rnd.choice(alphabet))
    write('old/a/%03d' % i, old)
    write('new/a/%03d' % i, new)
EOF

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

test_expect_success 'an insertion between blank-separated blocks, as git' '
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
	check_pair slide.c slide2.c
'

# Where several shortest diffs exist, git's choice is made by the way
# its search breaks ties and by how it slides runs of changed lines
# over equal ones (next to a change on the other side, else by the
# indent heuristic): ours must be the same patch.
test_expect_success 'an ambiguous change is placed where git places it' '
	lines a c >ac &&
	lines c c >cc &&
	check_pair ac cc &&
	sed 1,4d actual >hunks &&
	cat >expect-hunks <<-\EOF &&
	@@ -1,2 +1,2 @@
	-a
	+c
	 c
	EOF
	test_cmp expect-hunks hunks &&
	lines P x a b a Q >amb1 &&
	lines R x a Q >amb2 &&
	check_pair amb1 amb2 &&
	lines a x a x a x >rep &&
	lines a x a x a x a x >rep2 &&
	check_pair rep rep2 &&
	lines a "" "" b >blank1 &&
	lines a "" b >blank2 &&
	check_pair blank1 blank2
'

test_expect_success 'a run of changes slides next to a change on the other side' '
	lines x a b a b y >s1 &&
	lines x a b Z y >s2 &&
	check_pair s1 s2 &&
	lines top a a a a bottom >s3 &&
	lines top a a B bottom >s4 &&
	check_pair s3 s4
'

test_expect_success 'the indent heuristic: blank lines and indentation' '
	printf "if (a) {\n\tx();\n}\n\nif (b) {\n\ty();\n}\n" >ind1 &&
	printf "if (a) {\n\tx();\n}\n\nif (c) {\n\tz();\n}\n\nif (b) {\n\ty();\n}\n" >ind2 &&
	check_pair ind1 ind2 &&
	printf "{\n\t\tp();\n\t}\n\t{\n\t\tq();\n\t}\n}\n" >ind3 &&
	printf "{\n\t\tp();\n\t}\n\t{\n\t\tr();\n\t}\n\t{\n\t\tq();\n\t}\n}\n" >ind4 &&
	check_pair ind3 ind4 &&
	check_pair ind4 ind3
'

# Form feeds and vertical tabs are not white space to git's heuristic,
# a tab reaches the next multiple of 8, indentation counts up to 200
# and blank lines up to 20.
test_expect_success 'the indent heuristic: odd white space and its limits' '
	printf "a\n\f\nb\n\f\nb\nc\n" >ws1 &&
	printf "a\n\f\nb\n\f\nb\n\f\nb\nc\n" >ws2 &&
	check_pair ws1 ws2 &&
	printf "a\n\v\n \vx\nz\n \vx\nz\n" >ws3 &&
	printf "a\n\v\n \vx\nz\n \vx\nz\n \vx\nz\n" >ws4 &&
	check_pair ws3 ws4 &&
	deep=$(printf "%210s" x) &&
	lines a "$deep" b "$deep" b c >deep1 &&
	lines a "$deep" b "$deep" b "$deep" b c >deep2 &&
	check_pair deep1 deep2 &&
	{ lines a && for i in $(seq 25); do echo; done && lines x y x y z; } \
		>blanks1 &&
	{ lines a && for i in $(seq 25); do echo; done &&
	  lines x y x y x y z; } >blanks2 &&
	check_pair blanks1 blanks2
'

# git abbreviates an id on the "index" line to 7 digits, or to one more
# than it shares with the nearest other object in the store.
test_expect_success 'index lines: abbreviations as long as git makes them' '
	python3 -c "
import hashlib
seen = {}
i = 0
while True:
    data = b\"twin %d\n\" % i
    h = hashlib.new(\"$test_hash_algo\",
                    b\"blob %d\0\" % len(data) + data).hexdigest()
    if h[:7] in seen:
        open(\"twin1\", \"wb\").write(seen[h[:7]])
        open(\"twin2\", \"wb\").write(data)
        break
    seen[h[:7]] = data
    i += 1
" &&
	rm -rf repo && test_create_repo repo &&
	cp twin1 repo/f &&
	(cd repo && update-cache --add f && echo changed >f &&
	 show-diff >../short &&
	 GIT_DIR=.dircache git hash-object -w ../twin2 >/dev/null &&
	 show-diff >../actual && GIT_DIR=.dircache git diff >../expect) &&
	test_cmp expect actual &&
	test_grep "^index [0-9a-f]\{7\}\.\." short &&
	test_grep "^index [0-9a-f]\{8,\}\.\." actual
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
	diff_both bin1 bin2 &&
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
	id1=$(GIT_DIR=repo/.dircache git hash-object bin1) &&
	id2=$(GIT_DIR=repo/.dircache git hash-object bin2) &&
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

# lines drawn from a small set all match somewhere: the search gives
# up at its cost limit and settles for the point that got furthest,
# as git does, so the patch is not the shortest, but it is git's
test_expect_success 'many repeated lines: the cost limit' '
	awk "BEGIN { srand(7); for (i = 0; i < 30000; i++)
		print \"tok \" int(rand() * 300) }" >rep1 &&
	awk "BEGIN { srand(8) } { if (rand() < 0.3)
		print \"tok \" int(rand() * 300); else print }" rep1 >rep2 &&
	check_pair rep1 rep2
'

# Random pairs, made by diff-pairs.py (above): in u/ every line of a
# file is distinct and the new file keeps the old lines it keeps in
# order, so there is one shortest diff; in a/ lines come from a
# handful of values, so many shortest diffs exist.  Both must be git's
# patches byte for byte (t4103 has more).
test_expect_success 'random pairs: patches as git'"'"'s, and they apply' '
	rm -rf repo old new &&
	python3 diff-pairs.py 4000 150 150 &&
	test_create_repo repo &&
	cp -R old/. repo/ &&
	(cd repo && find u a -type f | sort >../files &&
	 update-cache --add $(cat ../files)) &&
	cp -R new/. repo/ &&
	(cd repo && show-diff >../actual &&
	 GIT_DIR=.dircache git diff >../expect) &&
	test_cmp expect actual &&
	test $(grep -c "^diff --git a/u/" actual) -ge 140 &&
	test $(grep -c "^diff --git a/a/" actual) -ge 130 &&
	rm -rf applied && cp -R old applied &&
	(cd applied && git apply ../actual) &&
	diff -r new applied
'

test_done
