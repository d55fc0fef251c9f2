#!/bin/sh
test_description='mailinfo: every mail of a corpus read as git mailinfo reads it'
. "$(dirname "$0")/test-lib.sh"

# The corpus (t/mail-corpus.py): plain mails, subjects to clean up,
# identities, RFC 2047 words in UTF-8 and ISO-8859-1, quoted-printable
# and base64 bodies, multipart mails with the patch attached, in-body
# headers, ">From" lines, CRLF mails, broken headers and encodings.
test_expect_success 'setup' '
	python3 "$TEST_DIRECTORY/mail-corpus.py" corpus &&
	test $(ls corpus | wc -l) -gt 70
'

# mailinfo and git mailinfo with the same options on every mail: the
# same stdout, <msg>, <patch> and exit status.
compare_corpus() {
	for mail in corpus/*; do
		git mailinfo "$@" m.git p.git <$mail >i.git 2>/dev/null
		git_status=$?
		mailinfo "$@" m.our p.our <$mail >i.our 2>err
		our_status=$?
		test $our_status = $git_status &&
		test_cmp i.git i.our &&
		cmp m.git m.our &&
		cmp p.git p.our || {
			echo >&2 "differs: mailinfo $* <$mail" &&
			cat err >&2 && return 1
		}
	done
}

test_expect_success 'default options (-u: text to UTF-8)' '
	compare_corpus
'

test_expect_success '-u given' '
	compare_corpus -u
'

test_expect_success '-k keeps the subject' '
	compare_corpus -k
'

test_expect_success '-b keeps brackets without PATCH' '
	compare_corpus -b
'

test_expect_success '-n converts nothing' '
	compare_corpus -n
'

test_expect_success 'the corpus covers what it claims' '
	grep -l "quoted-printable" corpus/* >qp &&
	grep -l "base64" corpus/* >b64 &&
	grep -il "=?iso-8859-1?" corpus/* >latin &&
	grep -il "=?utf-8?" corpus/* >utf8 &&
	grep -l "multipart/" corpus/* >multi &&
	test -s qp && test -s b64 && test -s latin && test -s utf8 &&
	test -s multi &&
	grep -l "^From: .*<.*@" corpus/* >from &&
	test $(wc -l <from) -gt 20
'

test_expect_success 'an attached patch lands in <patch>' '
	mail=$(grep -l "filename=\"fix.patch\"" corpus/* | head -1) &&
	mailinfo m p <$mail >i &&
	test_grep "^diff --git a/f b/f" p &&
	test_grep "frobnicator was broken" m
'

test_expect_success 'RFC 2047 words in ISO-8859-1 become UTF-8' '
	mail=$(grep -l "Andr=E9" corpus/* | head -1) &&
	mailinfo m p <$mail >i &&
	printf "Author: Andr\303\251 Lastname\n" >expect &&
	grep "^Author" i >actual &&
	test_cmp expect actual
'

test_expect_success '--encoding converts to the charset it names' '
	mail=$(grep -l "Caf=C3=A9 cr=C3=A8me" corpus/* | head -1) &&
	mailinfo m.utf8 p <$mail >i &&
	mailinfo --encoding=ISO-8859-1 m.latin p <$mail >i &&
	iconv -f UTF-8 -t ISO-8859-1 <m.utf8 >expect &&
	cmp expect m.latin &&
	mailinfo --encoding=UTF-8 m.same p <$mail >i &&
	cmp m.utf8 m.same
'

test_expect_success 'an empty mail is refused, as git refuses it' '
	printf "\n \n" >empty &&
	test_must_fail git mailinfo m p <empty >/dev/null 2>&1 &&
	test_expect_code 1 mailinfo m p <empty >out 2>err &&
	test ! -s out &&
	test_grep "empty patch" err
'

test_expect_success 'usage' '
	test_expect_code 129 mailinfo 2>err &&
	test_grep "^usage: mailinfo " err &&
	test_expect_code 129 mailinfo m 2>err &&
	test_expect_code 129 mailinfo -x m p 2>err &&
	mailinfo -h >out &&
	test_grep "^usage: mailinfo " out
'

test_done
