#!/bin/sh
test_description='revision names resolved as git resolves them'
. "$(dirname "$0")/test-lib.sh"

# Each name is given to our rev-parse and git's in a repository git
# made: same id, same failure, and git's warning where git warns.

# same NAME...: both print the same ids; err has our messages.
same() {
	GIT_DIR=.git git rev-parse "$@" >theirs 2>theirs.err
	echo $? >theirs.rc
	GIT_DIR=.git rev-parse "$@" >ours 2>err
	echo $? >ours.rc
	test_cmp theirs ours && test_cmp theirs.rc ours.rc
}

# fails NAME: neither resolves it.
fails() {
	test_must_fail env GIT_DIR=.git git rev-parse -q --verify "$1" &&
	test_expect_code 128 env GIT_DIR=.git rev-parse "$1" 2>err
}

test_expect_success 'setup: branches, tags, remotes, packed and loose' '
	git init -q . &&
	echo one >f && git add f && git commit -q -m one &&
	git tag -a -m "a tag" v1 &&
	echo two >f && git commit -q -a -m two &&
	git tag light &&
	git checkout -q -b side HEAD^ &&
	echo three >f && git commit -q -a -m three &&
	git checkout -q master &&
	git merge -q --no-edit side -s ours &&
	git update-ref refs/remotes/origin/master HEAD^ &&
	git update-ref refs/remotes/origin/side side &&
	git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/master &&
	git pack-refs --all &&
	git update-ref refs/remotes/upstream/master HEAD~1 &&
	git symbolic-ref refs/remotes/upstream/HEAD refs/remotes/upstream/master
'

test_expect_success 'refs/remotes and a remote name (its HEAD) resolve' '
	same origin/master &&
	same origin &&
	same origin/side &&
	same upstream &&
	same upstream/master &&
	same remotes/origin/master &&
	same refs/remotes/origin/master &&
	fails nosuch/master &&
	fails nosuch
'

test_expect_success 'the rules are tried in git'"'"'s order' '
	git tag side side^ &&
	same side &&
	grep "refname '"'"'side'"'"' is ambiguous" theirs.err &&
	grep "refname '"'"'side'"'"' is ambiguous" err &&
	same heads/side tags/side &&
	! grep ambiguous err &&
	git update-ref refs/heads/origin HEAD~1 &&
	same origin &&
	grep "refname '"'"'origin'"'"' is ambiguous" err
'

test_expect_success 'a ref that looks like an id wins, with the warning' '
	short=$(GIT_DIR=.git git rev-parse --short=7 v1^{}) &&
	git tag $short HEAD &&
	same $short &&
	grep "refname '"'"'$short'"'"' is ambiguous" err
'

test_expect_success 'rev-parse --short and --short=<n>' '
	same --short HEAD &&
	same --short v1 &&
	same --short=12 HEAD &&
	same --short=2 HEAD &&
	git config core.abbrev 9 &&
	same --short HEAD &&
	git config --unset core.abbrev
'

