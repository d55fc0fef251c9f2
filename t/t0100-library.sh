#!/bin/sh
test_description='the library modules through t/helper/test-tool'
. "$(dirname "$0")/test-lib.sh"

TT="$TEST_DIRECTORY/helper/test-tool"

# A repository holding every path below, for git to answer the same
# pathspec questions from its index.
PATHS='a a-b a.c a/b a/b/c a/x.txt b/a.txt Documentation/git-add.txt
Documentation/git.txt Documentation/tech/api-x.txt d/e/f.c sub/dir/x'

test_expect_success 'setup: a git index of every path' '
	git init -q g &&
	for p in $PATHS; do
		case "$p" in a|a/b) continue ;; esac
		mkdir -p "g/$(dirname "$p")" && echo "$p" >"g/$p" || return 1
	done &&
	echo a >g/a-file && (cd g && git add . && git rm -q --cached a-file) &&
	(cd g && git ls-files) >all
'

# Each pathspec, matched by us and by git ls-files on the same paths.
for spec in 'a' 'a/' 'a/b' 'Documentation' 'Documentation/' \
	'Documentation/git-*.txt' '*.txt' 'Doc*' '?/*.c' '[ab]/*' \
	'Documentation/*/api-*' 'sub/dir/x' '.' 'nosuch' 'a.c' 'a*' \
	'Documentation/git?add.txt' 'd/e' 'd/e/'
do
	test_expect_success "pathspec '$spec' selects what git's does" '
		(cd g && git ls-files -- "$spec") >expect &&
		"$TT" pathspec "$spec" -- $(cat all) >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'several pathspecs: the union, in the paths order' '
	(cd g && git ls-files -- a.c "Documentation/*.txt" sub) >expect &&
	"$TT" pathspec a.c "Documentation/*.txt" sub -- $(cat all) >actual &&
	test_cmp expect actual
'

test_expect_success 'directories: entered when they may hold a match' '
	"$TT" interest Documentation/git-add.txt "d/*.c" a/ -- \
		Documentation Docs d d/e a b >actual &&
	cat >expect <<-\EOT &&
	some Documentation
	none Docs
	some d
	some d/e
	all a
	none b
	EOT
	test_cmp expect actual
'

test_expect_success 'pathspecs outside the tree or empty are refused' '
	test_must_fail "$TT" pathspec ../x -- a 2>err &&
	test_grep "path .../x. is outside the tree" err &&
	test_must_fail "$TT" pathspec "" -- a 2>err &&
	test_grep "empty string is not a valid path" err &&
	test_must_fail "$TT" pathspec a/../../b -- a
'

test_expect_success 'refs: loose, symbolic, packed, a loose one hiding its packed copy' '
	test_create_repo r && cd r &&
	one=$(echo $ZERO_OID | tr 0 1) &&
	two=$(echo $ZERO_OID | tr 0 2) &&
	three=$(echo $ZERO_OID | tr 0 3) &&
	echo $one >.dircache/refs/heads/master &&
	mkdir -p .dircache/refs/tags/deep/er &&
	echo $two >.dircache/refs/tags/deep/er/t &&
	printf "# pack-refs with: peeled fully-peeled sorted \n%s refs/heads/master\n%s refs/heads/old\n%s refs/tags/v1\n^%s\n" \
		$three $three $two $one >.dircache/packed-refs &&
	"$TT" resolve-ref HEAD >actual &&
	echo "$one refs/heads/master" >expect &&
	test_cmp expect actual &&
	"$TT" resolve-ref refs/heads/old >actual &&
	echo "$three refs/heads/old" >expect &&
	test_cmp expect actual &&
	"$TT" for-each-ref >actual &&
	cat >expect <<-EOT &&
	$one refs/heads/master
	$three refs/heads/old
	$two refs/tags/deep/er/t
	$two refs/tags/v1
	EOT
	test_cmp expect actual &&
	GIT_DIR=.dircache git for-each-ref --format="%(objectname) %(refname)" >git-out &&
	test_cmp expect git-out
