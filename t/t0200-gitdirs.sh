#!/bin/sh
test_description='gitfiles, worktrees and repository formats, compared with git'
. "$(dirname "$0")/test-lib.sh"

# same TOOL ARGS...: our TOOL and git's, same output and exit status.
same() {
	_tool=$1
	shift
	$_tool "$@" >ours 2>ours.err
	echo $? >>ours
	git $_tool "$@" >theirs
	echo $? >>theirs
	test_cmp theirs ours
}

# same_error CMD...: our tool fails with exit 128 and git's one line
# (its "fatal: " ours "<tool>: ").
same_error() {
	test_expect_code 128 "$@" >out 2>err &&
	test_must_fail test -s out &&
	test_must_fail git rev-parse HEAD 2>git-err &&
	sed "s/^fatal: /$1: /" git-err >expect &&
	test_cmp expect err
}

# snapshot DIR: every file under DIR with its size and time, to show
# that a refused command wrote nothing.
snapshot() {
	find "$1" -exec ls -ld --time-style=+%s.%N {} + | sort
}

test_expect_success 'setup: a repository and a worktree of it' '
	git init -q main && cd main &&
	mkdir d && echo one >a && echo two >d/b &&
	git add a d/b && git commit -q -m first &&
	echo three >>a && git commit -q -a -m second &&
	git worktree add -q ../wt1 &&
	git pack-refs --all &&
	printf "%s\n" ours ours.err theirs actual expect >.git/info/exclude &&
	test -f ../wt1/.git &&
	test -f .git/worktrees/wt1/commondir
'

test_expect_success 'rev-parse and rev-list in the worktree agree with git' '
	cd wt1 &&
	same rev-parse HEAD &&
	same rev-parse wt1 master refs/heads/wt1 &&
	same rev-list HEAD &&
	same rev-list --parents HEAD &&
	same rev-list --objects --all
'

test_expect_success 'the worktree index is its own: ls-files, write-tree' '
	cd wt1 &&
	echo new >c && git add c &&
	same ls-files -s &&
	same write-tree &&
	(cd ../main && same ls-files -s && same write-tree) &&
	same cat-file -p HEAD &&
	same cat-file -p "$(git write-tree)"
'

test_expect_success 'show-diff in the worktree is git diff' '
	cd wt1 &&
	echo four >>a && rm d/b &&
	show-diff >ours &&
	git diff >theirs &&
	test_cmp theirs ours &&
	git checkout -- d/b
'

test_expect_success 'update-cache writes the worktree index git reads' '
	cd wt1 &&
	update-cache a &&
	git status --porcelain >actual &&
	printf "M  a\nA  c\n" >expect &&
	test_cmp expect actual &&
	(cd ../main && git status --porcelain >actual && test_cmp /dev/null actual)
'

test_expect_success 'commit-tree and update-ref HEAD move the worktree branch only' '
	cd wt1 &&
	main_head=$(git -C ../main rev-parse HEAD) &&
	tree=$(write-tree) &&
	commit=$(echo third | commit-tree $tree -p HEAD) &&
	update-ref HEAD $commit &&
	test "$(git rev-parse HEAD)" = $commit &&
	test "$(git rev-parse wt1)" = $commit &&
	test "$(git -C ../main rev-parse HEAD)" = $main_head &&
	test "$(git -C ../main rev-parse wt1)" = $commit &&
	test -f ../main/.git/refs/heads/wt1 &&
	test_must_fail test -e ../main/.git/worktrees/wt1/refs &&
	git status --porcelain >actual &&
	test_cmp /dev/null actual &&
	same rev-list HEAD
'

test_expect_success 'refs/bisect, refs/worktree are the worktree own' '
	cd wt1 &&
	first=$(git rev-parse HEAD~2) &&
	update-ref refs/bisect/bad $first &&
	update-ref refs/worktree/mark $first &&
	test -f ../main/.git/worktrees/wt1/refs/bisect/bad &&
	test -f ../main/.git/worktrees/wt1/refs/worktree/mark &&
	same rev-parse refs/bisect/bad refs/worktree/mark &&
	same rev-list --all &&
	cd ../main &&
	test_must_fail rev-parse refs/bisect/bad 2>err &&
	test_must_fail git rev-parse --verify -q refs/bisect/bad &&
	same rev-list --all
