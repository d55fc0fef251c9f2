#!/bin/sh
test_description='diff-tree: wide trees in a gc'"'"'d pack, the same runs skipped'
. "$(dirname "$0")/test-lib.sh"

# A diff steps over the entries two trees hold byte for byte the same
# without parsing them (traverse_tree_changes); only where they part
# are names compared.  The trees here part at the first entry, in the
# middle of long runs, at the last entry, on a name that is a prefix
# of its neighbours ("a", "a.c", "a/"), on a file that becomes a
# directory, and on a mode written two ways; stored as deltas in a
# pack made by git gc, as the bench's store is.

test_expect_success 'setup: two wide trees, packed by git gc' '
	git init -q r &&
	(
		cd r &&
		for i in $(seq 100 299); do
			echo $i >f$i || return 1
		done &&
		mkdir -p a d/e &&
		echo a >a.c && echo b >a/b && echo c >a.b &&
		echo x >0first && echo z >zlast && echo y >d/e/y &&
		for i in $(seq 1 80); do
			echo $i >d/g$i || return 1
		done &&
		ln -s f100 link &&
		git add . && git commit -q -m one &&
		echo changed >0first && echo changed >zlast &&
		echo changed >f150 && echo changed >d/g40 &&
		rm -r a && echo now-a-file >a &&
		rm f200 && echo new >f200x && chmod +x f250 &&
		echo changed >d/e/y && rm link && ln -s f101 link &&
		git add -A . && git commit -q -m two &&
		git gc -q
	) &&
	ls r/.git/objects/pack/*.pack &&
	test_must_fail ls r/.git/objects/?? 2>/dev/null
'

test_expect_success 'diff-tree -r of packed trees is git'"'"'s, both ways' '
	GIT_DIR=r/.git diff-tree -r HEAD~1 HEAD >ours &&
	GIT_DIR=r/.git git diff-tree -r HEAD~1 HEAD >theirs &&
	test_cmp theirs ours &&
	GIT_DIR=r/.git diff-tree -r HEAD HEAD~1 >ours &&
	GIT_DIR=r/.git git diff-tree -r HEAD HEAD~1 >theirs &&
	test_cmp theirs ours &&
	test $(wc -l <ours) = 11
'

test_expect_success 'without -r, with paths, and -z: git'"'"'s' '
	GIT_DIR=r/.git diff-tree HEAD~1 HEAD >ours &&
	GIT_DIR=r/.git git diff-tree HEAD~1 HEAD >theirs &&
	test_cmp theirs ours &&
	GIT_DIR=r/.git diff-tree -r HEAD~1 HEAD -- d a f2 >ours &&
	GIT_DIR=r/.git git diff-tree -r HEAD~1 HEAD -- d a f2 >theirs &&
	test_cmp theirs ours &&
	GIT_DIR=r/.git diff-tree -r -z HEAD~1 HEAD >ours &&
	GIT_DIR=r/.git git diff-tree -r -z HEAD~1 HEAD >theirs &&
	test_cmp theirs ours
'

test_expect_success 'a mode written two ways is the same mode' '
	blob=$(GIT_DIR=r/.git git rev-parse HEAD:f100) &&
	sub=$(GIT_DIR=r/.git git rev-parse HEAD:d) &&
	perl -e "print \"100644 f100\\0\", pack(\"H*\", \"$blob\"),
		\"40000 sub\\0\", pack(\"H*\", \"$sub\")" >t1 &&
	perl -e "print \"100664 f100\\0\", pack(\"H*\", \"$blob\"),
		\"40000 sub\\0\", pack(\"H*\", \"$sub\")" >t2 &&
	t1=$(GIT_DIR=r/.git git hash-object -w -t tree --literally t1) &&
	t2=$(GIT_DIR=r/.git git hash-object -w -t tree --literally t2) &&
	test $t1 != $t2 &&
	GIT_DIR=r/.git diff-tree -r $t1 $t2 >ours &&
	GIT_DIR=r/.git git diff-tree -r $t1 $t2 >theirs &&
	test_cmp theirs ours &&
	test ! -s ours
'

test_expect_success 'a damaged tree delta: refused, nothing printed' '
	rm -rf c && cp -R r c &&
	old=$(GIT_DIR=c/.git git rev-parse HEAD~1^{tree}) &&
	new=$(GIT_DIR=c/.git git rev-parse HEAD^{tree}) &&
	p=$(ls c/.git/objects/pack/*.pack) &&
	GIT_DIR=c/.git git verify-pack -v ${p%.pack}.idx >vp &&
	delta=$(awk -v o=$old -v n=$new "(\$1 == o || \$1 == n) &&
		\$2 == \"tree\" && NF == 7 { print \$1, \$4, \$5 }" vp) &&
	test -n "$delta" &&
	set -- $delta &&
	chmod u+w $p &&
	printf "\\377" |
	dd of=$p bs=1 seek=$(($3 + $2 / 2)) conv=notrunc 2>/dev/null &&
	test_expect_code 128 env GIT_DIR=c/.git \
		diff-tree -r HEAD~1 HEAD >out 2>err &&
	test_grep "$1" err &&
	test ! -s out
'

test_done
