# t/test-lib.sh: a small TAP harness in the manner of git's t/.
# A script sets test_description, sources this file, runs
# test_expect_success 'title' 'commands' and ends with test_done.
# Each script runs in its own fresh trash directory with a scrubbed
# environment, so that ids reproduce.

if [ -z "$test_description" ]; then
	echo "Bail out! $0 sets no test_description"
	exit 1
fi

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$TEST_DIRECTORY/.." && pwd)
SHARED_DIR=$(cd "$TOP/../shared" 2>/dev/null && pwd)
test_name=$(basename "$0" .sh)
# TEST_ROOT: where the trash directories go, t/ by default.  `make
# test` puts them on tmpfs when there is one: on disk, creating and
# removing the scripts' files costs more than all the tools' work.
TRASH_DIRECTORY="${TEST_ROOT:-$TEST_DIRECTORY}/trash-$test_name"

# Scrub: nothing from the caller's environment may change an id.
for v in $(env | sed -n 's/^\(GIT_[A-Za-z_]*\)=.*/\1/p'); do
	unset "$v"
done
unset SHA1_FILE_DIRECTORY AUTHOR_NAME AUTHOR_EMAIL AUTHOR_DATE \
	COMMITTER_NAME COMMITTER_EMAIL COMMITTER_DATE \
	COMMIT_AUTHOR_NAME COMMIT_AUTHOR_EMAIL DIRCACHE_NO_SYNC \
	DIRCACHE_TEST_MBUF_FAIL_AFTER DIRCACHE_TEST_SHA1DC_FIRE \
	EDITOR VISUAL PAGER
LANG=C LC_ALL=C TZ=UTC
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL='author@example.com'
GIT_AUTHOR_DATE='1112911993 -0700'
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL='committer@example.com'
GIT_COMMITTER_DATE='1112912053 -0700'
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
# git run in a trash directory must not find this project's repository,
# nor one around TEST_ROOT (set again once the trash directory is made).
GIT_CEILING_DIRECTORIES="$TEST_DIRECTORY"
DIRCACHE_NO_SYNC=1
HOME="$TRASH_DIRECTORY"
PATH="$TOP:$PATH"
ASAN_OPTIONS="exitcode=120:detect_leaks=0"
UBSAN_OPTIONS="exitcode=120:halt_on_error=1:print_stacktrace=1"
# DIRCACHE_TEST_DEFAULT_HASH=sha256 (make test HASH=sha256): every
# store a test makes, ours (init-db) and git's (git init), names its
# objects by SHA-256, through GIT_DEFAULT_HASH, which both read.
test_hash_algo=${DIRCACHE_TEST_DEFAULT_HASH:-sha1}
case "$test_hash_algo" in
sha1)	OID_HEXSZ=40 ;;
sha256)	OID_HEXSZ=64
	GIT_DEFAULT_HASH=sha256
	export GIT_DEFAULT_HASH ;;
*)	echo "Bail out! unknown DIRCACHE_TEST_DEFAULT_HASH $test_hash_algo"
	exit 1 ;;
esac
ZERO_OID=$(printf "%0${OID_HEXSZ}d" 0)
export LANG LC_ALL TZ HOME PATH GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
	GIT_COMMITTER_DATE GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL \
	GIT_CEILING_DIRECTORIES \
	DIRCACHE_NO_SYNC ASAN_OPTIONS UBSAN_OPTIONS

# make test VALGRIND=1: every tool runs under valgrind; any memory
# error makes it exit 120, which test_must_fail and && chains catch.
if [ -n "$TEST_VALGRIND" ] && [ "$TEST_VALGRIND" != 0 ]; then
	vg_bin="$TEST_DIRECTORY/valgrind-bin"
	mkdir -p "$vg_bin"
	for tool in $(make -s -C "$TOP" print-programs); do
		printf '#!/bin/sh\nexec valgrind -q --error-exitcode=120 --leak-check=no "%s" "$@"\n' \
			"$TOP/$tool" >"$vg_bin/.$tool.$$" &&
		chmod +x "$vg_bin/.$tool.$$" &&
		mv "$vg_bin/.$tool.$$" "$vg_bin/$tool" || exit 1
	done
	PATH="$vg_bin:$PATH"
fi

