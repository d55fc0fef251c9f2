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
	lib_hash s1 >actual5 && test_cmp expect2 actual5 &&
	printf "[ extensions ]\nobjectformat=\"sha256\"" >s1/.git/config &&
	lib_hash s1 >actual6 && test_cmp expect2 actual6 &&
	printf "[extensions \"x\"]\n\tobjectformat = sha256\n[extensions]\n\tobjectformatx = sha256\n[core]\n\tobjectformat = sha256\n" \
		>s1/.git/config &&
	lib_hash s1 >actual7 && test_cmp expect1 actual7
'

test_expect_success 'the search for the top stops below GIT_CEILING_DIRECTORIES' '
	mkdir -p outer/inner/deeper && (cd outer && dircache init -q) &&
	(cd outer/inner/deeper && dircache status >/dev/null) &&
	(GIT_CEILING_DIRECTORIES=/nowhere:$PWD/outer &&
	 export GIT_CEILING_DIRECTORIES && cd outer/inner/deeper &&
	 test_expect_code 128 dircache branch x 2>../../../err) &&
	test_grep "not a dircache repository" err &&
	test_must_fail git_in outer rev-parse --verify -q refs/heads/x
'

# A work tree made by git with the object format $1, one commit, in
# w-$1; its store is w-$1/.git.
git_repo() {
	git init -q --object-format="$1" "w-$1" &&
	(cd "w-$1" && echo "$1" >file && git add file &&
	 git commit -q -m "a $1 commit")
}

test_expect_success 'setup: a sha1 and a sha256 repository made by git' '
	git_repo sha1 && git_repo sha256 &&
	test "$(git -C w-sha256 rev-parse --show-object-format)" = sha256 &&
	test "$(git -C w-sha1 rev-parse --show-object-format)" = sha1
'

# refuses <cmd> <ours> <theirs>: dircache <cmd> in w-<ours> from or to
# w-<theirs> exits 128 with one line naming both formats, and neither
# repository changes at all.
refuses() {
	repo_state "w-$2" >before-ours &&
	repo_state "w-$3" >before-theirs &&
	(cd "w-$2" && test_expect_code 128 dircache "$1" "../w-$3/.git") \
		2>err &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "mismatched object formats: .*w-$3/.git is $3, this store is $2" err &&
	repo_state "w-$2" >after-ours &&
	repo_state "w-$3" >after-theirs &&
	test_cmp before-ours after-ours &&
	test_cmp before-theirs after-theirs
}

test_expect_success 'pull between a sha1 and a sha256 store: refused, both ways' '
	refuses pull sha1 sha256 &&
	refuses pull sha256 sha1
'

test_expect_success 'fetch between a sha1 and a sha256 store: refused, both ways' '
	refuses fetch sha1 sha256 &&
	refuses fetch sha256 sha1
'

test_expect_success 'push between a sha1 and a sha256 store: refused, both ways' '
	refuses push sha1 sha256 &&
	refuses push sha256 sha1
'

# receive_other <ours> <theirs>: a request with ids of the format
# theirs, to a store of the format ours, is refused as such.
receive_other() {
	rm -rf "r-$1" && dircache init -q --shared --object-format=$1 "r-$1" &&
	case $2 in sha1) n=40 ;; *) n=64 ;; esac &&
	printf "refs/heads/x %s %s\n" $(printf "%0${n}d" 0) \
		$(printf "%0${n}d" 0 | tr 0 1) >request &&
	repo_state "r-$1" >before &&
	test_expect_code 1 dircache-receive "r-$1" <request >answer &&
	echo "ng refs/heads/x ids of another object format than this store's ($1)" \
		>expect &&
	test_cmp expect answer &&
	sed "s/^/want /; s/ refs.* / /" request >wants &&
	test_expect_code 128 dircache-upload "r-$1" <wants >pack 2>err &&
	test_grep "not an object id" err && test ! -s pack &&
	repo_state "r-$1" >after &&
	test_cmp before after
}

test_expect_success 'receive and upload refuse ids of the other format' '
	receive_other sha256 sha1 &&
	receive_other sha1 sha256
'

