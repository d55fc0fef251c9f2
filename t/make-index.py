#!/usr/bin/env python3
"""make-index.py: write a git index (v2, or v3 with --version) from a
text spec, with a correct checksum unless told to break it: SHA-1, or
SHA-256 (32-byte ids) when --hash or GIT_DEFAULT_HASH says sha256.  Tests
use it to build indexes that our tools would never write: hostile paths,
unsorted or duplicate entries, bad modes, corrupt headers.

Usage:
    python3 make-index.py [options] INDEX < spec
    python3 make-index.py [options] --spec FILE > index

The index is written to INDEX (or -o INDEX; standard output when
neither is given or INDEX is "-").  The spec (standard input, or --spec
FILE) holds one entry a line, written in the order given (nothing is
sorted or checked):

    <mode> <sha1> <stage> <path>

    mode   octal, written as is (100644, 100755, 120000, 160000, or
           anything else, e.g. 40000 or 100664, to test refusals)
    sha1   40 hex digits (64 with sha256)
    stage  0..3
    path   the rest of the line, spaces included.  A path in double
           quotes is unquoted with C escapes (\\n, \\t, \\", \\\\, \\ooo
           octal bytes), e.g. "a\\nb" or "caf\\303\\251".

Blank lines and lines starting with '#' are ignored.

Options:
    -o FILE             the same as giving INDEX
    --spec FILE         read the spec from FILE instead of standard input
    --stat              fill the stat data of each entry from lstat(path)
                        (relative to the current directory) when the path
                        exists; otherwise (and by default) stat data is 0
    --mtime SEC         use SEC as ctime and mtime of every entry (after
                        --stat); handy to make entries racy or not
    --signature SIG     4-byte signature instead of DIRC
    --version N         header version (default 2; 3 writes no extended
                        flags, it only changes the header number)
    --count N           entry count in the header instead of the real one
    --extension SIG[:HEX]
                        append an extension (SIG is 4 bytes; HEX its data,
                        default empty); may be repeated
    --bad-checksum      flip one bit of the trailing checksum
    --checksum HEX      write this checksum (40 or 64 hex) instead
    --hash ALGO         sha1 or sha256 (default: GIT_DEFAULT_HASH, else
                        sha1): the ids' size and the checksum's hash
    --truncate N        cut the finished file to N bytes (negative N: drop
                        that many bytes from the end)
    --append HEX        append raw bytes after the checksum

Example: an index holding a path that escapes the work tree
    printf '100644 %s 0 ../x\\n' $EMPTY_BLOB |
        python3 "$TEST_DIRECTORY/make-index.py" .dircache/index
"""

import argparse
import hashlib
import os
import struct
import sys


def die(msg):
    sys.stderr.write("make-index.py: %s\n" % msg)
    sys.exit(2)


def unquote(text):
    """C-style unquoting of a path in double quotes, to bytes."""
    body = text[1:-1].encode("utf-8", "surrogateescape")
    out = bytearray()
    i = 0
    simple = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("a"): 7,
              ord("b"): 8, ord("f"): 12, ord("v"): 11, ord('"'): 34,
              ord("\\"): 92}
    while i < len(body):
        c = body[i]
        if c != 92:
            out.append(c)
            i += 1
            continue
        i += 1
        if i >= len(body):
            die("bad quoted path %s" % text)
        c = body[i]
        if c in simple:
            out.append(simple[c])
            i += 1
        elif 48 <= c <= 55:
            digits = body[i:i + 3]
            out.append(int(digits, 8) & 0xff)
            i += len(digits)
        else:
            die("bad escape in %s" % text)
    return bytes(out)


def parse_line(line, lineno, rawsz):
    parts = line.split(" ", 3)
    if len(parts) != 4:
        die("line %d: want '<mode> <sha1> <stage> <path>'" % lineno)
    mode, sha1, stage, path = parts
    try:
        mode = int(mode, 8)
        stage = int(stage)
        sha1 = bytes.fromhex(sha1)
    except ValueError:
        die("line %d: bad mode, id or stage" % lineno)
    if len(sha1) != rawsz or not 0 <= stage <= 3:
        die("line %d: bad id or stage" % lineno)
    if len(path) >= 2 and path.startswith('"') and path.endswith('"'):
        path = unquote(path)
    else:
        path = path.encode("utf-8", "surrogateescape")
    return mode, sha1, stage, path


