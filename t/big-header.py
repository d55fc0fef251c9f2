#!/usr/bin/env python3
# big-header.py loose SIZE OBJDIR | pack SIZE PACKDIR
#
# An object whose header claims SIZE bytes (over 4 GiB, say) without
# the test writing them: what cat-file -t and -s read is the header
# alone.  The data after the header is filler, enough that the file
# could hold SIZE bytes of zlib (deflate shrinks 1032 to 1 at most), so
# a reader that checks that bound does not refuse it.  Reading the
# content fails: the object is a shell.  Prints the id it is stored
# under (made up: the content is never hashed).
import os, struct, sys, zlib

from packlib import H, entry_header

def filler_len(size):
    return size // 1000 + 64

def fake_id(kind, size):
    return H(b"big-header %s %d" % (kind, size)).digest()

def loose(size, objdir):
    # The header and a few bytes in a zlib stream flushed to a byte
    # boundary, then filler that inflates to nothing: empty stored
    # blocks (what a sync flush writes).
    z = zlib.compressobj(1)
    head = z.compress(b"blob %d\0" % size + b"x" * 64)
    head += z.flush(zlib.Z_SYNC_FLUSH)
    empty = b"\0\0\0\xff\xff"
    oid = fake_id(b"loose", size).hex()
    path = os.path.join(objdir, oid[:2], oid[2:])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(head + empty * (filler_len(size) // len(empty)))
    return oid

def pack(size, packdir):
    # One blob entry: its header (a size of many base-128 digits), then
    # filler; a v2 idx with its right CRC and the pack's checksum.
    entry = entry_header(3, size) + bytes(filler_len(size))
    body = b"PACK" + struct.pack(">II", 2, 1) + entry
    trailer = H(body).digest()
    oid = fake_id(b"pack", size)
    idx = b"\xfftOc" + struct.pack(">I", 2)
    idx += b"".join(struct.pack(">I", 0 if i < oid[0] else 1)
                    for i in range(256))
    idx += oid + struct.pack(">I", zlib.crc32(entry)) + struct.pack(">I", 12)
    idx += trailer
    idx += H(idx).digest()
    name = os.path.join(packdir, "pack-" + trailer.hex())
    os.makedirs(packdir, exist_ok=True)
    with open(name + ".pack", "wb") as f:
        f.write(body + trailer)
    with open(name + ".idx", "wb") as f:
        f.write(idx)
    return oid.hex()

if __name__ == "__main__":
    mode, size, where = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    print({"loose": loose, "pack": pack}[mode](size, where))
