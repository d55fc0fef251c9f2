#!/bin/sh
test_description='mailinfo on multiparts nested in multiparts, as git mailinfo'
. "$(dirname "$0")/test-lib.sh"

# nested_mail DEPTH: a mail whose patch sits DEPTH multiparts deep,
# each with a preamble and an epilogue, all ending one after another.
nested_mail() {
	printf "From: A U Thor <author@example.com>\n"
	printf "Date: Thu, 7 Apr 2005 15:13:13 -0700\n"
	printf "Subject: [PATCH] nested %d deep\nMIME-Version: 1.0\n" "$1"
	i=1
	while [ $i -le "$1" ]; do
		printf 'Content-Type: multipart/mixed; boundary="b%d"\n\n' $i
		printf 'preamble %d\n--b%d\n' $i $i
		i=$((i + 1))
	done
	printf 'Content-Type: text/plain; charset=UTF-8\n\nThe body.\n---\n'
	printf ' a | 1 +\ndiff --git a/a b/a\n--- a/a\n+++ b/a\n'
	printf '@@ -1 +1,2 @@\n a\n+b\n'
	i=$1
	while [ $i -ge 1 ]; do
		printf -- '--b%d--\nepilogue %d\n' $i $i
		i=$((i - 1))
	done
}

# mailinfo and git mailinfo on mail $1: the same stdout, <msg>, <patch>
# and exit status.
compare_git() {
	git mailinfo m.git p.git <"$1" >i.git 2>/dev/null
	git_status=$?
	mailinfo m.our p.our <"$1" >i.our 2>err
	our_status=$?
	echo "$git_status" >expect &&
	echo "$our_status" >actual &&
	test_cmp expect actual &&
	test_cmp i.git i.our &&
	test_cmp m.git m.our &&
	test_cmp p.git p.our
}

for depth in 1 2 3 4 5; do
	test_expect_success "nested $depth deep: git's patch, message, status" "
		nested_mail $depth >mail$depth &&
		compare_git mail$depth
	"
done

test_expect_success 'the patch ends with one blank line, whatever the depth' '
	for depth in 1 2 3 4; do
		mailinfo m p <mail$depth >/dev/null &&
		tail -n 2 p >actual &&
		printf "+b\n\n" >expect &&
		test_cmp expect actual || return 1
	done
'

# Inner multiparts end, then the outer one goes on with a part.
test_expect_success 'a part after nested ends, as git' '
	{
		printf "From: A U Thor <author@example.com>\nSubject: s\n" &&
		printf "Content-Type: multipart/mixed; boundary=\"o\"\n\n--o\n" &&
		printf "Content-Type: multipart/mixed; boundary=\"i\"\n\n--i\n" &&
		printf "Content-Type: multipart/mixed; boundary=\"j\"\n\n--j\n" &&
		printf "Content-Type: text/plain\n\nfirst\n--j--\n--i--\n--o\n" &&
		printf "Content-Type: text/plain\n\n---\ndiff --git a/a b/a\n" &&
		printf "+x\n--o--\n"
	} >after &&
	compare_git after
'

# git refuses the fifth boundary on the stack; so do we, at any depth,
# with the same output, and without recursion (no stack to overflow).
for depth in 5 6 2000 100000; do
	test_expect_success "nested $depth deep is an input error (exit 1)" "
		nested_mail $depth >deep &&
		compare_git deep &&
		test_expect_code 1 mailinfo m p <deep 2>err &&
		test_grep 'too many MIME boundaries' err
	"
done

test_done
