#!/bin/sh
test_description='checkout-cache -a: a directory of big files late in a batch'
. "$(dirname "$0")/test-lib.sh"

# The files of one directory are written by one thread, in the
# directory opened once; a thread that finds no directory left to start
# helps with those still being written, a file at a time, in the
# directory opened again.  Here the last directory of the first batch
# (512 entries, written on every core while the next is prepared) holds
# the big files: whichever thread writes which of them, each must be
# whole, in its own place, with its own mode.

# text KIB SEED: KIB KiB of numbered lines (compressible, not zeros).
text() {
	seq $2 $(($2 + $1 * 200)) | head -c $(($1 << 10))
}

test_expect_success 'setup: 500 small files, 8 big ones, 20 small ones' '
	init-db 2>/dev/null &&
	for i in $(seq 100 599); do
		mkdir d$i && echo $i >d$i/f || return 1
	done &&
	mkdir e &&
	for i in 1 2 3 4 5 6 7 8; do
		text 2048 $i >e/big$i || return 1
	done &&
	chmod +x e/big3 e/big8 &&
	for i in $(seq 10 29); do
		mkdir f$i && echo $i >f$i/g || return 1
	done &&
	find d* e f* -type f | sort >list &&
	update-cache --add $(cat list) &&
	test $(grep -n "^e/" list | head -n 1 | cut -d: -f1) -le 512 &&
	test $(grep -n "^e/" list | tail -n 1 | cut -d: -f1) -le 512 &&
	test $(wc -l <list) -gt 512
'

GIT_OBJECT_DIRECTORY=$TRASH_DIRECTORY/.dircache/objects
export GIT_OBJECT_DIRECTORY

# same_files DIR: every file of the list in DIR, the same bytes and
# executable bit, and nothing else there but the store.
same_files() {
	for f in $(cat list); do
		cmp $f $1/$f || return 1
		if test -x $f
		then
			test -x $1/$f || return 1
		else
			test ! -x $1/$f || return 1
		fi
	done &&
	test $(find $1 -path $1/.dircache -prune -o -type f -print | wc -l) = \
		$(wc -l <list)
}

test_expect_success 'every file whole, in its place, with its mode' '
	for n in 1 2 3; do
		mkdir out$n && (cd out$n &&
			GIT_INDEX_FILE=../.dircache/index checkout-cache -a) &&
		same_files out$n || return 1
	done
'

test_expect_success 'with -u, show-diff clean after' '
	mkdir u && (cd u && init-db 2>/dev/null &&
		cp ../.dircache/index .dircache/index &&
		checkout-cache -a -u && show-diff >../sd.out) &&
	test ! -s sd.out &&
	same_files u
'

test_done
