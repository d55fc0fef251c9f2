#!/bin/sh
test_description='tree entry modes as written: every kind, zero-padded, cut short'
. "$(dirname "$0")/test-lib.sh"

# The modes 100644 and 40000 are read as whole strings, the rest digit
# by digit (object.c): trees written byte by byte, with every mode and
# with the two common ones cut at each byte, must read as git reads
# them, or be refused.

if ! test_have_prereq GIT || ! test_have_prereq PYTHON; then
	echo "1..0 # SKIP git and python3 are needed to write the trees"
	exit 0
fi

# raw_tree FILE MODE NAME HEX [MODE NAME HEX...]: the tree's bytes.
raw_tree() {
	python3 - "$@" <<-\PY
	import sys
	out, args = sys.argv[1], sys.argv[2:]
	data = b""
	for i in range(0, len(args), 3):
	    mode, name, hexid = args[i:i + 3]
	    data += mode.encode() + b" " + name.encode() + b"\0" + bytes.fromhex(hexid)
	open(out, "wb").write(data)
	PY
}

# store FILE: write FILE as a tree object, as it is; print its id.
store() {
	GIT_DIR=.dircache git hash-object -t tree --literally -w "$1"
}

same_as_git() {
	GIT_DIR=.dircache git diff-tree "$@" >expect &&
	diff-tree "$@" >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: blobs and a subtree' '
	test_create_repo . &&
	a=$(echo a | GIT_DIR=.dircache git hash-object -w --stdin) &&
	b=$(echo b | GIT_DIR=.dircache git hash-object -w --stdin) &&
	raw_tree sub 100644 f $a &&
	s=$(store sub) &&
	raw_tree sub2 100644 f $b &&
	s2=$(store sub2) &&
	echo "$a $b $s $s2" >ids
'

test_expect_success 'every mode, changed on the other side' '
	read a b s s2 <ids &&
	raw_tree one 100644 a $a 100755 b $a 120000 c $a 40000 d $s \
		160000 e $a 100644 f $a &&
	raw_tree two 100755 a $a 100644 b $b 120000 c $b 40000 d $s2 \
		160000 e $b 40000 f $s &&
	t1=$(store one) && t2=$(store two) &&
	same_as_git $t1 $t2 &&
	same_as_git -r $t2 $t1 &&
	same_as_git -r $t1 $t2 &&
	test_grep "^:100644 100755 .* M	a$" actual &&
	test_grep "^:100644 000000 .* D	f$" actual &&
	test $(wc -l <actual) = 7
'

test_expect_success 'zero-padded and 2005 modes read as git reads them' '
	read a b s s2 <ids &&
	raw_tree old 040000 d $s 0100644 f $a 100664 g $a &&
	raw_tree new 40000 d $s2 100644 f $b 100644 g $b &&
	t1=$(store old) && t2=$(store new) &&
	same_as_git -r $t1 $t2 &&
	test_grep "^:100644 100644 .* M	d/f$" actual &&
	test_grep "^:100644 100644 .* M	g$" actual
'

# refused TREE-BYTES: our diff-tree refuses the tree (exit 128).
refused() {
	printf "$1" >bad &&
	t=$(store bad) &&
	read a b s s2 <ids &&
	test_expect_code 128 diff-tree -r $t $s 2>err &&
	test_grep "refusing tree\|malformed" err
}

test_expect_success 'a mode cut short is refused' '
	refused "100644" &&
	refused "100644 " &&
	refused "100644 f" &&
	refused "40000" &&
	refused "40000 " &&
	refused "40000 d" &&
	refused "10064 " &&
	refused "1006440 f"
'

test_done
