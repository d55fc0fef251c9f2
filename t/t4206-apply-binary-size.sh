#!/bin/sh
test_description='apply: a binary hunk of the wrong size is reported at its size line'
. "$(dirname "$0")/test-lib.sh"

# A "GIT binary patch" hunk is "literal <size>" or "delta <size>", then
# the deflated data in base-85 lines and an empty line.  When the data
# does not inflate to <size> bytes, the size line is the one that lies:
# the error names it, not a later line (the reverse hunk's, or the end
# of the data).  git apply refuses such a patch too (at the empty line
# after the data).

test_expect_success 'setup' '
	git init -q repo &&
	printf "\000\001\002 old\n" >repo/small &&
	{ printf "\000"; seq 1 3000; } >repo/big &&
	git -C repo add small big &&
	git -C repo commit -q -m base &&
	printf "\000\001\002 new binary content\n" >repo/small &&
	{ printf "\000"; seq 1 3000 | sed "s/^1500\$/x/"; } >repo/big &&
	git -C repo diff --binary small >literal.patch &&
	git -C repo diff --binary big >delta.patch &&
	git -C repo checkout -q -- . &&
	test "$(grep -c "^literal " literal.patch)" = 2 &&
	grep "^delta " delta.patch
'

# nth_size_line PATCH N: the line number of PATCH'\''s Nth size line.
nth_size_line() {
	grep -n -E "^(literal|delta) [0-9]+\$" "$1" | sed -n "$2s/:.*//p"
}

# spoil PATCH N: PATCH with its Nth size line one more than it says.
spoil() {
	line=$(nth_size_line "$1" "$2") &&
	awk -v l="$line" "NR == l { \$2 = \$2 + 1 } { print }" "$1"
}

# refused_at PATCH LINE: apply (and git apply) refuse PATCH; ours says
# LINE; nothing changes.
refused_at() {
	(cd repo && git status --porcelain) >before &&
	(cd repo && test_must_fail git apply "../$1" 2>/dev/null) &&
	for opt in --check "" --index; do
		(cd repo && test_expect_code 128 env GIT_DIR=.git \
			apply $opt "../$1" 2>../err) &&
		echo "apply: corrupt binary patch at line $2" >want &&
		test_cmp want err || return 1
	done &&
	(cd repo && git status --porcelain) >after &&
	test_cmp before after
}

test_expect_success 'the patches apply as they are' '
	(cd repo && apply --check ../literal.patch ../delta.patch)
'

test_expect_success 'a literal of the wrong size: its size line' '
	spoil literal.patch 1 >bad &&
	! test_cmp literal.patch bad >/dev/null &&
	refused_at bad "$(nth_size_line bad 1)"
'

test_expect_success 'the reverse hunk of the wrong size: its own size line' '
	spoil literal.patch 2 >bad &&
	refused_at bad "$(nth_size_line bad 2)"
'

test_expect_success 'a delta of the wrong size: its size line' '
	spoil delta.patch 1 >bad &&
	refused_at bad "$(nth_size_line bad 1)"
'

test_expect_success 'a reverse hunk of a delta patch of the wrong size' '
	spoil delta.patch 2 >bad &&
	refused_at bad "$(nth_size_line bad 2)"
'

test_expect_success 'a damaged data line is still reported at its line' '
	line=$(( $(nth_size_line literal.patch 1) + 1 )) &&
	sed "${line}s/^./~/" literal.patch >bad &&
	refused_at bad $line
'

test_done
