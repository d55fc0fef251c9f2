#!/bin/sh
test_description='show-diff: the working tree against the index'
. "$(dirname "$0")/test-lib.sh"

# git apply in a trash subdirectory must not find the project's own
# repository above it
GIT_CEILING_DIRECTORIES=$(dirname "$TRASH_DIRECTORY")
export GIT_CEILING_DIRECTORIES

# What a tree holds: every file and symlink with its type, mode bit
# and content checksum, so two trees compare with test_cmp.
tree_state() {
	(cd "$1" &&
	 find . -name .dircache -prune -o \( -type f -o -type l \) -print |
	 sort |
	 while read -r p; do
		if test -h "$p"; then
			echo "$p link $(readlink "$p")"
		elif test -x "$p"; then
			echo "$p x $(cksum <"$p")"
		else
			echo "$p - $(cksum <"$p")"
		fi
	 done)
}

# The indexed tree, checked out afresh into $1 (a sibling of repo).
checkout_old() {
	rm -rf "$1" &&
	mkdir "$1" &&
	(cd repo && checkout-cache -a --prefix="../$1/")
}

name_status_from_git() {
	(cd repo &&
	 { GIT_DIR=.dircache git update-index -q --refresh >/dev/null || :; } &&
	 GIT_DIR=.dircache git diff-files --name-status "$@")
}

test_expect_success 'setup' '
	test_create_repo repo &&
	(cd repo &&
	 mkdir dir dirx &&
	 printf "1\n2\n3\n4\n5\n6\n7\n8\n9\n" >text &&
	 printf "bin\000ary\001\002\n" >bin &&
	 : >empty &&
	 printf "full\n" >to-empty &&
	 printf "no\nnewline" >nonl &&
	 printf "#!/bin/sh\n" >mode.sh &&
	 printf "doomed\n" >del &&
	 ln -s target-one link &&
	 printf "was a file\n" >f2l &&
	 ln -s somewhere l2f &&
	 printf "a\n" >dir/a &&
	 printf "b\n" >dir/b &&
	 printf "c\n" >dirx/c &&
	 update-cache --add text bin empty to-empty nonl mode.sh del link \
		f2l l2f dir/a dir/b dirx/c)
'

test_expect_success 'a clean tree shows nothing and -q exits 0' '
	(cd repo && show-diff >../out && show-diff -s >>../out &&
	 test_expect_code 0 show-diff -q >>../out) &&
	test_must_fail test -s out
'

test_expect_success 'touched files are not changes' '
	(cd repo && touch -d "2001-01-01 00:00" text dir/a nonl &&
	 show-diff >../out && test_expect_code 0 show-diff -q) &&
	test_must_fail test -s out
'

test_expect_success 'change everything' '
	checkout_old old &&
	(cd repo &&
	 printf "1\n2\nthree\n4\n5\n6\n7\n8\nnine\nten\n" >text &&
	 printf "bin\000ARY\n" >bin &&
	 printf "now full\n" >empty &&
	 : >to-empty &&
	 printf "no\nnewline either" >nonl &&
	 chmod +x mode.sh &&
	 rm del &&
	 rm link && ln -s target-two link &&
	 rm f2l && ln -s now-a-link f2l &&
	 rm l2f && printf "now a file\n" >l2f &&
	 printf "B\n" >dir/b &&
	 printf "C\n" >dirx/c) &&
	test_create_repo new && rm -rf new/.dircache &&
	(cd repo && tar cf - --exclude=.dircache .) | (cd new && tar xf -)
'

test_expect_success 'the patch is what git diff prints' '
	(cd repo && show-diff >../actual &&
	 GIT_DIR=.dircache git diff >../expect) &&
	test_cmp expect actual &&
	test_grep "^Binary files a/bin and b/bin differ$" actual &&
	test_grep "^old mode 100644$" actual &&
	test_grep "^deleted file mode 120000$" actual
'

# GIT_DIR: outside a repository git apply takes ids to be SHA-1's
test_expect_success 'the --binary patch turns the old tree into the new' '
	(cd repo && show-diff --binary >../patch) &&
	checkout_old applied &&
	(cd applied && GIT_DIR=../repo/.dircache git apply ../patch) &&
	tree_state new >expect &&
	tree_state applied >actual &&
	test_cmp expect actual
'

test_expect_success 'patch -p1 applies the text changes' '
	command -v patch >/dev/null || exit 0
	(cd repo && show-diff text nonl dir >../patch) &&
	checkout_old patched &&
	(cd patched && patch -s -p1 <../patch) &&
	cmp new/text patched/text &&
	cmp new/nonl patched/nonl &&
	cmp new/dir/b patched/dir/b
'

test_expect_success '-s and -z are what git diff-files --name-status prints' '
	name_status_from_git >expect &&
	(cd repo && show-diff -s >../actual) &&
	test_cmp expect actual &&
	test_grep "^T	f2l$" actual &&
	test_grep "^D	del$" actual &&
	name_status_from_git -z >expect &&
	(cd repo && show-diff -s -z >../actual) &&
	cmp expect actual &&
	(cd repo && show-diff -z >../actual) &&
	cmp expect actual
'

test_expect_success '-q exits 1 and prints nothing when something changed' '
	(cd repo && test_expect_code 1 show-diff -q >../out &&
	 test_expect_code 1 show-diff -q -s dir/b >>../out &&
	 test_expect_code 0 show-diff -q dir/a >>../out) &&
	test_must_fail test -s out
'

