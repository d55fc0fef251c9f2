#!/usr/bin/env python3
# diff-corpus.py SEED OUT SRCDIR CLASS=N...: random pairs of files for
# the diff tests, N of each class, as OUT/old/CLASS/NNNN and
# OUT/new/CLASS/NNNN.  Each class aims at choices git's diff makes
# where several shortest diffs exist:
#   alpha    few distinct lines (braces, blanks, indented words): ties
#            in the search and runs of changes that can slide
#   code     C-like functions with nested blocks and blank lines,
#            edited the way people edit code: the indent heuristic
#   real     the C sources in SRCDIR, edited the same way
#   edge     form feeds, vertical tabs, carriage returns, indentation
#            past 200 columns, 20+ blank lines, slides past 100 lines
#   lost     frequent lines among lines found on one side only: which
#            lines the search leaves out
#   shuffle  thousands of lines from a small set with blocks moved:
#            the search's cost limit
#   huge     70,000 such lines: the long-snake shortcut
# Some files end without a newline, some use CRLF.
import glob, os, random, sys

seed, out, srcdir = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rnd = random.Random(seed)
serial = [0]


def fresh(tag):
    serial[0] += 1
    return '%s %d' % (tag, serial[0])


def write(path, lines, eol, noeol):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = ''.join(l + eol for l in lines)
    if noeol and data:
        data = data[:-len(eol)]
    with open(path, 'w', encoding='latin-1', newline='') as f:
        f.write(data)


def scatter(old, pool):
    """Drop, replace and insert lines of old at random."""
    new = []
    for l in old:
        r = rnd.random()
        if r < 0.1:
            continue
        if r < 0.2:
            new.append(rnd.choice(pool))
            continue
        if r < 0.3:
            new += [rnd.choice(pool) for _ in range(rnd.randint(1, 3))]
        new.append(l)
    if rnd.random() < 0.2:
        new.append(rnd.choice(pool))
    return new


SMALL = ['a', 'b', '{', '}', '', 'x y']
CODEISH = ['a', 'b', 'c', '{', '}', '', '', '\tfoo', '    bar', '\t\tbaz',
           '  ', '\t', 'return 0;', '\treturn 0;', '\t}', 'int f(void)']


def alpha():
    pool = SMALL if rnd.random() < 0.5 else CODEISH
    old = [rnd.choice(pool) for _ in range(rnd.randint(0, 40))]
    return old, scatter(old, pool)


def block(depth, n):
    ind = '\t' * depth
    lines = []
    for _ in range(n):
        r = rnd.random()
        if r < 0.15 and depth < 4:
            lines.append(ind + rnd.choice(['if (x) {', 'for (;;) {',
                                           'while (y) {']))
            lines += block(depth + 1, rnd.randint(1, 4))
            lines.append(ind + '}')
        elif r < 0.25:
            lines.append('')
        else:
            lines.append(ind + rnd.choice(['x++;', 'y = x;', 'return 0;',
                                           'free(p);', 'break;', 'f(x);',
                                           'i = %d;' % rnd.randint(0, 5)]))
    return lines


def program():
    lines = []
    for _ in range(rnd.randint(1, 6)):
        lines += ['static int %s(void)' % rnd.choice('fghk'), '{']
        lines += block(1, rnd.randint(1, 8))
        lines += ['}', '']
    if rnd.random() < 0.5:
        lines.pop()
    return lines


def edit(lines):
    """A few edits of the kinds people make to source files."""
    new = list(lines)
    for _ in range(rnd.randint(1, 4)):
        r, n = rnd.random(), len(new)
        i = rnd.randrange(n) if n else 0
        if r < 0.2:
            del new[i:i + rnd.randint(1, 8)]
        elif r < 0.45:
            j = rnd.randrange(n + 1)
            new[j:j] = new[i:i + rnd.randint(1, 10)]
        elif r < 0.6:
            new[i:i] = new[i:i + rnd.randint(1, 10)]
        elif r < 0.7 and n:
            new[i] += ' /* x */'
        elif r < 0.8:
            k = rnd.randint(1, 8)
            moved = new[i:i + k]
            del new[i:i + k]
            j = rnd.randrange(len(new) + 1)
            new[j:j] = moved
        elif r < 0.9:
            j = rnd.randrange(n + 1)
            new[j:j] = [''] * rnd.randint(1, 3)
        else:
            j = rnd.randrange(n + 1)
            new[j:j] = block(rnd.randint(0, 2), rnd.randint(1, 6))
    return new


