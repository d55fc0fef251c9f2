#!/bin/sh
test_description='ls-files: the index and the work tree, compared with git ls-files'
. "$(dirname "$0")/test-lib.sh"

# The store lives outside the work tree, so that git, which does not
# know .dircache, lists the same work tree as we do.
GIT_DIR=$TRASH_DIRECTORY/store
export GIT_DIR

same_as_git() {
	ls-files "$@" >../ours 2>../ours-err
	echo "exit $?" >>../ours
	git ls-files "$@" >../theirs 2>../theirs-err
	echo "exit $?" >>../theirs
	test_cmp ../theirs ../ours
}

test_expect_success 'setup: tracked, untracked, deleted, modified, hostile' '
	init-db >/dev/null 2>&1 && mkdir w && cd w &&
	mkdir -p src/deep/er doc build "sp ace" kill &&
	echo 1 >src/a.c && echo 2 >src/b.o && echo 3 >src/deep/er/x.c &&
	echo 4 >doc/README && echo 5 >build/out && echo 6 >"sp ace/t	ab" &&
	echo 7 >"new
line" && echo 8 >"$(printf "caf\303\251")" && echo 9 >"quo\"te" &&
	echo k >kill/file && echo m >mod && echo d >del && echo t >touched &&
	echo s >same-size && printf "#!/bin/sh\n" >exe &&
	ln -s src/a.c link && ln -s src dirlink &&
	update-cache --add src/a.c doc/README mod del kill/file touched \
		same-size exe link "$(printf "caf\303\251")" "sp ace/t	ab" \
		"new
line" &&
	# nothing racy: both tools then agree whoever writes the index
	sleep 1 &&
	echo 12 >src/new.c && echo 13 >build/extra &&
	echo changed >>mod && rm del && rm -r kill && echo iamfile >kill &&
	mkdir -p doc/README.d && echo x >doc/README.d/y &&
	echo S >same-size && chmod +x exe &&
	touch touched && printf "a\000b" >"bin file" &&
	mkfifo fifo
'

for o in "" -c -d -m "-d -m" -o -k -s -t "-t -c -d -m -o -k" "-c -d -m" \
	"-s -d" "-s -m" "-z" "-z -o" "-z -s -t -c -o" "-o -s" "-k -o"
do
	test_expect_success "ls-files $o matches git" "
		cd w &&
		same_as_git $o
	"
done

for spec in src src/ "src/*.c" "*.c" "s*" "sp ace" "doc/README" "doc/README/" \
	nothere "src/deep" "d?c" "[ks]*"
do
	test_expect_success "ls-files -o -c -m -d -k -t with '$spec' matches git" "
		cd w &&
		same_as_git -o -c -m -d -k -t -- '$spec'
	"
done

test_expect_success 'hostile names: quoted, and raw with -z' '
	cd w &&
	same_as_git -o -c &&
	grep "^\"new\\\\nline\"$" ../ours &&
	grep "^\"caf\\\\303\\\\251\"$" ../ours &&
	same_as_git -z -c &&
	tr "\000" "\n" <../ours | grep -x "line"
'

test_expect_success 'unmerged entries: -u, -s, -t, -d, -m' '
	cd w &&
	one=$(echo one | git hash-object -w --stdin) &&
	two=$(echo two | git hash-object -w --stdin) &&
	cp "$GIT_DIR/index" ../index.saved &&
	printf "0 %s\tmod\n" $ZERO_OID |
		git update-index --index-info &&
	printf "100644 %s 1\tmod\n100644 %s 2\tmod\n100755 %s 3\tmod\n100644 %s 2\tgone\n" \
		$one $two $one $two | git update-index --index-info &&
	ls-files -s >../stages && test_grep "	gone" ../stages &&
	for o in "" -u -s "-u -t" "-s -t" -d -m "-d -m -t" "-c -u" -o "-t -c -o -k -d -m -s"; do
		same_as_git $o || return 1
	done &&
	cp ../index.saved "$GIT_DIR/index"
'

test_expect_success 'a skip-worktree entry is tagged S and never deleted' '
	cd w &&
	git update-index --skip-worktree doc/README &&
	rm doc/README.d/y && rmdir doc/README.d && mv doc/README ../README.kept &&
	same_as_git -t -c -d -m &&
	test_grep "^S doc/README" ../ours &&
	mv ../README.kept doc/README &&
	git update-index --no-skip-worktree doc/README
'

test_expect_success 'nested repositories are listed as directories' '
	cd w &&
	mkdir -p nested/inner && (cd nested/inner && unset GIT_DIR && git init -q && echo x >f) &&
	mkdir -p fake/.git && echo x >fake/.git/HEAD && echo y >fake/z &&
	same_as_git -o &&
	test_grep "^nested/inner/$" ../ours &&
	rm -rf nested fake
'

test_expect_success 'a tracked directory holding a repository is entered, as git' '
	cd w &&
	mkdir -p held && echo f >held/f && update-cache --add held/f &&
	git update-index --add held/f &&
	(cd held && unset GIT_DIR && git init -q) && echo n >held/new &&
	same_as_git -o &&
	test_grep "^held/new$" ../ours &&
	rm -rf held && update-cache --remove held/f &&
	git update-index --remove held/f
'

test_expect_success 'the repository directory inside the work tree is not listed' '
	mkdir inner && cd inner && GIT_DIR=.dircache init-db 2>/dev/null &&
	echo a >a && echo b >b && GIT_DIR=.dircache update-cache --add a &&
	GIT_DIR=.dircache ls-files -o >../out &&
	echo b >../expect && test_cmp ../expect ../out
'

test_expect_success 'usage and refusals as git' '
	cd w &&
	test_expect_code 129 ls-files --bogus &&
	test_expect_code 128 ls-files -i 2>err && test_grep "with either -o or -c" err &&
	test_expect_code 128 ls-files -i -o 2>err && test_grep "exclude pattern" err &&
	test_expect_code 128 ls-files -o --exclude-from=../nothere 2>err &&
	test_grep "nothere" err &&
	ls-files -h >out && test_grep usage out
'

test_done
