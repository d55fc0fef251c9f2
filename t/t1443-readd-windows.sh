#!/bin/sh
test_description='the collision check of a big file, its object inflated a window at a time'
. "$(dirname "$0")/test-lib.sh"

# A file over 1 MiB whose object exists is compared with it as it is
# inflated, a 1 MiB window at a time (inflate_windows), whatever its
# size.  A block that gives more than a window (zlib writes the zeros
# of a file in blocks of 4 MB) sends the rest to zlib's stream, which
# skips what the windows compared: a byte that differs past that point
# must still be found, and the same bytes taken.

test_expect_success 'setup: text, 8 MiB of zeros, text; stored by git' '
	init-db 2>/dev/null &&
	python3 -c "
import sys
head = b\"\".join(b\"line %d of the head\n\" % i for i in range(80000))
tail = b\"\".join(b\"line %d of the tail\n\" % i for i in range(6000))
open(\"mixed\", \"wb\").write(head + bytes(8 << 20) + tail)
" &&
	id=$(GIT_DIR=.dircache git hash-object -w mixed) && echo $id >id &&
	cp $(obj_file $id) saved &&
	test $(wc -c <saved) -lt 2000000
'

restore() {
	chmod u+w $(obj_file $(cat id)) && cp saved $(obj_file $(cat id))
}

refused() {
	rm -f .dircache/index &&
	test_must_fail update-cache --add mixed 2>err &&
	test_grep "$(cat id) exists with different content" err &&
	! test -f .dircache/index
}

# stored_with OFFSET: the object rewritten under its name to hold the
# file with the byte at OFFSET changed (zlib level 1, as git writes).
stored_with() {
	python3 -c "
import sys
b = bytearray(open(\"mixed\", \"rb\").read())
b[int(sys.argv[1])] ^= 0x20
open(\"other\", \"wb\").write(b)
" $1 &&
	chmod u+w $(obj_file $(cat id)) &&
	$WO --name $(cat id) blob <other >/dev/null
}

test_expect_success 'the same bytes are taken, the object left as it was' '
	update-cache --add mixed &&
	test "$(ls-files --stage)" = "100644 $(cat id) 0	mixed" &&
	cmp saved $(obj_file $(cat id))
'

# In the first window, the second, the zeros, the tail after them (the
# stream, past what the windows compared), the last byte.
for at in 1000 1200000 5000000 TAIL LAST; do
	test_expect_success "a byte changed at $at is found" '
		at='$at' &&
		case $at in
		TAIL) at=$(($(wc -c <mixed) - 100000)) ;;
		LAST) at=$(($(wc -c <mixed) - 1)) ;;
		esac &&
		stored_with $at && cp $(obj_file $(cat id)) wrong &&
		refused && cmp wrong $(obj_file $(cat id)) && restore
	'
done

test_expect_success 'stored by update-cache (our deflate): taken, then a late change refused' '
	seq 1 900000 >long &&
	update-cache --add long &&
	lid=$(git hash-object long) &&
	rm -f .dircache/index && update-cache --add long &&
	test "$(ls-files --stage long)" = "100644 $lid 0	long" &&
	sed s/^876543$/876542/ long >other2 && ! cmp -s other2 long &&
	chmod u+w $(obj_file $lid) &&
	$WO --name $lid blob <other2 >/dev/null &&
	rm -f .dircache/index &&
	test_must_fail update-cache --add long 2>err &&
	test_grep "$lid exists with different content" err
'

# The window is all the check keeps, however big the file: a re-add of
# a 40 MB file peaks far below its size (whole, it took the object's
# size and its compressed size again).
test_expect_success UNSANITIZED 'a 40 MB file is checked in a few MB' '
	python3 -c "
lines = (b\"this is line %d of a file of forty megabytes\n\" % i
         for i in range(900000))
open(\"huge\", \"wb\").write(b\"\".join(lines))
" &&
	test $(wc -c <huge) -gt 40000000 &&
	update-cache --add huge &&
	rm -f .dircache/index &&
	python3 -c "
import resource, subprocess, sys
subprocess.run([\"update-cache\", \"--add\", \"huge\"], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
" >peak &&
	echo "peak $(cat peak) KB" &&
	test $(cat peak) -lt 24000 &&
	test "$(ls-files --stage huge)" = "100644 $(git hash-object huge) 0	huge"
'

test_done
