#!/bin/sh
test_description='commit-tree: commits byte for byte as git makes them'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-wt.sh"

# An id of the store's size that names nothing.
MISSING=$(echo 1234567890123456789012345678901234567890123456789012345678901234 | cut -c1-$OID_HEXSZ)

# git is the oracle, on the same .dircache.
GIT_DIR=.dircache
export GIT_DIR

# Each test runs in a subshell: ids go through files.
test_expect_success 'setup' '
	test_create_repo repo &&
	cd repo &&
	echo hello >file &&
	mkdir dir &&
	echo sub >dir/sub &&
	update-cache --add file dir/sub &&
	write-tree >../T &&
	git hash-object file >../B &&
	echo "first commit" >../msg &&
	commit-tree $(cat ../T) <../msg >../C1 &&
	echo "second commit" >../msg &&
	commit-tree $(cat ../T) -p $(cat ../C1) <../msg >../C2 &&
	echo "third commit" >../msg &&
	commit-tree $(cat ../T) -p $(cat ../C1) <../msg >../C3
'

test_expect_success 'a root commit is what git makes' '
	cd repo &&
	printf "initial\n" >../msg &&
	wt_commit_both $(cat ../T) &&
	git cat-file commit $(cat ../commit) >../body &&
	cat >../expect <<-EOF &&
	tree $(cat ../T)
	author A U Thor <author@example.com> 1112911993 -0700
	committer C O Mitter <committer@example.com> 1112912053 -0700

	initial
	EOF
	test_cmp ../expect ../body
'

test_expect_success 'every accepted date format gives git'\''s id' '
	cd repo &&
	echo dates >../msg &&
	while read epoch zone date; do
		GIT_AUTHOR_DATE=$date &&
		export GIT_AUTHOR_DATE &&
		wt_commit_both $(cat ../T) &&
		git cat-file commit $(cat ../commit) >../body &&
		test_grep "^author A U Thor <author@example.com> $epoch $zone\$" ../body ||
		exit 1
	done <<-\EOF
	1112911993 -0700 1112911993 -0700
	1112911993 +0200 @1112911993 +0200
	1112911993 +0000 1112911993 -0000
	1112911993 -0700 Thu, 7 Apr 2005 15:13:13 -0700
	1112911993 -0700 7 Apr 2005 15:13:13 -0700
	1112911993 -0700 Thu, 07 Apr 2005 15:13:13 -0700
	1112911980 -0700 Thu, 7 Apr 2005 15:13 -0700
	1112911993 +1200 Fri, 8 Apr 2005 10:13:13 +1200
	1112911993 -0700 2005-04-07 15:13:13 -0700
	1112911993 -0700 2005-04-07T15:13:13-07:00
	1112911993 +0000 2005-04-07T22:13:13Z
	1112911993 +0000 2005-04-07 22:13:13 Z
	1112911993 +0530 2005-04-08T03:43:13+0530
	1112911993 +0545 2005-04-08 03:58:13 +05:45
	1078059599 +0100 2004-02-29 13:59:59 +0100
	0 +0000 1970-01-01T00:00:00Z
	EOF
'

test_expect_success 'the committer date takes the same formats' '
	cd repo &&
	echo committer >../msg &&
	GIT_COMMITTER_DATE="2005-04-07T15:14:13-07:00" &&
	export GIT_COMMITTER_DATE &&
	wt_commit_both $(cat ../T) &&
	git cat-file commit $(cat ../commit) >../body &&
	test_grep "^committer C O Mitter <committer@example.com> 1112912053 -0700$" ../body
'

