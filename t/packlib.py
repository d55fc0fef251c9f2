# packlib.py: what the scripts that write objects and packs by hand
# share (make-pack.py, big-pack.py, big-header.py).
import hashlib
import os

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