'

test_expect_success 'refs: a symref loop, a ref outside refs/, an unborn branch' '
	cd r &&
	echo "ref: refs/heads/loop2" >.dircache/refs/heads/loop1 &&
	echo "ref: refs/heads/loop1" >.dircache/refs/heads/loop2 &&
	test_expect_code 1 "$TT" resolve-ref refs/heads/loop1 &&
	echo "ref: ../../config" >.dircache/refs/heads/evil &&
	test_expect_code 1 "$TT" resolve-ref refs/heads/evil &&
	echo "ref: refs/heads/unborn" >.dircache/HEAD &&
	test_expect_code 1 "$TT" resolve-ref HEAD >actual &&
	echo "none refs/heads/unborn" >expect &&
	test_cmp expect actual
'

test_expect_success 'refs: a deep tree of directories under refs/ is walked' '
	cd r && rm -f .dircache/refs/heads/loop* .dircache/refs/heads/evil &&
	d=.dircache/refs/tags && i=0 &&
	while [ $i -lt 300 ]; do d=$d/x; i=$((i + 1)); done &&
	four=$(echo $ZERO_OID | tr 0 4) &&
	mkdir -p $d && echo $four >$d/t &&
	"$TT" for-each-ref >actual &&
	test_grep "^$four refs/tags/x/x/" actual
'

test_expect_success 'stream: any piece size gives the object, and a bad one fails at the end' '
	test_create_repo s && cd s &&
	seq 1 20000 >f && update-cache --add f &&
	id=$(git hash-object f) &&
	for piece in 1 7 4096 65536 1000000; do
		"$TT" stream $id $piece >out && cmp f out || return 1
	done &&
	chmod u+w $(obj_file $id) &&
	seq 1 20000 | sed s/9999/9998/ |
		GIT_DIR=.dircache git hash-object --stdin -w >/dev/null &&
	bad=$(seq 1 20000 | sed s/9999/9998/ | git hash-object --stdin) &&
	cp $(obj_file $bad) $(obj_file $id) &&
	test_must_fail "$TT" stream $id 4096 >out 2>err &&
	test_grep "hash mismatch $id" err
'

test_expect_success 'lock: replaces the file; a held lock is refused and kept' '
	echo old >file &&
	echo new | "$TT" lock file &&
	echo new >expect && test_cmp expect file &&
	test ! -e file.lock &&
	echo theirs >file.lock &&
	echo mine | test_must_fail "$TT" lock file 2>err &&
	test_grep "unable to create .file.lock.: File exists" err &&
	echo theirs >expect && test_cmp expect file.lock &&
	echo new >expect && test_cmp expect file
'

test_expect_success 'traverse: n trees in step, in git order, a file and a tree apart' '
	test_create_repo w && cd w &&
	mkdir a && echo 1 >a/x && echo 2 >a.b && echo 3 >c &&
	update-cache --add a/x a.b c && t1=$(write-tree) &&
	rm -rf a .dircache/index && echo 4 >a && echo 5 >d &&
	update-cache --add a a.b d && t2=$(write-tree) &&
	"$TT" traverse $t1 $t2 >actual &&
	cat >expect <<-\EOT &&
	- | 100644 a
	100644 a.b | 100644 a.b
	040000 a | -
	100644 c | -
	- | 100644 d
	EOT
	test_cmp expect actual
'

test_expect_success 'mbuf: formatted appends of any length, trims, detach' '
	long=$(printf "%0700d" 7) &&
	"$TT" mbuf a "b c" "$long" "" >got &&
	text="[a][b c][$long][]" &&
	echo "${#text} $text" >want &&
	test_cmp want got &&
	"$TT" mbuf >got &&
	echo "0 " >want &&
	test_cmp want got
'

test_done
