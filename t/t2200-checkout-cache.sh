#!/bin/sh
test_description='checkout-cache: round trip, existing files, clashes, prefix'
. "$(dirname "$0")/test-lib.sh"

# An id of the store's size that names nothing.
MISSING=$(echo 1234567890123456789012345678901234567890123456789012345678901234 | cut -c1-$OID_HEXSZ)

# The work tree matches the index: git's view, and show-diff's (it must
# print nothing).
assert_clean() {
	GIT_DIR=.dircache git diff-files --quiet &&
	show-diff >"$TRASH_DIRECTORY/sd.out" &&
	test ! -s "$TRASH_DIRECTORY/sd.out"
}

# Every file's mode bits, link targets and content, for comparing trees.
describe_tree() {
	(cd "$1" &&
	 find . -path ./.dircache -prune -o -type f -perm -100 -print |
		sed "s/^/exec /" | sort &&
	 find . -path ./.dircache -prune -o -type f ! -perm -100 -print |
		sed "s/^/file /" | sort &&
	 find . -path ./.dircache -prune -o -type l -print | sort |
		while read -r l; do echo "link $l -> $(readlink "$l")"; done)
}

same_tree() {
	diff -r --no-dereference -x .dircache "$1" "$2" &&
	describe_tree "$1" >desc1 &&
	describe_tree "$2" >desc2 &&
	test_cmp desc1 desc2
}

test_expect_success 'setup: a tree of every kind of entry' '
	mkdir a && (
		cd a &&
		init-db 2>/dev/null &&
		mkdir -p deep/er/and/deeper d &&
		echo regular >file &&
		echo run >exe && chmod +x exe &&
		ln -s deep/er/and/deeper/leaf link &&
		ln -s ../../outside/nowhere dangling &&
		echo leaf >deep/er/and/deeper/leaf &&
		printf "#!/bin/sh\n" >deep/er/script && chmod 755 deep/er/script &&
		echo space >"with space" &&
		cafe=$(printf "caf\303\251") && echo cafe >"$cafe" &&
		echo g >d/g && : >empty &&
		update-cache --add file exe link dangling deep/er/and/deeper/leaf \
			deep/er/script "with space" "$cafe" d/g empty &&
		write-tree >../tree
	)
'

# Every work tree below shares the store of a.
GIT_OBJECT_DIRECTORY=$TRASH_DIRECTORY/a/.dircache/objects
export GIT_OBJECT_DIRECTORY

test_expect_success 'read-tree and checkout-cache -a in a second work tree' '
	mkdir b && (
		cd b &&
		init-db 2>/dev/null &&
		read-tree "$(cat ../tree)" &&
		checkout-cache -a 2>../err
	) &&
	test ! -s err &&
	same_tree a b &&
	test -x b/exe && test -x b/deep/er/script && ! test -x b/file
'

test_expect_success 'update-cache --refresh after checkout: clean' '
	(
		cd b &&
		test_must_fail env GIT_DIR=.dircache git diff-files --quiet &&
		update-cache --refresh &&
		assert_clean
	)
'

test_expect_success 'checkout-cache -a -u: clean at once' '
	rm -rf c && mkdir c && (
		cd c &&
		init-db 2>/dev/null &&
		read-tree "$(cat ../tree)" &&
		checkout-cache -a -u &&
		assert_clean &&
		GIT_DIR=.dircache git ls-files -s >../actual
	) &&
	(cd a && GIT_DIR=.dircache git ls-files -s) >expect &&
	test_cmp expect actual &&
	same_tree a c
'

test_expect_success 'git checkout-index writes the same tree' '
	rm -rf g && mkdir g && (
		cd g &&
		init-db 2>/dev/null &&
		GIT_DIR=.dircache git read-tree "$(cat ../tree)" &&
		GIT_DIR=.dircache git checkout-index -a
	) &&
	same_tree g c
'

test_expect_success 'the exec bit follows the umask' '
	rm -rf u && mkdir u && (
		cd u &&
		init-db 2>/dev/null &&
		read-tree "$(cat ../tree)" &&
		umask 077 &&
		checkout-cache -a &&
		ls -ld d/g exe file d | cut -c1-10 >../actual
	) &&
	printf "%s\n" drwx------ -rw------- -rwx------ -rw------- >expect &&
	test_cmp expect actual
