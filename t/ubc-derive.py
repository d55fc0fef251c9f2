#!/usr/bin/env python3
# ubc-derive.py SHA1DC_C [ATTACK_FILE...]
#
# Derives, from the disturbance vectors' definitions alone, the bit
# relations an attack block on each DV must satisfy, and checks that
# every relation in sha1dc.c's SHA1_UBCS table (and the DV it is listed
# for) is one of their consequences.  With attack files, also says
# which DVs each 64-byte block passes in the table.
#
# The model: a disturbance at step i, bit b (bit b of DV[i]) is a local
# collision.  Its sign s (+1 when the bit of A[i+1] goes 0 -> 1) is
# unknown, but every difference it causes carries a sign tied to it:
#   W[i]   bit b      +s  (the perturbation)
#   W[i+1] bit b+5    -s  (rotl 5 of A)
#   W[i+5] bit b+30   -s  (E, which is rotl 30 of A four steps on)
# and the corrections of the boolean function at steps i+2 (input B,
# bit b), i+3 (C, bit b+30), i+4 (D, bit b+30):
#   XOR rounds (20-39, 60-79): an odd number of input differences at a
#     bit flips the output with a sign the state chooses (free); an even
#     number cancels;
#   MAJ round (40-59): majority is monotone, so one input difference
#     gives an output difference of its own sign (tied); two must move
#     in opposite directions for the output to stay (their signs are
#     opposite: a relation between two disturbances); three give the
#     majority's sign (taken as free: it ties no single sign).
# At each message bit (bit 31 excepted: +2^31 and -2^31 are the same
# number), the required difference of W is the sum of these terms with
# no carry: one term ties the message bit's value to a sign (W's bit is
# 0 exactly when its difference is +), two terms must cancel (their
# signs are related), more are left alone.  Joining the tied signs
# gives, for each DV, groups of message bits whose XORs are fixed.
#
# That system is larger than the table: the paper keeps only the
# relations every attack path of high probability satisfies (a path
# may spend a carry to avoid one), and two of the derived relations are
# broken by the SHA-mbles blocks, which is why the table is a subset
# and this script checks implication, not equality.  ubc-select.py
# models those paths (steps 35-64, carries, every boolean-function
# behaviour) and selects exactly the table.
import re
import struct
import sys

DVS = [(1, 43, 0), (1, 44, 0), (1, 45, 0), (1, 46, 0), (1, 46, 2),
       (1, 47, 0), (1, 47, 2), (1, 48, 0), (1, 48, 2), (1, 49, 0),
       (1, 49, 2), (1, 50, 0), (1, 50, 2), (1, 51, 0), (1, 51, 2),
       (1, 52, 0),
       (2, 45, 0), (2, 46, 0), (2, 46, 2), (2, 47, 0), (2, 48, 0),
       (2, 49, 0), (2, 49, 2), (2, 50, 0), (2, 50, 2), (2, 51, 0),
       (2, 51, 2), (2, 52, 0), (2, 53, 0), (2, 54, 0), (2, 55, 0),
       (2, 56, 0)]
FIRST_STEP = 20         # the DV's path is followed from round 2 on
WORDS = range(35, 65)   # the words the table reads


def rol(x, n):
    n %= 32
    return ((x << n) | (x >> (32 - n))) & 0xffffffff


def dv_name(dv):
    return "%s%d_%d" % ("A" if dv[0] == 1 else "B", dv[1], dv[2])


def disturbances(dv):
    """DV[-5..79]: I(K,b) is zero at K..K+14 and 2^b at K+15; II(K,b)
    also has 2^(b-1) at K+1 and K+3; the expansion gives the rest."""
    kind, k, b = dv
    x = {i: 0 for i in range(-5, 80)}
    x[k + 15] = 1 << b
    if kind == 2:
        x[k + 1] = x[k + 3] = rol(1 << b, 31)
    for i in range(k + 16, 80):
        x[i] = rol(x[i - 3] ^ x[i - 8] ^ x[i - 14] ^ x[i - 16], 1)
    for i in range(k - 1, -6, -1):
        x[i] = rol(x[i + 16], 31) ^ x[i + 13] ^ x[i + 8] ^ x[i + 2]
    return x


