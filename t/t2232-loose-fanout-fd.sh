#!/bin/sh
test_description='loose objects opened through their fan-out directory'
. "$(dirname "$0")/test-lib.sh"

# A reader opens each fan-out directory of the store once and every
# loose object in it by the rest of its name, not by the store's whole
# path; an object missing there is still looked for by its path.

test_expect_success 'setup: files whose objects share fan-out directories' '
	init-db 2>/dev/null &&
	for i in $(seq 1 60); do
		echo $i >f$i || return 1
	done &&
	update-cache --add f* &&
	ls-files -s | awk "{ print \$2 }" | cut -c1-2 | sort -u >fanouts
'

test_expect_success 'checkout-cache -a: the same files, each object by its own name' '
	if ! command -v strace >/dev/null; then
		mkdir out && (cd out && GIT_INDEX_FILE=../.dircache/index \
			SHA1_FILE_DIRECTORY=../.dircache/objects \
			checkout-cache -a) &&
		echo "# no strace: the files alone checked" >&2
	else
		mkdir out && (cd out && GIT_INDEX_FILE=../.dircache/index \
			SHA1_FILE_DIRECTORY=../.dircache/objects \
			strace -f -e trace=openat,open -o ../trace \
				checkout-cache -a) &&
		grep "objects/[0-9a-f][0-9a-f]\", O_RDONLY|O_CLOEXEC|O_PATH" \
			trace >dirs &&
		test $(wc -l <dirs) = $(wc -l <fanouts) &&
		! grep "objects/[0-9a-f][0-9a-f]/" trace
	fi &&
	for i in $(seq 1 60); do
		cmp f$i out/f$i || return 1
	done
'

test_expect_success 'a missing object is missing, its fan-out directory there or not' '
	id=$(ls-files -s f1 | awk "{ print \$2 }") &&
	obj=.dircache/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	mv $obj saved &&
	test_must_fail cat-file blob $id 2>err &&
	test -s err &&
	rm -rf out && mkdir out && (cd out && GIT_INDEX_FILE=../.dircache/index \
		SHA1_FILE_DIRECTORY=../.dircache/objects \
		test_must_fail checkout-cache -a 2>../err) &&
	test_grep "$id" err && ! test -e out/f1 && cmp f2 out/f2 &&
	mv saved $obj
'

test_done
