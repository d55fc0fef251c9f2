#!/bin/sh
test_description='alternates followed as git follows them, every level of one hash'
. "$(dirname "$0")/test-lib.sh"

# both_see ID: git cat-file and ours, run in the current repository,
# find the object or not alike, print it alike, and say the same
# errors in substance (the prefix "error:" or "cat-file:" dropped).
both_see() {
	git cat-file -e $1 2>../git.err; g=$? &&
	cat-file -e $1 2>../our.err; o=$? &&
	test $g = $o &&
	sed "s/^[a-z-]*: //" ../git.err >../expect &&
	sed "s/^[a-z-]*: //" ../our.err >../actual &&
	test_cmp ../expect ../actual &&
	if test $g = 0
	then
		git cat-file -p $1 >../expect &&
		cat-file -p $1 >../actual 2>/dev/null &&
		test_cmp ../expect ../actual
	fi
}

# new_repo NAME: a repository NAME with one object of its own, whose
# id is in NAME.id.
new_repo() {
	git init -q "$1" &&
	echo "object of $1" | (cd "$1" && git hash-object -w --stdin) >"$1.id"
}

test_expect_success 'a nested alternates file is read relative to its store' '
	new_repo main && new_repo a1 && new_repo a2 &&
	echo ../../../a1/.git/objects >main/.git/objects/info/alternates &&
	echo ../../../a2/.git/objects >a1/.git/objects/info/alternates &&
	cd main && both_see $(cat ../a1.id) && both_see $(cat ../a2.id) &&
	test ! -s ../actual.err
'

test_expect_success 'cycles and duplicates are skipped silently' '
	echo "$TRASH_DIRECTORY/main/.git/objects" >>a2/.git/objects/info/alternates &&
	echo ../../../a1/.git/objects >>a2/.git/objects/info/alternates &&
	echo "../../../a2/.git/objects/" >>main/.git/objects/info/alternates &&
	cd main && both_see $(cat ../a2.id) && test ! -s ../our.err
'

test_expect_success 'a missing directory: git'"'"'s error, the others still used' '
	new_repo b1 && new_repo b2 &&
	printf "%s\n" ../../../gone/objects ../../../b2/.git/objects \
		>b1/.git/objects/info/alternates &&
	echo "../../../b2/.git/no-objects" >>b1/.git/objects/info/alternates &&
	echo "$TRASH_DIRECTORY/no/such/objects" >>b1/.git/objects/info/alternates &&
	(cd b1 && both_see $(cat ../b2.id) && test_grep "does not exist" ../our.err &&
	 test_grep "unable to normalize" ../our.err)
'

test_expect_success 'quoted entries are unquoted, as git reads them' '
	new_repo "q 1" && new_repo "q:2" && new_repo "q\"3" &&
	git init -q qmain &&
	printf "%s\n" "\"../../../q\\0401/.git/objects\"" \
		"\"../../../q\\\"3/.git/objects\"" \
		"\"../../../broken" >qmain/.git/objects/info/alternates &&
	(cd qmain && both_see $(cat "../q 1.id") &&
	 both_see $(cat "../q\"3.id") &&
	 GIT_ALTERNATE_OBJECT_DIRECTORIES="\"$TRASH_DIRECTORY/q:2/.git/objects\"" &&
	 export GIT_ALTERNATE_OBJECT_DIRECTORIES &&
	 both_see $(cat ../q:2.id))
'

test_expect_success 'nesting deeper than git reads: the same objects, the same error' '
	git init -q d0 &&
	i=0 && while [ $i -le 7 ]; do
		new_repo d$((i + 1)) &&
		echo "../../../d$((i + 1))/.git/objects" \
			>d$i/.git/objects/info/alternates || return 1
		i=$((i + 1))
	done &&
	cd d0 && for n in 1 2 3 4 5 6 7 8
	do
		both_see $(cat ../d$n.id) || return 1
	done &&
	test_grep "nesting too deep" ../our.err
'

other_hash() {
	case $test_hash_algo in sha1) echo sha256 ;; *) echo sha1 ;; esac
}

# refused LINE: our tools refuse with LINE after their name, exit 128,
# and the repository is as it was.
refused() {
	find .git -type f | sort | xargs cksum >../before &&
	for cmd in "cat-file -t $(cat ../s1.id)" "write-tree" \
		   "update-cache --refresh"
	do
		test_expect_code 128 $cmd >out 2>err &&
		echo "${cmd%% *}: $1" >want &&
		test_cmp want err || return 1
	done &&
	find .git -type f | sort | xargs cksum >../after &&
	test_cmp ../before ../after
}

test_expect_success 'a store of the other hash behind an alternate: refused' '
	o=$(other_hash) &&
	git init -q --bare --object-format=$o other.git &&
	new_repo s0 && new_repo s1 && new_repo s2 &&
	echo ../../../s1/.git/objects >s0/.git/objects/info/alternates &&
	echo ../../../s2/.git/objects >s1/.git/objects/info/alternates &&
	echo ../../../other.git/objects >s2/.git/objects/info/alternates &&
	(cd s0 && refused "alternate object directory '\''$TRASH_DIRECTORY/other.git/objects'\'' is a $o store; this repository is $test_hash_algo") &&
	rm s0/.git/objects/info/alternates &&
	(cd s0 && GIT_ALTERNATE_OBJECT_DIRECTORIES=$TRASH_DIRECTORY/s1/.git/objects &&
	 export GIT_ALTERNATE_OBJECT_DIRECTORIES &&
	 refused "alternate object directory '\''$TRASH_DIRECTORY/other.git/objects'\'' is a $o store; this repository is $test_hash_algo")
'

test_done
