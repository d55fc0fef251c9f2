#!/bin/sh
test_description='cat-file: objects shown byte for byte as git shows them'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-wt.sh"

# An id of the store's size that names nothing.
MISSING=$(echo 1234567890123456789012345678901234567890123456789012345678901234 | cut -c1-$OID_HEXSZ)

# git is the oracle, on the same .dircache.
GIT_DIR=.dircache
export GIT_DIR

test_expect_success 'setup' '
	test_create_repo repo &&
	cd repo &&
	printf "hello\n" >plain &&
	printf "no newline" >"with space" &&
	printf "x" >"$(printf "tab\there")" &&
	printf "y" >"q\"uote" &&
	printf "z" >"back\\\\slash" &&
	printf "w" >"$(printf "caf\303\251")" &&
	printf "n" >"$(printf "new\nline")" &&
	mkdir "$(printf "d\303\251j\303\240")" &&
	echo vu >"$(printf "d\303\251j\303\240/vu")" &&
	echo run >exe &&
	chmod +x exe &&
	ln -s plain link &&
	wt_files | update-cache --add -z --stdin &&
	write-tree >../T &&
	echo message >../msg &&
	commit-tree $(cat ../T) <../msg >../C &&
	git hash-object plain >../B &&
	git ls-tree $(cat ../T) >../ls &&
	test_grep "\"tab\\\\there\"" ../ls
'

test_expect_success '-t, -s, -p and <type> match git for blob, tree, commit' '
	cd repo &&
	for id in $(cat ../B ../T ../C); do
		type=$(git cat-file -t $id) &&
		for opt in -t -s -p $type; do
			cat-file $opt $id >../ours &&
			git cat-file $opt $id >../theirs &&
			cmp ../theirs ../ours || exit 1
		done
	done &&
	cat-file -p $(cat ../T) >../ours &&
	test_grep -F "\"caf\\303\\251\"" ../ours &&
	test_grep -F "040000 tree" ../ours &&
	cat-file -t $(cat ../C) >../ours &&
	echo commit >../expect &&
	test_cmp ../expect ../ours
'