'

test_expect_success 'usage' '
	cd c &&
	u="^usage: checkout-cache \[-a\] \[-f\] \[-q\] \[-u\] \[--prefix=<string>\] \[--\] <path>\.\.\.$" &&
	test_expect_code 129 checkout-cache -x 2>err &&
	test_grep "$u" err &&
	test_expect_code 129 checkout-cache -a file 2>err &&
	test_grep "^checkout-cache: -a cannot be used with paths$" err &&
	test_grep "$u" err &&
	test_expect_code 129 checkout-cache -u --prefix=x/ -a 2>err &&
	test_grep "^checkout-cache: -u cannot be used with --prefix$" err &&
	! test -e x &&
	checkout-cache -h >out &&
	test_grep "$u" out
'

test_expect_success 'an up-to-date file is left alone silently, as git does' '
	cd c &&
	ls -i file >before &&
	checkout-cache file 2>err &&
	test ! -s err &&
	ls -i file >after &&
	test_cmp before after
'

test_expect_success 'a changed file is kept without -f: message, exit 1, like git' '
	cd c &&
	echo mine >file &&
	test_expect_code 1 checkout-cache file 2>err &&
	echo "checkout-cache: '\''file'\'' already exists, no checkout" >expect &&
	test_cmp expect err &&
	echo mine >expect && test_cmp expect file &&
	test_expect_code 1 checkout-cache -a 2>err &&
	echo "checkout-cache: '\''file'\'' already exists, no checkout" >expect &&
	test_cmp expect err &&
	echo mine >expect && test_cmp expect file &&
	test_expect_code 1 env GIT_DIR=.dircache git checkout-index file 2>/dev/null &&
	test_expect_code 1 env GIT_DIR=.dircache git checkout-index -a 2>/dev/null
'

test_expect_success '-q: no message, still exit 1, like git' '
	cd c &&
	test_expect_code 1 checkout-cache -q file 2>err &&
	test ! -s err &&
	test_expect_code 1 checkout-cache -q -a 2>err &&
	test ! -s err &&
	echo mine >expect && test_cmp expect file &&
	test_expect_code 1 env GIT_DIR=.dircache git checkout-index -q file &&
	test_expect_code 1 checkout-cache -q nosuch 2>err &&
	test ! -s err &&
	test_expect_code 1 env GIT_DIR=.dircache git checkout-index -q nosuch
'

test_expect_success '-f replaces a changed file' '
	cd c &&
	checkout-cache -f file 2>err &&
	test ! -s err &&
	echo regular >expect && test_cmp expect file &&
	echo mine >file && chmod +x file &&
	checkout-cache -f -a &&
	echo regular >expect && test_cmp expect file &&
	! test -x file
'

test_expect_success 'a path not in the index: message, exit 1, the rest still written' '
	cd c &&
	rm file d/g &&
	test_expect_code 1 checkout-cache nosuch file d/g 2>err &&
	echo "checkout-cache: '\''nosuch'\'' is not in the cache" >expect &&
	test_cmp expect err &&
	echo regular >expect && test_cmp expect file &&
	echo g >expect && test_cmp expect d/g
'

test_expect_success 'command-line paths are normalized, -- ends options' '
	cd c &&
	rm d/g &&
	checkout-cache -- ./d//g &&
	echo g >expect && test_cmp expect d/g
'

test_expect_success 'a file where a directory goes: kept without -f, replaced with -f' '
	cd c &&
	rm -rf deep && echo blocker >deep &&
	rm file &&
	test_expect_code 1 checkout-cache -a 2>err &&
	test_grep "^checkout-cache: '\''deep/er/and/deeper/leaf'\'': leading path '\''deep'\'' is a file, not a directory; not checked out$" err &&
	test_grep "deep/er/script" err &&
	echo blocker >expect && test_cmp expect deep &&
	echo regular >expect && test_cmp expect file &&
	checkout-cache -f -a &&
	echo leaf >expect && test_cmp expect deep/er/and/deeper/leaf &&
	test -x deep/er/script
'

