#!/bin/sh
test_description='diff-tree -p: patches that git apply accepts'
. "$(dirname "$0")/test-lib.sh"

# Trees are stored with our update-cache and write-tree.  Each patch is
# applied with git apply to a checkout of the old tree (made by git),
# and the result must store as the new tree; where git prints the same
# patch, it is also compared with git diff-tree -p byte for byte.

# checkout TREE DIR: DIR becomes a git work tree holding TREE.
checkout() {
	rm -rf "$2" &&
	git init -q "$2" &&
	GIT_DIR=.dircache git archive "$1" | tar -x -C "$2"
}

# applies_to FROM TO [OPTIONS]: our patch turns a checkout of FROM
# into TO.
applies_to() {
	from=$1 to=$2 &&
	shift 2 &&
	diff-tree -p "$@" $from $to >patch &&
	checkout $from co &&
	(cd co && git apply ../patch && git add -A && git write-tree) >got &&
	echo $to >want &&
	test_cmp want got
}

test_expect_success 'setup: every kind of file change' '
	test_create_repo . &&
	mkdir -p w/dir w/gone w/todir &&
	printf "line %s\n" 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 \
		>w/text &&
	printf "int f(void)\n{\n\treturn 1;\n}\n\nint g(void)\n{\n\tint x;\n\n\tx = 2;\n\treturn x;\n}\n" >w/func.c &&
	printf "no newline" >w/noeol &&
	printf "gets one" >w/gaineol &&
	printf "loses one\n" >w/loseeol &&
	: >w/empty-deleted &&
	echo "becomes empty" >w/to-empty &&
	echo mode >w/mode &&
	echo x >w/exec-and-change && chmod +x w/exec-and-change &&
	echo bye >w/deleted &&
	echo d >w/gone/a && echo e >w/gone/b &&
	printf "\000\001\002binary\n" >w/bin &&
	printf "\000old" >w/bin-deleted &&
	ln -s target w/link &&
	ln -s other w/link-deleted &&
	echo file >w/to-link &&
	ln -s was-link w/from-link &&
	echo file >w/todir.x &&
	rmdir w/todir && echo file >w/todir &&
	echo "tab" >"w/tab	name" &&
	echo inner >w/dir/inner &&
	snap A &&
	printf "line %s\n" 1 2 3 4 five 6 7 8 9 10 11 12 13 14 15 sixteen 17 18 19 20 21 \
		>w/text &&
	printf "int f(void)\n{\n\treturn 1;\n}\n\nint g(void)\n{\n\tint x;\n\n\tx = 3;\n\treturn x;\n}\n" >w/func.c &&
	printf "no newline either" >w/noeol &&
	printf "gets one\n" >w/gaineol &&
	printf "loses one" >w/loseeol &&
	rm w/empty-deleted &&
	: >w/to-empty &&
	: >w/empty-added &&
	chmod +x w/mode &&
	echo y >w/exec-and-change && chmod -x w/exec-and-change &&
	rm w/deleted && rm -r w/gone &&
	echo hello >w/added &&
	mkdir -p w/new/deep && echo deep >w/new/deep/file &&
	printf "\000\001\003binary\n" >w/bin &&
	rm w/bin-deleted &&
	printf "\377\000new" >w/bin-added &&
	rm w/link && ln -s elsewhere w/link &&
	rm w/link-deleted &&
	ln -s added w/link-added &&
	rm w/to-link && ln -s now-a-link w/to-link &&
	rm w/from-link && echo now-a-file >w/from-link &&
	rm w/todir && mkdir w/todir && echo in >w/todir/in &&
	echo "tab changed" >"w/tab	name" &&
	echo "caf" >"w/$(printf "caf\303\251")" &&
	snap B
'

test_expect_success 'the patch is git'"'"'s, byte for byte' '
	GIT_DIR=.dircache git diff-tree -p $(cat A) $(cat B) >expect &&
	diff-tree -p $(cat A) $(cat B) >actual &&
	test_cmp expect actual &&
	test_grep "^Binary files a/bin and b/bin differ$" actual &&
	test_grep "^@@ .* @@ int g(void)$" actual
'

test_expect_success 'reversed, it is git'"'"'s too' '
	GIT_DIR=.dircache git diff-tree -p $(cat B) $(cat A) >expect &&
	diff-tree -p $(cat B) $(cat A) >actual &&
	test_cmp expect actual
'

test_expect_success '-p implies -r and ignores -z, as in git' '
	GIT_DIR=.dircache git diff-tree -p -z $(cat A) $(cat B) >expect &&
	diff-tree -z -p $(cat A) $(cat B) >actual &&
	test_cmp expect actual &&
	test_grep "^+++ b/new/deep/file$" actual
'

test_expect_success 'paths limit the patch' '
	GIT_DIR=.dircache git diff-tree -p $(cat A) $(cat B) -- todir new >expect &&
	diff-tree -p $(cat A) $(cat B) -- todir new >actual &&
	test_cmp expect actual &&
	test_grep "^diff --git a/todir/in b/todir/in$" actual &&
	! grep "a/text" actual
'

test_expect_success 'the --binary patch applies forward' '
	applies_to $(cat A) $(cat B) --binary &&
	test_grep "^GIT binary patch$" patch &&
	test_grep "^deleted file mode 120000$" patch &&
	test_grep "^new file mode 100644$" patch &&
	test_grep "^old mode 100644$" patch &&
	test_grep "^\\\\ No newline at end of file$" patch
'

