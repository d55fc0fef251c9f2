#!/bin/sh
test_description='identity from the config, in git var and git commit-tree order'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
unset GIT_CONFIG_GLOBAL EMAIL XDG_CONFIG_HOME

# Our var and git var agree on both identities, in repository r.
same_ident() {
	for v in GIT_AUTHOR_IDENT GIT_COMMITTER_IDENT; do
		(cd r && var $v) >ours && git --git-dir=r/.dircache var $v >theirs &&
		test_cmp theirs ours || return 1
	done
}

test_expect_success 'setup' '
	mkdir r && (cd r && dircache init 2>/dev/null) &&
	echo a >r/a && (cd r && update-cache --add a)
'

test_expect_success '~/.gitconfig user.name and user.email' '
	git config --file "$HOME/.gitconfig" user.name "Home Name" &&
	git config --file "$HOME/.gitconfig" user.email home@example.com &&
	same_ident &&
	(cd r && var GIT_AUTHOR_IDENT) >out &&
	test_grep "^Home Name <home@example.com> " out
'

test_expect_success 'the repository config wins over ~/.gitconfig' '
	git config --file r/.dircache/config user.name "Repo Name" &&
	same_ident &&
	(cd r && var GIT_COMMITTER_IDENT) >out &&
	test_grep "^Repo Name <home@example.com> " out
'

test_expect_success 'author.* and committer.* win over user.*' '
	git config --file r/.dircache/config author.name "Auth Only" &&
	git config --file "$HOME/.gitconfig" committer.email c@example.com &&
	same_ident
'

test_expect_success 'the environment wins over the config' '
	GIT_AUTHOR_NAME="Env Name" GIT_COMMITTER_EMAIL=env@example.com \
		same_ident &&
	(cd r && GIT_AUTHOR_NAME="Env Name" var GIT_AUTHOR_IDENT) >out &&
	test_grep "^Env Name " out
'

test_expect_success 'EMAIL comes after the config, before the default' '
	EMAIL=mail@example.com same_ident &&
	git config --file "$HOME/.gitconfig" --unset user.email &&
	git config --file "$HOME/.gitconfig" --unset committer.email &&
	EMAIL=mail@example.com same_ident &&
	(cd r && EMAIL=mail@example.com var GIT_AUTHOR_IDENT) >out &&
	test_grep "<mail@example.com>" out
'

test_expect_success 'XDG config is read, ~/.gitconfig wins over it' '
	mkdir -p xdg/git &&
	git config --file xdg/git/config user.email xdg@example.com &&
	XDG_CONFIG_HOME="$PWD/xdg" same_ident &&
	(cd r && XDG_CONFIG_HOME="$TRASH_DIRECTORY/xdg" var GIT_AUTHOR_IDENT) >out &&
	test_grep "<xdg@example.com>" out &&
	mkdir -p .config/git && cp xdg/git/config .config/git/config &&
	same_ident &&
	git config --file "$HOME/.gitconfig" user.email home2@example.com &&
	same_ident &&
	(cd r && var GIT_AUTHOR_IDENT) >out &&
	test_grep "<home2@example.com>" out
'

test_expect_success 'GIT_CONFIG_GLOBAL replaces the user files' '
	git config --file other.cfg user.email other@example.com &&
	GIT_CONFIG_GLOBAL="$PWD/other.cfg" same_ident
'

test_expect_success 'commit-tree and dircache commit make the commit git makes' '
	tree=$(cd r && write-tree) &&
	(cd r && echo msg | commit-tree $tree) >ours &&
	echo msg | git --git-dir=r/.dircache commit-tree $tree >theirs &&
	test_cmp theirs ours &&
	(cd r && dircache commit -m msg) >ours &&
	test_cmp theirs ours
'

test_expect_success 'a bad config is refused by commit-tree' '
	tree=$(cd r && write-tree) &&
	printf "[user\n" >>r/.dircache/config &&
	(cd r && echo m | test_expect_code 128 commit-tree $tree 2>../err) &&
	test_grep "bad config" err
'

test_expect_success 'dircache tag -a: the tagger from the config, as git' '
	grep -v "^\[user\$" r/.dircache/config >cfg &&
	mv cfg r/.dircache/config &&
	git config --file r/.dircache/config --remove-section user &&
	git config --file r/.dircache/config user.name Tagger &&
	(cd r && dircache tag -a -m "a tag" v1 &&
	 git --git-dir=.dircache tag -a -m "a tag" v2 HEAD) &&
	git --git-dir=r/.dircache cat-file tag v1 | sed -n "/^tagger/p" >ours &&
	git --git-dir=r/.dircache cat-file tag v2 | sed -n "/^tagger/p" >theirs &&
	test_cmp theirs ours
'

test_done
