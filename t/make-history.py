#!/usr/bin/env python3
"""Build a random history with git's plumbing, for the rev-list tests.

usage: make-history.py SEED N
Writes N commits into the repository git finds (GIT_DIR), each with one
to three parents among the earlier ones (merges and criss-crosses),
committer dates drawn from a few values (so that many are equal, and
some children are older than their parents: clock skew), and trees that
share most of their blobs, with hostile names among them.  Prints the
commit ids, oldest first, one a line.
"""
import random, subprocess, sys

seed, n = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(seed)


def git(args, data=b'', env=None):
    return subprocess.run(['git'] + args, input=data, env=env, check=True,
                          stdout=subprocess.PIPE).stdout.decode().strip()


def blob(text):
    return git(['hash-object', '-w', '--stdin'], text.encode())


def tree(entries):
    data = b''.join(('%s %s %s\t' % e[:3]).encode() + e[3] + b'\0'
                    for e in entries)
    return git(['mktree', '-z'], data)


names = [b'common', b'new\nline', b'tab\tname', b'quo"te', b'caf\xc3\xa9',
         b'plain']
commits, dates = [], [1000000000 + 100 * i for i in range(6)]
import os
for i in range(n):
    files = []
    for k, name in enumerate(names):
        if rnd.random() < 0.5:
            files.append(('100644', 'blob', blob('%s %d\n' % (name, rnd.randrange(4))), name))
    sub = tree([('100644', 'blob', blob('x%d\n' % (i % 3)), b'x'),
                ('100644', 'blob', blob('y%d\n' % i), b'y%d' % (i % 2))])
    files.append(('040000', 'tree', sub, b'dir'))
    files.sort(key=lambda e: e[3] + (b'/' if e[0] == '040000' else b''))
    t = tree(files)
    parents = []
    if commits:
        k = 1 if rnd.random() < 0.6 else rnd.choice([2, 2, 3])
        recent = commits[-6:]
        for _ in range(k):
            p = rnd.choice(recent if rnd.random() < 0.8 else commits)
            if p not in parents:
                parents.append(p)
    date = rnd.choice(dates) + (i // 4) * 50
    env = dict(os.environ, GIT_COMMITTER_DATE='%d +0000' % date,
               GIT_AUTHOR_DATE='%d +0000' % date)
    args = ['commit-tree', t]
    for p in parents:
        args += ['-p', p]
    c = git(args, b'c%d\n' % i, env)
    commits.append(c)
    print(c)
