# packlib.py: what the scripts that write objects and packs by hand
# share (make-pack.py, big-pack.py, big-header.py, t5361).
import hashlib
import os
import struct

# SHA-1, or SHA-256 when GIT_DEFAULT_HASH says so (test-lib's sha256
# stores).
HASH_NAME = os.environ.get("GIT_DEFAULT_HASH") or "sha1"


def H(data=b""):
    return hashlib.new(HASH_NAME, data)


def entry_header(kind, size):
    # A pack entry's type and size: 4 bits of size after the type, then
    # 7 bits a byte, low first, the high bit saying more follow.
    c = (kind << 4) | (size & 15)
    size >>= 4
    out = bytearray()
    while size:
        out.append(c | 0x80)
        c = size & 0x7f
        size >>= 7
    out.append(c)
    return bytes(out)


def idx_v2(rows, pack_sum):
    # A version 2 idx of rows (id, crc32, offset), in the order given
    # (sorted by id, unless a test wants otherwise), for the pack whose
    # checksum is pack_sum; offsets below 2^31 only.
    idx = bytearray(b"\377tOc" + struct.pack(">I", 2))
    for b in range(256):
        idx += struct.pack(">I", sum(1 for r in rows if r[0][0] <= b))
    for r in rows:
        idx += r[0]
    for r in rows:
        idx += struct.pack(">I", r[1])
    for r in rows:
        idx += struct.pack(">I", r[2])
    idx += pack_sum
    idx += H(bytes(idx)).digest()
    return bytes(idx)
