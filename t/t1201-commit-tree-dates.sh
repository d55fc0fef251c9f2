#!/bin/sh
test_description='commit-tree: dates without a zone and empty emails, as git'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-wt.sh"

GIT_DIR=.dircache
export GIT_DIR

test_expect_success 'setup' '
	test_create_repo repo &&
	cd repo &&
	echo hello >file &&
	update-cache --add file &&
	write-tree >../T &&
	echo dates >../msg
'

# Each date, in several zones (with and without summer time, a half-hour
# zone, both sides of a DST change): our commit id must be git's.
test_expect_success 'dates git reads as local time give git'\''s ids' '
	cd repo &&
	for tz in UTC America/New_York Asia/Kolkata Europe/Berlin \
		Australia/Adelaide; do
		while read date; do
			TZ=$tz GIT_AUTHOR_DATE=$date &&
			export TZ GIT_AUTHOR_DATE &&
			wt_commit_both $(cat ../T) || {
				echo >&2 "differs: TZ=$tz $date"; exit 1; }
		done <<-\EOF || exit 1
		2005-05-26 23:00
		2005-05-26 23:00:12
		2005-05-26T23:00
		2005-05-26T23:00:59
		2005-5-6 3:00
		26 May 2005 23:00
		Thu, 26 May 2005 23:00:01
		Thu, 26 May 2005 23:00
		6 Jan 2005 08:15:00
		2005.05.26 23:00
		2005.01.10 12:00:30
		2005/05/26 23:00
		05/26/2005 23:00:05
		5/26/2005 23:00
		01/10/2005 12:00
		2005-03-27 02:30
		2005-10-30 02:30
		2099-12-31 23:59
		2005-05-26 23:00 +0100
		2005-05-26 23:00 Z
		2005-05-26T23:00Z
		26 May 2005 23:00 -0700
		2005.05.26 23:00 +0200
		05/26/2005 23:00:05 -0330
		EOF
	done
'

test_expect_success 'the committer date is read the same way' '
	cd repo &&
	TZ=America/New_York GIT_COMMITTER_DATE="2005-05-26 23:00" &&
	export TZ GIT_COMMITTER_DATE &&
	wt_commit_both $(cat ../T) &&
	git cat-file commit $(cat ../commit) >../body &&
	test_grep "^committer C O Mitter <committer@example.com> 1117162800 -0400$" ../body
'

test_expect_success 'dates git refuses are refused' '
	cd repo &&
	wt_objects >../before &&
	while read date; do
		test_must_fail env GIT_AUTHOR_DATE="$date" GIT_DIR=.dircache \
			git commit-tree $(cat ../T) <../msg >/dev/null 2>&1 &&
		test_expect_code 128 env GIT_AUTHOR_DATE="$date" \
			commit-tree $(cat ../T) <../msg >../out 2>../err &&
		test ! -s ../out &&
		test_grep -F "GIT_AUTHOR_DATE: '\''$date'\''" ../err || exit 1
	done <<-\EOF &&
	2005-05-26
	26 May 2005
	2100-01-01 00:00
	2100-01-01 00:00:00 +0000
	Thu, 26 May 2005
	EOF
	wt_objects >../after &&
	test_cmp ../before ../after
'

test_expect_success 'an empty email is kept as <>, as git keeps it' '
	cd repo &&
	GIT_AUTHOR_EMAIL= &&
	GIT_COMMITTER_EMAIL= &&
	export GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL &&
	wt_commit_both $(cat ../T) &&
	git cat-file commit $(cat ../commit) >../body &&
	test_grep "^author A U Thor <> 1112911993 -0700$" ../body &&
	test_grep "^committer C O Mitter <> 1112912053 -0700$" ../body &&
	GIT_AUTHOR_EMAIL=" . " &&
	wt_commit_both $(cat ../T)
'

test_expect_success 'an empty name is refused, as git refuses it' '
	cd repo &&
	wt_objects >../before &&
	test_must_fail env GIT_AUTHOR_NAME= GIT_DIR=.dircache \
		git commit-tree $(cat ../T) <../msg 2>/dev/null &&
	test_expect_code 128 env GIT_AUTHOR_NAME= \
		commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "empty name in GIT_AUTHOR_NAME" ../err &&
	test_expect_code 128 env GIT_COMMITTER_NAME= \
		commit-tree $(cat ../T) <../msg 2>../err &&
	test_grep "empty name in GIT_COMMITTER_NAME" ../err &&
	wt_objects >../after &&
	test_cmp ../before ../after
'

test_expect_success 'git fsck --strict finds nothing wrong' '
	cd repo &&
	wt_fsck
'

test_done
