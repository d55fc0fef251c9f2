#!/bin/sh
test_description='diff-cache: a tree against the index or work tree, as git diff-index'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.dircache
export GIT_DIR

same_as_git() {
	diff-cache "$@" >../ours 2>&1
	echo "exit $?" >>../ours
	git diff-index "$@" >../theirs 2>&1
	echo "exit $?" >>../theirs
	test_cmp ../theirs ../ours
}

test_expect_success 'setup: a tree, then changes in the index and the work tree' '
	test_create_repo r && cd r &&
	mkdir -p d/e "sp ace" &&
	for f in a c same mode gone type dirf d/b d/e/f "sp ace/t	ab" "new
line" "$(printf "caf\303\251")" "quo\"te" idx wt both; do
		echo "$f" >"$f" || return 1
	done &&
	ln -s a link &&
	update-cache --add a c same mode gone type dirf d/b d/e/f "sp ace/t	ab" \
		"new
line" "$(printf "caf\303\251")" "quo\"te" idx wt both link &&
	tree=$(write-tree) && echo $tree >../tree &&
	commit=$(echo base | commit-tree $tree) && echo $commit >../commit &&
	sleep 1 &&
	echo more >>a && echo new >added && echo idx2 >idx && echo both1 >both &&
	update-cache idx both && update-cache --add added &&
	echo wt2 >wt && echo both2 >both && echo more >>"new
line" &&
	touch same && chmod +x mode && rm gone d/e/f &&
	rm type && ln -s elsewhere type && rm link && echo nowfile >link &&
	rm dirf && mkdir dirf && echo x >dirf/x &&
	echo more >>"$(printf "caf\303\251")" &&
	update-cache --add "sp ace/t	ab" &&
	echo later >"sp ace/t	ab" &&
	echo untracked >untracked
'

for o in "" --cached -p "-p --cached" -z "-z --cached" -r "-r --cached"; do
	test_expect_success "diff-cache $o <tree> matches git diff-index" "
		cd r &&
		same_as_git $o \$(cat ../tree) &&
		same_as_git $o \$(cat ../commit)
	"
done

for spec in d d/ "d/e" a "sp ace" "*.c" "[ab]*" nothere "d/e/f"; do
	test_expect_success "diff-cache with '$spec' matches git" "
		cd r &&
		same_as_git \$(cat ../tree) -- '$spec' &&
		same_as_git --cached \$(cat ../tree) -- '$spec' &&
		same_as_git -p \$(cat ../tree) -- '$spec'
	"
done

test_expect_success 'the raw lines name what changed' '
	cd r &&
	diff-cache --cached $(cat ../tree) >out &&
	test_grep "^:000000 100644 0\{$OID_HEXSZ\} [0-9a-f]\{$OID_HEXSZ\} A	added$" out &&
	diff-cache $(cat ../tree) >out &&
	test_grep "^:100644 000000 [0-9a-f]\{$OID_HEXSZ\} 0\{$OID_HEXSZ\} D	gone$" out &&
	test_grep "^:100644 120000 [0-9a-f]\{$OID_HEXSZ\} 0\{$OID_HEXSZ\} T	type$" out
'

test_expect_success 'unmerged paths: U with --cached, the work tree without' '
	cd r &&
	one=$(echo one | git hash-object -w --stdin) &&
	cp .dircache/index ../index.saved &&
	printf "0 $ZERO_OID\tc\n" |
		git update-index --index-info &&
	printf "100644 %s 1\tc\n100644 %s 2\tc\n100644 %s 3\tc\n100644 %s 2\tonly\n" \
		$one $one $one $one | git update-index --index-info &&
	for o in "" --cached -p "-p --cached" -z "-z --cached"; do
		same_as_git $o $(cat ../tree) || return 1
	done &&
	diff-cache --cached $(cat ../tree) >out &&
	test_grep "^:100644 000000 [0-9a-f]\{$OID_HEXSZ\} 0\{$OID_HEXSZ\} U	c$" out &&
	test_grep "^:000000 000000 0\{$OID_HEXSZ\} 0\{$OID_HEXSZ\} U	only$" out &&
	cp ../index.saved .dircache/index
'

test_expect_success 'refusals' '
	cd r &&
	test_expect_code 129 diff-cache &&
	test_expect_code 129 diff-cache --bogus $(cat ../tree) &&
	test_expect_code 128 diff-cache 0123456789012345678901234567890123456789 &&
	blob=$(git rev-parse $(cat ../tree):a) &&
	test_expect_code 128 diff-cache $blob &&
	diff-cache -h >out && test_grep usage out
'

test_done
