# t/lib-am.sh: a history to mail, and repositories to apply it in, for
# the applymbox tests (t4300-t4399).  Source it after test-lib.sh.

# am_history DIR N: a git repository DIR with a base commit and N more
# that add, change, delete, rename, chmod and binary-patch files, with
# authors and dates that vary (UTF-8 names too).
am_history() {
	git init -q "$1" &&
	(
		cd "$1" &&
		mkdir -p src doc &&
		for k in 1 2 3 4 5 6 7 8; do
			seq 1 40 | sed "s/^/file $k line /" >src/f$k.c || exit 1
		done &&
		printf "binary\000data\001\n" >doc/blob.bin &&
		echo "conflict base" >c.txt &&
		git add -A &&
		git commit -q -m "base" &&
		i=1 &&
		while test $i -le $2; do
			k=$((i % 8 + 1)) &&
			case $((i % 9)) in
			0)	echo "new $i" >src/new$i.c &&
				seq 1 5 | sed "s/^/keep $i /" >src/keep$i.c ;;
			1)	sed -i "$((i % 30 + 2))s/\$/ changed $i/" src/f$k.c ;;
			2)	ls src/new*.c >/dev/null 2>&1 &&
				git rm -q $(ls src/new*.c | head -n 1) ||
				echo "$i" >>doc/log ;;
			3)	f=$(ls src/keep*.c 2>/dev/null | tail -n 1) &&
				if test -n "$f"; then
					git mv $f src/moved$i.c
				else
					echo "$i" >>doc/log
				fi ;;
			4)	if test -x src/f$k.c; then
					chmod -x src/f$k.c
				else
					chmod +x src/f$k.c
				fi ;;
			5)	printf "binary $i\000\002\n" >>doc/blob.bin ;;
			6)	sed -i "1d" src/f$k.c && echo "tail $i" >>src/f$k.c ;;
			7)	printf "no newline $i" >src/nonl$k.txt ;;
			*)	sed -i "5,7s/line/LINE $i/" src/f$k.c ;;
			esac &&
			git add -A &&
			if test $((i % 4)) = 0; then
				name="J\303\266rg Schr\303\266der $i"
			else
				name="Author $i"
			fi &&
			GIT_AUTHOR_NAME=$name \
			GIT_AUTHOR_EMAIL="a$i@example.com" \
			GIT_AUTHOR_DATE="$((1112911993 + i * 3600)) +0$((i % 10))00" \
			git commit -q -m "area$((i % 5)): change number $i

The body of change $i says why.
It has two lines, and a paragraph:

  indented $i" || exit 1
			i=$((i + 1))
		done
	)
}

# am_start SRC COMMIT DIR: a dircache repository DIR holding the tree
# of COMMIT of git repository SRC, committed by our tools with the
# test's identities; the commit id (git makes the same) in DIR.base.
am_start() {
	mkdir "$3" &&
	git -C "$1" archive "$2" | tar -x -C "$3" &&
	(
		cd "$3" &&
		init-db >/dev/null 2>&1 &&
		find . -path ./.dircache -prune -o -type f -print |
			sed "s|^\./||" | update-cache --add --stdin &&
		tree=$(write-tree) &&
		echo base | commit-tree $tree >../"$3".base &&
		cat ../"$3".base >.dircache/refs/heads/master
	)
}

# am_git SRC COMMIT DIR: the same start in a git repository, for git am.
am_git() {
	git init -q "$3" &&
	git -C "$1" archive "$2" | tar -x -C "$3" &&
	(
		cd "$3" &&
		git add -A &&
		tree=$(git write-tree) &&
		echo base | git commit-tree $tree >../"$3".base &&
		git update-ref refs/heads/master $(cat ../"$3".base) &&
		git reset -q --hard
	)
}

# am_log DIR GITDIR: every commit from HEAD down, as git shows it.
am_log() {
	git --git-dir="$1/$2" log --format="%H %T%n%an <%ae> %ad%n%cn <%ce> %cd%n%B" --date=raw
}
