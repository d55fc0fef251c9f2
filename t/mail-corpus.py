#!/usr/bin/env python3
# t/mail-corpus.py DIR: write a corpus of mails (one per file) that
# t5100 feeds to mailinfo and git mailinfo.  Each mail is built here
# byte by byte, so that every encoding case is exactly what it says.
import base64
import os
import quopri
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
n = 0

PATCH = (b"---\n f | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
         b"diff --git a/f b/f\nindex 422c2b7..0f7bc76 100644\n--- a/f\n+++ b/f\n"
         b"@@ -1,2 +1,2 @@\n a\n-b\n+c\n-- \n2.39.5\n\n")
SEP = b"From 360375abf27b7a5a9208276bd484829927a0722e Mon Sep 17 00:00:00 2001\n"


def mail(headers, body, sep=SEP):
    global n
    n += 1
    data = sep + b"".join(h + b"\n" for h in headers) + b"\n" + body
    with open(os.path.join(out, "%04d" % n), "wb") as f:
        f.write(data)


def std(subject=b"Subject: [PATCH] fix the frobnicator",
        frm=b"From: A U Thor <author@example.com>",
        date=b"Date: Thu, 7 Apr 2005 15:13:13 -0700", extra=()):
    hs = [frm, date, subject] if frm else [date, subject]
    return hs + list(extra)


desc = b"The frobnicator was broken.\n\nThis fixes it.\n"

# Plain mails and subject cleanup.
mail(std(), desc + PATCH)
for s in [b"[PATCH v2 03/17] foo: bar", b"Re: [PATCH 1/2] reply",
          b"re: RE: Re:  [PATCH]   spaced    out  ", b"[RFC][PATCH] two",
          b"[other] [PATCH] keep other with -b", b"[PATCH] [other] b",
          b"[foo]bar", b"[PATCH-unterminated", b"Re:Re:x",
          b":: [PATCH] colons", b"\t[PATCH]\ttabs\t",
          b"[PATCH 0/3] cover letter", b"Rex: not a reply",
          b"[PATCH] a very long subject that was folded\n  onto a second line"]:
    mail(std(subject=b"Subject: " + s), desc + PATCH)

# Identities.
for f in [b"From: author@example.com (A U Thor)",
          b"From: \"Thor, A U\" <author@example.com>",
          b"From: A U Thor <authorexample>",
          b"From: <author@example.com>",
          b"From: author@example.com",
          b"From: \"A \\\"quoted\\\" Thor\" <a@example.com>",
          b"From: A (the (nested) comment) Thor <a@example.com> (x)",
          b"From: =?UTF-8?q?Ren=C3=A9=20Scharfe?= <rene@example.com>",
          b"From: =?ISO-8859-1?Q?Andr=E9?= Lastname <andre@example.com>",
          b"From: =?utf-8?b?SsO2cmcgU2NobGllbQ==?= <j@example.com>",
          b"From: A very very very very very very very long name indeed yes <l@x.org>",
          b"From: Someone\n\t<folded@example.com>",
          b"From: nobody at all"]:
    mail(std(frm=f), desc + PATCH)
mail(std(frm=None), desc + PATCH)

# RFC 2047 subjects: UTF-8 and ISO-8859-1, Q and B, adjacent words.
for s in [b"=?UTF-8?q?=5BPATCH=5D=20caf=C3=A9=20cr=C3=A8me?=",
          b"=?utf-8?B?W1BBVENIXSDmlofmm7g=?=",
          b"=?ISO-8859-1?Q?[PATCH]_na=EFve_r=E9sum=E9?=",
          b"[PATCH] =?iso-8859-1?q?fa=E7ade?= and =?utf-8?q?=C3=BCber?= end",
          b"=?UTF-8?q?first?= =?UTF-8?q?_second?=",
          b"=?UTF-8?q?folded_word?=\n =?UTF-8?q?_continues?=",
          b"=?UTF-8?x?bad_encoding?=", b"=?UTF-8?q?unterminated",
          b"=?no-such-charset?q?x?=", b"a =? b ?= c"]:
    mail(std(subject=b"Subject: " + s), desc + PATCH)

# Quoted-printable bodies.
qp = quopri.encodestring("Caf\u00e9 cr\u00e8me = na\u00efve, " .encode()
                         + b"x" * 90 + b"\n\n" + PATCH.replace(b"+c", b"+c\xc3\xa9 = \t"))
mail(std(extra=[b"MIME-Version: 1.0",
                b"Content-Type: text/plain; charset=UTF-8",
                b"Content-Transfer-Encoding: quoted-printable"]), qp)
latin = "Caf\u00e9 \u00e0 la cr\u00e8me\n\n".encode("latin-1") + PATCH
mail(std(extra=[b"Content-Type: text/plain; charset=\"ISO-8859-1\"",
                b"Content-Transfer-Encoding: quoted-printable"]),
     quopri.encodestring(latin))
mail(std(extra=[b"Content-Type: text/plain; charset=ISO-8859-1",
                b"Content-Transfer-Encoding: 8bit"]), latin)
mail(std(extra=[b"Content-Transfer-Encoding: QUOTED-PRINTABLE"]),
     b"soft=\nbreak and =3D equals=\n\n=41=42 =ZZ end=\n" + PATCH)