'

test_expect_success 'rev-list --all takes the other worktrees HEADs, as git' '
	git -C main checkout -q --detach &&
	(cd main && echo five >e && git add e && git commit -q -m detached) &&
	cd wt1 &&
	same rev-list --all &&
	same rev-list --objects --all &&
	cd ../main &&
	same rev-list --all
'

# fsck-cache.c (another branch's) marks HEAD and the refs; the other
# worktrees' HEADs (for_each_other_head) are not marked yet.
test_expect_success 'fsck-cache takes the other worktrees HEADs as roots' '
	cd wt1 &&
	fsck-cache >../ours 2>&1 &&
	git fsck >../theirs 2>&1 &&
	test_cmp ../theirs ../ours
'

test_expect_success 'rev-parse --git-dir and --git-common-dir as git' '
	(cd wt1 && same rev-parse --git-dir && same rev-parse --git-common-dir &&
	 GIT_DIR=.git rev-parse --git-dir >actual &&
	 git rev-parse --git-dir >expect && test_cmp expect actual) &&
	cd main && same rev-parse --git-dir && same rev-parse --git-common-dir
'

test_expect_success 'below the worktree top, the error says where it is' '
	cd wt1/d &&
	test_expect_code 128 show-diff 2>err &&
	test_grep "the work tree.s top is .$TRASH_DIRECTORY/wt1." err &&
	mkdir -p ../../plain/sub && cd ../../plain/sub &&
	test_expect_code 128 show-diff 2>err &&
	test_must_fail test_grep "top is" err
'

test_expect_success 'GIT_DIR naming the gitfile is followed too' '
	cd wt1 &&
	GIT_DIR=.git rev-parse HEAD >actual &&
	git rev-parse HEAD >expect &&
	test_cmp expect actual
'

test_expect_success 'a submodule gitfile: gitdir relative to its directory' '
	git init -q super && mkdir super/.git/modules &&
	git clone -q -b master --separate-git-dir super/.git/modules/x \
		main super/x &&
	echo "gitdir: ../.git/modules/x" >super/x/.git &&
	cp main/.git/info/exclude super/.git/modules/x/info/ &&
	cd super/x &&
	same rev-parse HEAD &&
	same ls-files -s &&
	echo changed >a &&
	show-diff >ours && git diff >theirs && test_cmp theirs ours &&
	update-cache a && git status --porcelain >actual &&
	echo "M  a" >expect && test_cmp expect actual
'

test_expect_success 'a gitfile naming nothing: git says so, exit 128' '
	mkdir nowhere && cd nowhere &&
	echo "gitdir: elsewhere" >.git &&
	for cmd in "rev-parse HEAD" ls-files write-tree show-diff \
		   "update-cache --refresh" "cat-file -t HEAD" fsck-cache \
		   "rev-list HEAD" init-db; do
		same_error $cmd || return 1
	done &&
	test_must_fail test -e elsewhere &&
	echo "gitdir: ../main" >.git &&
	same_error rev-parse HEAD
'

test_expect_success 'a gitfile git cannot read: git says so, exit 128' '
	mkdir garbage && cd garbage &&
	echo "not a gitfile" >.git &&
	same_error rev-parse HEAD &&
	same_error init-db &&
	printf "gitdir:../main/.git\n" >.git &&
	same_error ls-files &&
	: >.git &&
	same_error write-tree &&
	test_must_fail test -e .dircache
'

# copy NAME VERSION KEY VALUE: a copy of main with a format set.
copy() {
	cp -R main "$1" &&
	git config --file "$1/.git/config" core.repositoryformatversion "$2" &&
	git config --file "$1/.git/config" "$3" "$4"
}

test_expect_success 'extensions git reads too: the tools work' '
	for ext in worktreeConfig:true noop:x preciousObjects:true \
		   partialclone:origin objectFormat:$test_hash_algo; do
		copy ok 1 "extensions.${ext%%:*}" "${ext#*:}" &&
		(cd ok && same rev-parse HEAD && same ls-files -s) &&
		rm -rf ok || return 1
	done
