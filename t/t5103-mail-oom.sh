#!/bin/sh
test_description='mail tools: out of memory is an error, never a cut-short output'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIRECTORY/lib-am.sh"

# DIRCACHE_TEST_MBUF_FAIL_AFTER=<n> (mbuf.c, test only) makes every
# mbuf allocation after the first n fail; "<n>:once" only the one after
# them, so that a failure dropped on the way shows as a wrong output.
# For every n, a run either says "out of memory", exits 128 and writes
# nothing, or gives exactly what a run without failures gives.

test_expect_success 'setup' '
	python3 "$TEST_DIRECTORY/mail-corpus.py" corpus &&
	{
		grep -l "multipart/" corpus/* | head -n 3 &&
		grep -l "base64" corpus/* | head -n 2 &&
		grep -l "quoted-printable" corpus/* | head -n 2 &&
		grep -il "=?iso-8859-1?" corpus/* | head -n 2 &&
		grep -il "^From: .*<.*@" corpus/* | head -n 2 &&
		grep -l "^Subject: .*\[PATCH" corpus/* | head -n 1
	} | sort -u >mails &&
	test $(wc -l <mails) -ge 8 &&
	git init -q hist &&
	(
		cd hist &&
		for i in 1 2 3 4; do
			echo "line $i" >>f &&
			git add f &&
			git commit -q -m "change $i" || exit 1
		done &&
		git format-patch -q --stdout --root >../series.mbox
	)
'

# One run of mailinfo on $1 with $2 as the failure setting; 0 when it
# failed cleanly (sets oom=1) or matched the good run (oom=0).
mailinfo_run() {
	rm -f m p i err &&
	DIRCACHE_TEST_MBUF_FAIL_AFTER=$2 mailinfo m p <"$1" >i 2>err
	status=$?
	if grep -q "^mailinfo: .*out of memory$" err; then
		oom=1
		test $status = 128 && test ! -e m && test ! -e p &&
		test ! -s i && return 0
	else
		oom=0
		test $status = $ok_status && cmp -s i i.ok &&
		cmp -s m m.ok && cmp -s p p.ok && return 0
	fi
	echo >&2 "mailinfo <$1 with $2: exit $status, output wrong:" &&
	cat err >&2
	return 1
}

# Every allocation point of mailinfo on mail $1, failing for good and
# failing once.
sweep_mailinfo() {
	mailinfo m.ok p.ok <"$1" >i.ok 2>/dev/null
	ok_status=$?
	n=0
	while :; do
		mailinfo_run "$1" $n || return 1
		test $oom = 1 || break
		n=$((n + 1))
		test $n -lt 5000 || return 1
	done
	test $n -gt 0 || return 1
	last=$n n=0
	while test $n -lt $last; do
		mailinfo_run "$1" $n:once || return 1
		n=$((n + 1))
	done
}

test_expect_success 'mailinfo: every allocation that fails is reported' '
	while read mail; do
		sweep_mailinfo $mail || exit 1
	done <mails
'

test_expect_success 'mailinfo: the message names the tool and the cause' '
	mail=$(head -n 1 mails) &&
	test_expect_code 128 env DIRCACHE_TEST_MBUF_FAIL_AFTER=3 \
		mailinfo m p <$mail 2>err &&
	test_grep "^mailinfo: .*: out of memory$" err &&
	test ! -e m && test ! -e p
'

# mailsplit: a run that runs out of memory leaves only whole messages
# (each the same as a good run's), and says so.
split_run() {
	rm -rf out && mkdir out &&
	DIRCACHE_TEST_MBUF_FAIL_AFTER=$2 mailsplit -oout "$1" >count 2>err
	status=$?
	if grep -q "^mailsplit: .*out of memory$" err; then
		oom=1
		test $status = 128 && test ! -s count &&
		for f in $(ls out); do
			cmp -s out/$f ok/$f || return 1
		done && return 0
	else
		oom=0
		test $status = 0 && cmp -s count count.ok &&
		diff -r ok out >/dev/null && return 0
	fi
	echo >&2 "mailsplit $1 with $2: exit $status, output wrong:" &&
	cat err >&2
	return 1
}

sweep_mailsplit() {
	rm -rf ok && mkdir ok &&
	mailsplit -ook "$1" >count.ok &&
	n=0 &&
	while :; do
		split_run "$1" $n || return 1
		test $oom = 1 || break
		n=$((n + 1))
		test $n -lt 5000 || return 1
	done &&
	test $n -gt 0 &&
	last=$n n=0 &&
	while test $n -lt $last; do
		split_run "$1" $n:once || return 1
		n=$((n + 1))
	done
}

test_expect_success 'mailsplit: every allocation that fails is reported' '
	sweep_mailsplit series.mbox &&
	cat corpus/* >corpus.mbox &&
	sweep_mailsplit corpus.mbox
'

# applymbox: a run that runs out of memory stops with the commits
# before the mail written, and --continue (or a new run, when the
# mails were not saved yet) ends with the commits of a good run: no
# message or patch cut short reached a commit.
am_oom_run() {
	rm -rf w w.base &&
	am_start hist HEAD~6 w &&
	(
		cd w &&
		DIRCACHE_TEST_MBUF_FAIL_AFTER=$1 applymbox ../good.mbox \
			>../am.out 2>../am.err
		echo $? >../am.status
	) &&
	if grep -q "^applymbox: .*out of memory" am.err; then
		oom=1 &&
		test $(cat am.status) = 128 &&
		(
			cd w &&
			if test -d .dircache/applymbox; then
				echo >>../resumed &&
				applymbox --continue
			else
				applymbox ../good.mbox
			fi
		) >/dev/null 2>&1 || {
			echo >&2 "applymbox with $1: no recovery" &&
			cat am.err >&2 && return 1
		}
	else
		oom=0 &&
		test $(cat am.status) = 0
	fi &&
	test_cmp ref.head w/.dircache/refs/heads/master &&
	test ! -d w/.dircache/applymbox || {
		echo >&2 "applymbox with $1: exit $(cat am.status)" &&
		cat am.err >&2 && return 1
	}
}

test_expect_success 'applymbox: out of memory stops, --continue ends it' '
	am_history hist 6 &&
	git -C hist format-patch -q -M --stdout HEAD~6 >good.mbox &&
	am_start hist HEAD~6 ref &&
	(cd ref && applymbox ../good.mbox >/dev/null) &&
	cp ref/.dircache/refs/heads/master ref.head &&
	n=0 &&
	while :; do
		am_oom_run $n || exit 1
		test $oom = 1 || break
		n=$((n + 7))
		test $n -lt 20000 || exit 1
	done &&
	test $n -gt 100 &&
	test $(wc -l <resumed) -gt 5
'

test_done
