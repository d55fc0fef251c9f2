#!/bin/sh
test_description='applymbox: objects written at the checkpoints only

The blobs, trees and commits a run makes are promised (promise.c): kept
in a scratch file with no name and written, on every core, when a
checkpoint makes them durable (as one pack when they are many:
pack-write.c).  Between checkpoints the store holds nothing of the
commits made since, and no file but objects; after each checkpoint it
holds every object they reach, intermediate versions of a file changed
twice between two checkpoints included, and git fsck --strict finds the
store whole.'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

DIRCACHE_AM_CHECKPOINT=5
export DIRCACHE_AM_CHECKPOINT

# loose DIR: the ids of the objects of DIR's store, loose or packed
# (a checkpoint of many objects writes them as one pack), sorted.
loose() {
	git --git-dir="$1/.dircache" cat-file --batch-all-objects \
		--batch-check="%(objectname)" | sort
}

# stray DIR: the files of DIR's object directory that are neither
# loose objects nor packs (a scratch file left behind would be one).
stray() {
	(cd "$1/.dircache/objects" && find . -type f) |
		grep -v "^\./[0-9a-f][0-9a-f]/[0-9a-f]\{$((OID_HEXSZ - 2))\}\$" |
		grep -v "^\./pack/pack-[0-9a-f]\{$OID_HEXSZ\}\.\(pack\|idx\)\$"
}

test_expect_success 'setup: a series of 24 (files changed again and again), applied by git am' '
	am_history hist 24 &&
	git -C hist format-patch -q -M --stdout HEAD~24 >series.mbox &&
	am_git hist HEAD~24 gitall &&
	(cd gitall && git am -q ../series.mbox) &&
	git -C gitall rev-list --reverse HEAD >commits &&
	am_start hist HEAD~24 start &&
	loose start >start.objects
'

test_expect_success 'a whole run: every object of every commit stored, fsck --strict clean' '
	rm -rf w && cp -R start w &&
	(cd w && applymbox ../series.mbox >../out) &&
	test "$(git --git-dir=w/.dircache rev-parse HEAD^{tree})" = \
		"$(git -C gitall rev-parse HEAD^{tree})" &&
	git --git-dir=w/.dircache rev-list --objects HEAD |
		cut -d" " -f1 >reached &&
	test $(wc -l <reached) -gt 60 &&
	while read id
	do
		(cd w && cat-file -e $id) || { echo "missing $id"; exit 1; }
	done <reached &&
	GIT_DIR=w/.dircache git fsck --strict --no-dangling >fsck.out 2>&1 &&
	test ! -s fsck.out &&
	! stray w
'

test_expect_success 'the intermediate versions of a file changed twice between checkpoints are stored' '
	git -C gitall log --format=%H --reverse -- src/f2.c >f2.commits &&
	test $(wc -l <f2.commits) -ge 3 &&
	git --git-dir=w/.dircache rev-list --reverse HEAD >ours.commits &&
	git -C gitall rev-list --reverse HEAD >git.commits &&
	paste -d" " ours.commits git.commits | while read o g
	do
		b=$(git -C gitall rev-parse --verify -q "$g:src/f2.c") || continue
		test "$(git --git-dir=w/.dircache rev-parse "$o:src/f2.c")" = "$b" &&
		(cd w && cat-file blob $b) >got &&
		git -C gitall cat-file blob $b >want &&
		test_cmp want got || exit 1
	done
'

test_expect_success 'killed between checkpoints: nothing of the commits since is stored' '
	rm -rf k && cp -R start k &&
	(cd k && DIRCACHE_TEST_KILL=commit:8 applymbox ../series.mbox \
		>../out 2>../err); test $? = 137 &&
	git --git-dir=k/.dircache rev-list --objects HEAD | cut -d" " -f1 |
		sort >k.reached &&
	loose k >k.objects &&
	cat start.objects k.reached | sort -u >expect.objects &&
	test_cmp expect.objects k.objects &&
	test $(git --git-dir=k/.dircache rev-list HEAD | wc -l) = 6 &&
	! stray k
'

test_expect_success 'killed inside a checkpoint after its journal: the objects were durable, --continue finishes' '
	rm -rf j && cp -R start j &&
	(cd j && DIRCACHE_TEST_KILL=journal:2 applymbox ../series.mbox \
		>../out 2>../err); test $? = 137 &&
	test -f j/.dircache/applymbox/checkpoint &&
	(cd j && applymbox --continue >/dev/null) &&
	test "$(git --git-dir=j/.dircache rev-parse HEAD^{tree})" = \
		"$(git -C gitall rev-parse HEAD^{tree})" &&
	GIT_DIR=j/.dircache git fsck --strict --no-dangling >fsck.out 2>&1 &&
	test ! -s fsck.out
'

test_expect_success 'promises made on every core at once: each stored under its own id' '
	rm -rf par && mkdir par && (cd par && init-db) &&
	(cd par && "$TEST_DIRECTORY/helper/test-tool" promise-parallel 20000) &&
	test $(loose par | wc -l) = 20001 &&
	GIT_DIR=par/.dircache git fsck --strict --no-dangling >fsck.out 2>&1 &&
	! grep -v "^notice:" fsck.out &&
	echo shared | git hash-object --stdin >shared.id &&
	loose par | grep -x -f shared.id
'

test_done
