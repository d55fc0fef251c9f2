#!/bin/sh
test_description='rev-list --objects: trees stored as deltas of trees

The thread that reads trees ahead of the walk tells, for a tree stored
as a delta of a tree it read before, which entries the delta copies
whole from entries of that base; the walk leaves those unlooked-up
when it walked the base whole before.  A base the walk is still inside
(a tree stored as a delta of the tree holding it) or has not met yet
(a tree stored as a delta of an older one) must not hide a thing.  git
packs the repositories; each test checks that git stored the trees as
the test needs, then compares the listing with git rev-list.'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

same_as_git() {
	rev-list "$@" >ours &&
	git rev-list "$@" >theirs &&
	test_cmp theirs ours
}

# Is tree $1 stored as a delta of $2 in the repository's one pack?
delta_of() {
	git verify-pack -v .git/objects/pack/*.idx >verify &&
	test_grep "^$1 tree .* $2\$" verify
}

# Forty files in directory $1, each "file $2 N".
files() {
	mkdir -p "$1" &&
	for i in $(seq -w 1 40); do
		echo "file $2 $i" >"$1/f$i" || return 1
	done
}

test_expect_success 'a tree stored as a delta of the tree holding it' '
	git init -q nested && cd nested &&
	files z same && files z/a same &&
	git add . && git commit -q -m one &&
	git repack -adq --window=50 &&
	delta_of $(git rev-parse HEAD:z/a) $(git rev-parse HEAD:z) &&
	same_as_git --objects HEAD &&
	test_grep " z/a/f01\$" ours
'

test_expect_success 'a tree stored as a delta of a tree not walked yet' '
	git init -q older && cd older &&
	files d old && echo extra >d/g01 && echo more >d/g02 &&
	git add . && git commit -q -m one &&
	git rm -q d/g01 d/g02 && git commit -q -m two &&
	git repack -adq --window=50 &&
	delta_of $(git rev-parse HEAD:d) $(git rev-parse HEAD~1:d) &&
	same_as_git --objects HEAD
'

test_expect_success 'trees stored as deltas of trees walked before' '
	git init -q line && cd line &&
	files d 0 &&
	git add . && git commit -q -m 0 &&
	for n in 1 2 3 4 5 6 7 8; do
		echo "new $n" >d/n$n &&
		echo "change $n" >d/f0$n &&
		git add . && git commit -q -m $n || return 1
	done &&
	git repack -adq --window=50 &&
	delta_of $(git rev-parse HEAD~1:d) $(git rev-parse HEAD:d) &&
	same_as_git --objects --all &&
	same_as_git --objects HEAD~3 HEAD &&
	same_as_git --objects HEAD ^HEAD~4
'

test_done
