#!/bin/sh
test_description='update-cache: add, remove, refresh, cacheinfo, stdin'
. "$(dirname "$0")/test-lib.sh"

# git's view of our index: mode, id, stage and path of every entry.
git_ls() {
	GIT_DIR=.dircache git ls-files -s
}

test_expect_success 'setup' '
	init-db 2>/dev/null &&
	mkdir -p d/e &&
	echo hello >a &&
	echo world >"sp ace" &&
	printf "no newline" >d/e/f &&
	chmod +x d/e/f &&
	ln -s a lnk &&
	: >empty &&
	cafe=$(printf "caf\303\251") &&
	echo cafe >"$cafe"
'

test_expect_success 'ids and modes equal git hash-object' '
	cafe=$(printf "caf\303\251") &&
	update-cache --add a "sp ace" d/e/f lnk empty "$cafe" &&
	for f in a "sp ace" d/e/f empty "$cafe"; do
		echo "$(GIT_DIR=.dircache git hash-object "$f")"
	done >expect &&
	printf "%s" a | GIT_DIR=.dircache git hash-object --stdin >>expect &&
	git_ls >ls &&
	sed -n "s/^[0-7]* \([0-9a-f]*\) 0	\(.*\)/\1/p" ls | sort >actual &&
	sort expect >expect.sorted &&
	test_cmp expect.sorted actual &&
	test_grep "^100755 .*	d/e/f$" ls &&
	test_grep "^120000 .*	lnk$" ls &&
	test_grep "^100644 $(test_oid empty_blob) 0	empty$" ls
'

test_expect_success 'objects are what git would store' '
	GIT_DIR=.dircache git fsck --strict 2>err &&
	! grep -v "^notice" err &&
	GIT_DIR=.dircache git cat-file -p "$(GIT_DIR=.dircache git hash-object a)" >out &&
	test_cmp a out
'

test_expect_success 'git reads our index and sees a clean tree' '
	GIT_DIR=.dircache git diff-files --quiet
'

test_expect_success 'our index is byte-identical to git after a git refresh' '
	cp .dircache/index before &&
	GIT_DIR=.dircache git update-index --refresh &&
	cmp before .dircache/index
'

test_expect_success 'the index equals the one git update-index writes' '
	rm -rf g && mkdir g && (
		cd g && git init -q &&
		echo hello >a && echo world >"sp ace" &&
		mkdir -p d/e && printf "no newline" >d/e/f && chmod +x d/e/f &&
		git update-index --add a "sp ace" d/e/f &&
		git ls-files -s >../expect
	) &&
	rm -f .dircache/index &&
	update-cache --add a "sp ace" d/e/f &&
	git_ls >actual &&
	test_cmp expect actual
'

test_expect_success '"./" and doubled slashes are normalized' '
	rm -f .dircache/index &&
	update-cache --add ./a d//e/f &&
	printf "a\nd/e/f\n" >expect &&
	GIT_DIR=.dircache git ls-files >actual &&
	test_cmp expect actual
'

test_expect_success 'a new path needs --add; the index is unchanged' '
	cp .dircache/index before &&
	test_must_fail update-cache empty 2>err &&
	test_grep "update-cache: .empty. is not in the cache; use --add" err &&
	cmp before .dircache/index
'

test_expect_success 'a modified file is rehashed without --add' '
	echo changed >a &&
	update-cache a &&
	test "$(GIT_DIR=.dircache git ls-files -s a | cut -d" " -f2)" = \
	     "$(GIT_DIR=.dircache git hash-object a)"
'

test_expect_success 'a directory is refused and nothing changes' '
	cp .dircache/index before &&
	test_expect_code 128 update-cache --add empty d 2>err &&
	test_grep "^update-cache: .d. is a directory" err &&
	cmp before .dircache/index &&
	! test -f .dircache/index.lock
'

test_expect_success 'a missing file without --remove is refused' '
	cp .dircache/index before &&
	test_expect_code 128 update-cache --add empty nothere 2>err &&
	test_grep "^update-cache: .nothere. does not exist and --remove not passed" err &&
	cmp before .dircache/index
'

