#!/bin/sh
test_description='show-diff with many changed entries: worked out on every
core, printed in index order, exactly as git diff-files and as one thread'
. "$(dirname "$0")/test-lib.sh"

GIT_CEILING_DIRECTORIES=$(dirname "$TRASH_DIRECTORY")
export GIT_CEILING_DIRECTORIES

# 400 files in 8 directories, f000 .. f399; of them 200 change (more
# than enough for the workers), in every way show-diff tells apart.
test_expect_success 'setup: 400 files, 200 changed' '
	test_create_repo repo &&
	(cd repo &&
	 i=0 &&
	 while test $i -lt 400; do
		n=$(printf "%03d" $i) &&
		mkdir -p d$((i % 8)) &&
		printf "line 1 of %s\nline 2\nline 3\n" $n >d$((i % 8))/f$n &&
		i=$((i + 1)) || return 1
	 done &&
	 find d? -type f | sort >../files &&
	 update-cache --add $(cat ../files) &&
	 i=0 &&
	 for f in $(cat ../files); do
		case $((i % 10)) in
		0|1|2) echo more >>$f ;;
		3) rm $f ;;
		4) chmod +x $f ;;
		5) rm $f && ln -s elsewhere $f ;;
		6) touch -d "2001-01-01" $f ;;	# stat only: no change
		esac
		i=$((i + 2)) || return 1
	 done)
'

git_diff_files() {
	(cd repo &&
	 { GIT_DIR=.dircache git update-index -q --refresh >/dev/null || :; } &&
	 GIT_DIR=.dircache git diff-files "$@")
}

test_expect_success 'the patch is git diff-files -p, byte for byte' '
	(cd repo && show-diff >../ours) &&
	git_diff_files -p >theirs &&
	test_cmp theirs ours &&
	test $(grep -c "^diff --git" ours) -gt 150
'

test_expect_success 'name-status is git diff-files --name-status' '
	(cd repo && show-diff -s >../ours) &&
	git_diff_files --name-status >theirs &&
	test_cmp theirs ours
'

test_expect_success 'pathspecs pick the same entries as git' '
	(cd repo && show-diff d3 d5/f005 >../ours) &&
	git_diff_files -p d3 d5/f005 >theirs &&
	test_cmp theirs ours
'

test_expect_success '-q answers by the exit status alone' '
	(cd repo && test_expect_code 1 show-diff -q >../out) &&
	test ! -s out
'

# A blob missing from the store for a changed entry in the middle: the
# patches before it are printed, then the one error, once, and exit 128,
# as one thread would have done.
test_expect_success 'a failure in the middle is reported once, in order' '
	(cd repo && show-diff >../all) &&
	sha=$(cd repo && ls-files -s d4/f100 | cut -d" " -f2) &&
	obj=repo/.dircache/objects/$(echo $sha | cut -c1-2)/$(echo $sha | cut -c3-) &&
	mv $obj saved &&
	(cd repo && test_expect_code 128 show-diff >../out 2>../err) &&
	mv saved $obj &&
	sed -n "/^diff --git a\/d4\/f100 /q;p" all >expect &&
	test_cmp expect out &&
	{ echo "show-diff: object $sha not found" &&
	  printf "show-diff: cannot read the indexed content of \047%s\047\n" \
		d4/f100; } >expect.err &&
	test_cmp expect.err err
'

test_expect_success 'an unmerged path among them is shown in its place' '
	(cd repo &&
	 GIT_DIR=.dircache && export GIT_DIR &&
	 one=$(echo one | git hash-object -w --stdin) &&
	 two=$(echo two | git hash-object -w --stdin) &&
	 zero=$ZERO_OID &&
	 printf "0 %s\td4/f100\000100644 %s 1\td4/f100\000" $zero $one >info &&
	 printf "100644 %s 2\td4/f100\000" $two >>info &&
	 ls-files -s d4/f100 >../before &&
	 git update-index -z --index-info <info &&
	 ls-files -s d4/f100 >../after &&
	 show-diff -s >../ours) &&
	git_diff_files --name-status >theirs &&
	test_cmp theirs ours &&
	test $(wc -l <before) = 1 && test $(wc -l <after) = 2 &&
	grep "^U	d4/f100" ours &&
	(cd repo && show-diff >../ours) &&
	grep "^\* Unmerged path d4/f100" ours &&
	git_diff_files -p >theirs &&
	test_cmp theirs ours
'

test_done
