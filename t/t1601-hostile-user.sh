#!/bin/sh
test_description='defects found by a hostile user: closed fds, stolen locks, stages, symlinks, FIFOs, no store'
. "$(dirname "$0")/test-lib.sh"

MI="python3 $TEST_DIRECTORY/make-index.py"

test_expect_success 'setup' '
	test_create_repo w && cd w &&
	echo one >one && echo two >two && mkdir d && echo f >d/f &&
	update-cache --add one two d/f &&
	write-tree >tree
'

test_expect_success 'a closed stderr does not end up in the index' '
	cd w &&
	echo changed >one &&
	checkout-cache -u -a 2>&-
	GIT_DIR=.dircache git ls-files -s >out &&
	test $(wc -l <out) = 3 &&
	update-cache one &&
	GIT_DIR=.dircache git ls-files -s >/dev/null
'

test_expect_success 'a closed stdout does not end up in the index' '
	cd w &&
	i=0 && while [ $i -lt 300 ]; do echo $i >f$i; i=$((i + 1)); done &&
	update-cache --add f* && for f in f*; do echo x >>$f; done &&
	test_expect_code 1 update-cache --refresh >&- &&
	GIT_DIR=.dircache git ls-files -s >out &&
	test $(wc -l <out) = 303
'

test_expect_success 'a lock held by another process survives our refusal and a SIGPIPE' '
	cd w &&
	cp .dircache/index before &&
	echo theirs >.dircache/index.lock &&
	python3 - <<-\PY &&
	import os, subprocess
	r, w = os.pipe()
	os.close(r)
	p = subprocess.run(["update-cache", "one"], stderr=w)
	os.close(w)
	assert p.returncode != 0, p.returncode
	PY
	echo theirs >expect && test_cmp expect .dircache/index.lock &&
	cmp before .dircache/index &&
	rm .dircache/index.lock
'

test_expect_success 'update-cache --add resolves a path with stages, as git' '
	cd w &&
	b=$(git hash-object one) &&
	$MI .dircache/index <<-EOF &&
	100644 $b 1 one
	100644 $b 2 one
	100644 $b 3 one
	100644 $b 0 two
	EOF
	cp .dircache/index git-index &&
	update-cache one &&
	GIT_DIR=.dircache GIT_INDEX_FILE=git-index git update-index one &&
	GIT_DIR=.dircache GIT_INDEX_FILE=git-index git ls-files -s >expect &&
	GIT_DIR=.dircache git ls-files -s >actual &&
	test_cmp expect actual
'

test_expect_success 'write-tree refuses any staged entry, whatever its neighbours' '
	cd w &&
	b=$(git hash-object one) &&
	$MI .dircache/index <<-EOF &&
	100644 $b 0 one
	100644 $b 1 one
	100644 $b 2 one
	EOF
	test_expect_code 128 write-tree >out 2>err &&
	test_grep "'\''one'\'' is unmerged" err &&
	test_must_fail test -s out
'

test_expect_success 'a refused write-tree leaves no tree behind' '
	cd w &&
	b=$(git hash-object one) &&
	$MI .dircache/index <<-EOF &&
	100644 $b 0 a/b/c
	100644 $b 0 a/x
	100644 $b 0 m/n
	100644 $b 0 z
	100644 $b 0 z/y
	EOF
	find .dircache/objects -type f | sort >before &&
	test_expect_code 128 write-tree 2>err &&
	test_grep "'\''z'\'' is both a file and a directory" err &&
	find .dircache/objects -type f | sort >after &&
	test_cmp before after
'

test_expect_success 'no tool reads or adds through a symlinked leading directory' '
	cd w &&
	rm -f .dircache/index && update-cache --add one two d/f &&
	mkdir ../outside && echo secret >../outside/f &&
	echo secret >../outside/g &&
	rm -rf d && ln -s ../outside d &&
	test_expect_code 128 update-cache --add d/g 2>err &&
	test_grep "'\''d/g'\'' is beyond a symbolic link" err &&
	show-diff -s >out &&
	printf "D\\td/f\\n" >expect && test_cmp expect out &&
	show-diff >out &&
	test_must_fail grep secret out &&
	test_expect_code 1 update-cache --refresh >out &&
	test_grep "^d/f: needs update" out &&
	GIT_DIR=.dircache git diff-files --name-status >expect &&
	show-diff -s >actual && test_cmp expect actual &&
	rm d && mkdir d && echo f >d/f && update-cache d/f
'

test_expect_success 'a FIFO where a file was: no hang, git status words' '
	cd w &&
	rm one && mkfifo one &&
	timeout 10 show-diff -s >out &&
	GIT_DIR=.dircache git diff-files --name-status >expect &&
	test_cmp expect out &&
	test_expect_code 1 timeout 10 update-cache --refresh >out 2>err &&
	echo "one: needs update" >expect && test_cmp expect out &&
	test_expect_code 128 timeout 10 update-cache one 2>err &&
	rm one && echo one >one && update-cache one
'

test_expect_success 'a FIFO in place of an object file is corrupt, not a hang' '
	cd w &&
	b=$(git hash-object two) && f=$(obj_file $b) &&
	mv $f saved && mkfifo $f &&
	test_expect_code 128 timeout 10 cat-file -p $b 2>err &&
	test_grep "object $b is corrupt: not a regular file" err &&
	test_must_fail timeout 10 fsck-cache 2>err &&
	test_grep "object $b is corrupt" err &&
	rm $f && mv saved $f
'

test_expect_success 'a gitlink whose directory is there is up to date' '
	cd w &&
	mkdir sub &&
	update-cache --add --cacheinfo 160000 $(echo $ZERO_OID | tr 0 1) sub &&
	update-cache --refresh &&
	show-diff -s >out && test_must_fail test -s out
'

test_expect_success 'no store: every tool says so and fails' '
	cd w &&
	mkdir ../nostore && cd ../nostore &&
	for cmd in "show-diff -q" fsck-cache "checkout-cache -a" write-tree \
		   "cat-file -t HEAD" "read-tree HEAD" "update-cache --refresh" \
		   "diff-tree HEAD HEAD"; do
		test_expect_code 128 $cmd >out 2>err &&
		test_grep "not a dircache repository (or GIT_DIR): .dircache" err ||
		return 1
	done &&
	test_expect_code 128 env GIT_DIR=nowhere fsck-cache 2>err &&
	test_grep "not a dircache repository (or GIT_DIR): nowhere" err
'

test_expect_success 'from inside a work tree, the error says where its top is' '
	cd w &&
	cd d && test_expect_code 128 show-diff 2>err &&
	test_grep "the work tree.s top is .$TRASH_DIRECTORY/w." err
'

test_expect_success 'a path longer than 4096 bytes in the index (git writes them)' '
	cd w &&
	long=$(printf "%04220d" 0) &&
	b=$(git hash-object one) &&
	GIT_DIR=.dircache git update-index --add --cacheinfo 100644,$b,$long &&
	echo y >y && update-cache --add y &&
	GIT_DIR=.dircache git ls-files >out &&
	test_grep "^$long$" out && test_grep "^y$" out
'

test_done