# Base64 bodies, in lines of 76 and in one odd line.
b64 = base64.encodebytes("R\u00e9sum\u00e9 of the change\n\n".encode() + PATCH)
mail(std(extra=[b"Content-Type: text/plain; charset=utf-8",
                b"Content-Transfer-Encoding: base64"]), b64)
mail(std(extra=[b"Content-Type: text/plain; charset=iso-8859-1",
                b"Content-Transfer-Encoding: base64"]),
     base64.b64encode(latin) + b"\n")
mail(std(extra=[b"Content-Transfer-Encoding: base64"]),
     base64.encodebytes(b"no newline at the end"))

# MIME multipart: the patch attached, inline, base64, nested.
def multipart(parts, boundary=b"==b1==", preamble=b"This is MIME.\n",
              epilogue=b"epilogue\n"):
    body = preamble
    for hs, content in parts:
        body += b"--" + boundary + b"\n" + b"".join(h + b"\n" for h in hs) \
            + b"\n" + content
    return body + b"--" + boundary + b"--\n" + epilogue


ct = b'Content-Type: multipart/mixed; boundary="==b1=="'
mail(std(extra=[b"MIME-Version: 1.0", ct]), multipart([
    ([b"Content-Type: text/plain; charset=UTF-8"], desc),
    ([b"Content-Type: text/x-patch; name=\"fix.patch\"",
      b"Content-Disposition: attachment; filename=\"fix.patch\""],
     PATCH[PATCH.index(b"diff"):])]))
mail(std(extra=[b"MIME-Version: 1.0", ct]), multipart([
    ([b"Content-Type: text/plain; charset=ISO-8859-1",
      b"Content-Transfer-Encoding: quoted-printable"],
     quopri.encodestring("Na\u00efve fix\n".encode("latin-1"))),
    ([b"Content-Type: application/octet-stream",
      b"Content-Transfer-Encoding: base64"],
     base64.encodebytes(PATCH[PATCH.index(b"diff"):]))]))
inner = multipart([([b"Content-Type: text/plain"], b"plain part\n"),
                   ([b"Content-Type: text/html"], b"<p>html part</p>\n")],
                  boundary=b"inner")
mail(std(extra=[b"Content-Type: multipart/mixed; boundary=outer"]),
     multipart([([b"Content-Type: multipart/alternative; boundary=inner"],
                 inner),
                ([b"Content-Type: text/x-diff"], PATCH)], boundary=b"outer"))
mail(std(extra=[ct]), multipart([
    ([b"Content-Type: text/plain", b"Subject: part subject ignored",
      b"From: Part <part@example.com>"], desc + PATCH)]))
mail(std(extra=[b"Content-Type: multipart/mixed; boundary=never"]),
     b"no boundary ever comes\n" + PATCH)

# In-body headers and the top of the description.
mail(std(), b"From: Real Author <real@example.com>\n"
     b"Subject: [PATCH] the real subject\nDate: Fri, 8 Apr 2005 10:00:00 +0200\n"
     b"\n" + desc + PATCH)
mail(std(), b"\n\nFrom: Real Author <real@example.com>\n\n" + desc + PATCH)
mail(std(), b"From: Folded\n <folded@example.com>\nSubject: folded\n\tsubject\n"
     b"\n" + desc + PATCH)
mail(std(), b"Subject: only a subject\nNot a header line\n" + desc + PATCH)
mail(std(), b"[PATCH] subject line in the body\n\n" + desc + PATCH)
mail(std(), b">" + SEP + b"From: Quoted <q@example.com>\n\n" + desc + PATCH)
mail(std(), b">From someone who wrote prose\n" + desc + PATCH)
mail(std(), b"From: In Body <ib@example.com>\n\n" + desc)
mail(std(), b"date: lower case header\n\n" + desc + PATCH)

# Where the description ends.
mail(std(), desc + b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n")
mail(std(), desc + b"Index: f\n===\n--- f\n+++ f\n")
mail(std(), desc + b"---   \n" + PATCH)
mail(std(), desc + b"----- not a break\n---text not a break\n" + PATCH)
mail(std(), desc + b"diff -u a b\n")
mail(std(), desc)
mail(std(), b"")

# Headers: case, missing space, NUL, repeated, trailing blanks.
mail([b"FROM: Upper <up@example.com>", b"subject: lower", b"DATE: x"], desc + PATCH)
mail([b"From:NoSpace <ns@example.com>", b"Subject:nospace",
      b"Subject: second subject wins"], desc + PATCH)
mail(std(subject=b"Subject: trailing blanks   \t"), desc + PATCH)
mail(std(subject=b"Subject: nul \x00 byte"), desc + PATCH)
mail(std(date=b"Date:    Thu,   7 Apr 2005\n  15:13:13 -0700"), desc + PATCH)
mail([b"Received: from somewhere", b"X-Weird-Header: x", b"Not a header",
      b"Subject: after a non-header"], desc + PATCH)

# CRLF mail given straight to mailinfo.
mail([h.replace(b"\n", b"\r\n") for h in std()],
     (desc + PATCH).replace(b"\n", b"\r\n"))
mail([b"Content-Transfer-Encoding: base64"] + std(),
     base64.encodebytes((desc + PATCH).replace(b"\n", b"\r\n")))
