#!/usr/bin/env python3
# make-pack.py CASE DIR: write DIR/pack-<sha>.pack and .idx (v2), made
# byte by byte, hostile as CASE says, and print the id to read.  Only
# the named fault is wrong: checksums and CRCs are right unless the
# case is about them.  Ids and checksums are SHA-1, or SHA-256 when
# GIT_DEFAULT_HASH says so (test-lib's sha256 stores).
import struct, sys, zlib

from packlib import H, entry_header as header, idx_v2

RAWSZ = H(b"").digest_size

def oid(kind, data):
    return H(b"%s %d\0" % (kind, len(data)) + data).digest()

def varint(n):
    out = bytearray()
    while True:
        c = n & 0x7f
        n >>= 7
        if n:
            out.append(c | 0x80)
        else:
            out.append(c)
            return bytes(out)

def ofs(back):
    out = [back & 0x7f]
    back >>= 7
    while back:
        back -= 1
        out.append(0x80 | (back & 0x7f))
        back >>= 7
    return bytes(reversed(out))

def copy(off, size):
    cmd, args = 0x80, bytearray()
    for i in range(4):
        if (off >> (8 * i)) & 0xff:
            cmd |= 1 << i
            args.append((off >> (8 * i)) & 0xff)
    for i in range(3):
        if (size >> (8 * i)) & 0xff:
            cmd |= 0x10 << i
            args.append((size >> (8 * i)) & 0xff)
    return bytes([cmd]) + bytes(args)

def insert(data):
    return bytes([len(data)]) + data

def delta(base_len, result_len, ops):
    return varint(base_len) + varint(result_len) + b"".join(ops)

BASE = b"base content 0123456789\n" * 4
GOOD = BASE + b"tail\n"
FAKE1 = H(b"fake one").digest()
FAKE2 = H(b"fake two").digest()

def build(case):
    # entries: (id, raw entry bytes as a function of its offset)
    ents = []
    starts = []
    base_id = oid(b"blob", BASE)
    ents.append((base_id, lambda o: header(3, len(BASE)) + zlib.compress(BASE)))
    target = oid(b"blob", GOOD)
    d_ok = delta(len(BASE), len(GOOD), [copy(0, len(BASE)), insert(b"tail\n")])
    def ofs_delta_prev(d):
        # the entry just before: its offset is known when this one is placed
        return lambda o: header(6, len(d)) + ofs(o - starts[-1]) + zlib.compress(d)
    def ofs_delta(d, back=None):
        return lambda o: header(6, len(d)) + ofs(o - 12 if back is None else back) + zlib.compress(d)
    if case == "deep":
        # 300 deltas, each on the one before, OFS and REF in turn
        prev, prev_id = BASE, base_id
        for n in range(300):
            cur = prev + b"line %d\n" % n
            d = delta(len(prev), len(cur), [copy(0, len(prev)), insert(b"line %d\n" % n)])
            cur_id = oid(b"blob", cur)
            if n % 2:
                ents.append((cur_id, ofs_delta_prev(d)))
            else:
                ents.append((cur_id, (lambda d, b: lambda o: header(7, len(d)) + b + zlib.compress(d))(d, prev_id)))
            prev, prev_id = cur, cur_id
        target = prev_id
    elif case == "bad_adler":
        # both entries' zlib checksums wrong, their CRC32s made on that
        def bad(z):
            return z[:-1] + bytes([z[-1] ^ 1])
        ents[0] = (base_id, lambda o: header(3, len(BASE)) + bad(zlib.compress(BASE)))
        ents.append((target, lambda o: header(6, len(d_ok)) + ofs(o - 12) + bad(zlib.compress(d_ok))))
    elif case in ("good", "bad_crc", "truncated", "idx_past_end", "dup_idx",
                  "idx_unsorted"):
        ents.append((target, ofs_delta(d_ok)))
    elif case == "copy_beyond":
        d = delta(len(BASE), len(BASE) + 10, [copy(0, len(BASE) + 10)])
        ents.append((target, ofs_delta(d)))
    elif case == "result_size":
        d = delta(len(BASE), len(GOOD) + 3, [copy(0, len(BASE)), insert(b"tail\n")])
        ents.append((target, ofs_delta(d)))
    elif case == "missing_base":
        ents.append((target, lambda o: header(7, len(d_ok)) + FAKE1 + zlib.compress(d_ok)))
    elif case == "cycle":
        target = FAKE1
        ents.append((FAKE1, lambda o: header(7, len(d_ok)) + FAKE2 + zlib.compress(d_ok)))
        ents.append((FAKE2, lambda o: header(7, len(d_ok)) + FAKE1 + zlib.compress(d_ok)))
    elif case == "ofs_middle":
        # a base offset inside the first entry, where no entry starts
        ents.append((target, lambda o: header(6, len(d_ok)) + ofs(o - 13) + zlib.compress(d_ok)))
    elif case == "trailing_garbage":
        # bytes after the base's zlib stream, before the next entry
        target = base_id
        ents[0] = (base_id, lambda o: header(3, len(BASE)) + zlib.compress(BASE) + b"junk")
        ents.append((oid(b"blob", GOOD), ofs_delta(d_ok)))
    elif case == "ofs_self":
        ents.append((target, ofs_delta(d_ok, 0)))
    elif case == "ofs_forward":
        ents.append((target, ofs_delta(d_ok, 1 << 20)))
    elif case == "size_overflow":
        target = FAKE1
        ents.append((FAKE1, lambda o: bytes([0xbf] + [0xff] * 10 + [0x01]) + zlib.compress(b"x")))
    elif case == "size_lie":
        target = FAKE1
        ents.append((FAKE1, lambda o: header(3, 1 << 40) + zlib.compress(b"x")))
    elif case == "bad_type":
        target = FAKE1
        ents.append((FAKE1, lambda o: header(5, 1) + zlib.compress(b"x")))
    else:
        sys.exit("unknown case " + case)
    pack = bytearray(b"PACK" + struct.pack(">II", 2, len(ents)))
    rows = []
    for i, make in ents:
        off = len(pack)
        raw = make(off)
        starts.append(off)
        pack += raw
        rows.append([i, off, zlib.crc32(raw) & 0xffffffff])
    if case == "dup_idx":
        rows[0][0] = rows[1][0]
    if case == "bad_crc":
        rows[1][2] ^= 1
    if case == "idx_past_end":
        rows[1][1] = len(pack) + 100
    pack += H(pack).digest()
    rows.sort(key=lambda r: r[0], reverse=(case == "idx_unsorted"))
    idx = idx_v2([(r[0], r[2], r[1]) for r in rows], pack[-RAWSZ:])
    if case == "truncated":
        pack = pack[:len(pack) - RAWSZ - 10]
    return target, bytes(pack), bytes(idx)

case, outdir = sys.argv[1], sys.argv[2]
target, pack, idx = build(case)
name = outdir + "/pack-" + H(idx).hexdigest()
open(name + ".pack", "wb").write(pack)
open(name + ".idx", "wb").write(idx)
print(target.hex())
