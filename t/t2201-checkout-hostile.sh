#!/bin/sh
test_description='checkout-cache: hostile indexes, symlinks in the way, kill -9'
. "$(dirname "$0")/test-lib.sh"

make_index() {
	python3 "$TEST_DIRECTORY/make-index.py" "$@"
}

# What lies outside the work tree w: the names at the top of the trash
# directory (scratch files aside) and everything under outside/.  It
# must not change, whatever the index in w says.
snapshot_outside() {
	(cd "$TRASH_DIRECTORY" &&
	 ls -A | grep -v "^\(\.test-out\|snap\|now\|err\|expect\|actual\)$" &&
	 find outside | sort | while read -r f; do
		if test -h "$f"; then echo "$f -> $(readlink "$f")"
		elif test -f "$f"; then echo "$f $(cksum <"$f")"
		else echo "$f"; fi
	 done)
}

test_expect_success 'setup' '
	mkdir w outside &&
	echo precious >outside/keep &&
	(cd w && init-db 2>/dev/null) &&
	echo payload >payload &&
	GIT_DIR=w/.dircache git hash-object -w payload >blob &&
	snapshot_outside >snap
'

# Each path, alone in an index: read_cache refuses the index, so
# checkout-cache writes nothing anywhere.
for path in ../x /abs .dircache/x .DIRCACHE/x .git/x .Git/x a//b a/./b \
	a/../../x "x/" "a/.."
do
	test_expect_success "hostile index path '$path' is refused" '
		make_index w/.dircache/index <<-EOF &&
		100644 $(cat blob) 0 $path
		EOF
		(cd w && test_expect_code 128 checkout-cache -a -f 2>../err) &&
		test_grep "index '\''.dircache/index'\'' is corrupt: invalid path" err &&
		(cd w && test_expect_code 128 checkout-cache -f -- "$path" 2>../err) &&
		test_grep "invalid path" err &&
		ls -A w >actual && echo .dircache >expect && test_cmp expect actual &&
		! test -e /abs && ! test -e /x &&
		snapshot_outside >now && test_cmp snap now
	'
done

test_expect_success 'corrupt headers and checksums are refused before any write' '
	good="100644 $(cat blob) 0 f" &&
	for opts in "--bad-checksum:bad checksum" \
		"--signature=DIRX:bad signature" \
		"--version=5:has version 5" \
		"--count=1000:cannot fit" \
		"--truncate=-1:corrupt" \
		"--extension=abcd:does not understand"
	do
		echo "$good" | make_index "${opts%%:*}" w/.dircache/index &&
		(cd w && test_expect_code 128 checkout-cache -a 2>../err) &&
		test_grep "${opts#*:}" err &&
		ls -A w >actual && echo .dircache >expect &&
		test_cmp expect actual || return 1
	done &&
	echo "$good" | make_index w/.dircache/index &&
	(cd w && checkout-cache -a && rm f)
'

test_expect_success 'a hostile path after good ones refuses the whole index' '
	make_index w/.dircache/index <<-EOF &&
	100644 $(cat blob) 0 a
	100644 $(cat blob) 0 b/../../x
	EOF
	(cd w && test_expect_code 128 checkout-cache -a 2>../err) &&
	test_grep "invalid path '\''b/../../x'\''" err &&
	ls -A w >actual && echo .dircache >expect && test_cmp expect actual
'

# Files are checked and written a batch at a time, the next batch
# checked while the one before is written: a file above an entry
# (zz above zz/x) must be written before the entry is checked, however
# late in the index it comes.
test_expect_success 'a file above an entry late in the index is written first' '
	rm -rf late && mkdir late && (
		cd late &&
		init-db 2>/dev/null &&
		b=$(GIT_DIR=.dircache git hash-object -w ../payload) &&
		for d in 0 1 2 3 4 5 6 7; do
			i=100 &&
			while test $i -lt 200; do
				echo "100644 $b 0 d$d/f$i" &&
				i=$((i + 1)) || return 1
			done || return 1
		done >spec &&
		echo "100644 $b 0 zz" >>spec &&
		echo "100644 $b 0 zz/x" >>spec &&
		make_index .dircache/index <spec &&
		rm spec &&
		test_expect_code 1 checkout-cache -a 2>../err &&
		test -f zz && test_cmp ../payload zz &&
		test_cmp ../payload d7/f199 &&
		checkout-cache -a -f &&
		test_cmp ../payload zz/x
	) &&
	test_grep "leading path '\''zz'\'' is a file" err &&
	rm -rf late
'

