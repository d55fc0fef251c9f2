#!/bin/sh
test_description='the collision check of a big file against its loose object'
. "$(dirname "$0")/test-lib.sh"

# A file over 1 MiB is hashed a piece at a time; when its object exists,
# its bytes are compared with the stored ones.  A loose object is read
# and inflated whole for that (inflate.c), a packed one streamed: both
# must take the same bytes, and refuse other content, another header,
# a stream that does not inflate, or bytes after it.

test_expect_success 'setup: a big file, added' '
	init-db 2>/dev/null &&
	seq 1 400000 >big &&
	test $(wc -c <big) -gt 1048576 &&
	update-cache --add big &&
	id=$(git hash-object big) && echo $id >id &&
	test -f $(obj_file $id) && cp $(obj_file $id) saved
'

test_expect_success 're-added: the same bytes are taken' '
	rm -f .dircache/index &&
	update-cache --add big &&
	test "$(ls-files --stage)" = "100644 $(cat id) 0	big" &&
	cmp saved $(obj_file $(cat id))
'

# put back the object as it was
restore() {
	chmod u+w $(obj_file $(cat id)) && cp saved $(obj_file $(cat id))
}

refused() {
	rm -f .dircache/index &&
	test_must_fail update-cache --add big 2>err &&
	test_grep "$1" err &&
	! test -f .dircache/index
}

test_expect_success 'other content under the name is refused, not replaced' '
	sed s/^123456$/123457/ big >other && ! cmp -s other big &&
	chmod u+w $(obj_file $(cat id)) &&
	python3 "$TEST_DIRECTORY/write-object.py" --name $(cat id) blob \
		<other &&
	cp $(obj_file $(cat id)) wrong &&
	refused "exists with different content" &&
	cmp wrong $(obj_file $(cat id)) && restore
'

test_expect_success 'a last byte that differs is found' '
	{ head -c $(($(wc -c <big) - 1)) big && printf x; } >other &&
	test $(wc -c <other) = $(wc -c <big) &&
	chmod u+w $(obj_file $(cat id)) &&
	python3 "$TEST_DIRECTORY/write-object.py" --name $(cat id) blob \
		<other &&
	refused "exists with different content" && restore
'

test_expect_success 'another size in the header is refused' '
	chmod u+w $(obj_file $(cat id)) &&
	python3 "$TEST_DIRECTORY/write-object.py" --name $(cat id) \
		--size $(($(wc -c <big) + 1)) blob <big &&
	refused "$(cat id)" && restore
'

test_expect_success 'a damaged stream is refused' '
	chmod u+w $(obj_file $(cat id)) &&
	python3 "$TEST_DIRECTORY/write-object.py" --name $(cat id) \
		--flip 1000 blob <big &&
	refused "$(cat id)" && restore
'

test_expect_success 'bytes after the stream are refused' '
	chmod u+w $(obj_file $(cat id)) &&
	python3 "$TEST_DIRECTORY/write-object.py" --name $(cat id) \
		--append 00 blob <big &&
	refused "$(cat id)" && restore
'

test_expect_success 'a packed copy is compared too' '
	echo $(cat id) | GIT_DIR=.dircache git pack-objects -q \
		.dircache/objects/pack/pack &&
	chmod u+w $(obj_file $(cat id)) && rm $(obj_file $(cat id)) &&
	rm -f .dircache/index && update-cache --add big &&
	test "$(ls-files --stage)" = "100644 $(cat id) 0	big" &&
	! test -f $(obj_file $(cat id))
'

test_done