test_expect_success 'hostile paths are refused and nothing changes' '
	mkdir -p sub && echo x >sub/x && mkdir -p .git && echo x >.git/x &&
	cp .dircache/index before &&
	for p in ../t/x /etc/passwd .dircache/HEAD .git/x .GIT/x \
		 sub/../a .DirCache/HEAD ""; do
		test_expect_code 128 update-cache --add "$p" 2>err &&
		test_grep "update-cache: invalid path" err || return 1
	done &&
	cmp before .dircache/index
'

test_expect_success '--remove drops entries whose file is gone' '
	update-cache --add empty &&
	rm empty &&
	update-cache --remove empty &&
	! GIT_DIR=.dircache git ls-files | grep "^empty$"
'

test_expect_success '--remove keeps and updates a file that exists' '
	update-cache --remove a &&
	GIT_DIR=.dircache git ls-files | grep "^a$"
'

test_expect_success 'a file replacing a directory entry is refused' '
	rm -rf g2 && mkdir g2 && cd g2 && init-db 2>/dev/null &&
	mkdir x && echo 1 >x/y && update-cache --add x/y &&
	rm -rf x && echo 2 >x &&
	cp .dircache/index before &&
	test_must_fail update-cache --add x 2>err &&
	test_grep "appears as both a file and as a directory" err &&
	cmp before .dircache/index
'

test_expect_success '--refresh updates stat data and reports changes' '
	rm -rf r && mkdir r && cd r && init-db 2>/dev/null &&
	echo one >one && echo two >two &&
	update-cache --add one two &&
	touch -d "2001-01-01" one &&
	echo TWO >two &&
	test_expect_code 1 update-cache --refresh >out &&
	echo "two: needs update" >expect &&
	test_cmp expect out &&
	GIT_DIR=.dircache git diff-files --name-only >dirty &&
	echo two >expect &&
	test_cmp expect dirty
'

test_expect_success '--refresh on a clean tree prints nothing and exits 0' '
	rm -rf r && mkdir r && cd r && init-db 2>/dev/null &&
	echo one >one && update-cache --add one &&
	update-cache --refresh >out &&
	test_must_fail test -s out
'

test_expect_success '--cacheinfo adds an existing blob' '
	rm -rf c && mkdir c && cd c && init-db 2>/dev/null &&
	echo blob >f && update-cache --add f &&
	id=$(GIT_DIR=.dircache git hash-object f) &&
	update-cache --add --cacheinfo 100755 $id other/name &&
	GIT_DIR=.dircache git ls-files -s other/name >actual &&
	echo "100755 $id 0	other/name" >expect &&
	test_cmp expect actual
'

test_expect_success '--cacheinfo refuses a bad mode, id or missing object' '
	cd c && cp .dircache/index before &&
	test_must_fail update-cache --add --cacheinfo 100666 $(test_oid empty_blob) x 2>err &&
	test_grep "bad mode" err &&
	test_must_fail update-cache --add --cacheinfo 100644 1234 x 2>err &&
	test_grep "not a $OID_HEXSZ-digit object id" err &&
	test_must_fail update-cache --add --cacheinfo 100644 $(test_oid empty_blob) x 2>err &&
	test_grep "no object $(test_oid empty_blob)" err &&
	cmp before .dircache/index
'

test_expect_success '--stdin and --stdin -z read the paths' '
	rm -rf s && mkdir s && cd s && init-db 2>/dev/null &&
	echo 1 >"one" && echo 2 >"with space" && echo 3 >"new
line" &&
	printf "one\nwith space\n" | update-cache --add --stdin &&
	printf "new\nline\0" | update-cache --add --stdin -z &&
	GIT_DIR=.dircache git ls-files -z >actual &&
	printf "new\nline\0one\0with space\0" >expect &&
	cmp expect actual
'

test_expect_success '-z without --stdin is a usage error' '
	test_expect_code 129 update-cache -z a 2>err &&
	test_grep "^usage: update-cache" err
'