test_expect_success 'a symlink as a leading component is not followed (no -f)' '
	link_blob=$(printf "../outside" | GIT_DIR=w/.dircache git hash-object -w --stdin) &&
	make_index w/.dircache/index <<-EOF &&
	120000 $link_blob 0 link
	100644 $(cat blob) 0 link/x
	EOF
	(cd w && test_expect_code 1 checkout-cache -a 2>../err) &&
	echo "checkout-cache: '\''link/x'\'': leading path '\''link'\'' is a symbolic link, not a directory; not checked out" >expect &&
	test_cmp expect err &&
	test -h w/link &&
	! test -e outside/x &&
	snapshot_outside >now && test_cmp snap now
'

test_expect_success 'with -f the link is replaced by a directory, its target untouched' '
	(cd w && checkout-cache -f link/x 2>../err) &&
	test ! -s err &&
	! test -h w/link && test -d w/link &&
	test_cmp payload w/link/x &&
	! test -e outside/x &&
	snapshot_outside >now && test_cmp snap now
'

test_expect_success 'a deeper symlink component is caught too' '
	rm -rf w/link &&
	mkdir -p w/a/b &&
	ln -s ../../../outside w/a/b/c &&
	make_index w/.dircache/index <<-EOF &&
	100644 $(cat blob) 0 a/b/c/d/e
	100644 $(cat blob) 0 a/b/c/f
	100644 $(cat blob) 0 a/b/z
	EOF
	(cd w && test_expect_code 1 checkout-cache -a 2>../err) &&
	test_grep "'\''a/b/c/d/e'\'': leading path '\''a/b/c'\'' is a symbolic link" err &&
	test_grep "'\''a/b/c/f'\'': leading path '\''a/b/c'\'' is a symbolic link" err &&
	test_cmp payload w/a/b/z &&
	! test -e outside/d && ! test -e outside/f &&
	(cd w && checkout-cache -f -a) &&
	test -d w/a/b/c && test_cmp payload w/a/b/c/d/e &&
	! test -e outside/d && ! test -e outside/f &&
	snapshot_outside >now && test_cmp snap now
'

test_expect_success 'a symlink checked out first is not followed by a later tree' '
	snapshot_outside >snap && rm -rf w && mkdir w && (
		cd w &&
		init-db 2>/dev/null &&
		ln -s ../outside link &&
		update-cache --add link &&
		write-tree >.dircache/tree1 &&
		rm link &&
		update-cache --remove link &&
		mkdir link && echo inside >link/keep &&
		update-cache --add link/keep &&
		write-tree >.dircache/tree2 &&
		rm -r link &&
		read-tree "$(cat .dircache/tree1)" &&
		checkout-cache -a &&
		test -h link &&
		read-tree "$(cat .dircache/tree2)" &&
		test_expect_code 1 checkout-cache -a 2>../err
	) &&
	test_grep "leading path '\''link'\'' is a symbolic link" err &&
	echo precious >expect &&
	test_cmp expect outside/keep &&
	(cd w && checkout-cache -f -a) &&
	! test -h w/link &&
	echo inside >expect && test_cmp expect w/link/keep &&
	echo precious >expect && test_cmp expect outside/keep &&
	snapshot_outside >now && test_cmp snap now
'

test_expect_success 'a file entry over a symlink replaces the link, not its target' '
	(
		cd w &&
		rm -rf link && ln -s ../outside/keep link &&
		echo inside >link.new &&
		make_index .dircache/index <<-EOF &&
		100644 $(git hash-object link.new) 0 link
		EOF
		GIT_DIR=.dircache git hash-object -w link.new >/dev/null &&
		test_expect_code 1 checkout-cache -a &&
		checkout-cache -f -a &&
		! test -h link && test_cmp link.new link
	) &&
	echo precious >expect && test_cmp expect outside/keep &&
	snapshot_outside >now && test_cmp snap now
'

test_expect_success 'a symlink in the prefix is the user'\''s and is followed' '
	mkdir real && ln -s real alias &&
	(cd w && checkout-cache --prefix=../alias/exp/ link) &&
	echo inside >expect && test_cmp expect real/exp/link
'