test_expect_success 'whole ids, long prefixes, --short up to a whole id' '
	full=$(GIT_DIR=.git git rev-parse HEAD) &&
	test ${#full} = $OID_HEXSZ &&
	same $full HEAD &&
	same $(printf %.39s $full) $(printf %.40s $full) ${full%?} &&
	same --short=39 HEAD &&
	same --short=40 HEAD &&
	same --short=41 HEAD &&
	same --short=$OID_HEXSZ HEAD &&
	same --short=99 HEAD &&
	fails ${full}0 &&
	fails $(printf %.3s $full)
'

test_expect_success 'an abbreviation two objects share: ambiguous, as git' '
	mkdir blobs &&
	for i in $(seq 1 700); do echo $i >blobs/$i || return 1; done &&
	(cd blobs && ls) | sed "s|^|blobs/|" |
		GIT_DIR=.git git hash-object -w --stdin-paths >ids &&
	cut -c1-4 ids | sort | uniq -d | head -n 1 >dup &&
	test -s dup &&
	p=$(cat dup) &&
	grep "^$p" ids >two &&
	for where in loose packed; do
		test_expect_code 128 env GIT_DIR=.git rev-parse $p 2>err &&
		test_grep "short object id .$p. is ambiguous" err &&
		test_must_fail env GIT_DIR=.git git rev-parse -q --verify $p &&
		for id in $(cat two); do
			n=$(( $(GIT_DIR=.git git rev-parse --short=4 $id |
				wc -c) - 1 )) &&
			test $n -gt 4 &&
			same $(printf %.${n}s $id) &&
			same --short=4 $id || return 1
		done &&
		GIT_DIR=.git git add blobs &&
		GIT_DIR=.git git repack -q -a -d &&
		GIT_DIR=.git git reset -q &&
		test_must_fail ls .git/objects/$(printf %.2s $p)/* 2>/dev/null ||
		return 1
	done
'

test_expect_success 'rev-parse --show-object-format names the hash, as git' '
	same --show-object-format &&
	echo $test_hash_algo >expect &&
	test_cmp expect ours &&
	same --show-object-format=storage &&
	same --show-object-format=input &&
	same --show-object-format=output &&
	test_expect_code 128 env GIT_DIR=.git rev-parse \
		--show-object-format=nonsense 2>err &&
	test_grep "unknown mode for --show-object-format: nonsense" err
'

test_expect_success 'suffixes: ^, ^<n>, ~<n>, ^{type}, ^{}' '
	same HEAD^ HEAD^1 HEAD^2 HEAD~ HEAD~2 HEAD^^ HEAD^2~1 &&
	same v1^{} v1^{commit} v1^{tree} v1^{tag} v1^0 light^{tree} &&
	fails HEAD^3 &&
	fails HEAD~9 &&
	fails v1^{blob} &&
	fails v1^{nonsense}
'

test_expect_success '<rev>:<path>, <rev>:, @ and their mixes' '
	mkdir -p d/e && echo x >d/e/x && echo y >d/y &&
	git add d && git commit -q -m dirs &&
	same HEAD:f HEAD:d HEAD:d/ HEAD:d/e/x HEAD: HEAD~1:f v1:f \
		"v1^{commit}:f" "HEAD^{tree}:d" origin/side:f &&
	same @ @~1 "@^{tree}" @:d/y &&
	fails HEAD:nosuch &&
	fails HEAD:f/x &&
	fails HEAD:d/e/x/ &&
	fails nosuch:f &&
	GIT_DIR=.git test_must_fail rev-parse HEAD:nosuch 2>err &&
	test_grep "path .nosuch. does not exist in .HEAD." err
'

test_expect_success 'the index forms :<path> and :<n>:<path>' '
	same :f :d/e/x :0:d/y &&
	fails :nosuch &&
	fails :2:f &&
	GIT_DIR=.git test_must_fail rev-parse :2:f 2>err &&
	test_grep "path .f. is in the index, but not at stage 2" err &&
	blob=$(git hash-object -w --stdin </dev/null) &&
	printf "0 %s 0\tf\n100644 %s 1\tf\n100644 %s 3\tf\n" \
		$blob $blob $blob | git update-index --index-info &&
	same :1:f :3:f &&
	fails :f &&
	git reset -q --hard
'

test_expect_success 'a name no tool resolves: one message, exit 128' '
	c=$(GIT_DIR=.git git rev-parse HEAD) &&
	t=$(GIT_DIR=.git git rev-parse HEAD^{tree}) &&
	for cmd in "cat-file -t" "cat-file -e" "ls-tree" "merge-base HEAD" \
		"diff-cache" "reset-cache" "fsck-cache" "commit-tree $t -p"
	do
		test_expect_code 128 env GIT_DIR=.git $cmd nosuch 2>err </dev/null &&
		test "$(wc -l <err)" -eq 1 &&
		test_grep "not a valid object name: .nosuch." err || return 1
	done
'

test_done