class Signs:
    """Signs as variables; val(a) = val(b) * (-1)^p relations, joined."""

    def __init__(self):
        self.up = {}
        self.flip = {}
        self.fresh = 0
        self.contradictions = 0

    def free(self):
        self.fresh += 1
        return ("free", self.fresh)

    def find(self, v):
        if v not in self.up:
            self.up[v], self.flip[v] = v, 0
        if self.up[v] == v:
            return v, 0
        root, p = self.find(self.up[v])
        self.up[v] = root
        self.flip[v] ^= p
        return root, self.flip[v]

    def relate(self, a, b, p):
        ra, pa = self.find(a)
        rb, pb = self.find(b)
        if ra == rb:
            self.contradictions += (pa ^ pb) != p
        else:
            self.up[ra], self.flip[ra] = rb, pa ^ pb ^ p


def derive(dv):
    """{(word, bit): (group, parity)}: within a group, bit XOR parity
    is the same for every member."""
    x = disturbances(dv)

    def at(i, b):
        return ("s", i, b % 32) if i >= -5 and x[i] >> (b % 32) & 1 else None

    signs = Signs()
    tied = {}
    for s in range(FIRST_STEP, 80):
        for j in range(32):
            # (sign variable, negated) terms of W[s]'s bit j
            terms = [(v, neg) for v, neg in ((at(s, j), 0),
                     (at(s - 1, j - 5), 1), (at(s - 5, j - 30), 1)) if v]
            inputs = [v for v in (at(s - 2, j), at(s - 3, j - 30),
                                  at(s - 4, j - 30)) if v]
            if 40 <= s < 60:
                if len(inputs) == 1:
                    terms.append((inputs[0], 1))
                elif len(inputs) == 2:
                    signs.relate(inputs[0], inputs[1], 1)
                elif len(inputs) == 3:
                    terms.append((signs.free(), 1))
            elif len(inputs) % 2:
                terms.append((signs.free(), 1))
            if j == 31:
                continue
            if len(terms) == 1:
                tied[(s, j)] = terms[0]
            elif len(terms) == 2:
                (a, na), (b, nb) = terms
                signs.relate(a, b, na ^ nb ^ 1)
    groups = {}
    for key, (v, neg) in tied.items():
        root, p = signs.find(v)
        groups[key] = (root, neg ^ p)
    return groups, signs.contradictions


def read_table(path):
    # a line too long for one line goes on with a backslash-newline
    text = open(path).read().replace("\\\n", "")
    rows = re.findall(r"UBC\((\d+), (\d+), (\d+), (\d+), ([01]), "
                      r"([AB0-9_ |\s]+)\)", text)
    return [(tuple(map(int, r[:5])), {n.strip() for n in r[5].split("|")})
            for r in rows]


def expand(block):
    w = list(struct.unpack(">16I", block))
    for t in range(16, 80):
        w.append(rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1))
    return w


def main():
    table = read_table(sys.argv[1])
    names = {dv_name(dv) for dv in DVS}
    bad = 0
    derived = 0
    for dv in DVS:
        name = dv_name(dv)
        groups, contradictions = derive(dv)
        if contradictions:
            print("%s: the model contradicts itself %d times"
                  % (name, contradictions))
            bad += 1
        members = {}
        for (t, j), (root, _) in groups.items():
            if t in WORDS:
                members.setdefault(root, []).append((t, j))
        derived += sum(len(m) - 1 for m in members.values())
        for (i, p, j, q, c), dvs in table:
            if name not in dvs:
                continue
            a, b = groups.get((i, p)), groups.get((j, q))
            if not a or not b or a[0] != b[0] or a[1] ^ b[1] != c:
                print("%s: W[%d] bit %d ^ W[%d] bit %d = %d is not derived"
                      % (name, i, p, j, q, c))
                bad += 1
    for _, dvs in table:
        for n in dvs - names:
            print("unknown DV %s in the table" % n)
            bad += 1
    print("%d relations in the table, all derived: %s; %d independent "
          "relations derived over W[%d..%d]"
          % (len(table), "no" if bad else "yes", derived,
             WORDS[0], WORDS[-1]))
    for path in sys.argv[2:]:
        data = open(path, "rb").read()
        for off in range(0, len(data) - 63, 64):
            w = expand(data[off:off + 64])
            ok = [dv_name(dv) for dv in DVS
                  if all((w[i] >> p ^ w[j] >> q) & 1 == c
                         for (i, p, j, q, c), dvs in table
                         if dv_name(dv) in dvs)]
            if ok:
                print("%s block %d passes %s" % (path.split("/")[-1],
                                                 off // 64, " ".join(ok)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
