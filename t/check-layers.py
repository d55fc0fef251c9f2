#!/usr/bin/env python3
"""check-layers.py: the library's files must call each other in layers.

usage: check-layers.py [--allow a.o:b.o ...] [--order] <library .o files>

Reads `nm` of each object: a file uses the symbols it leaves undefined
(U) and defines those it exports (T, D, B, R).  File A calls file B when
A uses a symbol B defines.  Any cycle of such calls (a strongly
connected set of files) is printed, with the symbols of each call in
it, and the check fails: cache.h promises that a file calls only the
sections above its own.  --allow names a cycle of exactly two files
that is known and tolerated for now.  --order also requires that each
file calls only files named before it (the Makefile's LIB_OBJS, lowest
layer first).  Exit 0 when the layers hold, 1 when not, 2 on misuse.
"""
import os
import subprocess
import sys

MAX_SYMS = 6


def read_symbols(obj):
    """The symbols obj uses and those it defines, from nm."""
    out = subprocess.run(['nm', obj], capture_output=True, text=True)
    if out.returncode:
        sys.exit('check-layers: nm %s: %s' % (obj, out.stderr.strip()))
    uses, defs = set(), set()
    for line in out.stdout.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] == 'U':
            uses.add(p[1])
        elif len(p) == 3 and p[1] in 'TDBR':
            defs.add(p[2])
    return uses, defs


def call_graph(objs):
    """For each object, the objects it calls and through which symbols."""
    uses, owner = {}, {}
    for o in objs:
        uses[o], defs = read_symbols(o)
        for s in defs:
            owner.setdefault(s, o)
    calls = {o: {} for o in objs}
    for o in objs:
        for s in uses[o]:
            t = owner.get(s)
            if t and t != o:
                calls[o].setdefault(t, []).append(s)
    return calls


def cycles(calls):
    """The strongly connected sets of more than one file (Tarjan)."""
    index, low, on, stack, found = {}, {}, set(), [], []
    counter = [0]

    for root in calls:
        if root in index:
            continue
        work = [(root, iter(sorted(calls[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(calls[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def name(o):
    return os.path.basename(o)


def show_calls(calls, a, b):
    syms = sorted(calls[a][b])
    more = ' ...' if len(syms) > MAX_SYMS else ''
    return '  %s -> %s: %s%s' % (name(a), name(b),
                                 ' '.join(syms[:MAX_SYMS]), more)


def main(argv):
    allowed, objs, order = set(), [], False
    args = iter(argv)
    for a in args:
        if a == '--allow':
            pair = next(args, '')
            if pair.count(':') != 1:
                sys.exit('usage: check-layers.py [--allow a.o:b.o] '
                         '[--order] <objects>')
            allowed.add(frozenset(pair.split(':')))
        elif a == '--order':
            order = True
        else:
            objs.append(a)
    if not objs:
        print('usage: check-layers.py [--allow a.o:b.o] [--order] '
              '<objects>', file=sys.stderr)
        return 2
    calls = call_graph(objs)
    bad = 0
    for comp in cycles(calls):
        names = frozenset(name(o) for o in comp)
        if names in allowed:
            continue
        bad += 1
        print('check-layers: cycle: %s' % ' '.join(sorted(names)))
        for a in comp:
            for b in comp:
                if b in calls[a]:
                    print(show_calls(calls, a, b))
    if order:
        pos = {o: i for i, o in enumerate(objs)}
        for a in objs:
            for b in sorted(calls[a], key=pos.get):
                if pos[b] > pos[a] and \
                   frozenset((name(a), name(b))) not in allowed:
                    bad += 1
                    print('check-layers: %s calls %s, listed after it'
                          % (name(a), name(b)))
                    print(show_calls(calls, a, b))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
