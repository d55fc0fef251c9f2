#!/bin/sh
test_description='loose objects read whole and written nameless'
. "$(dirname "$0")/test-lib.sh"

# Loose objects of every size read back byte for byte, with the faults
# of the stream named.  New objects are nameless (O_TMPFILE) files
# linked under their names, and write-tree writes the trees its fan-out
# listings do not hold without looking them up first.

test_expect_success 'setup: small, mid-sized and big blobs, as git stores them' '
	init-db 2>/dev/null &&
	mkdir d &&
	seq 1 100 >d/small &&
	seq 1 200000 >d/mid &&
	python3 -c "import random, sys
r = random.Random(7)
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(5 << 20)))" >big &&
	update-cache --add d/small d/mid big &&
	tree=$(write-tree) && echo $tree >tree &&
	test $tree = $(GIT_DIR=.dircache git write-tree)
'

test_expect_success 'a checkout of all three is byte for byte the files' '
	mkdir out && (cd out && GIT_DIR=../.dircache GIT_INDEX_FILE=../.dircache/index \
		SHA1_FILE_DIRECTORY=../.dircache/objects checkout-cache -a) &&
	cmp d/small out/d/small && cmp d/mid out/d/mid && cmp big out/big
'

test_expect_success 'cat-file of each gives the same bytes as git' '
	for f in d/small d/mid big; do
		id=$(git hash-object $f) &&
		cat-file blob $id >got &&
		GIT_DIR=.dircache git cat-file blob $id >want &&
		cmp got want || return 1
	done
'

test_expect_success 'a byte after the zlib stream is refused, read whole or not' '
	for f in d/mid big; do
		id=$(git hash-object $f) &&
		cp $(obj_file $id) saved &&
		chmod u+w $(obj_file $id) && printf x >>$(obj_file $id) &&
		test_must_fail cat-file blob $id >/dev/null 2>err &&
		test_grep "garbage after the zlib stream" err &&
		chmod u+w $(obj_file $id) && cp saved $(obj_file $id) || return 1
	done
'

test_expect_success 'a bad adler32 is still read (the id checks every byte)' '
	id=$(git hash-object d/mid) &&
	cp $(obj_file $id) saved && chmod u+w $(obj_file $id) &&
	python3 -c "import sys
p = sys.argv[1]
b = bytearray(open(p, \"rb\").read())
b[-1] ^= 1
open(p, \"wb\").write(b)" $(obj_file $id) &&
	cat-file blob $id >got && cmp d/mid got &&
	cp saved $(obj_file $id)
'

test_expect_success 'content that does not hash to the name is refused' '
	id=$(git hash-object d/mid) &&
	cp $(obj_file $id) saved && chmod u+w $(obj_file $id) &&
	sed s/^1234$/1235/ d/mid >other && ! cmp -s other d/mid &&
	python3 "$TEST_DIRECTORY/write-object.py" --name $id blob <other &&
	test_must_fail cat-file blob $id >/dev/null 2>err &&
	test_grep "hash mismatch $id" err &&
	rm -f .dircache/index &&
	test_must_fail update-cache --add d/mid 2>err &&
	test_grep "exists with different content" err &&
	chmod u+w $(obj_file $id) && cp saved $(obj_file $id)
'

test_expect_success 'trees are written nameless: git'\''s content, read-only, no temporary' '
	rm -rf .dircache/objects/* && rm -f .dircache/index &&
	update-cache --add d/small d/mid big &&
	git init -q --bare g.git &&
	GIT_DIR=g.git GIT_WORK_TREE=. git update-index --add d/small d/mid big &&
	test $(write-tree) = $(cat tree) &&
	GIT_DIR=g.git git write-tree >/dev/null &&
	for t in $(cat tree) $(GIT_DIR=.dircache git rev-parse $(cat tree):d); do
		python3 -c "import zlib, sys; a, b = (zlib.decompress(open(f, \"rb\").read()) for f in sys.argv[1:]); assert a == b" \
			$(obj_file $t) g.git/objects/$(echo $t | cut -c1-2)/$(echo $t | cut -c3-) &&
		test "$(stat -c %a $(obj_file $t))" = 444 || return 1
	done &&
	! find .dircache/objects -name "tmp_obj_*" | grep .
'

test_expect_success 'a tree stored with other bytes is refused, not replaced' '
	t=$(GIT_DIR=.dircache git rev-parse $(cat tree):d) &&
	chmod u+w $(obj_file $t) &&
	echo "100644 x $(git hash-object d/small)" |
		python3 "$TEST_DIRECTORY/write-object.py" --tree-spec --name $t tree &&
	cp $(obj_file $t) wrong &&
	rm .dircache/index && update-cache --add d/small d/mid big &&
	test_must_fail write-tree 2>err &&
	test_grep "object $t exists with different content" err &&
	cmp wrong $(obj_file $t) &&
	chmod u+w $(obj_file $t) && rm $(obj_file $t) && write-tree
'

test_expect_success 'trees a pack holds are not written loose again' '
	find .dircache/objects -type f -path "*/objects/??/*" |
		sed "s|.*/\(..\)/|\1|" >ids && test $(wc -l <ids) = 5 &&
	GIT_DIR=.dircache git pack-objects -q .dircache/objects/pack/pack <ids &&
	GIT_DIR=.dircache git prune-packed &&
	! find .dircache/objects -type f -path "*/objects/??/*" | grep . &&
	test $(write-tree) = $(cat tree) &&
	! find .dircache/objects -type f -path "*/objects/??/*" | grep .
'

test_expect_success 'an empty blob with a byte after its stream is refused' '
	mkdir e && : >e/empty &&
	id=$(git hash-object e/empty) &&
	(cd e && init-db 2>/dev/null && update-cache --add empty) &&
	o=e/$(obj_file $id) && chmod u+w $o && printf x >>$o &&
	test_must_fail env SHA1_FILE_DIRECTORY=e/.dircache/objects \
		cat-file blob $id >/dev/null 2>err &&
	test_grep "garbage after the zlib stream" err
'

test_done