test_expect_success 'the --binary patch applies backward' '
	applies_to $(cat B) $(cat A) --binary
'

test_expect_success 'without binary content the text patch applies' '
	printf "\000\001\002binary\n" >w/bin &&
	printf "\000old" >w/bin-deleted &&
	rm w/bin-added &&
	snap B2 &&
	applies_to $(cat A) $(cat B2) &&
	! grep "^Binary files" patch
'

test_expect_success '--binary implies -p; without binary content it is git'"'"'s' '
	GIT_DIR=.dircache git diff-tree --binary $(cat A) $(cat B2) >expect &&
	diff-tree --binary $(cat A) $(cat B2) >actual &&
	test_cmp expect actual &&
	diff-tree -p $(cat A) $(cat B2) >plain &&
	test_cmp plain actual
'

test_expect_success 'a mode-only change is a patch without hunks' '
	diff-tree -p $(cat A) $(cat B) -- mode >actual &&
	cat >expect <<-\EOF &&
	diff --git a/mode b/mode
	old mode 100644
	new mode 100755
	EOF
	test_cmp expect actual
'

test_expect_success 'gitlinks: changed, added, deleted, from a file' '
	blob=$(echo x | GIT_DIR=.dircache git hash-object -w --stdin) &&
	c1=$(GIT_DIR=.dircache git commit-tree $EMPTY_TREE -m a) &&
	c2=$(GIT_DIR=.dircache git commit-tree $EMPTY_TREE -m b) &&
	t1=$(printf "160000 commit %s\tsub\n100644 blob %s\tgl\n160000 commit %s\tgone\n" \
		$c1 $blob $c1 | GIT_DIR=.dircache git mktree) &&
	t2=$(printf "160000 commit %s\tsub\n160000 commit %s\tgl\n160000 commit %s\tnew\n" \
		$c2 $c1 $c2 | GIT_DIR=.dircache git mktree) &&
	GIT_DIR=.dircache git diff-tree -p $t1 $t2 >expect &&
	diff-tree -p $t1 $t2 >actual &&
	test_cmp expect actual &&
	test_grep "^+Subproject commit $c2$" actual
'

test_expect_success 'identical trees give an empty patch' '
	diff-tree -p --binary $(cat B) $(cat B) >actual &&
	test_must_fail test -s actual
'

test_expect_success 'a missing blob stops the patch' '
	blob=$(GIT_DIR=.dircache git rev-parse $(cat B):added) &&
	rm .dircache/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	test_expect_code 128 diff-tree -p $(cat A) $(cat B) >out 2>err &&
	test_grep "^diff-tree: object $blob not found$" err &&
	test_grep "^diff-tree: cannot read blob $blob for .added.$" err &&
	diff-tree -r $(cat A) $(cat B) >out &&
	test_grep "	added$" out
'

test_expect_success 'no tab after /dev/null for a name with a space' '
	mkdir s && (cd s && init-db 2>/dev/null && mkdir w &&
	echo 1 >w/keep && snap ../SA && echo 2 >"w/has space" && snap ../SB &&
	GIT_DIR=.dircache git diff-tree -p $(cat ../SA) $(cat ../SB) >expect &&
	diff-tree -p $(cat ../SA) $(cat ../SB) >actual &&
	test_cmp expect actual)
'

# same_but_placement GIT OURS: the patches name the same files with the
# same headers, and ours changes no more lines per file than git's.
# Where several shortest diffs exist, diff.c may place a change
# elsewhere than git does, so the hunks themselves are not compared.
same_but_placement() {
	placement_summary "$1" >expect.sum &&
	placement_summary "$2" >actual.sum &&
	sed "s/^changes .*/changes/" expect.sum >expect.hdr &&
	sed "s/^changes .*/changes/" actual.sum >actual.hdr &&
	test_cmp expect.hdr actual.hdr &&
	paste -d " " expect.sum actual.sum |
	awk "\$1 == \"changes\" && \$4 > \$2 { bad = 1 } END { exit bad }"
}

# placement_summary PATCH: the lines outside hunks as they are, and
# "changes N" for the lines each file's hunks remove or add.
placement_summary() {
	awk '/^diff --git / { if (hunk) print "changes", n; n = 0; hunk = 0 }
	     /^@@ / { hunk = 1; next }
	     hunk && /^[-+]/ { n++ }
	     hunk { next }
	     { print }
	     END { if (hunk) print "changes", n }' "$1"
}

test_expect_success 'random trees: every patch applies and is git'"'"'s' '
	mkdir r && (cd r && init-db 2>/dev/null && mkdir trees &&
	python3 "$TEST_DIRECTORY/mutate-tree.py" --binary --populate 40 \
		--rounds 25 --run "
		rm -f .dircache/index &&
		(cd w && find . \\( -type f -o -type l \\) -print0 |
			GIT_DIR=../.dircache update-cache --add --stdin -z) &&
		write-tree >trees/\$ROUND" \
		4102 w 6 >ops &&
	i=1 &&
	while [ $i -le 25 ]; do
		read from <trees/$((i - 1)) && read to <trees/$i &&
		applies_to $from $to --binary &&
		GIT_DIR=.dircache git diff-tree -p $from $to >expect &&
		diff-tree -p $from $to >actual &&
		same_but_placement expect actual || return 1
		i=$((i + 1))
	done &&
	read from <trees/0 &&
	applies_to $from $to --binary &&
	test_grep "GIT binary patch" patch &&
	applies_to $to $from --binary)
'

test_done
