#!/usr/bin/env python3
# big-pack.py SIZE FILE
#
# A pack whose second entry starts past SIZE bytes, written without
# writing SIZE bytes: its first entry is a blob of SIZE zeros in zlib
# stored blocks (each 65535 bytes as they are, after a 5-byte header),
# and only the block headers are written, the zeros between them left
# as holes of a sparse file.  The second is a small blob, deflated.
# What deflate would shrink to a few MB stays SIZE bytes, so the idx
# of a SIZE over 2 GiB needs its table of 64-bit offsets.  Prints the
# two blobs' ids, one a line.
import struct, sys, zlib

from packlib import H, entry_header

BLOCK = 65535
SMALL = b"after the big one\n"

def stored_blocks(f, pack_sum, size):
    # Block headers written, the zeros skipped; all of it summed.
    zeros = bytes(BLOCK)
    left = size
    adler = 1
    while left:
        n = min(left, BLOCK)
        left -= n
        hdr = bytes([1 if not left else 0]) + struct.pack("<HH", n, n ^ 0xffff)
        f.write(hdr)
        f.seek(n, 1)
        pack_sum.update(hdr)
        pack_sum.update(zeros[:n])
        adler = zlib.adler32(zeros[:n], adler)
    return struct.pack(">I", adler)

def main():
    size, name = int(sys.argv[1]), sys.argv[2]
    pack_sum = H()
    blob_sum = H(b"blob %d\0" % size)
    zeros = bytes(1 << 20)
    left = size
    while left:
        n = min(left, len(zeros))
        blob_sum.update(zeros[:n])
        left -= n
    with open(name, "wb") as f:
        head = b"PACK" + struct.pack(">II", 2, 2)
        head += entry_header(3, size) + b"\x78\x01"
        f.write(head)
        pack_sum.update(head)
        tail = stored_blocks(f, pack_sum, size)
        tail += entry_header(3, len(SMALL)) + zlib.compress(SMALL)
        f.write(tail)
        pack_sum.update(tail)
        f.write(pack_sum.digest())
    print(blob_sum.hexdigest())
    print(H(b"blob %d\0" % len(SMALL) + SMALL).hexdigest())

if __name__ == "__main__":
    main()
