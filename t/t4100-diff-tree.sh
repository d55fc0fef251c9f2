#!/bin/sh
test_description='diff-tree raw output, compared byte for byte with git'
. "$(dirname "$0")/test-lib.sh"

# Trees are built from the work tree w/ into the store .dircache with
# our update-cache and write-tree (or git mktree where a tree needs
# entries no work tree holds); git diff-tree on the same store is the
# oracle for every output.

# same_as_git ARGS...: our output and exit status equal git's.
same_as_git() {
	GIT_DIR=.dircache git diff-tree "$@" >expect &&
	diff-tree "$@" >actual &&
	test_cmp expect actual
}

# all_modes A B [PATH...]: same as git with and without -r and -z.
all_modes() {
	same_as_git "$@" &&
	same_as_git -r "$@" &&
	same_as_git -z "$@" &&
	same_as_git -r -z "$@"
}

test_expect_success 'setup: two trees with every kind of change' '
	test_create_repo . &&
	mkdir -p w/dir/sub/deeper w/keep w/ftod w/dtof &&
	echo a >w/modify &&
	echo b >w/delete &&
	echo c >w/chmod &&
	echo d >w/tolink &&
	ln -s target w/fromlink &&
	echo e >w/dtof/x &&
	echo f >w/ftod.x &&
	echo g >w/keep/same &&
	echo h >w/dir/sub/deeper/f &&
	echo i >w/dir/sub/g &&
	echo j >w/dir/same &&
	echo k >w/ftod2 &&
	rmdir w/ftod &&
	echo l >w/ftod &&
	snap A &&
	echo changed >w/modify &&
	rm w/delete &&
	echo new >w/add &&
	chmod +x w/chmod &&
	rm w/tolink && ln -s somewhere w/tolink &&
	rm w/fromlink && echo now-a-file >w/fromlink &&
	rm -r w/dtof && echo file >w/dtof &&
	rm w/ftod && mkdir w/ftod && echo in >w/ftod/in &&
	echo more >>w/ftod.x && echo more >>w/ftod2 &&
	echo changed >w/dir/sub/deeper/f &&
	mkdir -p w/new/deep/er && echo n >w/new/deep/er/n &&
	snap B &&
	test "$(cat A)" != "$(cat B)"
'

test_expect_success 'non-recursive output is git'"'"'s' '
	same_as_git $(cat A) $(cat B) &&
	test_grep "^:040000 040000 .* M	dir$" actual &&
	test_grep "^:100644 120000 .* T	tolink$" actual &&
	test_grep "^:120000 100644 .* T	fromlink$" actual &&
	test_grep "^:100644 100755 .* M	chmod$" actual &&
	test_grep "^:000000 040000 0\{$OID_HEXSZ\} .* A	new$" actual
'

test_expect_success 'recursive output is git'"'"'s' '
	same_as_git -r $(cat A) $(cat B) &&
	test_grep "	dir/sub/deeper/f$" actual &&
	test_grep "^:000000 100644 .* A	new/deep/er/n$" actual &&
	! grep "^:040000" actual
'

test_expect_success 'file replaced by directory and back, in git'"'"'s order' '
	all_modes $(cat A) $(cat B) &&
	diff-tree -r $(cat A) $(cat B) >out &&
	sed -n "s/^:[^	]*	//p" out >paths &&
	grep -n "^ftod" paths >order &&
	cat >expect-order <<-\EOF &&
	ftod
	ftod.x
	ftod/in
	ftod2
	EOF
	cut -d: -f2 order >got-order &&
	test_cmp expect-order got-order
'

test_expect_success 'reversed arguments' '
	all_modes $(cat B) $(cat A)
'

test_expect_success '-z output is git'"'"'s' '
	same_as_git -z $(cat A) $(cat B) &&
	same_as_git -r -z $(cat A) $(cat B) &&
	tr "\0" "\n" <actual >lines &&
	test_grep "^dir/sub/deeper/f$" lines
'

test_expect_success 'identical trees give no output' '
	diff-tree $(cat A) $(cat A) >out &&
	test_must_fail test -s out &&
	diff-tree -r -z $(cat B) $(cat B) >out &&
	test_must_fail test -s out
'

test_expect_success 'the empty tree, even when not in the store' '
	test_must_fail test -f .dircache/objects/$(echo $EMPTY_TREE |
		sed "s|^..|&/|") &&
	all_modes $EMPTY_TREE $(cat A) &&
	all_modes $(cat B) $EMPTY_TREE
'