'

test_expect_success 'unknown extensions: one line naming it, nothing written' '
	for ext in refStorage:reftable someFuture:true; do
		name=${ext%%:*} &&
		lower=$(echo $name | tr A-Z a-z) &&
		copy ext 1 "extensions.$name" "${ext#*:}" &&
		(cd ext && echo x >new && echo more >>a &&
		 snapshot .git >../before &&
		 for cmd in "update-cache --add new" "update-cache a" \
			    write-tree "update-ref refs/heads/x HEAD" \
			    "rev-list HEAD" init-db; do
			test_expect_code 128 $cmd >out 2>err &&
			echo "${cmd%% *}: unknown repository extension found: $lower" >expect &&
			test_cmp expect err || return 1
		 done &&
		 test_must_fail git status 2>git-err &&
		 test_grep "unknown repository extension" git-err &&
		 snapshot .git >../after && test_cmp ../before ../after) &&
		rm -rf ext || return 1
	done
'

test_expect_success 'a store of either hash git made is read as git reads it' '
	for algo in sha1 sha256; do
		git init -q --object-format=$algo $algo && (cd $algo &&
		echo one >a && git add a && git commit -q -m one &&
		git tag -a -m t v1 && git pack-refs --all &&
		echo two >a && git commit -q -a -m two &&
		same rev-parse HEAD master v1 refs/tags/v1 &&
		same rev-parse --short HEAD &&
		same rev-parse --show-object-format &&
		echo $algo >expect && rev-parse --show-object-format >actual &&
		test_cmp expect actual &&
		update-ref refs/heads/x HEAD &&
		test "$(git rev-parse x)" = "$(git rev-parse HEAD)") || return 1
	done
'

test_expect_success 'an object format we do not know: one line, nothing written' '
	copy fmt 1 extensions.objectFormat sha512 &&
	cd fmt && snapshot .git >../before &&
	for cmd in "rev-parse HEAD" "update-cache --add a" write-tree \
		   "cat-file -t HEAD" fsck-cache "update-ref refs/heads/x HEAD"; do
		test_expect_code 128 $cmd >out 2>err &&
		echo "${cmd%% *}: unsupported object format '\''sha512'\'' (extensions.objectformat)" >expect &&
		test_cmp expect err || return 1
	done &&
	snapshot .git >../after && test_cmp ../before ../after
'

# refused_by_all LINE: each tool refuses with LINE (after its name),
# exit 128, and writes nothing.
refused_by_all() {
	snapshot .git >../before &&
	for cmd in "rev-parse HEAD" "cat-file -t HEAD" "rev-list HEAD" \
		   "update-ref refs/heads/x HEAD" write-tree \
		   "update-cache --refresh" "read-tree HEAD"; do
		test_expect_code 128 $cmd >out 2>err &&
		echo "${cmd%% *}: $1" >want &&
		test_cmp want err || return 1
	done &&
	snapshot .git >../after && test_cmp ../before ../after
}

test_expect_success 'a store of the other hash as alternate or objects: refused' '
	case $test_hash_algo in sha1) other=sha256 ;; *) other=sha1 ;; esac &&
	git init -q --bare --object-format=$other other.git &&
	cp -R main alt && cd alt &&
	o="$TRASH_DIRECTORY/other.git/objects" &&
	echo "$o" >.git/objects/info/alternates &&
	refused_by_all "alternate object directory '\''$o'\'' is a $other store; this repository is $test_hash_algo" &&
	echo "../../../other.git/objects" >.git/objects/info/alternates &&
	refused_by_all "alternate object directory '\''../../../other.git/objects'\'' is a $other store; this repository is $test_hash_algo" &&
	rm .git/objects/info/alternates &&
	same rev-parse HEAD &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$o" &&
	export GIT_ALTERNATE_OBJECT_DIRECTORIES &&
	refused_by_all "alternate object directory '\''$o'\'' is a $other store; this repository is $test_hash_algo" &&
	unset GIT_ALTERNATE_OBJECT_DIRECTORIES &&
	GIT_OBJECT_DIRECTORY="$o" && export GIT_OBJECT_DIRECTORY &&
	refused_by_all "object directory '\''$o'\'' is a $other store; this repository is $test_hash_algo"
