#!/bin/sh
test_description='ls-tree: the entries of a tree, as git ls-tree lists them'
. "$(dirname "$0")/test-lib.sh"

# Compare ls-tree with git ls-tree for one set of arguments.
same_as_git() {
	ls-tree "$@" >ours &&
	GIT_DIR=.dircache git ls-tree "$@" >theirs &&
	test_cmp theirs ours
}

test_expect_success 'setup: a tree with hostile names, subtrees, a link' '
	test_create_repo repo &&
	(cd repo &&
	 mkdir -p a/b/c ab "sp ace" "dir
nl" q &&
	 echo 1 >a/one && echo 2 >a/b/two && echo 3 >a/b/c/three &&
	 echo 4 >ab/four && echo 5 >a.c && echo 6 >a-b && echo 7 >"tab	x" &&
	 echo 8 >"quo\"te" && echo 9 >"back\\slash" && echo 10 >"$(printf "caf\303\251")" &&
	 echo 11 >"sp ace/f" && echo 12 >"dir
nl/in" && echo 13 >"new
line" && echo 14 >q/"x*y" && echo 15 >"q/[g]" && echo 16 >"q/ab" &&
	 printf "#!/bin/sh\n" >exe && chmod +x exe && ln -s a/one link &&
	 find . -name .dircache -prune -o \( -type f -o -type l \) -print0 |
		update-cache --add --stdin -z &&
	 write-tree >../tree &&
	 echo commit | commit-tree $(cat ../tree) >../commit)
'

for opts in "" "-r" "-t" "-d" "-r -t" "-r -d" "-t -d" "-z" "-r -z" \
	"--name-only" "-r --name-only" "-r -t -z --name-only" "-d --name-only"
do
	test_expect_success "ls-tree $opts matches git" "
		cd repo &&
		same_as_git $opts \$(cat ../tree) &&
		same_as_git $opts \$(cat ../commit)
	"
done

for spec in a a/ a/b a/b/ a/b/c/three ab a.c nothere "a/b c" "q/x*" "q/a*" \
	"q/[g]" . "./a//b" "q/ab a/one" "a a/b/c"
do
	for opts in "" "-r" "-t" "-d" "-r -t" "-r -d"; do
		test_expect_success "ls-tree $opts <tree> '$spec' matches git" "
			cd repo &&
			same_as_git $opts \$(cat ../tree) $spec
		"
	done
done

test_expect_success 'hostile names as paths match git' '
	cd repo &&
	for opts in "" -r -t -z; do
		same_as_git $opts $(cat ../tree) "sp ace" "dir
nl/" "tab	x" "new
line" "$(printf "caf\303\251")" "quo\"te" || return 1
	done
'

test_expect_success 'a path through a file selects nothing' '
	cd repo &&
	same_as_git -r $(cat ../tree) a.c/x exe/ &&
	test ! -s ours
'

test_expect_success 'ls-tree of a tag lists its tree' '
	cd repo &&
	tag=$(printf "object %s\ntype commit\ntag v1\ntagger T <t@e> 0 +0000\n\nv1\n" \
		$(cat ../commit) | GIT_DIR=.dircache git hash-object -t tag -w --stdin) &&
	same_as_git -r $tag
'

test_expect_success 'refusals: no tree-ish, a blob, an unknown option' '
	cd repo &&
	test_expect_code 129 ls-tree &&
	test_expect_code 129 ls-tree --bogus $(cat ../tree) &&
	blob=$(GIT_DIR=.dircache git rev-parse $(cat ../tree):a.c) &&
	test_expect_code 128 ls-tree $blob 2>err &&
	test_grep "not a tree" err &&
	test_expect_code 128 ls-tree 0123456789012345678901234567890123456789 &&
	ls-tree -h >out && test_grep usage out
'

test_done
