#!/bin/sh
test_description='crash safety: kill -9, lock contention, full disks, rsync'
. "$(dirname "$0")/test-lib.sh"

# The index is whole: its trailer checks and git reads it.
index_is_whole() {
	python3 -c "
import hashlib, sys
b, n = open(sys.argv[1], \"rb\").read(), int(sys.argv[3])
h = hashlib.new(sys.argv[2], b[:-n]).digest()
sys.exit(0 if len(b) >= 12 + n and h == b[-n:] else 1)
" "$1" $test_hash_algo $((OID_HEXSZ / 2))
}

test_expect_success 'setup: a tree of 3000 files' '
	init-db 2>/dev/null &&
	for d in 0 1 2 3 4 5 6 7 8 9; do
		mkdir -p d$d &&
		seq 1 300 | sed "s|^|d$d/f|" | while read -r f; do
			echo "$f" >"$f"
		done || return 1
	done &&
	seq 1 200000 >big &&
	find . -path ./.dircache -prune -o -type f -print >list &&
	update-cache --add --stdin <list
'

test_expect_success 'kill -9 of update-cache --add: index old or new, store clean' '
	i=0 &&
	while [ $i -lt 20 ]; do
		for f in d$((i % 10))/f1 d$((i % 10))/f2 big; do
			echo "round $i" >>"$f"
		done &&
		cp .dircache/index old-index &&
		{ update-cache --add --stdin <list & } &&
		pid=$! &&
		sleep 0.0$((i % 10))$((i * 7 % 10)) &&
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		rm -f .dircache/index.lock &&
		index_is_whole .dircache/index &&
		GIT_DIR=.dircache git ls-files >/dev/null &&
		fsck-cache >fsck.out 2>&1 &&
		! grep -v "^dangling\|^notice: " fsck.out &&
		i=$((i + 1)) || return 1
	done
'

test_expect_success 'no temporary file is ever left under an object name' '
	find .dircache/objects -type f | grep -v "/tmp_obj_" |
		sed -n "s|.*/objects/\(..\)/\(.*\)|\1\2|p" >names &&
	! grep -v "^[0-9a-f]\{$OID_HEXSZ\}$" names
'

test_expect_success 'after the kills, one more run brings the index up to date' '
	update-cache --add --stdin <list &&
	GIT_DIR=.dircache git diff-files --quiet
'

test_expect_success 'two writers on disjoint files, retrying on the lock, lose nothing' '
	rm -rf two && mkdir two && cd two && init-db 2>/dev/null &&
	for n in $(seq 1 40); do echo a$n >a$n; echo b$n >b$n; done &&
	writer() {
		for n in $(seq 1 40); do
			until update-cache --add $1$n 2>/dev/null; do
				sleep 0.01
			done
		done
	} &&
	{ writer a & } && pa=$! &&
	{ writer b & } && pb=$! &&
	wait $pa && wait $pb &&
	GIT_DIR=.dircache git ls-files >actual &&
	test $(wc -l <actual) = 80
'

test_expect_success 'a write that fails for lack of space: message, no temp file, index kept' '
	rm -rf full && mkdir full && cd full && init-db 2>/dev/null &&
	echo small >small && update-cache --add small &&
	cp .dircache/index before &&
	head -c 3000000 /dev/urandom >huge &&
	(
		trap "" XFSZ &&
		ulimit -f 100 &&
		test_expect_code 128 update-cache --add huge 2>../full.err
	) &&
	test_grep "update-cache: write object for .huge.: File too large" ../full.err &&
	test_grep "unable to add .huge." ../full.err &&
	! find .dircache/objects -name "tmp_obj_*" | grep . &&
	cmp before .dircache/index &&
	! test -f .dircache/index.lock
'

test_expect_success 'a full disk stops the add: a few messages, not one a file' '
	cd full &&
	for i in $(seq 1 300); do head -c 80000 /dev/urandom >big$i; done &&
	cp .dircache/index before &&
	(
		trap "" XFSZ &&
		ulimit -f 100 &&
		test_expect_code 128 update-cache --add big* 2>../full3.err
	) &&
	test $(grep -c "write object" ../full3.err) -le 8 &&
	test_grep "unable to add .big[0-9]*. to the object store" ../full3.err &&
	! find .dircache/objects -name "tmp_obj_*" | grep . &&
	cmp before .dircache/index && rm -f big*
'

test_expect_success 'a missing object directory: one message, nothing written' '
	cd full && echo a >big-a && echo b >big-b &&
	cp .dircache/index before &&
	test_expect_code 128 env SHA1_FILE_DIRECTORY=$PWD/nowhere \
		update-cache --add big-a big-b 2>../nodir.err &&
	echo "update-cache: object directory '\''$PWD/nowhere'\'': No such file or directory" >expect &&
	test_cmp expect ../nodir.err &&
	cmp before .dircache/index && ! test -e nowhere
'

test_expect_success 'an index write that fails keeps the old index' '
	cd full &&
	seq 1 3000 | sed "s/^/file/" >names &&
	while read -r f; do : >"$f"; done <names &&
	cp .dircache/index before &&
	(
		trap "" XFSZ &&
		ulimit -f 64 &&
		test_expect_code 128 update-cache --add --stdin <names 2>../full2.err
	) &&
	test_grep "write .*index.lock.*File too large" ../full2.err &&
	cmp before .dircache/index &&
	! test -f .dircache/index.lock
'

# write-tree stores 100 new trees or more as one pack: a kill leaves
# the whole pack with its idx, or no idx at all, and never a tree of it
# loose or missing under a tree that names it.
test_expect_success 'kill -9 of write-tree packing its trees: all or none' '
	rm -rf wt && mkdir wt && cd wt && init-db 2>/dev/null &&
	for d in $(seq 1 60); do
		mkdir -p d$d/a/b && echo $d >d$d/f && echo $d >d$d/a/b/g ||
		return 1
	done &&
	find . -path ./.dircache -prune -o -type f -print >list &&
	update-cache --add --stdin <list &&
	cp .dircache/index fresh-index &&
	i=0 &&
	while [ $i -lt 12 ]; do
		rm -f .dircache/objects/pack/* &&
		cp fresh-index .dircache/index &&
		{ write-tree >/dev/null & } &&
		pid=$! &&
		sleep 0.00$((i % 10)) &&
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		rm -f .dircache/index.lock &&
		for idx in $(ls .dircache/objects/pack/*.idx 2>/dev/null); do
			GIT_DIR=.dircache git verify-pack "$idx" || return 1
		done &&
		fsck-cache >fsck.out 2>&1 &&
		! grep -v "^dangling\|^notice: " fsck.out &&
		test -z "$(find .dircache/objects -name "tmp_*" ! -path "*/pack/*")" &&
		i=$((i + 1)) || return 1
	done &&
	rm -f .dircache/objects/pack/* &&
	write-tree >ours &&
	GIT_DIR=.dircache git write-tree >theirs &&
	test_cmp theirs ours &&
	ls .dircache/objects/pack/*.idx &&
	GIT_DIR=.dircache git fsck --strict
'

# Fewer new trees are written loose, each whole with no name; one
# syncfs makes their bytes durable before any takes its name (a name
# that reached the disk first could be left naming an empty file), a
# subtree's before its parent's, then a second syncfs the names, and
# only then is the index written.  strace shows the order.
if command -v strace >/dev/null; then
test_expect_success 'loose trees named only once synced, children first' '
	rm -rf held && mkdir held && cd held && init-db 2>/dev/null &&
	mkdir -p a/b c && echo 1 >a/b/f && echo 2 >c/g && echo 3 >h &&
	update-cache --add a/b/f c/g h &&
	DIRCACHE_NO_SYNC=0 strace -f -o ../trace -e trace=linkat,syncfs,fsync \
		write-tree >../tree &&
	sed -n "s/^[0-9 ]*\(syncfs\|linkat\|fsync\)(.*/\1/p" ../trace |
		uniq >../calls &&
	printf "syncfs\nlinkat\nsyncfs\nfsync\n" >../expect &&
	test_cmp ../expect ../calls &&
	sed -n "s|^[0-9 ]*linkat(.*objects/\(..\)/\([0-9a-f]*\)\".*|\1\2|p" \
		../trace >../order &&
	t=$(cat ../tree) &&
	for p in $t:a/b $t:a $t:c $t; do
		GIT_DIR=.dircache git rev-parse $p || return 1
	done >../expect-order &&
	test_cmp ../expect-order ../order &&
	GIT_DIR=.dircache git fsck --strict
'
else
	echo "# skipped: strace is not installed"
fi

test_expect_success 'rsync during update-cache copies only whole objects' '
	command -v rsync >/dev/null || { echo "rsync missing"; return 1; }
	rm -rf src dst && test_create_repo dst &&
	mkdir src && cd src && init-db 2>/dev/null &&
	for d in 0 1 2 3 4 5 6 7 8 9; do
		mkdir -p d$d && seq 1 200 | while read -r n; do
			seq 1 $((n * 20)) >d$d/f$n
		done || return 1
	done &&
	find . -path ./.dircache -prune -o -type f -print >list &&
	{ update-cache --add --stdin <list & } && pid=$! &&
	rounds=0 &&
	while kill -0 $pid 2>/dev/null && [ $rounds -lt 50 ]; do
		{ rsync -a --ignore-existing --exclude "tmp_*" \
			.dircache/objects/ ../dst/.dircache/objects/ ||
		  test $? = 24; } &&
		rounds=$((rounds + 1)) || return 1
	done &&
	wait $pid &&
	test $rounds -ge 1 &&
	cd ../dst &&
	{ fsck-cache --unreachable >out 2>&1 || :; } &&
	test_grep "^unreachable blob" out &&
	! grep -v "^unreachable\|^dangling\|^notice: " out
'

test_done