test_expect_success 'paths restrict: a file or a directory prefix' '
	(cd repo && show-diff -s dir >../actual) &&
	printf "M\tdir/b\n" >expect &&
	test_cmp expect actual &&
	(cd repo && show-diff -s ./dir/ text >../actual) &&
	printf "M\tdir/b\nM\ttext\n" >expect &&
	test_cmp expect actual &&
	name_status_from_git -- di >expect &&
	(cd repo && show-diff -s -- di >../actual) &&
	test_cmp expect actual &&
	test_must_fail test -s actual
'

test_expect_success 'a path with a space, quoted bytes and a tab' '
	(cd repo && printf "x\n" >"sp ace" && printf "x\n" >"q\"uote" &&
	 update-cache --add "sp ace" "q\"uote" &&
	 printf "y\n" >"sp ace" && printf "y\n" >"q\"uote" &&
	 show-diff "sp ace" "q\"uote" >../actual &&
	 GIT_DIR=.dircache git diff -- "sp ace" "q\"uote" >../expect) &&
	test_cmp expect actual &&
	name_status_from_git >expect &&
	(cd repo && show-diff -s >../actual) &&
	test_cmp expect actual &&
	test_grep "^M	\"q\\\\\"uote\"$" actual
'

test_expect_success 'unmerged entries: U, as git diff-files' '
	(cd repo &&
	 blob=$(GIT_DIR=.dircache git hash-object -w dir/a) &&
	 printf "0 %s\tdir/a\n" $blob >index-info &&
	 for stage in 1 2 3; do
		printf "100644 %s %s\tdir/a\n" $blob $stage || exit 1
	 done >>index-info &&
	 GIT_DIR=.dircache git update-index --index-info <index-info &&
	 rm index-info) &&
	name_status_from_git dir >expect &&
	(cd repo && show-diff -s dir >../actual) &&
	test_cmp expect actual &&
	test_grep "^U	dir/a$" actual &&
	(cd repo && show-diff dir/a >../actual) &&
	echo "* Unmerged path dir/a" >expect &&
	test_cmp expect actual &&
	(cd repo && test_expect_code 1 show-diff -q dir/a)
'

# The index says f holds "abc", and f has exactly the recorded stat
# data but holds "xyz": only a racy entry (mtime not older than the
# index) makes show-diff look at the content.
test_expect_success 'a racily clean entry is compared by content' '
	test_have_prereq PYTHON || exit 0
	test_create_repo racy &&
	(cd racy &&
	 echo xyz >f &&
	 update-cache --add f &&
	 abc=$(echo abc | GIT_DIR=.dircache git hash-object -w --stdin) &&
	 python3 - "$abc" "$test_hash_algo" <<-\EOF &&
	import hashlib, sys
	p = ".dircache/index"
	d = bytearray(open(p, "rb").read())
	raw = bytes.fromhex(sys.argv[1])
	d[12 + 40:12 + 40 + len(raw)] = raw
	d[-len(raw):] = hashlib.new(sys.argv[2], d[:-len(raw)]).digest()
	open(p, "wb").write(d)
	EOF
	 touch -r f .dircache/index &&
	 show-diff -s >../actual &&
	 test_expect_code 1 show-diff -q &&
	 show-diff >../patch) &&
	printf "M\tf\n" >expect &&
	test_cmp expect actual &&
	test_grep "^-abc$" patch &&
	test_grep "^+xyz$" patch
'

test_expect_success 'a same-size rewrite right after indexing is seen' '
	test_create_repo quick &&
	(cd quick && echo abc >f && update-cache --add f && echo xyz >f &&
	 show-diff -s >../actual) &&
	printf "M\tf\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'usage and refusals' '
	(cd repo &&
	 show-diff -h >../out &&
	 test_expect_code 129 show-diff --bogus 2>../err &&
	 test_must_fail show-diff -x 2>>../err) &&
	echo "usage: show-diff [-q] [-s] [-z] [--binary] [--full-index] [--abbrev[=<n>]] [-M[<n>] | --find-renames[=<n>] | --no-renames | --diff-renames] [--] [<path>...]" \
		>expect &&
	test_cmp expect out &&
	test_grep "^usage: show-diff \[-q\]" err
'

test_expect_success 'a missing blob is an error, exit 128' '
	test_create_repo broken &&
	(cd broken && echo one >f && update-cache --add f && echo two >f &&
	 blob=$(echo one | GIT_DIR=.dircache git hash-object --stdin) &&
	 rm .dircache/objects/$(echo $blob | sed "s|^..|&/|") &&
	 test_expect_code 128 show-diff >../out 2>../err &&
	 test_expect_code 0 show-diff -s >../out2) &&
	test_grep "^show-diff: " err &&
	printf "M\tf\n" >expect &&
	test_cmp expect out2
'

# Past 1,000 entries the stat data are checked on every core first;
# what that pass calls clean must still be right, against git.
test_expect_success 'a big index: the parallel lstat pass agrees with git' '
	test_create_repo many &&
	(cd many && mkdir -p a b &&
	 for i in $(seq 1 1500); do echo $i >a/f$i; done &&
	 for i in $(seq 1 500); do echo $i >b/g$i; done &&
	 update-cache --add a/* b/* &&
	 sleep 1 && update-cache --refresh &&
	 echo changed >>a/f7 && echo changed >>b/g400 && rm a/f1000 &&
	 touch a/f20 && chmod +x b/g3 &&
	 show-diff -s >../ours &&
	 show-diff -s b >../ours-b &&
	 GIT_DIR=.dircache git diff-files --name-status >../theirs &&
	 GIT_DIR=.dircache git diff-files --name-status -- b >../theirs-b) &&
	# git diff-files lists a touched file; show-diff reads its content.
	grep -v "a/f20\$" theirs >theirs-content &&
	test_cmp theirs-content ours &&
	test_cmp theirs-b ours-b &&
	test $(wc -l <ours) = 4
'

test_done
