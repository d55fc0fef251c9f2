#!/bin/sh
test_description='apply: git diff patches of every kind, against git apply'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-apply.sh"

# Each patch of the corpus (t/lib-apply.sh) is applied by us in one
# copy of the old tree and by git apply in another: the trees (and
# with --index or --cached the indexes) must come out the same.

test_expect_success 'setup: a corpus of patches made by git diff' '
	apply_setup
'

for c in $APPLY_CASES; do
	test_expect_success "$c: same tree as git apply" '
		pair &&
		(cd ours && apply ../patches/'$c') &&
		(cd theirs && git apply ../patches/'$c') &&
		tree_of ours >got &&
		tree_of theirs >want &&
		test_cmp want got &&
		git -C src rev-parse '$c'^{tree} >branch &&
		test_cmp branch got
	'

	test_expect_success "$c: -R on the new tree does what git apply -R does" '
		pair '$c' &&
		(cd ours && apply -R ../patches/'$c'; echo $? >../ours.rc) &&
		(cd theirs && git apply -R ../patches/'$c'; echo $? >../theirs.rc) &&
		test_cmp theirs.rc ours.rc &&
		tree_of ours >got &&
		tree_of theirs >want &&
		test_cmp want got &&
		if [ '$c' != copy ]; then
			git -C src rev-parse A^{tree} >want &&
			test_cmp want got
		fi
	'

	test_expect_success "$c: --stat, --numstat and --summary as git" '
		for o in --stat --numstat --summary "--stat --summary" -R; do
			apply $o --stat patches/'$c' >got &&
			git apply $o --stat patches/'$c' >want &&
			test_cmp want got || return 1
		done
	'

	test_expect_success "$c: --check writes nothing" '
		pair &&
		state_of ours >before &&
		(cd ours && apply --check ../patches/'$c') &&
		state_of ours >after &&
		test_cmp before after
	'

	test_expect_success "$c: --index updates the index as git does" '
		pair &&
		(cd ours && GIT_DIR=.git apply --index ../patches/'$c') &&
		(cd theirs && git apply --index ../patches/'$c') &&
		git -C ours ls-files -s >got &&
		git -C theirs ls-files -s >want &&
		test_cmp want got &&
		git -C ours diff-files --name-status >dirty &&
		test_cmp /dev/null dirty &&
		git -C ours status --porcelain >status &&
		git -C theirs status --porcelain >want-status &&
		test_cmp want-status status
	'

	test_expect_success "$c: --cached changes the index only" '
		pair &&
		state_of ours >before &&
		(cd ours && GIT_DIR=.git apply --cached ../patches/'$c') &&
		(cd theirs && git apply --cached ../patches/'$c') &&
		git -C ours ls-files -s >got &&
		git -C theirs ls-files -s >want &&
		test_cmp want got &&
		state_of ours | grep -v "^\./\.git/" >after &&
		grep -v "^\./\.git/" before >before-wt &&
		test_cmp before-wt after
	'
done

test_expect_success 'all patches at once, in one set' '
	pair &&
	for c in modify add delete mode binlit noeol crlf quoted; do
		cat patches/$c || return 1
	done >all &&
	(cd ours && apply ../all) &&
	(cd theirs && git apply ../all) &&
	tree_of ours >got &&
	tree_of theirs >want &&
	test_cmp want got
'

test_expect_success 'a format-patch series touching one file again and again' '
	(
		cd src &&
		git checkout -q -b series A &&
		for i in 1 2 3 4 5 6; do
			sed -i "s/^line $((i * 7))\$/edit $i/" text &&
			echo "tail $i" >>text &&
			git commit -q -a -m "edit $i" || exit 1
		done &&
		git format-patch -q --stdout A >../series.mbox &&
		git checkout -q A
	) &&
	pair &&
	(cd ours && apply ../series.mbox) &&
	tree_of ours >got &&
	git -C src rev-parse series^{tree} >want &&
	test_cmp want got &&
	apply --stat series.mbox >got &&
	git apply --stat series.mbox >want &&
	test_cmp want got
'

test_expect_success 'hunks found where the file has moved (offsets)' '
	pair &&
	for d in ours theirs; do
		(cd $d && { gen 12 | sed "s/line/top/"; cat text; } >t.new &&
		 sed "/^line 70\$/,/^line 74\$/d" t.new >text && rm t.new) ||
		return 1
	done &&
	(cd ours && apply -v ../patches/modify 2>../err) &&
	(cd theirs && git apply -v ../patches/modify 2>../git-err) &&
	tree_of ours >got &&
	tree_of theirs >want &&
	test_cmp want got &&
	test_grep "Hunk #1 succeeded at 14 (offset 12 lines)" err &&
	test_cmp git-err err
'

test_expect_success 'plain diff -u patches, -p1 and -p0' '
	rm -rf old new &&
	mkdir old new &&
	(cd base && git archive A) | tar -x -C old &&
	(cd src && git archive modify) | tar -x -C new &&
	rm -f old/*.bin old/bin-big new/*.bin new/bin-big &&
	find old new -type l -exec rm {} + &&
	echo fresh >new/fresh &&
	rm new/gone &&
	{ diff -ruN old new >plain; test $? = 1; } &&
	pair &&
	(cd ours && apply ../plain) &&
	(cd theirs && git apply ../plain) &&
	tree_of ours >got &&
	tree_of theirs >want &&
	test_cmp want got &&
	(cd old && { diff -u text ../new/text >../p0; test $? = 1; }) &&
	sed -i "2s|^+++ ../new/text|+++ text|" p0 &&
	pair &&
	(cd ours && apply -p0 ../p0) &&
	(cd theirs && git apply -p0 ../p0) &&
	tree_of ours >got &&
	tree_of theirs >want &&
	test_cmp want got
'

test_expect_success 'standard input when no file is given' '
	pair &&
	(cd ours && apply <../patches/modify) &&
	tree_of ours >got &&
	git -C src rev-parse modify^{tree} >want &&
	test_cmp want got
'

test_expect_success '--index records stat data: git sees a clean tree' '
	pair &&
	(cd ours && GIT_DIR=.git apply --index ../patches/modify &&
	 GIT_DIR=.git apply --index ../patches/rename) &&
	git -C ours diff-files --name-only >dirty &&
	test_cmp /dev/null dirty &&
	git -C ours diff-index --cached --name-only HEAD >changed &&
	test_line_count() { test $(wc -l <"$2") -eq "$1"; } &&
	test -s changed
'

test_done
