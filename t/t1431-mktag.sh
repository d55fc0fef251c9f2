#!/bin/sh
test_description='mktag stores what git mktag stores and refuses what it refuses'
. "$(dirname "$0")/test-lib.sh"

GIT_DIR=.git
export GIT_DIR

test_expect_success 'setup' '
	git init -q r && cd r &&
	echo a >a && git add a && git commit -q -m one &&
	git rev-parse HEAD >../commit
'

# One tag text through git mktag and ours: both accept with the same
# id, or both refuse (ours exit 128, the store unchanged).
both_mktag() {
	printf "$1" >../text &&
	find .git/objects -type f | sort >../before &&
	if git mktag <../text >../expect 2>/dev/null
	then
		mktag <../text >../actual &&
		test_cmp ../expect ../actual
	else
		git prune --expire=now &&
		find .git/objects -type f | sort >../before &&
		test_expect_code 128 mktag <../text >../actual 2>../err &&
		! test -s ../actual &&
		test_grep "^mktag: " ../err &&
		find .git/objects -type f | sort >../after &&
		test_cmp ../before ../after
	fi
}

test_expect_success 'a whole tag, with and without a message' '
	cd r && c=$(cat ../commit) &&
	both_mktag "object $c\ntype commit\ntag v1\ntagger T <t@x> 1 +0000\n\nmsg\n" &&
	both_mktag "object $c\ntype commit\ntag v2\ntagger T <t@x> 1 +0000\n" &&
	both_mktag "object $c\ntype commit\ntag v3\ntagger T <t@x> 1 +0000\n\n"
'

test_expect_success 'no tagger line: refused as git refuses it' '
	cd r && c=$(cat ../commit) &&
	both_mktag "object $c\ntype commit\ntag v4\n\nmsg\n" &&
	test_grep "missingTaggerEntry" ../err
'

test_expect_success 'a header after the tagger line: refused' '
	cd r && c=$(cat ../commit) &&
	both_mktag "object $c\ntype commit\ntag v5\ntagger T <t@x> 1 +0000\nx y\n\nm\n" &&
	test_grep "extraHeaderEntry" ../err
'

test_expect_success 'a bad tag name, a wrong type: refused' '
	cd r && c=$(cat ../commit) &&
	both_mktag "object $c\ntype commit\ntag a..b\ntagger T <t@x> 1 +0000\n\nm\n" &&
	both_mktag "object $c\ntype tree\ntag v6\ntagger T <t@x> 1 +0000\n\nm\n"
'

test_done