test_expect_success 'bad dates are refused, naming the variable and value' '
	cd repo &&
	wt_objects >../before &&
	while read date; do
		test_expect_code 128 env GIT_AUTHOR_DATE="$date" \
			commit-tree $(cat ../T) <../msg >../out 2>../err &&
		test ! -s ../out &&
		test_grep -F "GIT_AUTHOR_DATE: '\''$date'\''" ../err || exit 1
	done <<-\EOF &&
	yesterday
	1112911993
	1112911993 +07
	1112911993 0700
	1112911993 -0760
	1112911993 +2400
	@ -0700
	2005-04-07
	2005-13-07 15:13:13 +0000
	2005-02-29 15:13:13 +0000
	2005-04-31 15:13:13 +0000
	2005-04-00 15:13:13 +0000
	2005-04-07 24:00:00 +0000
	2005-04-07 15:60:00 +0000
	2005-04-07 15:13:61 +0000
	2005-04-07T15:13:13+07:60
	2005-04-07T15:13:13 UTC
	1969-12-31 23:59:59 +0000
	1970-01-01 00:30:00 +0100
	Fri, 7 Apr 2005 15:13:13 -0700
	Thu, 7 Foo 2005 15:13:13 -0700
	Thu, 7 Apr 2005 15:13:13 -0700 trailing
	EOF
	test_expect_code 128 env GIT_COMMITTER_DATE=never \
		commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "invalid date in GIT_COMMITTER_DATE: '\''never'\''" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after
'

test_expect_success 'the 2005 variable names are used when GIT_* are unset' '
	cd repo &&
	echo old names >../msg &&
	commit-tree $(cat ../T) <../msg >../git-vars &&
	(
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
			GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
			GIT_COMMITTER_DATE &&
		AUTHOR_NAME="A U Thor" AUTHOR_EMAIL=author@example.com \
		AUTHOR_DATE="1112911993 -0700" COMMITTER_NAME="C O Mitter" \
		COMMITTER_EMAIL=committer@example.com \
		COMMITTER_DATE="Thu, 7 Apr 2005 15:14:13 -0700" \
		commit-tree $(cat ../T) <../msg >../old-vars
	) &&
	test_cmp ../git-vars ../old-vars
'

test_expect_success 'COMMIT_AUTHOR_* name the committer; GIT_* win' '
	cd repo &&
	echo commit author >../msg &&
	(
		unset GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL &&
		COMMIT_AUTHOR_NAME="Old Style" \
		COMMIT_AUTHOR_EMAIL=old@example.com \
		commit-tree $(cat ../T) <../msg >../old
	) &&
	git cat-file commit $(cat ../old) >../body &&
	test_grep "^committer Old Style <old@example.com> 1112912053 -0700$" ../body &&
	AUTHOR_NAME=Loser COMMITTER_NAME=Loser COMMIT_AUTHOR_NAME=Loser \
		commit-tree $(cat ../T) <../msg >../new &&
	git cat-file commit $(cat ../new) >../body &&
	! grep Loser ../body
'

test_expect_success 'with nothing set: passwd name, user@host, now' '
	cd repo &&
	echo defaults >../msg &&
	login=$(id -un) &&
	gecos=$(getent passwd "$(id -u)" | cut -d: -f5 | cut -d, -f1) &&
	name=${gecos:-$login} &&
	before=$(date +%s) &&
	(
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
			GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
			GIT_COMMITTER_DATE &&
		commit-tree $(cat ../T) <../msg >../out
	) &&
	after=$(date +%s) &&
	git cat-file commit $(cat ../out) >../body &&
	test_grep -F "author $name <$login@$(uname -n)> " ../body &&
	test_grep -F "committer $name <$login@$(uname -n)> " ../body &&
	when=$(sed -n "s/^author .*> \([0-9]*\) +0000$/\1/p" ../body) &&
	test "$when" -ge "$before" &&
	test "$when" -le "$after"
'

test_expect_success 'crud at the ends of names is trimmed as git trims it' '
	cd repo &&
	echo crud >../msg &&
	GIT_AUTHOR_NAME=" .A U Thor; " &&
	GIT_AUTHOR_EMAIL=" author@example.com. " &&
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL &&
	wt_commit_both $(cat ../T)
'

test_expect_success 'names and emails with <, > or newline are refused' '
	cd repo &&
	wt_objects >../before &&
	test_expect_code 128 env GIT_AUTHOR_NAME="A <U> Thor" \
		commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "name '\''A <U> Thor'\'' in GIT_AUTHOR_NAME" ../err &&
	test_expect_code 128 env GIT_COMMITTER_EMAIL="c@x>" \
		commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "GIT_COMMITTER_EMAIL" ../err &&
	test_expect_code 128 env GIT_AUTHOR_NAME="two