test_expect_success 'names that need quoting' '
	mkdir q &&
	(cd q && init-db 2>/dev/null &&
	 mkdir w &&
	 echo 1 >"w/tab	name" && echo 2 >"w/quote\"name" &&
	 echo 3 >"w/back\\slash" && echo 4 >"w/$(printf "caf\303\251")" &&
	 echo 5 >"w/$(printf "new\nline")" && echo 6 >"w/plain" &&
	 snap ../QA &&
	 for f in w/*; do echo more >>"$f"; done &&
	 snap ../QB &&
	 all_modes $(cat ../QA) $(cat ../QB) &&
	 diff-tree $(cat ../QA) $(cat ../QB) >actual &&
	 test_grep "\"tab\\\\tname\"" actual &&
	 test_grep "\"caf\\\\303\\\\251\"" actual)
'

test_expect_success 'commit ids and abbreviations stand for their trees' '
	GIT_DIR=.dircache git commit-tree $(cat A) -m a >CA &&
	GIT_DIR=.dircache git commit-tree $(cat B) -p $(cat CA) -m b >CB &&
	all_modes $(cat CA) $(cat CB) &&
	diff-tree -r $(cat A) $(cat B) >expect &&
	diff-tree -r $(cut -c1-12 CA) $(cut -c1-12 CB) >actual &&
	test_cmp expect actual
'

test_expect_success 'ref names stand for their commits' '
	GIT_DIR=.dircache git update-ref refs/heads/master $(cat CB) &&
	GIT_DIR=.dircache git update-ref refs/heads/old $(cat CA) &&
	all_modes old HEAD
'

test_expect_success 'paths limit the output as git pathspecs do' '
	for p in dir dir/ dir/sub dir/sub/deeper/f dir/same ftod ftod/ \
		 ftod/in ftod/in/ ./dir dir//sub new/deep nothing modify \
		 modify/ . "dir ." "modify add" "dir/sub/g ftod"
	do
		all_modes $(cat A) $(cat B) -- $p || return 1
	done
'

test_expect_success 'globs select as git pathspecs do (with -r)' '
	for p in "*" "dir/*" "*/g" "d*" "*same" "dir/sub/*/f" "?odify" \
		 "[dm]*" "ftod*" "*.x" "dir/*/g" "nothing*"
	do
		same_as_git -r $(cat A) $(cat B) -- "$p" &&
		same_as_git -r -z $(cat A) $(cat B) -- "$p" || return 1
	done
'

test_expect_success 'a path below a subtree selects it without -r' '
	diff-tree $(cat A) $(cat B) -- dir/sub/deeper >actual &&
	test_grep "^:040000 040000 .*	dir$" actual &&
	test $(wc -l <actual) = 1
'

test_expect_success '"--" before the trees, after them, or absent' '
	diff-tree -r $(cat A) $(cat B) dir >expect &&
	diff-tree -r -- $(cat A) $(cat B) dir >actual &&
	test_cmp expect actual &&
	diff-tree -r $(cat A) $(cat B) -- dir >actual &&
	test_cmp expect actual &&
	test_grep "dir/sub/deeper/f" expect
'

test_expect_success 'gitlinks: changed, added and type-changed' '
	blob=$(echo x | GIT_DIR=.dircache git hash-object -w --stdin) &&
	c1=$(cat CA) && c2=$(cat CB) &&
	t1=$(printf "160000 commit %s\tsub\n100644 blob %s\tgl\n" \
		$c1 $blob | GIT_DIR=.dircache git mktree) &&
	t2=$(printf "160000 commit %s\tsub\n160000 commit %s\tgl\n" \
		$c2 $c1 | GIT_DIR=.dircache git mktree) &&
	all_modes $t1 $t2 &&
	diff-tree $t1 $t2 >actual &&
	test_grep "^:100644 160000 .* T	gl$" actual &&
	test_grep "^:160000 160000 .* M	sub$" actual
'

test_expect_success 'usage' '
	test_expect_code 129 diff-tree 2>err &&
	test_grep "^usage: diff-tree \[-r\] \[-z\] \[-p\] \[--binary\] \[--full-index\] \[--abbrev\[=<n>\]\] \[-M\[<n>\] | --find-renames\[=<n>\] | --no-renames | --diff-renames\] \[--\] (<tree-ish> <tree-ish> | --stdin) \[<path>...\]$" err &&
	test_expect_code 129 diff-tree $(cat A) 2>err &&
	test_expect_code 129 diff-tree -x $(cat A) $(cat B) 2>err &&
	diff-tree -h >out &&
	test_grep "^usage: diff-tree" out
'

test_expect_success 'refuses a bad id' '
	test_expect_code 128 diff-tree 0123456789012345678901234567890123456789 \
		$(cat A) >out 2>err &&
	test_grep "^diff-tree: .*0123456789012345678901234567890123456789" err &&
	test_expect_code 128 diff-tree nosuchref $(cat A) >out 2>err &&
	test_grep "^diff-tree: .*nosuchref" err &&
	test_must_fail test -s out
'

test_expect_success 'refuses a blob given as a tree' '
	blob=$(GIT_DIR=.dircache git rev-parse $(cat A):modify) &&
	test_expect_code 128 diff-tree $blob $(cat A) >out 2>err &&
	test_grep "^diff-tree: object $blob is a blob, not a tree or a commit$" err &&
	test_must_fail test -s out
'

# write_tree_bytes PYTHON-BYTES-EXPR: store raw bytes as a tree object.
write_tree_bytes() {
	python3 -c "import sys; sys.stdout.buffer.write($1)" >raw &&
	GIT_DIR=.dircache git hash-object -t tree --literally -w raw
}

test_expect_success 'refuses a hostile tree given as argument' '
	id="bytes.fromhex(\"$EMPTY_BLOB\")" &&
	bad=$(write_tree_bytes "b\"100644 b\\0\" + $id + b\"100644 a\\0\" + $id") &&
	test_expect_code 128 diff-tree $bad $(cat A) >out 2>err &&
	test_grep "^diff-tree: refusing tree $bad: treeNotSorted" err &&
	test_must_fail test -s out &&
	dup=$(write_tree_bytes "b\"100644 a\\0\" + $id + b\"100644 a\\0\" + $id") &&
	test_expect_code 128 diff-tree -r $(cat A) $dup 2>err &&
	test_grep "^diff-tree: refusing tree $dup: duplicateEntries" err
'

test_expect_success 'refuses a hostile subtree when it reads it' '
	id="bytes.fromhex(\"$EMPTY_BLOB\")" &&
	bad=$(write_tree_bytes "b\"100644 x/y\\0\" + $id") &&
	good=$(GIT_DIR=.dircache git rev-parse $(cat A):dir) &&
	t1=$(printf "040000 tree %s\tsub\n" $good |
		GIT_DIR=.dircache git mktree) &&
	t2=$(printf "040000 tree %s\tsub\n" $bad |
		GIT_DIR=.dircache git mktree) &&
	diff-tree $t1 $t2 >out &&
	test_grep "^:040000 040000 $good $bad M	sub$" out &&
	test_expect_code 128 diff-tree -r $t1 $t2 2>err &&
	test_grep "^diff-tree: refusing tree $bad of .sub.: fullPathname" err
'

test_expect_success 'missing subtree: refused when needed, never read when equal' '
	mkdir m &&
	(cd m && init-db 2>/dev/null && mkdir -p w/s w/same &&
	 echo 1 >w/s/f && echo 2 >w/same/f && snap ../MA &&
	 echo 3 >w/s/f && echo 4 >w/top && snap ../MB &&
	 s=$(GIT_DIR=.dircache git rev-parse $(cat ../MB):s) &&
	 same=$(GIT_DIR=.dircache git rev-parse $(cat ../MB):same) &&
	 rm .dircache/objects/$(echo $same | cut -c1-2)/$(echo $same | cut -c3-) &&
	 diff-tree -r $(cat ../MA) $(cat ../MB) >out &&
	 test_grep "	s/f$" out &&
	 rm .dircache/objects/$(echo $s | cut -c1-2)/$(echo $s | cut -c3-) &&
	 diff-tree $(cat ../MA) $(cat ../MB) >out &&
	 test_grep "^:040000 040000 .* $s M	s$" out &&
	 test_expect_code 128 diff-tree -r $(cat ../MA) $(cat ../MB) 2>err &&
	 test_grep "^diff-tree: object $s not found$" err &&
	 test_grep "^diff-tree: unable to read tree $s of .s.$" err)
'

# deep_chain N: store N trees, each holding the next as "d", and print
# the outermost; written directly, as N git processes would be slow.
deep_chain() {
	python3 - "$1" "$EMPTY_BLOB" "$test_hash_algo" <<-\EOF
	import hashlib, os, sys, zlib
	sha = bytes.fromhex(sys.argv[2])
	body = b"100644 f\0" + sha
	for i in range(int(sys.argv[1])):
	    raw = b"tree %d\0" % len(body) + body
	    hexid = hashlib.new(sys.argv[3], raw).hexdigest()
	    d = os.path.join(".dircache/objects", hexid[:2])
	    os.makedirs(d, exist_ok=True)
	    with open(os.path.join(d, hexid[2:]), "wb") as f:
	        f.write(zlib.compress(raw))
	    body = b"40000 d\0" + bytes.fromhex(hexid)
	print(hexid)
	EOF
}

test_expect_success 'deep trees are followed, too deep ones refused' '
	ok=$(deep_chain 4096) &&
	diff-tree -r $EMPTY_TREE $ok >out &&
	test $(wc -c <out) -gt 8000 &&
	GIT_DIR=.dircache git diff-tree -r $EMPTY_TREE $ok >expect &&
	test_cmp expect out &&
	deep=$(deep_chain 4097) &&
	test_expect_code 128 diff-tree -r $EMPTY_TREE $deep >out 2>err &&
	test_grep "^diff-tree: refusing trees nested deeper than 4096 levels" err &&
	diff-tree $EMPTY_TREE $deep >out &&
	test_grep "^:000000 040000 0\{$OID_HEXSZ\} [0-9a-f]\{$OID_HEXSZ\} A	d$" out
'

test_expect_success 'refuses paths outside the tree and the empty path' '
	test_expect_code 128 diff-tree $(cat A) $(cat B) ../x 2>err &&
	test_grep "outside the tree" err &&
	test_expect_code 128 diff-tree $(cat A) $(cat B) /etc 2>err &&
	test_grep "outside the tree" err &&
	test_expect_code 128 diff-tree $(cat A) $(cat B) "" 2>err &&
	test_grep "empty string" err
'

test_done
