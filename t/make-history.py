#!/usr/bin/env python3
"""Build a random history of loose objects, for the rev-list tests.

usage: make-history.py SEED N
Writes N commits into the store of GIT_DIR (default .git), each with one
to three parents among the earlier ones (merges and criss-crosses),
committer dates drawn from a few values (so that many are equal, and
some children are older than their parents: clock skew), and trees that
share most of their blobs, with hostile names among them.  Prints the
commit ids, oldest first, one a line.

The objects are the bytes that git hash-object, mktree and commit-tree
would write (GIT_AUTHOR_* and GIT_COMMITTER_* name the people), written
here rather than by some 450 git processes.  Ids are SHA-1, or SHA-256
when GIT_DEFAULT_HASH says sha256 (test-lib sets it for sha256 stores).
"""
import hashlib, os, random, sys, zlib

seed, n = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(seed)
objects = os.environ.get('GIT_OBJECT_DIRECTORY') or \
    os.path.join(os.environ.get('GIT_DIR', '.git'), 'objects')
hash_name = os.environ.get('GIT_DEFAULT_HASH') or 'sha1'


def write(kind, data):
    """Store a loose object as git does (zlib level 1); its id."""
    raw = b'%s %d\0' % (kind, len(data)) + data
    name = hashlib.new(hash_name, raw).hexdigest()
    d = os.path.join(objects, name[:2])
    path = os.path.join(d, name[2:])
    if not os.path.exists(path):
        os.makedirs(d, exist_ok=True)
        tmp = os.path.join(d, 'tmp_obj_%d' % os.getpid())
        with open(tmp, 'wb') as f:
            f.write(zlib.compress(raw, 1))
        os.chmod(tmp, 0o444)
        os.rename(tmp, path)
    return name


def blob(text):
    return write(b'blob', text.encode())


def tree(entries):
    """entries: (mode, type, id, name), sorted in git's tree order."""
    return write(b'tree', b''.join(b'%s %s\0' % (e[0].lstrip('0').encode(),
                                                e[3]) + bytes.fromhex(e[2])
                                   for e in entries))


def ident(who, date):
    return ('%s <%s> %d +0000' % (os.environ['GIT_%s_NAME' % who],
                                  os.environ['GIT_%s_EMAIL' % who],
                                  date)).encode()


def commit(t, parents, date, message):
    head = ['tree ' + t] + ['parent ' + p for p in parents]
    return write(b'commit', ('\n'.join(head) + '\n').encode() +
                 b'author ' + ident('AUTHOR', date) + b'\n' +
                 b'committer ' + ident('COMMITTER', date) + b'\n\n' +
                 message)


names = [b'common', b'new\nline', b'tab\tname', b'quo"te', b'caf\xc3\xa9',
         b'plain']
commits, dates = [], [1000000000 + 100 * i for i in range(6)]
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
    c = commit(t, parents, date, b'c%d\n' % i)
    commits.append(c)
    print(c)
