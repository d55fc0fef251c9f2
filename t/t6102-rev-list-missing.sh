#!/bin/sh
test_description='rev-list --objects: tag tips, missing objects, as git'
. "$(dirname "$0")/test-lib.sh"

# The repositories are made by git; our rev-list must print what git's
# prints, byte for byte, and fail where git's fails.

# same DIR ARGS...: our rev-list and git's agree on stdout and on
# success or failure.
same() {
	dir=$1 && shift &&
	(cd "$dir" && GIT_DIR=.git git rev-list "$@" >../theirs
	 echo $? >../theirs.rc) &&
	(cd "$dir" && GIT_DIR=.git rev-list "$@" >../ours 2>../err
	 echo $? >../ours.rc) &&
	test_cmp theirs ours &&
	test_cmp theirs.rc ours.rc
}

test_expect_success 'setup: tags of commits, trees, blobs and tags' '
	git init -q r &&
	(
		cd r &&
		mkdir d &&
		echo one >a && echo two >d/b && echo key >key &&
		git add . && git commit -q -m one &&
		git tag -a -m "on commit" v1 &&
		git tag -a -m "on tree" tree-tag HEAD^{tree} &&
		git tag -a -m "on blob" blob-tag $(git rev-parse HEAD:key) &&
		git tag -a -m "on tag" tag-tag v1 &&
		git tag -a -m "deeper" tag-tag-tree tree-tag &&
		git tag light-blob $(git rev-parse HEAD:d/b) &&
		echo three >>a && git commit -q -a -m two &&
		git tag -a -m "second" v2 &&
		git branch side HEAD^ &&
		git pack-refs --all &&
		git tag -a -m loose zz-loose HEAD
	)
'

test_expect_success 'rev-list --objects --all lists tags and their tips as git' '
	same r --objects --all &&
	tag=$(GIT_DIR=r/.git git rev-parse tree-tag) &&
	grep "^$tag tree-tag$" ours &&
	same r --objects v2 tree-tag blob-tag &&
	same r --objects v2 ^v1 &&
	same r --all
'

test_expect_success 'a missing blob stops --objects as in git' '
	cp -R r m &&
	blob=$(GIT_DIR=m/.git git rev-parse HEAD^:a) &&
	rm m/.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	same m --objects --all &&
	test $(cat ours.rc) = 128 &&
	echo "rev-list: missing blob object $blob" >expect &&
	test_cmp expect err &&
	same m --objects --all --missing=allow-any &&
	same m --objects --all --missing=allow-promisor &&
	grep "^rev-list: unexpected missing blob object $blob" err
'

test_expect_success 'a missing tree stops --objects as in git' '
	tree=$(GIT_DIR=m/.git git rev-parse HEAD:d) &&
	rm m/.git/objects/$(echo $tree | cut -c1-2)/$(echo $tree | cut -c3-) &&
	same m --objects HEAD &&
	grep "bad tree object $tree" err &&
	same m --objects HEAD --missing=allow-any
'

test_expect_success 'a partial clone whose promisor remote is gone' '
	git -C r config uploadpack.allowFilter true &&
	git clone -q --filter=blob:none --no-local --no-checkout \
		"file://$PWD/r" pc &&
	mv r r.away &&
	same pc --objects --all &&
	test $(cat ours.rc) = 128 &&
	same pc --objects --all --missing=allow-promisor &&
	test $(cat ours.rc) = 0 &&
	same pc --objects --all --missing=allow-any &&
	mv r.away r
'

test_expect_success '--exclude-promisor-objects leaves out what is promised' '
	mv r r.away &&
	same pc --objects --all --exclude-promisor-objects &&
	test $(cat ours.rc) = 0 &&
	(
		cd pc &&
		blob=$(echo new | GIT_DIR=.git git hash-object -w --stdin) &&
		old=$(GIT_DIR=.git git rev-parse HEAD:a) &&
		tree=$(printf "100644 blob %s\ta\n100644 blob %s\tnew\n" \
			$old $blob | GIT_DIR=.git git mktree --missing) &&
		commit=$(echo local | GIT_DIR=.git git commit-tree $tree -p HEAD) &&
		GIT_DIR=.git git update-ref refs/heads/local $commit
	) &&
	same pc --objects --all --exclude-promisor-objects &&
	test $(wc -l <ours) = 3 &&
	mv r.away r
'

test_done