lines" commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "GIT_AUTHOR_NAME" ../err &&
	test_expect_code 128 env GIT_AUTHOR_NAME="..." \
		commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "empty name in GIT_AUTHOR_NAME" ../err &&
	test_expect_code 128 env GIT_AUTHOR_NAME= \
		commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "empty name in GIT_AUTHOR_NAME" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after
'

test_expect_success 'several parents, in the order given' '
	cd repo &&
	echo merge >../msg &&
	wt_commit_both $(cat ../T) \
		-p $(cat ../C2) -p $(cat ../C1) -p $(cat ../C3) &&
	git cat-file commit $(cat ../commit) |
		sed -n "s/^parent //p" >../parents &&
	cat ../C2 ../C1 ../C3 >../expect &&
	test_cmp ../expect ../parents
'

test_expect_success 'a repeated parent is dropped with a warning' '
	cd repo &&
	echo dup >../msg &&
	commit-tree $(cat ../T) \
		-p $(cat ../C1) -p $(cat ../C2) -p $(cat ../C1) \
		<../msg >../ours 2>../err &&
	test_grep "warning: duplicate parent $(cat ../C1) ignored" ../err &&
	wt_commit_both $(cat ../T) -p $(cat ../C1) -p $(cat ../C2) &&
	test_cmp ../commit ../ours
'

test_expect_success 'parents may be abbreviated' '
	cd repo &&
	echo abbrev >../msg &&
	wt_commit_both $(cat ../T) -p $(cut -c1-8 ../C1)
'

test_expect_success 'a message without a trailing newline' '
	cd repo &&
	printf "no newline" >../msg &&
	wt_commit_both $(cat ../T) &&
	: >../msg &&
	wt_commit_both $(cat ../T)
'

test_expect_success 'a message with odd bytes is stored as git stores it' '
	cd repo &&
	printf "\n\nline\r\n\ttab \001 caf\303\251  \n\n\n" >../msg &&
	wt_commit_both $(cat ../T)
'

test_expect_success 'a message that is not UTF-8 is stored byte for byte' '
	cd repo &&
	printf "latin \351 \377\376 end\n" >../msg &&
	commit-tree $(cat ../T) <../msg >../out &&
	cat-file commit $(cat ../out) | sed "1,/^\$/d" >../stored &&
	cmp ../msg ../stored &&
	git cat-file commit $(cat ../out) | sed "1,/^\$/d" >../stored &&
	cmp ../msg ../stored
'

test_expect_success 'a NUL in the message is refused' '
	cd repo &&
	wt_objects >../before &&
	printf "a\000b\n" >../nul &&
	test_expect_code 128 commit-tree $(cat ../T) <../nul 2>../err &&
	test_grep "NUL byte" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after
'

test_expect_success 'bad trees and parents are refused' '
	cd repo &&
	wt_objects >../before &&
	test_expect_code 128 commit-tree $MISSING \
		<../msg >../out 2>../err &&
	test ! -s ../out &&
	test_grep "$MISSING not found" ../err &&
	test_expect_code 128 commit-tree $(cat ../B) <../msg 2>../err &&
	test_grep "$(cat ../B) is a blob, not a tree" ../err &&
	test_expect_code 128 commit-tree $(cat ../T) -p $(cat ../T) \
		<../msg 2>../err &&
	test_grep "$(cat ../T) is a tree, not a commit" ../err &&
	test_expect_code 128 commit-tree nothex <../msg 2>../err &&
	test_grep "not a valid object name: '\''nothex'\''" ../err &&
	test_expect_code 128 commit-tree $(cat ../T) -p zz <../msg 2>../err &&
	test_grep "'\''zz'\''" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after
'

test_expect_success 'usage' '
	test_expect_code 129 commit-tree 2>err &&
	echo "usage: commit-tree <tree> [-p <parent>]... < message" >expect &&
	test_cmp expect err &&
	test_expect_code 129 commit-tree $(cat T) -p 2>err &&
	test_cmp expect err &&
	test_expect_code 129 commit-tree $(cat T) -x y 2>err &&
	test_cmp expect err &&
	commit-tree -h >out &&
	test_cmp expect out
'

test_expect_success 'git fsck --strict finds nothing wrong' '
	cd repo &&
	wt_fsck
'

test_done