test_expect_success 'every object in the store matches git' '
	cd repo &&
	for f in $(cd .dircache/objects && ls -d ??/*); do
		id=$(echo $f | tr -d /) &&
		for opt in -t -s -p; do
			cat-file $opt $id >../ours &&
			git cat-file $opt $id >../theirs &&
			cmp ../theirs ../ours || exit 1
		done
	done
'

test_expect_success 'abbreviated ids' '
	cd repo &&
	cat-file -p $(cut -c1-6 ../T) >../ours &&
	cat-file -p $(cat ../T) >../expect &&
	test_cmp ../expect ../ours
'

test_expect_success '-e: exit status only' '
	cd repo &&
	cat-file -e $(cat ../B) >../out 2>../err &&
	test ! -s ../out &&
	test ! -s ../err &&
	test_expect_code 1 cat-file -e $MISSING \
		>../out 2>../err &&
	test ! -s ../out &&
	test ! -s ../err
'

test_expect_success 'an unknown type or option is refused' '
	cd repo &&
	test_expect_code 128 cat-file foo $(cat ../B) >../out 2>../err &&
	test ! -s ../out &&
	test_grep "invalid object type '\''foo'\''" ../err &&
	test_expect_code 129 cat-file -x $(cat ../B) 2>../err &&
	test_grep "^usage: " ../err
'

test_expect_success 'a type that does not match is refused' '
	cd repo &&
	test_expect_code 128 cat-file tree $(cat ../B) >../out 2>../err &&
	test ! -s ../out &&
	test_grep "$(cat ../B) is a blob, not a tree" ../err &&
	test_expect_code 128 cat-file blob $(cat ../C) >../out 2>../err &&
	test ! -s ../out &&
	test_grep "$(cat ../C) is a commit, not a blob" ../err
'

test_expect_success '<type> peels a tag and a commit as git does' '
	cd repo &&
	tag=$(printf "object %s\ntype commit\ntag v1\ntagger T <t@t> 1 +0000\n\nv1\n" \
		$(cat ../C) | GIT_DIR=.dircache git hash-object -t tag -w --stdin) &&
	for spec in "tree $(cat ../C)" "commit $tag" "tree $tag" "tag $tag"; do
		cat-file $spec >../out &&
		GIT_DIR=.dircache git cat-file $spec >../expect &&
		test_cmp ../expect ../out || return 1
	done &&
	test_expect_code 128 cat-file blob $tag 2>../err &&
	test_grep "is a commit, not a blob" ../err
'

test_expect_success 'bad and missing ids are refused' '
	cd repo &&
	test_expect_code 128 cat-file -t nothex >../out 2>../err &&
	test ! -s ../out &&
	test_grep "'\''nothex'\''" ../err &&
	test_expect_code 128 cat-file -p $MISSING \
		>../out 2>../err &&
	test ! -s ../out &&
	test_grep "$MISSING not found" ../err &&
	test_expect_code 128 cat-file -e ffff 2>../err &&
	test_grep "'\''ffff'\''" ../err
'

test_expect_success 'an ambiguous abbreviation is refused' '
	test_create_repo ambiguous &&
	cd ambiguous &&
	i=0 &&
	while [ $i -lt 1500 ]; do
		echo "blob $i" >f$i && echo f$i && i=$((i + 1)) || exit 1
	done >../paths &&
	git hash-object -w --stdin-paths <../paths >../ids &&
	prefix=$(cut -c1-4 ../ids | sort | uniq -d | head -n 1) &&
	test -n "$prefix" &&
	test_expect_code 128 cat-file -t $prefix >../out 2>../err &&
	test ! -s ../out &&
	test_grep "'\''$prefix'\'' is ambiguous" ../err &&
	full=$(grep "^$prefix" ../ids | head -n 1) &&
	cat-file -t $(echo $full | cut -c1-12) >../out &&
	echo blob >../expect &&
	test_cmp ../expect ../out
'

test_expect_success 'a tree that is not sorted is refused by -p' '
	cd repo &&
	printf "b" >../b && printf "a" >../a &&
	bid=$(git hash-object -w ../b) &&
	aid=$(git hash-object -w ../a) &&
	printf "100644 blob %s\tb\n" $bid | git mktree >../tb &&
	printf "100644 blob %s\ta\n" $aid | git mktree >../ta &&
	{
		git cat-file tree $(cat ../tb) &&
		git cat-file tree $(cat ../ta)
	} >../raw &&
	bad=$(git hash-object -t tree --literally -w ../raw) &&
	test_expect_code 128 cat-file -p $bad >../out 2>../err &&
	test ! -s ../out &&
	test_grep "tree $bad is corrupt: treeNotSorted" ../err &&
	cat-file tree $bad >../out &&
	cmp ../raw ../out
'

test_expect_success 'a corrupt object is an error, naming the id' '
	cd repo &&
	id=$(echo "to be corrupted, with enough text to flip a byte" |
		git hash-object -w --stdin) &&
	file=$(obj_file $id) &&
	wt_flip_byte $file 20 &&
	for opt in -p -e blob; do
		test_expect_code 128 cat-file $opt $id >../out 2>../err &&
		test ! -s ../out &&
		test_grep "$id" ../err || exit 1
	done
'

test_expect_success 'a truncated object is an error, naming the id' '
	cd repo &&
	id=$(echo "to be truncated, with enough text to cut in half" |
		git hash-object -w --stdin) &&
	file=$(obj_file $id) &&
	chmod u+w $file &&
	size=$(wc -c <$file) &&
	truncate -s $((size / 2)) $file &&
	for opt in -p -e blob; do
		test_expect_code 128 cat-file $opt $id >../out 2>../err &&
		test ! -s ../out &&
		test_grep "object $id is corrupt" ../err || exit 1
	done &&
	: >$file &&
	test_expect_code 128 cat-file -t $id >../out 2>../err &&
	test ! -s ../out &&
	test_grep "object $id is corrupt" ../err
'

test_expect_success 'usage' '
	echo "usage: cat-file (-t | -s | -e | -p | <type>) <id>" >expect &&
	test_expect_code 129 cat-file 2>err &&
	test_cmp expect err &&
	test_expect_code 129 cat-file -t 2>err &&
	test_cmp expect err &&
	cat-file -h >out &&
	test_cmp expect out
'

test_done