test_expect_success 'a stale index.lock is named and nothing changes' '
	rm -rf l && mkdir l && cd l && init-db 2>/dev/null &&
	echo 1 >one && update-cache --add one &&
	cp .dircache/index before &&
	: >.dircache/index.lock &&
	echo 2 >two &&
	test_expect_code 128 update-cache --add two 2>err &&
	test_grep "\.dircache/index\.lock.*another process may be running" err &&
	cmp before .dircache/index &&
	test -f .dircache/index.lock
'

test_expect_success 'racy git: a same-second change of equal size is seen' '
	rm -rf racy && mkdir racy && cd racy && init-db 2>/dev/null &&
	echo aaaa >f && update-cache --add f &&
	echo bbbb >f &&
	touch -r .dircache/index f &&
	test_expect_code 1 update-cache --refresh >out &&
	echo "f: needs update" >expect && test_cmp expect out
'

test_expect_success 'racy git: the change is still seen after a later index write' '
	rm -rf racy2 && mkdir racy2 && cd racy2 && init-db 2>/dev/null &&
	echo aaaa >f && echo other >g && update-cache --add f g &&
	echo bbbb >f &&
	touch -r .dircache/index f &&
	sleep 1 && echo other2 >g && update-cache g &&
	GIT_DIR=.dircache git diff-files --name-only >out &&
	echo f >expect && test_cmp expect out
'

test_expect_success 'a 10,000-file tree: index and ids equal git' '
	rm -rf big && mkdir big && cd big && init-db 2>/dev/null &&
	i=0 && while [ $i -lt 100 ]; do
		mkdir -p "dir$i" && j=0 &&
		while [ $j -lt 100 ]; do
			echo "$i $j" >"dir$i/file$j" && j=$((j + 1))
		done && i=$((i + 1))
	done &&
	find . -path ./.dircache -prune -o -type f -print |
		update-cache --add --stdin &&
	GIT_DIR=.dircache git ls-files -s >../ours &&
	test $(wc -l <../ours) = 10000 &&
	rm -f .dircache/index &&
	find . -path ./.dircache -prune -o -type f -print |
		GIT_DIR=.dircache git update-index --add --stdin &&
	GIT_DIR=.dircache git ls-files -s >../theirs &&
	test_cmp ../theirs ../ours
'

test_expect_success 'works on a repository made by git init and git add' '
	rm -rf gr && mkdir gr && cd gr && git init -q &&
	echo one >one && mkdir d && echo two >d/two &&
	git add . && git write-tree >/dev/null &&
	echo changed >one && echo three >three &&
	GIT_DIR=.git update-cache --add one three &&
	git ls-files -s >actual &&
	git ls-files -s -- d >expect &&
	echo "100644 $(git hash-object one) 0	one" >>expect &&
	echo "100644 $(git hash-object three) 0	three" >>expect &&
	sort -k4 expect >e2 && test_cmp e2 actual &&
	git fsck --strict 2>err && ! grep -v "^notice" err
'

# Progress only on a terminal; script(1) gives the tools one.
test_expect_success 'progress on a terminal, nothing on a pipe' '
	rm -rf pg && mkdir pg && (
		cd pg && init-db 2>/dev/null &&
		for i in $(seq 1 2500); do echo $i >f$i; done &&
		update-cache --add f* 2>err && ! test -s err &&
		rm .dircache/index &&
		script -qec "update-cache --add f*" /dev/null >tty.out &&
		tr "\r" "\n" <tty.out >lines &&
		test_grep "^Adding files: 100% (2500/2500), done\.$" lines &&
		test_grep -q "^Adding files:  *[0-9]% ([0-9]*/2500)$" lines &&
		mkdir co && cd co &&
		export GIT_INDEX_FILE=../.dircache/index &&
		export SHA1_FILE_DIRECTORY=../.dircache/objects &&
		export GIT_DIR=../.dircache &&	# its format: sha1 or sha256
		checkout-cache -a 2>err && ! test -s err && rm f* &&
		script -qec "checkout-cache -a" /dev/null >tty.out &&
		tr "\r" "\n" <tty.out >lines &&
		test_grep "^Checking out files: 100% (2500/2500), done\.$" lines &&
		test $(ls f* | wc -l) = 2500
	)
'

test_done