# The tests' python uses the standard library only: run the interpreter
# itself without site (-S; so sys.exit(), not exit()).  A pyenv shim
# (bash scripts) and the .pth files of a site cost some 150 ms a start,
# the interpreter alone 15.  The wrapper is made once, for all scripts;
# `make clean` forgets it.
py_bin="$TEST_DIRECTORY/python-bin"
py_real=
[ -r "$py_bin/real" ] && read -r py_real <"$py_bin/real"
if [ -z "$py_real" ] || ! [ -x "$py_real" ] ||
   ! [ -x "$py_bin/python3" ]; then
	py_real=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
	if [ -x "$py_real" ]; then
		mkdir -p "$py_bin" &&
		printf '#!/bin/sh\nexec "%s" -S "$@"\n' "$py_real" \
			>"$py_bin/.python3.$$" &&
		chmod +x "$py_bin/.python3.$$" &&
		mv "$py_bin/.python3.$$" "$py_bin/python3" &&
		echo "$py_real" >"$py_bin/.real.$$" &&
		mv "$py_bin/.real.$$" "$py_bin/real" || exit 1
	fi
fi
[ -x "$py_bin/python3" ] && PATH="$py_bin:$PATH"


test_count=0
test_failed=0
test_fixed=0

rm -rf "$TRASH_DIRECTORY" || exit 1
mkdir -p "$TRASH_DIRECTORY" || exit 1
cd "$TRASH_DIRECTORY" || exit 1
GIT_CEILING_DIRECTORIES="$TEST_DIRECTORY:$(cd .. && pwd -P)"

say_verbose() {
	sed 's/^/# /' "$1" >&2
}

run_test_body() {
	(eval "$1") >"$TRASH_DIRECTORY/.test-out" 2>&1
}

# TEST_PROFILE=FILE: add a line to FILE for each test, the CPU seconds
# (user + system) its processes took and its title, to find slow ones.
test_cpu_was=0
test_profile() {
	[ -n "$TEST_PROFILE" ] || return 0
	_cpu=$(awk '{ print $16 + $17 }' /proc/$$/stat) &&
	awk -v now="$_cpu" -v was="$test_cpu_was" -v hz="$(getconf CLK_TCK)" \
		-v t="$test_name $test_count $1" \
		'BEGIN { printf "%.2f %s\n", (now - was) / hz, t }' \
		>>"$TEST_PROFILE"
	test_cpu_was=$_cpu
}

# test_expect_success [PREREQ] TITLE BODY: PREREQ (as test_have_prereq
# knows them) missing, the test is reported skipped and not run.
test_expect_success() {
	if [ $# = 3 ]; then
		if ! test_have_prereq "$1"; then
			test_count=$((test_count + 1))
			echo "ok $test_count # skip $2 (missing $1)"
			return 0
		fi
		shift
	fi
	test_count=$((test_count + 1))
	cd "$TRASH_DIRECTORY"
	if run_test_body "$2"; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		say_verbose "$TRASH_DIRECTORY/.test-out"
	fi
	test_profile "$1"
	cd "$TRASH_DIRECTORY"
}

# A known bug: reported as TODO, so it does not fail the run.
test_expect_failure() {
	test_count=$((test_count + 1))
	cd "$TRASH_DIRECTORY"
	if run_test_body "$2"; then
		test_fixed=$((test_fixed + 1))
		echo "ok $test_count - $1 # TODO known breakage vanished"
	else
		echo "not ok $test_count - $1 # TODO known breakage"
	fi
	test_profile "$1"
	cd "$TRASH_DIRECTORY"
}

# The command must fail cleanly: an exit status that a tool gives on
# purpose, not a crash, a sanitizer report or a missing command.
test_must_fail() {
	"$@"
	_got_code=$?
	if [ $_got_code -eq 0 ]; then
		echo >&2 "test_must_fail: '$*' succeeded"
		return 1
	fi
	if [ $_got_code -gt 129 ] || [ $_got_code -eq 120 ] ||
	   [ $_got_code -eq 126 ] || [ $_got_code -eq 127 ]; then
		echo >&2 "test_must_fail: '$*' died with status $_got_code"
		return 1
	fi
	return 0
}

# Exit status must be exactly $1.
test_expect_code() {
	_want_code=$1
	shift
	"$@"
	_got_code=$?
	if [ $_got_code -ne "$_want_code" ]; then
		echo >&2 "test_expect_code: '$*' exited $_got_code, want $_want_code"
		return 1
	fi
	return 0
}

# obj_file ID [DIR]: the loose object file of ID in DIR (default the
# store of the repository we are in).
obj_file() {
	echo "${2:-.dircache/objects}/$(echo "$1" | sed "s|^..|&/|")"
}

# sparse_repo DIR: a git repository in DIR whose index git made sparse
# (cone "c"): "a/" is a directory entry, announced by "sdir".
sparse_repo() {
	git init -q "$1" &&
	(cd "$1" &&
	mkdir -p a/b c && echo 1 >a/b/f && echo 2 >a/g && echo 3 >c/h &&
	echo 4 >top && git add . && git commit -qm base &&
	git sparse-checkout set --cone --sparse-index c &&
	git ls-files --sparse -s >out && test_grep "^040000 .*	a/$" out &&
	grep -q sdir .git/index)
}

# snap NAME: store the tree of w/ with our update-cache and write-tree
# (a fresh index each time, so removed files drop out) and write its id
# to file NAME.  For the diff-tree tests.
snap() {
	rm -f .dircache/index &&
	(cd w && find . \( -type f -o -type l \) -print0 |
		GIT_DIR=../.dircache update-cache --add --stdin -z) &&
	write-tree >"$1"
}

# Writes a loose object from stdin, hostile if asked: see the script.
WO="python3 $TEST_DIRECTORY/write-object.py"

test_cmp() {
	diff -u "$@"
}

# test_grep PATTERN FILE: like grep, but shows the file on failure.
test_grep() {
	if grep "$@"; then
		return 0
	fi
	eval "last=\${$#}"
	echo >&2 "test_grep: no match for '$1' in:"
	cat >&2 "$last"
	return 1
}

test_have_prereq() {
	case "$1" in
	GIT) command -v git >/dev/null ;;
	PYTHON) command -v python3 >/dev/null ;;
	SHA1) test "$test_hash_algo" = sha1 ;;
	SHA256) test "$test_hash_algo" = sha256 ;;
	STRACE) command -v strace >/dev/null ;;
	# the tools built without ASan, whose memory use can be measured
	UNSANITIZED) ! grep -q __asan_init "$(command -v init-db)" ;;
	SYMLINKS) ln -s x "$TRASH_DIRECTORY/.symlink-probe" 2>/dev/null &&
		rm -f "$TRASH_DIRECTORY/.symlink-probe" ;;
	*) return 1 ;;
	esac
}