test_expect_success 'dircache init --object-format: the config git writes' '
	dircache init -q --object-format=sha256 i256 &&
	git init -q --object-format=sha256 g256 &&
	test "$(git_in i256 rev-parse --show-object-format)" = sha256 &&
	git_in i256 config core.repositoryformatversion >actual &&
	git -C g256 config core.repositoryformatversion >expect &&
	git_in i256 config extensions.objectformat >>actual &&
	git -C g256 config extensions.objectformat >>expect &&
	test_cmp expect actual &&
	GIT_DEFAULT_HASH=sha1 dircache init -q --object-format=sha1 i1 &&
	test "$(git_in i1 rev-parse --show-object-format)" = sha1 &&
	test_expect_code 129 dircache init --object-format 2>/dev/null
'

test_expect_success 'clone keeps the object format of the store cloned' '
	for f in sha1 sha256; do
		dircache clone "w-$f/.git" "c-$f" 2>/dev/null &&
		test "$(git_in "c-$f" rev-parse --show-object-format)" = $f &&
		git -C "w-$f" rev-parse HEAD >expect &&
		git_in "c-$f" rev-parse HEAD >actual &&
		test_cmp expect actual &&
		git_in "c-$f" fsck --strict --no-dangling &&
		test "$(cat "c-$f/file")" = $f || return 1
	done
'

# Three files of every kind in the current directory, old enough that
# no entry is racily clean.
three_files() {
	mkdir dir && echo one >dir/f && echo two >g && ln -s dir/f l &&
	touch -h -d @1000000000 dir/f g l
}

test_expect_success 'sha256: add and commit write the index git writes' '
	git init -q --object-format=sha256 w &&
	(cd w && three_files && dircache add . && cp .git/index ../ours &&
	 rm .git/index && git add . && cmp ../ours .git/index &&
	 dircache commit -m one >/dev/null && cp .git/index ../ours &&
	 rm .git/index && git read-tree HEAD &&
	 git update-index -q --refresh && cmp ../ours .git/index)
'

test_expect_success 'sha256: commit and tag -a make the ids git makes' '
	git init -q --object-format=sha256 gw &&
	(cd gw && three_files && git add . && git commit -q -m one &&
	 git tag -a -m "version one" v1 && git tag light) &&
	(cd w && dircache tag -a -m "version one" v1 && dircache tag light) &&
	git -C gw rev-parse HEAD HEAD^{tree} v1 light master >expect &&
	git -C w rev-parse HEAD HEAD^{tree} v1 light master >actual &&
	test_cmp expect actual &&
	test "$(sort -u actual | wc -l)" = 3 &&
	for r in heads/master tags/v1 tags/light; do
		cmp gw/.git/refs/$r w/.git/refs/$r || return 1
	done &&
	git -C w fsck --strict --no-dangling
'

# idx_is_gits <store>: every idx of the store is the one git's
# index-pack writes for its pack, byte for byte.
idx_is_gits() {
	ls "$1"/objects/pack/pack-*.pack >packs &&
	test -s packs &&
	while read -r p; do
		rm -f git.idx &&
		git --git-dir="$1" index-pack -o git.idx "$p" >/dev/null &&
		cmp git.idx "${p%.pack}.idx" || return 1
	done <packs
}

test_expect_success 'sha256: push, clone, pull and fetch; packs git reads' '
	mkdir s && (cd s && dircache init -q --shared --object-format=sha256) &&
	(cd w && dircache remote add central ../s &&
	 dircache push central master 2>/dev/null) &&
	test "$(git_in s rev-parse master)" = "$(git -C w rev-parse master)" &&
	git_in s fsck --strict --no-dangling &&
	idx_is_gits s/.dircache &&
	dircache clone s c 2>/dev/null &&
	test "$(git_in c rev-parse --show-object-format)" = sha256 &&
	test "$(git_in c rev-parse HEAD)" = "$(git -C w rev-parse HEAD)" &&
	(cd w && echo three >>g && dircache commit -a -m two >/dev/null &&
	 dircache push central master 2>/dev/null) &&
	(cd c && dircache pull 2>/dev/null) &&
	test "$(git_in c rev-parse HEAD)" = "$(git -C w rev-parse HEAD)" &&
	test "$(cat c/g)" = "$(printf "two\nthree")" &&
	git_in c fsck --strict --no-dangling &&
	(cd w && echo four >>g && dircache commit -a -m three >/dev/null &&
	 dircache push central master 2>/dev/null) &&
	(cd c && dircache fetch 2>/dev/null) &&
	test "$(git_in c rev-parse origin/master)" = "$(git -C w rev-parse HEAD)" &&
	git_in c fsck --strict --no-dangling &&
	idx_is_gits c/.dircache
'

test_done
