# t/lib-ls-files.sh: the ls-files tests' oracle (t3001, t3002).  Source
# it after test-lib.sh, with GIT_DIR set to the store.

# same_as_git ARGS...: our ls-files and git's, output and exit code,
# byte for byte (the results go to ../ours and ../theirs).
same_as_git() {
	ls-files "$@" >../ours 2>&1
	echo "exit $?" >>../ours
	git ls-files "$@" >../theirs 2>&1
	echo "exit $?" >>../theirs
	test_cmp ../theirs ../ours
}
