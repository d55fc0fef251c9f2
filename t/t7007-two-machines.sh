#!/bin/sh
test_description='the README session: two machines, a shared store, clone, push, a refused push, pull with a merge'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-porcelain.sh"

# box1 is $TRASH_DIRECTORY/box1 (alice's home, holding the shared
# store); box2 reaches it as box1:... through a stand-in for ssh.
cat >fake-ssh <<EOS
#!/bin/sh
shift
cd "$TRASH_DIRECTORY/box1" && exec sh -c "\$*"
EOS
chmod +x fake-ssh

test_expect_success 'setup: two homes and an ssh that stays here' '
	mkdir box1 box2 &&
	test -x fake-ssh
'
RSYNC_RSH=$TRASH_DIRECTORY/fake-ssh
export RSYNC_RSH

test_expect_success 'box1: a shared store, and a project pushed into it' '
	(cd box1 && mkdir -p shared/hello && cd shared/hello &&
	 dircache init --shared 2>/dev/null) &&
	(cd box1 && mkdir hello && cd hello && dircache init 2>/dev/null &&
	 printf "hello\n" >hello.c && printf "all:\n" >Makefile &&
	 dircache add . && dircache commit -m "Initial revision" >/dev/null &&
	 dircache remote add origin ../shared/hello && dircache push origin) &&
	test "$(cat box1/shared/hello/.dircache/refs/heads/master)" = \
	     "$(cat box1/hello/.dircache/refs/heads/master)"
'

test_expect_success 'box2: clone over ssh, commit, push' '
	(cd box2 && dircache clone box1:shared/hello 2>/dev/null && cd hello &&
	 printf "hello, world\n" >hello.c &&
	 dircache status -s >../status &&
	 dircache commit -a -m "Greet the world" >/dev/null &&
	 dircache push origin 2>/dev/null) &&
	echo " M hello.c" >expect && test_cmp expect box2/status &&
	test "$(cat box1/shared/hello/.dircache/refs/heads/master)" = \
	     "$(cat box2/hello/.dircache/refs/heads/master)"
'

test_expect_success 'box1: a push behind the store is refused; pull merges; push' '
	(cd box1/hello && printf "all: hello\n" >Makefile &&
	 dircache commit -a -m "Build hello" >/dev/null &&
	 state=$(repo_state ../shared/hello) &&
	 test_expect_code 128 dircache push origin 2>../../err &&
	 test "$state" = "$(repo_state ../shared/hello)" &&
	 dircache pull origin 2>../../err2 &&
	 dircache push origin 2>/dev/null) &&
	test_grep "not a fast-forward" err &&
	test_grep "Merge made" err2 &&
	git_in box1/hello log -1 --format=%P >parents &&
	test $(wc -w <parents) = 2
'

test_expect_success 'box2: pull fast-forwards to the merge; all three stores agree' '
	(cd box2/hello && dircache pull origin 2>/dev/null) &&
	printf "hello, world\n" >expect && test_cmp expect box2/hello/hello.c &&
	printf "all: hello\n" >expect && test_cmp expect box2/hello/Makefile &&
	for r in box1/hello box2/hello box1/shared/hello; do
		git_accepts $r &&
		git_in $r log --format="%H %P %s" >log-$(echo $r | tr / -) ||
		return 1
	done &&
	test_cmp log-box1-hello log-box2-hello &&
	test_cmp log-box1-hello log-box1-shared-hello &&
	(cd box2/hello && dircache log) >ours && git_in box2/hello log >theirs &&
	test_cmp theirs ours
'

test_expect_success 'the shared store stayed group-writable' '
	find box1/shared/hello/.dircache -type d ! -perm -2070 >bad &&
	test_must_fail test -s bad
'

test_done