test_expect_success 'a directory where a file goes: kept without -f, removed with -f' '
	cd c &&
	rm file && mkdir -p file/sub && echo x >file/sub/y &&
	mkdir ../outside && echo precious >../outside/keep &&
	ln -s ../../../outside file/sub/link &&
	test_expect_code 1 checkout-cache file 2>err &&
	test_grep "^checkout-cache: '\''file'\'' already exists, no checkout$" err &&
	test -f file/sub/y &&
	checkout-cache -f file &&
	echo regular >expect && test_cmp expect file &&
	echo precious >expect && test_cmp expect ../outside/keep
'

test_expect_success 'a symlink where a file goes is replaced, not written through' '
	cd c &&
	rm file && ln -s ../outside/keep file &&
	test_expect_code 1 checkout-cache file &&
	checkout-cache -f file &&
	! test -h file &&
	echo regular >expect && test_cmp expect file &&
	echo precious >expect && test_cmp expect ../outside/keep
'

test_expect_success '-u records stat data: clean after the checkouts above' '
	cd c &&
	rm -f exe "with space" &&
	checkout-cache -u exe "with space" &&
	update-cache --refresh &&
	assert_clean &&
	rm d/g && echo changed >file &&
	checkout-cache -u -f -a &&
	assert_clean
'

test_expect_success '-u with a locked index: refused, nothing written' '
	cd c &&
	rm d/g &&
	: >.dircache/index.lock &&
	test_expect_code 128 checkout-cache -u -a 2>err &&
	test_grep "index.lock.*File exists" err &&
	! test -e d/g &&
	rm .dircache/index.lock &&
	checkout-cache -u -a
'

test_expect_success '--prefix exports the tree under a new directory' '
	cd c &&
	checkout-cache --prefix=export/rel-1/ -a &&
	same_tree ../a export/rel-1 &&
	test_expect_code 1 checkout-cache --prefix=export/rel-1/ file 2>err &&
	test_grep "'\''export/rel-1/file'\'' already exists" err &&
	checkout-cache -f --prefix=export/rel-1/ file &&
	rm -rf export &&
	checkout-cache --prefix=pre- file d/g &&
	echo regular >expect && test_cmp expect pre-file &&
	echo g >expect && test_cmp expect pre-d/g &&
	rm -rf pre-file pre-d
'

test_expect_success '--prefix with an absolute path' '
	cd c &&
	checkout-cache --prefix="$TRASH_DIRECTORY/abs/x/" -a &&
	same_tree ../a ../abs/x
'

test_expect_success 'a gitlink becomes an empty directory, like git' '
	cd c &&
	printf "160000 $MISSING\tsub\n" |
		GIT_DIR=.dircache git update-index --index-info &&
	checkout-cache sub &&
	test -d sub && test -z "$(ls -A sub)" &&
	checkout-cache sub &&
	rm -r sub && echo file >sub &&
	test_expect_code 1 checkout-cache sub 2>err &&
	test_grep "already exists" err &&
	checkout-cache -f sub &&
	test -d sub &&
	checkout-cache -u -a &&
	GIT_DIR=.dircache git ls-files -s sub >actual &&
	printf "160000 $MISSING 0\tsub\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a corrupt or missing blob fails that file only' '
	rm -rf k && mkdir k && (
		cd k &&
		unset GIT_OBJECT_DIRECTORY &&
		init-db 2>/dev/null &&
		echo one >one && echo two >two && echo three >three &&
		update-cache --add one two three &&
		obj=.dircache/objects/$(git hash-object two | sed "s|^..|&/|") &&
		chmod u+w "$obj" && echo garbage >"$obj" &&
		rm "$(echo .dircache/objects/$(git hash-object three) | sed "s|objects/..|&/|")" &&
		rm one two three &&
		test_expect_code 1 checkout-cache -a 2>../err &&
		! test -e two && ! test -e three &&
		ls -A >../actual
	) &&
	test_grep "^checkout-cache: '\''two'\'' not checked out$" err &&
	test_grep "^checkout-cache: '\''three'\'' not checked out$" err &&
	echo one >expect && test_cmp expect k/one &&
	printf "%s\n" .dircache one >expect &&
	test_cmp expect actual
'

test_expect_success 'nothing to do without -a or paths' '
	cd c &&
	checkout-cache 2>err &&
	test ! -s err
'

test_done