# kill -9 at a random moment: any file under an index name is whole;
# anything else is a temporary name.
test_expect_success 'setup: a big file and many small ones' '
	rm -rf k && mkdir k && (
		cd k &&
		init-db 2>/dev/null &&
		mkdir -p d1 d2 d3 &&
		head -c 30000000 /dev/urandom >d2z-big &&
		for i in $(seq 1 300); do
			echo "file $i" >d1/f$i && echo "other $i" >d2/g$i &&
			echo "more $i" >d3/h$i
		done &&
		find d1 d2 d2z-big d3 -type f | update-cache --add --stdin &&
		GIT_DIR=.dircache git ls-files -s | sed "s/^[0-7]* //; s/ 0	/ /" >../want &&
		rm -rf d1 d2 d2z-big d3
	) &&
	test $(wc -l <want) = 901
'

# want holds "<id> <path>" of every entry.  Every file under an index
# name must have its id; any other file must be a temporary name.
check_interrupted() {
	(cd k && find . -path ./.dircache -prune -o -type f -print) |
		sed "s|^\./||" | sort >kill.present &&
	cut -d" " -f2- want | sort >kill.names &&
	comm -23 kill.present kill.names >kill.extra &&
	! grep -v "^\(.*/\)\{0,1\}\.[^/]*\.tmp-[0-9a-f]*-[0-9a-f]*$" kill.extra &&
	comm -12 kill.present kill.names >kill.real &&
	(cd k && GIT_DIR=.dircache git hash-object --stdin-paths <../kill.real) |
		paste -d" " - kill.real | sort >kill.have &&
	sort want >kill.want &&
	comm -23 kill.have kill.want >kill.bad &&
	test ! -s kill.bad
}

test_expect_success 'kill -9 during checkout-cache -a -f: no partial file' '
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		(cd k && find . -mindepth 1 -maxdepth 1 ! -name .dircache \
			-exec rm -rf {} + ) &&
		ms=$(( $(od -An -N2 -tu2 /dev/urandom) % 250 )) &&
		{ (cd k && exec checkout-cache -a -f 2>/dev/null) & } &&
		pid=$! &&
		sleep $(printf "0.%03d" $ms) &&
		{ kill -9 $pid 2>/dev/null; wait $pid; true; } &&
		check_interrupted &&
		wc -l <kill.real >>kill.counts || return 1
	done &&
	# At least one kill must have come in the middle of the checkout.
	grep -v "^901$" kill.counts
'

test_expect_success 'after an interruption checkout-cache -a -f completes the tree' '
	(cd k && checkout-cache -a -f && checkout-cache -u -f -a &&
	 GIT_DIR=.dircache git diff-files --quiet) &&
	check_interrupted &&
	test $(wc -l <kill.real) = 901
'

# A blob is written a piece at a time and its hash known only at the
# end: damage past the first piece must still leave no file behind,
# under its name or a temporary one.
test_expect_success 'a big blob damaged late is refused, nothing left' '
	rm -rf b && mkdir b && (
		cd b && init-db 2>/dev/null &&
		awk "BEGIN { for (i = 0; i < 30000; i++) print \"row\", i }" >big &&
		id=$(GIT_DIR=.dircache git hash-object -w big) &&
		update-cache --add big && cp .dircache/index index.good &&
		f=$(obj_file $id) &&
		for how in wrong truncated garbage long; do
			echo "== $how" && rm -f "$f" &&
			case $how in
			wrong) sed "\$s/row/ROW/" big |
				$WO --name $id blob ;;
			truncated) $WO \
				blob <big && n=$(( $(wc -c <"$f") / 2 )) &&
				head -c $n "$f" >half && rm -f "$f" && mv half "$f" ;;
			garbage) $WO \
				--append 0a0b blob <big ;;
			long) { cat big && echo more; } |
				$WO --name $id \
				--size $(wc -c <big) blob ;;
			esac >/dev/null &&
			rm -rf out && mkdir out &&
			test_expect_code 1 checkout-cache --prefix=out/ big 2>../err &&
			test_grep "$id" ../err &&
			test_grep "'\''big'\'' not checked out" ../err &&
			test -z "$(ls -A out)" &&
			rm -f big.copy && mv big big.copy &&
			test_expect_code 1 checkout-cache -a 2>../err &&
			! test -e big && test -z "$(ls -A | grep tmp)" &&
			mv big.copy big || return 1
		done
	)
'

test_expect_success 'a tree named as a file is refused, nothing left' '
	(
		cd b && tree=$(write-tree 2>/dev/null || GIT_DIR=.dircache git write-tree) &&
		echo "100644 $tree 0 t" |
			python3 "$TEST_DIRECTORY/make-index.py" -o .dircache/index &&
		test_expect_code 1 checkout-cache -a 2>../err &&
		test_grep "object $tree is a tree, not a blob" ../err &&
		! test -e t && test -z "$(ls -A | grep tmp)"
	)
'

test_done