'

test_expect_success 'a store named by SHA1_FILE_DIRECTORY alone: its own hash' '
	case $test_hash_algo in sha1) other=sha256 ;; *) other=sha1 ;; esac &&
	mkdir st2 w2 && (cd st2 && init-db --object-format=$other 2>/dev/null) &&
	git init -q --object-format=$other g2 &&
	echo hi >w2/a && cp w2/a g2/a &&
	(cd w2 &&
	 SHA1_FILE_DIRECTORY="$TRASH_DIRECTORY/st2/.dircache/objects" &&
	 GIT_INDEX_FILE="$TRASH_DIRECTORY/w2.index" &&
	 export SHA1_FILE_DIRECTORY GIT_INDEX_FILE &&
	 update-cache --add a && write-tree >../w2.tree) &&
	git -C g2 add a && git -C g2 write-tree >g2.tree &&
	test_cmp g2.tree w2.tree
'

test_expect_success 'a worktree of one hash on a store of the other: refused' '
	case $test_hash_algo in sha1) other=sha256 ;; *) other=sha1 ;; esac &&
	cp -R main wtmain &&
	git -C wtmain worktree add -q --detach ../wt2 &&
	cd wt2 &&
	same rev-parse HEAD &&
	dir=$(git rev-parse --git-dir) &&
	echo "$TRASH_DIRECTORY/other.git" >"$dir/commondir" &&
	refused_by_all "HEAD of '\''$dir'\'' is a $test_hash_algo id; this repository is $other" &&
	echo "$TRASH_DIRECTORY/wtmain/.git" >"$dir/commondir" &&
	same rev-parse HEAD &&
	cd ../wtmain &&
	GIT_COMMON_DIR="$TRASH_DIRECTORY/other.git" &&
	export GIT_COMMON_DIR &&
	refused_by_all "git directory '\''.git'\'' is a $test_hash_algo store; this repository is $other"
'

# A sha256 store is version 1: only a sha1 one can be made version 0.
test_expect_success SHA1 'version 0 ignores unknown extensions' '
	copy v0 0 extensions.someFuture true &&
	(cd v0 && same rev-parse HEAD && git status >/dev/null)
'

test_expect_success 'version 0 refuses the v1 extension objectformat' '
	copy v0obj 0 extensions.objectFormat $test_hash_algo &&
	(cd v0obj && test_expect_code 128 rev-parse HEAD 2>err &&
	 echo "rev-parse: repository format version is 0, but v1-only extension found: objectformat" >expect &&
	 test_cmp expect err &&
	 test_must_fail git status 2>/dev/null)
'

test_expect_success 'a version above 1 and a bad config are refused' '
	copy v2 2 core.bare false &&
	(cd v2 && test_expect_code 128 ls-files 2>err &&
	 echo "ls-files: expected repository format version <= 1, found 2" >expect &&
	 test_cmp expect err && test_must_fail git status 2>/dev/null) &&
	cp -R main badcfg &&
	printf "[core\n" >>badcfg/.git/config &&
	(cd badcfg && test_expect_code 128 ls-files 2>err &&
	 git status 2>git-err;
	 sed "s/^fatal: /ls-files: /" git-err >expect &&
	 test_cmp expect err)
'

test_expect_success 'config syntax: quotes, escapes, comments, continuations' '
	cp -R main syntax &&
	cat >>syntax/.git/config <<-\EOF &&
	# a comment
	[core] ; another
		repositoryFormatVersion = "1"  # one
	[Extensions]
		WorktreeConfig
		noop = "a \" quoted \\ value" \
	more ; and \
	[extensions] noop = 1
	[remote "Origin Name"]
		url = x\
	y
	EOF
	(cd syntax && git status >/dev/null && same rev-parse HEAD) &&
	printf "[extensions]\n\tnoop = \"open\n" >>syntax/.git/config &&
	(cd syntax && test_expect_code 128 rev-parse HEAD 2>err &&
	 git status 2>git-err;
	 sed "s/^fatal: /rev-parse: /" git-err >expect &&
	 test_cmp expect err)
'

test_done
