#!/bin/sh
test_description='dircache status in colour: git status colour for colour, on a terminal only'
. "$(dirname "$0")/test-lib.sh"

# git's hints in our words; renames not detected (we do not detect them).
gstatus() {
	git -c status.renames=false -c color.status=always status "$@" |
		sed "s/\"git /\"dircache /g"
}

# Our status --color and git's in colour, run from directory $1, in
# every form.
color_same() {
	for f in "" -s -sb "-s -z" "-sb -z"; do
		(cd "$1" && gstatus $f) >"$TRASH_DIRECTORY/expect" &&
		(cd "$1" && dircache status --color $f) \
			>"$TRASH_DIRECTORY/actual" &&
		test_cmp "$TRASH_DIRECTORY/expect" "$TRASH_DIRECTORY/actual" ||
		return 1
	done
}

test_expect_success 'setup: staged, changed, deleted, untracked' '
	git init -q r && cd r &&
	echo "/expect" >.git/info/exclude && echo "/actual" >>.git/info/exclude &&
	echo a >a && echo b >b && echo c >c && mkdir d && echo x >d/x &&
	git add . && git commit -q -m one &&
	echo aa >>a && git add a && echo b2 >>b && rm c && echo u >u &&
	echo n >n && git add n && echo n2 >>n && echo y >d/y
'

test_expect_success 'long and short forms in git colours' '
	cd r && color_same . && color_same d
'

test_expect_success 'an unborn branch, and a detached HEAD (short forms)' '
	git init -q e && (cd e && echo x >x && git add x) && color_same e &&
	cd r && git checkout -q --detach &&
	gstatus -sb >../expect && dircache status --color -sb >../actual &&
	git checkout -q - && test_cmp ../expect ../actual
'

test_expect_success 'a detached HEAD in the long form: our words in git red' '
	cd r && git checkout -q --detach &&
	dircache status --color >../actual && git checkout -q - &&
	printf "\033[31mNot currently on any branch.\033[m\n" >../expect &&
	head -n 1 ../actual >../first && test_cmp ../expect ../first
'

test_expect_success 'unmerged paths in red' '
	git init -q m && cd m && echo a >a && echo b >b && git add . &&
	git commit -q -m one && git checkout -q -b side &&
	echo side >a && git commit -q -a -m side && git checkout -q - &&
	echo main >a && echo b2 >b && git commit -q -a -m main &&
	test_must_fail git merge -q side >/dev/null && echo b3 >b &&
	(cd .. && color_same m)
'

test_expect_success '--porcelain is never coloured; --no-color and --color=never none' '
	cd r && git status --porcelain >expect &&
	dircache status --color --porcelain >actual && test_cmp expect actual &&
	git status -s >expect &&
	dircache status --color --no-color -s >actual && test_cmp expect actual &&
	dircache status --color=never -s >actual && test_cmp expect actual &&
	dircache status -s >actual && test_cmp expect actual
'

test_expect_success 'color.status and color.ui decide, the option first' '
	cd r && git status -s >../plain &&
	gstatus -s >../colored &&
	git config color.ui always && dircache status -s >actual &&
	test_cmp ../colored actual &&
	git config color.status false && dircache status -s >actual &&
	test_cmp ../plain actual &&
	dircache status --color=always -s >actual &&
	test_cmp ../colored actual &&
	git config color.status auto && dircache status -s >actual &&
	test_cmp ../plain actual &&
	git config --unset color.status && git config --unset color.ui
'

test_expect_success 'an unknown --color value is usage' '
	cd r && test_expect_code 129 dircache status --color=sometimes &&
	test_expect_code 129 wt-status --color=sometimes
'

# CMD run on a pseudo-terminal (script from util-linux).
on_tty() {
	script -qec "$1" /dev/null </dev/null | tr -d '\r'
}

if command -v script >/dev/null 2>&1; then
test_expect_success 'on a terminal: colour, unless NO_COLOR' '
	cd r && gstatus -s >expect &&
	on_tty "dircache status -s" >actual && test_cmp expect actual &&
	git status -s >expect &&
	on_tty "NO_COLOR=1 dircache status -s" >actual && test_cmp expect actual
'
fi

test_done
