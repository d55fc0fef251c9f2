#!/bin/sh
test_description='write-tree: trees from the index, as git writes them'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-wt.sh"

# git is the oracle, on the same .dircache.
GIT_DIR=.dircache
export GIT_DIR

test_expect_success 'an empty index gives the empty tree' '
	test_create_repo empty &&
	cd empty &&
	write-tree >../out &&
	echo $EMPTY_TREE >../expect &&
	test_cmp ../expect ../out &&
	git cat-file -t $EMPTY_TREE >../type &&
	echo tree >../expect &&
	test_cmp ../expect ../type &&
	git write-tree >../git-out &&
	test_cmp ../git-out ../out
'

test_expect_success 'empty, executable and symlinked files' '
	test_create_repo modes &&
	cd modes &&
	: >empty &&
	echo run >exe &&
	chmod +x exe &&
	echo data >plain &&
	ln -s plain link &&
	ln -s nowhere dangling &&
	wt_check_tree &&
	git ls-tree $(cat ../tree) >../ls &&
	test_grep "^100755 blob .*	exe$" ../ls &&
	test_grep "^120000 blob .*	link$" ../ls &&
	test_grep "^100644 blob $EMPTY_BLOB	empty$" ../ls
'

test_expect_success 'deep directories' '
	test_create_repo deep &&
	cd deep &&
	mkdir -p a/b/c/d/e/f/g/h/i/j x/y &&
	echo deep >a/b/c/d/e/f/g/h/i/j/file &&
	echo mid >a/b/c/mid &&
	echo top >a/top &&
	echo y >x/y/z &&
	wt_check_tree &&
	git ls-tree -r $(cat ../tree) >../ls &&
	test_grep "	a/b/c/d/e/f/g/h/i/j/file$" ../ls
'

test_expect_success 'names that sort differently as files and as trees' '
	test_create_repo order &&
	cd order &&
	mkdir a b.c d &&
	for f in a.b a- a= a0 a/x a/- b.c/x b b- b0 c c.d d/x d.e d-; do
		echo "$f" >"$f" || exit 1
	done &&
	wt_check_tree &&
	git ls-tree $(cat ../tree) | cut -f2 >../order-names &&
	printf "%s\n" a- a.b a a0 a= b b- b.c b0 c c.d d- d.e d >../expect &&
	test_cmp ../expect ../order-names
'

test_expect_success 'names with spaces, tabs and non-ASCII bytes' '
	test_create_repo names &&
	cd names &&
	mkdir "dir with space" "$(printf "d\303\251j\303\240")" &&
	echo 1 >"with space" &&
	echo 2 >"$(printf "tab\there")" &&
	echo 3 >"$(printf "caf\303\251")" &&
	echo 4 >"$(printf "high\377byte")" &&
	echo 5 >"dir with space/f" &&
	echo 6 >"$(printf "d\303\251j\303\240/vu")" &&
	echo 7 >"q\"uote" &&
	wt_check_tree
'

test_expect_success 'a 10,000-file tree' '
	test_create_repo big &&
	cd big &&
	i=0 &&
	while [ $i -lt 100 ]; do
		mkdir d$i && j=0 &&
		while [ $j -lt 100 ]; do
			echo "$i $j" >d$i/f$j && j=$((j + 1)) || exit 1
		done
		i=$((i + 1))
	done &&
	wt_check_tree &&
	git ls-tree -r $(cat ../tree) >../ls &&
	test $(wc -l <../ls) -eq 10000
'

test_expect_success 'a gitlink is stored without looking for its commit' '
	test_create_repo gitlink &&
	cd gitlink &&
	echo f >file &&
	update-cache --add file &&
	sub=$(echo $ZERO_OID | tr 0 1) &&
	update-cache --add --cacheinfo 160000 $sub sub &&
	write-tree >../out &&
	git write-tree >../expect &&
	test_cmp ../expect ../out &&
	git ls-tree $(cat ../out) >../ls &&
	test_grep "^160000 commit $sub	" ../ls
'

test_expect_success 'unmerged entries are refused and nothing is written' '
	test_create_repo unmerged &&
	cd unmerged &&
	mkdir d &&
	echo ok >d/ok &&
	update-cache --add d/ok &&
	b1=$(echo one | git hash-object -w --stdin) &&
	b2=$(echo two | git hash-object -w --stdin) &&
	b3=$(echo three | git hash-object -w --stdin) &&
	for stage in 1 2 3; do
		eval "printf \"100644 %s $stage\\td/conflict\\n\" \$b$stage" ||
		exit 1
	done | git update-index --index-info &&
	git ls-files -u >../ls-u &&
	test $(wc -l <../ls-u) -eq 3 &&
	wt_objects >../before &&
	cp .dircache/index ../index-before &&
	test_expect_code 128 write-tree >../out 2>../err &&
	test ! -s ../out &&
	test_grep "^write-tree: '\''d/conflict'\'' is unmerged$" ../err &&
	test $(grep -c conflict ../err) -eq 1 &&
	test_grep "nothing written" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after &&
	cmp ../index-before .dircache/index
'

test_expect_success 'an entry naming a missing object is refused' '
	test_create_repo missing &&
	cd missing &&
	mkdir sub &&
	echo keep >keep &&
	echo gone >sub/gone &&
	update-cache --add keep sub/gone &&
	gone=$(git hash-object sub/gone) &&
	rm -f $(obj_file $gone) &&
	wt_objects >../before &&
	test_expect_code 128 write-tree >../out 2>../err &&
	test ! -s ../out &&
	test_grep "'\''sub/gone'\'' names object $gone, which does not" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after
'

