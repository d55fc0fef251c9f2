#!/usr/bin/env python3
# merge-triples.py SEED N SRCDIR: N random three-way cases as
# NNN.base, NNN.ours and NNN.theirs.  The base is drawn from a few
# kinds of text (a handful of distinct lines, punctuation and blank
# lines, numbered lines, pieces of the C sources in SRCDIR); each side
# drops, replaces and inserts lines at random, some of them the same
# way on both sides (and sometimes one side is the other, or the
# base).  Some files end without a newline, some use CRLF, on one side
# or all.
import glob, os, random, sys

seed, n, srcdir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rnd = random.Random(seed)
serial = [0]
POOLS = [['a', 'b', 'c', '{', '}', '', 'x y'],
         ['{', '}', '', '', '-', '#', ';', '\tfoo', '    bar', 'a', 'b']]
SOURCES = sorted(glob.glob(os.path.join(srcdir, '*.c')))


def fresh():
    serial[0] += 1
    return 'new %d' % serial[0]


def base_text():
    r = rnd.random()
    if r < 0.45:
        pool = rnd.choice(POOLS)
        return [rnd.choice(pool) for _ in range(rnd.randint(0, 40))], pool
    if r < 0.7:
        return ['line %d' % i for i in range(rnd.randint(0, 60))], None
    with open(rnd.choice(SOURCES)) as f:
        lines = f.read().split('\n')[:-1]
    i = rnd.randrange(max(1, len(lines) - 80))
    return lines[i:i + rnd.randint(5, 80)], None


def new_line(pool):
    return rnd.choice(pool) if pool and rnd.random() < 0.7 else fresh()


def mutate(old, pool):
    new = []
    for line in old:
        r = rnd.random()
        if r < 0.07:
            continue
        if r < 0.14:
            new.append(new_line(pool))
            continue
        if r < 0.2:
            new += [new_line(pool) for _ in range(rnd.randint(1, 3))]
        new.append(line)
    if rnd.random() < 0.2:
        new.append(fresh())
    return new


def write(path, lines, eol, noeol):
    data = ''.join(line + eol for line in lines)
    if noeol and data:
        data = data[:-len(eol)]
    with open(path, 'w', newline='') as f:
        f.write(data)


for i in range(n):
    base, pool = base_text()
    ours = mutate(base, pool)
    r = rnd.random()
    if r < 0.7:
        theirs = mutate(base, pool)
    elif r < 0.85:
        # ours's edits and more: changes made alike on both sides
        theirs = mutate(ours, pool) if rnd.random() < 0.5 else list(ours)
    else:
        theirs = list(base)
    if rnd.random() < 0.1:
        ours = list(base)
    eols = [('\r\n' if rnd.random() < 0.1 else '\n') for _ in range(3)]
    if rnd.random() < 0.5:
        eols = [eols[0]] * 3
    for name, lines, eol in zip(('base', 'ours', 'theirs'),
                                (base, ours, theirs), eols):
        write('%03d.%s' % (i, name), lines, eol, rnd.random() < 0.1)
