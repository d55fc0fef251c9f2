#!/usr/bin/env python3
# dump-cache-tree.py INDEX RAWSZ: the TREE extension of an index file
# (versions 2 and 3) one node a line, depth first, as
# "<path>/ <entry count> <subtrees> [<tree id>]", or "no TREE".  The
# tests compare git's and ours with it where the entries' stat data
# differ (a work tree written twice) and cmp cannot be used.
import struct
import sys


def entries_end(d, rawsz):
    version, nr = struct.unpack(">II", d[4:12])
    if version not in (2, 3):
        sys.exit("dump-cache-tree: index version %d" % version)
    p = 12
    for _ in range(nr):
        flags, = struct.unpack(">H", d[p + 40 + rawsz:p + 42 + rawsz])
        q = p + 42 + rawsz
        if flags & 0x4000:
            q += 2
        namelen = d.index(b"\0", q) - q
        p += (q - p + namelen + 8) & ~7
    return p


def dump(buf, rawsz, prefix, out):
    nul = buf.index(b"\0")
    name = buf[:nul].decode()
    nl = buf.index(b"\n", nul)
    count, subs = buf[nul + 1:nl].split(b" ")
    rest = buf[nl + 1:]
    path = prefix + name + "/" if name else prefix
    line = "%s %s %s" % (path or "/", count.decode(), subs.decode())
    if int(count) >= 0:
        line += " " + rest[:rawsz].hex()
        rest = rest[rawsz:]
    out.append(line)
    for _ in range(int(subs)):
        rest = dump(rest, rawsz, path, out)
    return rest


def main():
    d = open(sys.argv[1], "rb").read()
    rawsz = int(sys.argv[2])
    p = entries_end(d, rawsz)
    out = []
    while p + 8 <= len(d) - rawsz:
        sig = d[p:p + 4]
        size, = struct.unpack(">I", d[p + 4:p + 8])
        if sig == b"TREE":
            dump(d[p + 8:p + 8 + size], rawsz, "", out)
        p += 8 + size
    print("\n".join(out) if out else "no TREE")


main()
