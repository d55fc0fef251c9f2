# t/lib-pack.sh: helpers of the pack tests (t5300-t5399).  Source it
# after test-lib.sh.  Each compares our tools with git on the git
# repository in the current directory (GIT_DIR=.git).

# A history: files edited a little at each commit, so that git makes
# deltas of them, directories coming and going, a tag on each commit.
pack_make_history() {
	git init -q "$1" && (
		cd "$1" &&
		i=0 &&
		while [ $i -lt ${2:-12} ]; do
			i=$((i + 1)) &&
			seq 1 $((200 + i * 37)) >big &&
			seq $i 400 | sed "s/\$/ line $i/" >other &&
			mkdir -p "d$((i % 4))/sub" &&
			echo "$i" >"d$((i % 4))/sub/f$i" &&
			rm -rf "d$(((i + 2) % 4))" &&
			printf "binary\0%s" $i >bin &&
			git add -A &&
			git commit -q -m "commit $i" &&
			git tag "t$i" || exit 1
		done &&
		git tag -a -m "annotated" ann t3
	)
}

# Every object of the repository: cat-file -t, -s and -p as git.  Our
# answers are gathered in one file and compared at once; git's are
# made again only when the set of objects changed since the last call
# (an object's answers do not depend on how it is stored).
pack_cat_all() {
	git cat-file --batch-all-objects --batch-check='%(objectname)' \
		>"$TRASH_DIRECTORY/cat-ids" &&
	test -s "$TRASH_DIRECTORY/cat-ids" &&
	while read id; do
		for opt in -t -s -p; do
			echo "== cat-file $opt $id" &&
			cat-file $opt $id ||
				{ echo >&2 "cat-file $opt $id failed"; return 1; }
		done
	done <"$TRASH_DIRECTORY/cat-ids" >"$TRASH_DIRECTORY/cat-ours" &&
	if ! cmp -s "$TRASH_DIRECTORY/cat-ids" "$TRASH_DIRECTORY/cat-git-ids"
	then
		while read id; do
			for opt in -t -s -p; do
				echo "== cat-file $opt $id" &&
				git cat-file $opt $id || return 1
			done
		done <"$TRASH_DIRECTORY/cat-ids" >"$TRASH_DIRECTORY/cat-git" &&
		cp "$TRASH_DIRECTORY/cat-ids" "$TRASH_DIRECTORY/cat-git-ids"
	fi &&
	test_cmp "$TRASH_DIRECTORY/cat-git" "$TRASH_DIRECTORY/cat-ours"
}

# diff-tree -r between every pair of tags in a row, as git.
pack_diff_tags() {
	prev= &&
	for t in $(git tag -l 't*' | sort -t t -k 2 -n); do
		if [ -n "$prev" ]; then
			diff-tree -r $prev $t >"$TRASH_DIRECTORY/ours" &&
			git diff-tree -r $prev $t >"$TRASH_DIRECTORY/theirs" &&
			test_cmp "$TRASH_DIRECTORY/theirs" "$TRASH_DIRECTORY/ours" ||
				return 1
		fi
		prev=$t
	done
}

# read-tree + checkout-cache -a of tag $1 into a fresh directory, the
# same files as git checkout-index; then show-diff says nothing.
pack_checkout() {
	rm -rf "$TRASH_DIRECTORY/co-$1" "$TRASH_DIRECTORY/gco-$1" &&
	mkdir "$TRASH_DIRECTORY/co-$1" "$TRASH_DIRECTORY/gco-$1" &&
	g=$(pwd)/.git &&
	(cd "$TRASH_DIRECTORY/co-$1" && GIT_DIR=$g &&
	 GIT_INDEX_FILE=$TRASH_DIRECTORY/idx-$1 && export GIT_DIR GIT_INDEX_FILE &&
	 read-tree $(git rev-parse "$1^{tree}") && checkout-cache -a &&
	 show-diff >"$TRASH_DIRECTORY/sd" && ! test -s "$TRASH_DIRECTORY/sd") &&
	(cd "$TRASH_DIRECTORY/gco-$1" && GIT_INDEX_FILE=$TRASH_DIRECTORY/gidx-$1 \
	 GIT_WORK_TREE=. git --git-dir="$g" read-tree "$1^{tree}" &&
	 GIT_INDEX_FILE=$TRASH_DIRECTORY/gidx-$1 GIT_WORK_TREE=. \
	 git --git-dir="$g" checkout-index -a) &&
	diff -r "$TRASH_DIRECTORY/gco-$1" "$TRASH_DIRECTORY/co-$1"
}

# fsck-cache finds nothing wrong (git fsck neither).
pack_fsck_clean() {
	git fsck >"$TRASH_DIRECTORY/gfsck" 2>&1 &&
	fsck-cache >"$TRASH_DIRECTORY/fsck" 2>&1 &&
	! test -s "$TRASH_DIRECTORY/fsck"
}

# All of the above.
pack_compare_all() {
	pack_cat_all && pack_diff_tags &&
	pack_checkout t3 && pack_checkout t8 && pack_checkout ann &&
	pack_fsck_clean
}
