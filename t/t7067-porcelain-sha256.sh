#!/bin/sh
test_description='the porcelain on sha256 stores: ids, formats against git, sha1 and sha256 stores kept apart'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# The DC_HEXSZ and NULL_ID the scripts see in the repository $1.
lib_hash() {
	(cd "$1" && . "$TOP/dircache-lib.sh" && cd_to_top &&
	 echo "$DC_HEXSZ $NULL_ID $(dc_object_format)")
}

test_expect_success 'the scripts read the object format from the config' '
	git init -q --object-format=sha1 s1 &&
	git init -q --object-format=sha256 s2 &&
	echo "40 $(printf "%040d" 0) sha1" >expect1 &&
	echo "64 $(printf "%064d" 0) sha256" >expect2 &&
	lib_hash s1 >actual1 && test_cmp expect1 actual1 &&
	lib_hash s2 >actual2 && test_cmp expect2 actual2 &&
	mkdir -p s2/sub && lib_hash s2/sub >actual3 && test_cmp expect2 actual3 &&
	(GIT_DIR=$PWD/s2/.git && export GIT_DIR && lib_hash s1) >actual4 &&
	test_cmp expect2 actual4 &&
	printf "[core]\n\trepositoryFormatVersion = 1\n[Extensions]\n\tobjectFormat = sha256 ; git 2.39\n" \
		>s1/.git/config &&
	lib_hash s1 >actual5 && test_cmp expect2 actual5
'

test_done
