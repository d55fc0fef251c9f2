#!/bin/sh
test_description='the collision check of many objects in one run, each against its own bytes'
. "$(dirname "$0")/test-lib.sh"

# A re-add compares every file with its stored object, small ones (up
# to 1 MiB) inflated whole from memory, big ones against pieces read
# again.  Each thread keeps the buffers it inflates into from one
# object to the next: whatever came before, small or big, bigger or
# smaller, each object must be taken or refused on its own bytes.
# Fewer than 64 files are done in order on one thread: the big ones
# first, biggest first, then the rest as given.

SIZES="3000000 0 1 100 70000 1048576 2000000 1048577 500 999999 4"

test_expect_success 'setup: files of growing and shrinking sizes, added' '
	init-db 2>/dev/null &&
	python3 -c "
import random, sys
r = random.Random(41)
for n in map(int, sys.argv[1:]):
    body = (b\"%d \" % n) * (n // 8 + 1)
    open(\"f%d\" % n, \"wb\").write((body + r.randbytes(n))[:n])
" $SIZES &&
	for n in $SIZES; do echo f$n; done >list &&
	update-cache --add --stdin <list &&
	git init -q g && git --git-dir=g/.git --work-tree=. \
		update-index --add --stdin <list &&
	git --git-dir=g/.git ls-files -s >expect &&
	ls-files --stage >actual &&
	test_cmp expect actual
'

readd() {
	rm -f .dircache/index &&
	update-cache --add --stdin <list
}

test_expect_success 'all re-added in one run: the ids and the index are git'"'"'s' '
	readd && ls-files --stage >actual && test_cmp expect actual &&
	cut -f2 expect >names &&
	while read -r f; do
		echo "100644 $(git hash-object $f) 0	$f" || return 1
	done <names >hashed &&
	test_cmp expect hashed
'

# wrong SIZE: the object of fSIZE rewritten to hold other bytes of the
# same size (its first byte changed), under the same name.
wrong() {
	id=$(git hash-object f$1) &&
	cp $(obj_file $id) saved.$1 && chmod u+w $(obj_file $id) &&
	{ printf x && tail -c +2 f$1; } >other &&
	! cmp -s other f$1 &&
	$WO --name $id blob <other >/dev/null
}

put_back() {
	cp saved.$1 $(obj_file $(git hash-object f$1))
}

refused() {
	rm -f .dircache/index &&
	test_must_fail update-cache --add --stdin <list 2>err &&
	test_grep "$(git hash-object f$1) exists with different content" err &&
	! test -f .dircache/index
}

# Each one comes after a bigger one (or, for the first, before all),
# whose bytes the thread inflated last.
for n in 3000000 2000000 1048577 999999 100 1 4; do
	test_expect_success "a wrong object of $n bytes among them is refused" '
		wrong '$n' && refused '$n' && put_back '$n' &&
		readd && ls-files --stage >actual && test_cmp expect actual
	'
done

test_expect_success 'the same bytes under two names: both taken' '
	cp f999999 copy && echo copy >>list &&
	readd && ls-files --stage >actual &&
	test_grep "$(git hash-object f999999) 0	copy" actual &&
	test $(wc -l <actual) = $(wc -l <list)
'

test_done
