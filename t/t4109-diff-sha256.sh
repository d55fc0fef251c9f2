#!/bin/sh
test_description='diff tools on a sha256 store, byte for byte as git'
. "$(dirname "$0")/test-lib.sh"

# The store is made sha256 here whatever the suite's default hash, so
# that the plain run checks it too.  Its trees are written by our
# tools; every output is compared with git's on the same store: raw
# lines (64-digit ids, abbreviated with --abbrev), patches ("index"
# lines abbreviated as git abbreviates, 64 digits with --full-index or
# --binary, a gitlink's "Subproject commit <64 hex>"), --stdin lines,
# and diff-stat reading raw lines of 64-digit ids.

gd() {
	GIT_DIR=.dircache git "$@"
}

# same TOOL GITCMD ARGS...: our TOOL and git's GITCMD print the same.
same() {
	ours=$1 theirs=$2 &&
	shift 2 &&
	$ours "$@" >ours.out &&
	gd $theirs "$@" >git.out &&
	test_cmp git.out ours.out
}

test_expect_success 'setup: a sha256 store, trees and commits' '
	init-db --object-format=sha256 >/dev/null 2>&1 &&
	test "$(gd rev-parse --show-object-format)" = sha256 &&
	seq 1 30 >text && printf "\000bin\n" >bin && echo mode >mode &&
	mkdir dir && seq 1 40 >dir/moved && echo gone >gone &&
	update-cache --add text bin mode dir/moved gone &&
	sub=$(echo sub | gd hash-object -w --stdin) &&
	gd update-index --add --cacheinfo 160000,$sub,link &&
	write-tree >A &&
	test "$(wc -c <A)" = 65 &&
	seq 1 30 | sed "s/^9\$/nine/" >text && printf "\000BIN\n" >bin &&
	chmod +x mode && rm gone && mv dir/moved moved && echo new >new &&
	update-cache --remove gone dir/moved &&
	update-cache --add moved new &&
	update-cache text bin mode &&
	echo sub2 | gd hash-object -w --stdin >sub2 &&
	gd update-index --cacheinfo 160000,$(cat sub2),link &&
	write-tree >B &&
	gd commit-tree $(cat A) -m a >CA &&
	gd commit-tree $(cat B) -p $(cat CA) -m b >CB &&
	gd cat-file -p $(cat CB) >commit &&
	grep "^tree $(cat B)$" commit &&
	grep "^parent $(cat CA)$" commit
'

test_expect_success 'diff-tree: raw lines as git, and abbreviated' '
	same diff-tree diff-tree -r $(cat A) $(cat B) &&
	grep "^:100644 100644 [0-9a-f]\{64\} [0-9a-f]\{64\} M	text$" ours.out &&
	same diff-tree diff-tree -r -z $(cat A) $(cat B) &&
	same diff-tree diff-tree -r --abbrev=12 $(cat A) $(cat B) &&
	same diff-tree diff-tree -r --abbrev=40 $(cat A) $(cat B) &&
	grep "^:100644 100644 [0-9a-f]\{40\} [0-9a-f]\{40\} M	text$" ours.out &&
	same diff-tree diff-tree -r --abbrev=99 $(cat A) $(cat B) &&
	same diff-tree diff-tree -r -M $(cat A) $(cat B) &&
	grep "R100	dir/moved	moved$" ours.out
'

test_expect_success 'diff-tree -p: index lines and gitlinks as git' '
	same diff-tree diff-tree -p $(cat A) $(cat B) &&
	grep "^index [0-9a-f]\{7\}\.\.[0-9a-f]\{7\} 100644$" ours.out &&
	grep "^+Subproject commit $(cat sub2)$" ours.out &&
	same diff-tree diff-tree -p --full-index $(cat A) $(cat B) &&
	grep "^index [0-9a-f]\{64\}\.\.[0-9a-f]\{64\} 100644$" ours.out &&
	same diff-tree diff-tree -p --abbrev=50 $(cat A) $(cat B) &&
	grep "^index [0-9a-f]\{50\}\.\.[0-9a-f]\{50\} 100644$" ours.out &&
	same diff-tree diff-tree -p --binary -M $(cat A) $(cat B) &&
	grep "^GIT binary patch$" ours.out
'

test_expect_success 'the --binary patch applies in a sha256 git repository' '
	diff-tree -p --binary $(cat A) $(cat B) >patch &&
	git init -q --object-format=sha256 co &&
	gd archive $(cat A) | tar -x -C co &&
	(cd co && git apply ../patch && rm -rf link &&
	 git add -A &&
	 git update-index --add --cacheinfo 160000,$(cat ../sub2),link &&
	 git write-tree) >got &&
	test_cmp B got
'

test_expect_success 'diff-tree --stdin: commits and tree pairs of 64 digits' '
	{ cat CB && echo "$(cat A) $(cat B)" && echo "$(cat CB) $(cat CA)"; } >in &&
	diff-tree --stdin -r <in >ours.out &&
	gd diff-tree --stdin -r <in >git.out &&
	test_cmp git.out ours.out &&
	test $(grep -c "^[0-9a-f]\{64\}" ours.out) -ge 3
'

test_expect_success 'diff-cache and show-diff: ids of the work tree and index' '
	echo more >>text &&
	same diff-cache diff-index $(cat A) &&
	same diff-cache diff-index --cached $(cat A) &&
	same diff-cache diff-index -p --cached --full-index $(cat A) &&
	show-diff >ours.out &&
	gd diff-files -p >git.out &&
	test_cmp git.out ours.out &&
	grep "^index [0-9a-f]\{7\}\.\.[0-9a-f]\{7\} 100644$" ours.out
'

test_expect_success 'diff-stat reads raw lines of 64-digit ids' '
	diff-tree -r -z $(cat A) $(cat B) | diff-stat --numstat >ours.out &&
	gd diff-tree -r --numstat $(cat A) $(cat B) >git.out &&
	test_cmp git.out ours.out &&
	diff-cache -z $(cat B) | diff-stat >ours.out &&
	gd diff-index --stat $(cat B) >git.out &&
	test_cmp git.out ours.out
'

test_expect_success 'a tree of 20-byte ids is refused, never read past' '
	python3 -c "import sys; sys.stdout.buffer.write(
		b\"100644 a\\0\" + bytes(range(1, 21)) +
		b\"100644 b\\0\" + bytes(range(1, 21)))" >raw &&
	bad=$(gd hash-object -t tree --literally -w raw) &&
	test_expect_code 128 diff-tree $(cat A) $bad >out 2>err &&
	test_grep "^diff-tree: refusing tree $bad" err &&
	test_must_fail test -s out &&
	test_expect_code 128 diff-tree -r -p $(cat A) $bad >out 2>err &&
	test_grep "^diff-tree: " err &&
	test_must_fail test -s out
'

test_done