def stat_fields(path, use_stat, mtime):
    fields = [0] * 10   # ctime s/ns, mtime s/ns, dev, ino, (mode), uid, gid, size
    if use_stat:
        try:
            st = os.lstat(path)
            fields = [int(st.st_ctime), st.st_ctime_ns % 10**9,
                      int(st.st_mtime), st.st_mtime_ns % 10**9,
                      st.st_dev, st.st_ino, 0, st.st_uid, st.st_gid,
                      st.st_size]
        except FileNotFoundError:
            pass
    if mtime is not None:
        fields[0] = fields[2] = mtime
        fields[1] = fields[3] = 0
    return [f & 0xffffffff for f in fields]


def entry_bytes(mode, sha1, stage, path, use_stat, mtime):
    f = stat_fields(path, use_stat, mtime)
    f[6] = mode & 0xffffffff
    flags = (stage << 12) | min(len(path), 0xfff)
    data = struct.pack(">10I", *f) + sha1 + struct.pack(">H", flags) + path
    pad = 8 - (len(data) % 8)     # at least one NUL, up to 8
    return data + b"\0" * pad


def main():
    ap = argparse.ArgumentParser(
        usage="%(prog)s [options] [INDEX] < spec",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", nargs="?")
    ap.add_argument("-o", dest="output")
    ap.add_argument("--spec", default="-")
    ap.add_argument("--stat", action="store_true")
    ap.add_argument("--mtime", type=int)
    ap.add_argument("--signature", default="DIRC")
    ap.add_argument("--version", type=int, default=2)
    ap.add_argument("--count", type=int)
    ap.add_argument("--extension", action="append", default=[])
    ap.add_argument("--bad-checksum", action="store_true")
    ap.add_argument("--checksum")
    ap.add_argument("--truncate", type=int)
    ap.add_argument("--append")
    ap.add_argument("--hash", choices=("sha1", "sha256"),
                    default=os.environ.get("GIT_DEFAULT_HASH") or "sha1")
    opt = ap.parse_args()
    rawsz = 32 if opt.hash == "sha256" else 20

    if opt.index and opt.output:
        die("give the index once: INDEX or -o INDEX")
    output = opt.index or opt.output
    if output == "-":
        output = None
    if opt.spec == "-":
        text = sys.stdin.buffer.read()
    else:
        with open(opt.spec, "rb") as f:
            text = f.read()
    entries = []
    for n, raw in enumerate(text.split(b"\n"), 1):
        line = raw.decode("utf-8", "surrogateescape")
        if not line.strip() or line.startswith("#"):
            continue
        entries.append(parse_line(line, n, rawsz))

    sig = opt.signature.encode("latin-1")
    if len(sig) != 4:
        die("--signature must be 4 bytes")
    count = len(entries) if opt.count is None else opt.count
    out = sig + struct.pack(">II", opt.version, count & 0xffffffff)
    for mode, sha1, stage, path in entries:
        out += entry_bytes(mode, sha1, stage, path, opt.stat, opt.mtime)
    for ext in opt.extension:
        name, _, hexdata = ext.partition(":")
        name = name.encode("latin-1")
        if len(name) != 4:
            die("extension signature must be 4 bytes: %r" % ext)
        data = bytes.fromhex(hexdata)
        out += name + struct.pack(">I", len(data)) + data
    checksum = hashlib.new(opt.hash, out).digest()
    if opt.checksum:
        checksum = bytes.fromhex(opt.checksum)
    if opt.bad_checksum:
        checksum = bytes([checksum[0] ^ 1]) + checksum[1:]
    out += checksum
    if opt.append:
        out += bytes.fromhex(opt.append)
    if opt.truncate is not None:
        out = out[:opt.truncate]

    if output:
        with open(output, "wb") as f:
            f.write(out)
    else:
        sys.stdout.buffer.write(out)


if __name__ == "__main__":
    main()