# checkout_traced CALLS ARGS...: checkout-cache ARGS in the current
# directory from the store and index in ../.dircache, under strace
# tracing the system calls CALLS (its -e trace= list) into ../trace.
checkout_traced() {
	_calls=$1
	shift
	GIT_INDEX_FILE=../.dircache/index \
	SHA1_FILE_DIRECTORY=../.dircache/objects \
		strace -f -e trace="$_calls" -o ../trace checkout-cache "$@"
}

# test_oid NAME: a well-known id in the store's hash: zero, empty_tree,
# empty_blob.  Tests that spell out other ids of SHA-1 content run
# only with the SHA1 prerequisite.
test_oid() {
	case "$1,$test_hash_algo" in
	zero,*) echo "$ZERO_OID" ;;
	empty_tree,sha1) echo 4b825dc642cb6eb9a060e54bf8d69288fbee4904 ;;
	empty_tree,sha256)
		echo 6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321 ;;
	empty_blob,sha1) echo e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 ;;
	empty_blob,sha256)
		echo 473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813 ;;
	*) echo >&2 "test_oid: unknown $1"; return 1 ;;
	esac
}

# Ids that git itself defines, in the store's hash.
EMPTY_TREE=$(test_oid empty_tree)
EMPTY_BLOB=$(test_oid empty_blob)

# On sha256 stores, git hash-object outside a git repository (where
# git 2.39 hashes with SHA-1 whatever GIT_DEFAULT_HASH says) asks a
# bare sha256 repository of the trash directory: the oracle then
# names content as the stores under test do.
if test "$test_hash_algo" = sha256; then
	command git init -q --bare "$TRASH_DIRECTORY/.hash-oracle" || exit 1
	git() {
		if test "$1" = hash-object && test -z "$GIT_DIR" &&
		   ! command git rev-parse --git-dir >/dev/null 2>&1; then
			command git --git-dir="$TRASH_DIRECTORY/.hash-oracle" "$@"
		else
			command git "$@"
		fi
	}
fi

# A fresh work tree with an initialised .dircache in directory $1.
test_create_repo() {
	mkdir -p "$1" && (cd "$1" && init-db >/dev/null 2>&1)
}

test_done() {
	echo "1..$test_count"
	if [ $test_failed -eq 0 ]; then
		cd "$TEST_DIRECTORY" && rm -rf "$TRASH_DIRECTORY"
		exit 0
	fi
	echo "# failed $test_failed among $test_count test(s)"
	exit 1
}