# The blobs are looked up in a listing of each fan-out directory: one
# missing among its neighbours, and names there that are not objects
# (its own name in capitals among them).
test_expect_success 'a missing object among many is found by the listing' '
	test_create_repo listed &&
	(cd listed &&
	 for i in $(seq 1 400); do echo $i >f$i; done &&
	 update-cache --add f* &&
	 for i in $(seq 123 400); do
		gone=$(git hash-object f$i) && dir=$(dirname $(obj_file $gone)) &&
		test $(ls $dir | wc -l) -gt 1 && break
	 done &&
	 ls $dir | wc -l >../neighbours &&
	 rm -f $(obj_file $gone) &&
	 : >$dir/$(printf "z%.0s" $(seq 1 38)) && : >$dir/tmp_obj_abcdef &&
	 : >$dir/$(echo $gone | cut -c3- | tr a-f A-F) &&
	 test_expect_code 128 write-tree >../out 2>../err &&
	 test_grep "^write-tree: .f$i. names object $gone, which does not exist" ../err &&
	 test $(grep -c "which does not exist" ../err) = 1 &&
	 echo $i >f$i && update-cache f$i && write-tree >../out &&
	 test "$(cat ../out)" = "$(GIT_DIR=.dircache git write-tree)") &&
	test $(cat neighbours) -gt 1
'

# An index git would never write: a file and a directory of one name,
# with other names sorting between them.
write_index() {
	python3 - $test_hash_algo "$@" <<-\EOF
	import hashlib, struct, sys
	algo, sha = sys.argv[1], bytes.fromhex(sys.argv[2])
	out = b"DIRC" + struct.pack(">II", 2, len(sys.argv) - 3)
	for name in sys.argv[3:]:
	    n = name.encode()
	    e = struct.pack(">10I", 0, 0, 0, 0, 0, 0, 0o100644, 0, 0, 0)
	    e += sha + struct.pack(">H", len(n)) + n
	    out += e + b"\0" * (8 - len(e) % 8)
	sys.stdout.buffer.write(out + hashlib.new(algo, out).digest())
	EOF
}

if test_have_prereq PYTHON; then
test_expect_success 'a file and a directory of one name are refused' '
	test_create_repo df &&
	cd df &&
	git hash-object -w --stdin </dev/null &&
	write_index $EMPTY_BLOB a a- a-/x a.b >.dircache/index &&
	test_expect_code 128 write-tree 2>../err &&
	test_grep "'\''a-'\'' is both a file and a directory" ../err &&
	write_index $EMPTY_BLOB a a- a-b a.b a/y >.dircache/index &&
	test_expect_code 128 write-tree 2>../err &&
	test_grep "'\''a'\'' is both a file and a directory" ../err &&
	write_index $EMPTY_BLOB a a- a-b/c a.b b/y >.dircache/index &&
	write-tree >../out &&
	git write-tree >../expect &&
	test_cmp ../expect ../out
'

# 5,000 entries: their blobs are looked up in one listing of the whole
# store, made on every core, with the packs asked after it.
test_expect_success 'a big index: blobs loose or packed found, a missing one named' '
	test_create_repo big &&
	cd big &&
	blob=$(echo big | git hash-object -w --stdin) &&
	for d in $(seq 10 19); do
		seq 1000 1499 | sed "s|^|d$d/f|" || return 1
	done >../entry-names &&
	write_index $blob $(cat ../entry-names) >.dircache/index &&
	write-tree >../out &&
	git write-tree >../expect &&
	test_cmp ../expect ../out &&
	echo $blob | git pack-objects -q .dircache/objects/pack/pack >/dev/null &&
	rm "$(obj_file $blob)" &&
	write_index $blob $(cat ../entry-names) >.dircache/index &&
	write-tree >../out &&
	test_cmp ../expect ../out &&
	rm .dircache/objects/pack/* &&
	write_index $blob $(cat ../entry-names) >.dircache/index &&
	test_expect_code 128 write-tree >../out 2>../err &&
	test_grep "d19/f1499. names object $blob, which does not exist" ../err &&
	test_must_fail test -s ../out
'

# 150 new trees go in one pack, written while the index is, and the
# index is renamed into place only once the pack is: when the pack
# cannot be named, nothing is, and the index is the one read.
test_expect_success 'a pack of trees that cannot be placed: index kept' '
	test_create_repo pk &&
	cd pk &&
	blob=$(echo pk | git hash-object -w --stdin) &&
	write_index $blob $(seq 100 249 | sed "s|.*|d&/f&|") \
		>.dircache/index &&
	cp .dircache/index ../index-before &&
	cp -a ../pk ../pk-probe &&
	(cd ../pk-probe && write-tree >../want) &&
	pack=$(cd ../pk-probe/.dircache/objects/pack && echo *.pack) &&
	mkdir -p .dircache/objects/pack/$pack/in-the-way &&
	test_expect_code 128 write-tree >../out 2>../err &&
	test_must_fail test -s ../out &&
	test_cmp ../index-before .dircache/index &&
	ls .dircache/objects/pack >../left &&
	echo $pack >../expect &&
	test_cmp ../expect ../left &&
	! test -e .dircache/index.lock &&
	rm -r .dircache/objects/pack/$pack &&
	write-tree >../out &&
	test_cmp ../want ../out &&
	git write-tree >../out &&
	test_cmp ../want ../out &&
	! cmp -s ../index-before .dircache/index &&
	git fsck --strict 2>../err
'
fi

test_expect_success 'usage' '
	test_expect_code 129 write-tree extra 2>err &&
	echo "usage: write-tree" >expect &&
	test_cmp expect err &&
	write-tree -h >out &&
	test_cmp expect out
'

test_done