def code():
    old = program()
    return old, edit(old)


SOURCES = sorted(glob.glob(os.path.join(srcdir, '*.[ch]')))


def real():
    with open(rnd.choice(SOURCES), encoding='latin-1') as f:
        old = f.read().split('\n')
    if old[-1] == '':
        old.pop()
    return old, edit(old)


ODD = ['a', '', '', '\f', '\v', ' \f x', '\fx', '\vx', '\r',
       ' ' * 199 + 'x', ' ' * 200 + 'x', ' ' * 250 + 'x', '\t' * 30 + 'y',
       ' ' * 210, '  a', '\ta', '}', '{', '\t\t}']


def edge():
    if rnd.random() < 0.5:
        old = [rnd.choice(ODD) for _ in range(rnd.randint(0, 60))]
        for _ in range(rnd.randint(0, 2)):
            j = rnd.randrange(len(old) + 1)
            old[j:j] = [''] * rnd.randint(15, 30)
        return old, scatter(old, ODD)
    unit = [rnd.choice(ODD) for _ in range(rnd.randint(1, 4))]
    old = (rnd.sample(ODD, 3) + unit * rnd.randint(20, 80) +
           rnd.sample(ODD, 3))
    new = list(old)
    j, k = rnd.randrange(3, len(old) - 3), rnd.randint(1, 60)
    if rnd.random() < 0.5:
        new[j:j] = (unit * k)[:rnd.choice([k, 40]) * len(unit)]
    else:
        del new[j:j + len(unit) * k]
    return old, new


def lost():
    frequent = ['', '}', '{', '\treturn 0;']
    shared = [fresh('both') for _ in range(rnd.randint(0, 40))]

    def side(tag):
        lines, used = [], 0
        for _ in range(rnd.randint(10, 300)):
            r = rnd.random()
            if r < 0.3:
                lines.append(rnd.choice(frequent))
            elif r < 0.5 and used < len(shared):
                lines.append(shared[used])
                used += 1
            else:
                lines.append(fresh(tag))
        return lines
    return side('old'), side('new')


def moved_blocks(nlines, tokens, longest, moves, noise):
    pool = ['tok %d' % i for i in range(tokens)]
    old = [rnd.choice(pool) for _ in range(nlines)]
    blocks, i = [], 0
    while i < len(old):
        k = rnd.randint(5, longest)
        blocks.append(old[i:i + k])
        i += k
    for _ in range(rnd.randint(1, max(1, int(len(blocks) * moves)))):
        x, y = rnd.randrange(len(blocks)), rnd.randrange(len(blocks))
        blocks[x], blocks[y] = blocks[y], blocks[x]
    new = [l if rnd.random() > noise else rnd.choice(pool)
           for b in blocks for l in b]
    return old, new


def shuffle():
    return moved_blocks(rnd.randint(1000, 6000),
                        rnd.choice([20, 100, 500, 3000]), 80, 1, 0.05)


def huge():
    return moved_blocks(70000, 3000, 200, 0.25, 0.02)


CLASSES = {'alpha': alpha, 'code': code, 'real': real, 'edge': edge,
           'lost': lost, 'shuffle': shuffle, 'huge': huge}
for arg in sys.argv[4:]:
    name, count = arg.split('=')
    for i in range(int(count)):
        old, new = CLASSES[name]()
        eol = '\r\n' if rnd.random() < 0.05 else '\n'
        for side, lines in (('old', old), ('new', new)):
            write('%s/%s/%s/%04d' % (out, side, name, i), lines, eol,
                  rnd.random() < 0.1)
