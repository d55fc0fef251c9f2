#!/bin/sh
test_description='mailsplit: mailboxes cut as git mailsplit cuts them'
. "$(dirname "$0")/test-lib.sh"

# A history whose messages hold lines that look like mbox separators.
test_expect_success 'setup' '
	git init -q hist &&
	(
		cd hist &&
		for i in 1 2 3 4 5 6; do
			echo "line $i" >>f &&
			git add f &&
			printf "change $i\n\nFrom the start, a sentence.\nFrom 1234 Mon Sep 17 00:00:00 2001\n>From quoted\n" >msg &&
			git commit -q -F msg || exit 1
		done &&
		git format-patch -q --stdout --root >../plain.mbox &&
		git format-patch -q --stdout --root --pretty=mboxrd >../rd.mbox
	) &&
	sed "s/\$/\r/" plain.mbox >crlf.mbox &&
	{ printf "\n\n  \n"; cat plain.mbox; } >blank.mbox &&
	head -n 20 plain.mbox >one.mbox
'

# mailsplit and git mailsplit with the same arguments: the same count
# and the same files.
compare_split() {
	rm -rf out.git out.our &&
	mkdir out.git out.our &&
	git mailsplit -oout.git "$@" >count.git &&
	mailsplit -oout.our "$@" >count.our &&
	test_cmp count.git count.our &&
	diff -r out.git out.our
}

test_expect_success 'a format-patch series' '
	compare_split plain.mbox &&
	test_grep "^From the start" out.our/0001 &&
	# An unquoted "From <id> <date>" line in a message cuts it in two.
	test "$(cat count.our)" = 12
'

test_expect_success 'CRLF mail becomes LF; --keep-cr keeps it' '
	compare_split crlf.mbox &&
	! grep -q "$(printf "\r")" out.our/0001 &&
	compare_split --keep-cr crlf.mbox &&
	grep -q "$(printf "\r")" out.our/0001
'

test_expect_success '>From lines: kept, or unquoted with --mboxrd' '
	compare_split rd.mbox &&
	test_grep "^>>From quoted" out.our/0001 &&
	compare_split --mboxrd rd.mbox &&
	test_grep "^>From quoted" out.our/0001 &&
	test_grep "^From 1234 Mon" out.our/0001
'

test_expect_success 'leading blank lines, -d, -f, several mailboxes' '
	compare_split blank.mbox &&
	compare_split -d5 plain.mbox &&
	test -f out.our/00012 &&
	test_expect_code 129 git mailsplit -d2 -oout.git plain.mbox 2>/dev/null &&
	test_expect_code 129 mailsplit -d2 -oout.our plain.mbox 2>/dev/null &&
	compare_split -f10 plain.mbox one.mbox &&
	test "$(cat count.our)" = 14 &&
	test -f out.our/0023
'

test_expect_success 'standard input' '
	rm -rf out.git out.our && mkdir out.git out.our &&
	git mailsplit -oout.git <plain.mbox >count.git &&
	mailsplit -oout.our <plain.mbox >count.our &&
	test_cmp count.git count.our &&
	diff -r out.git out.our
'

test_expect_success 'a mailbox without a From line is refused, -b takes it' '
	sed 1d one.mbox >bare &&
	rm -rf out.our && mkdir out.our &&
	test_must_fail git mailsplit -oout.our bare >/dev/null 2>&1 &&
	rm -rf out.our && mkdir out.our &&
	test_expect_code 128 mailsplit -oout.our bare >out 2>err &&
	test_grep "corrupt mailbox" err &&
	test ! -s out &&
	compare_split -b bare
'

test_expect_success 'an existing file is not overwritten' '
	rm -rf out.our && mkdir out.our &&
	echo keep >out.our/0002 &&
	test_expect_code 128 mailsplit -oout.our plain.mbox >out 2>err &&
	test_grep "0002" err &&
	echo keep >expect &&
	test_cmp expect out.our/0002
'

test_expect_success 'split then mailinfo gives what git gives, CRLF too' '
	for mbox in plain.mbox crlf.mbox rd.mbox; do
		compare_split $mbox &&
		for m in out.our/*; do
			git mailinfo m.git p.git <$m >i.git &&
			mailinfo m.our p.our <$m >i.our &&
			test_cmp i.git i.our &&
			cmp m.git m.our &&
			cmp p.git p.our || exit 1
		done
	done
'

# Mailboxes are read a megabyte at a time: messages that straddle
# the chunks, a message larger than a chunk, a bare first message,
# CRLF, and separator-like lines near every boundary.
test_expect_success 'mailboxes of several megabytes, cut where git cuts them' '
	big_mail() {
		printf "From %s Mon Sep 17 00:00:00 2001\nSubject: m%s\n\n" $1 $1 &&
		seq $1 $2 | sed "s/^/From the line /"
	} &&
	for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
	do
		big_mail $n $((n * 9000)) || return 1
	done >many.mbox &&
	{ big_mail 1 400000 && cat many.mbox; } >huge.mbox &&
	test $(wc -c <many.mbox) -gt 3000000 &&
	test $(wc -c <huge.mbox) -gt 8000000 &&
	compare_split many.mbox &&
	test "$(cat count.our)" = 20 &&
	compare_split huge.mbox &&
	test "$(cat count.our)" = 21 &&
	sed "s/\$/\r/" many.mbox >many-crlf.mbox &&
	compare_split many-crlf.mbox &&
	compare_split --keep-cr many-crlf.mbox &&
	{ echo "Subject: bare"; echo; cat many.mbox; } >bare.mbox &&
	compare_split -b bare.mbox &&
	test "$(cat count.our)" = 1 &&
	rm -rf out.std && mkdir out.std &&
	mailsplit -oout.std <many.mbox >count.std &&
	compare_split many.mbox &&
	test_cmp count.git count.std &&
	diff -r out.git out.std
'

test_expect_success 'an empty or missing mailbox' '
	: >empty &&
	test_expect_code 128 mailsplit -oout.our empty 2>err &&
	test_grep "empty mbox" err &&
	test_expect_code 128 mailsplit -oout.our nosuch 2>err &&
	test_grep "nosuch" err &&
	mailsplit -oout.our <empty >count &&
	echo 0 >expect &&
	test_cmp expect count
'

test_expect_success 'usage' '
	test_expect_code 129 mailsplit plain.mbox 2>err &&
	test_grep "^usage: mailsplit " err &&
	test_expect_code 129 mailsplit -x -oout 2>err &&
	mailsplit -h >out &&
	test_grep "^usage: mailsplit " out
'

test_done
