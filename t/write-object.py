#!/usr/bin/env python3
"""Write a loose object, well formed or hostile, for tests.

usage: write-object.py [options] TYPE < data
       write-object.py [options] TYPE FILE...
  --objects DIR     the object directory (default .dircache/objects)
  --size N          claim size N in the header instead of len(data)
  --header TEXT     use this exact header text (before the NUL)
  --name HEX        store under this name instead of the object's hash
  --hash ALGO       sha1 or sha256 (default: $GIT_DEFAULT_HASH, else sha1)
  --append HEX      bytes to add after the zlib stream
  --truncate N      keep only the first N bytes of the file
  --raw             store the bytes without zlib
  --level N         zlib level (default 1, as git's loose objects)
  --flip N          flip the low bit of byte N of the stored bytes
  --tree-spec       stdin holds "mode name hexid" lines: build tree bytes
Prints the name the object was stored under; with FILEs, writes one
object from each, the options applying to every one, and prints their
names in order.
"""
import hashlib, os, sys, zlib

# Parsed by hand: importing argparse costs more than all the rest, and
# the tests run this script by the hundred.
VALUED = {'--objects': str, '--size': int, '--header': str, '--name': str,
          '--hash': str,
          '--append': str, '--truncate': int, '--level': int, '--flip': int}
FLAGS = ('--raw', '--tree-spec')


class Args:
    objects = '.dircache/objects'
    level = 1
    hash = os.environ.get('GIT_DEFAULT_HASH') or 'sha1'
    size = header = name = append = truncate = flip = type = None
    raw = tree_spec = False
    files = []


def usage(why):
    sys.stderr.write('write-object.py: %s\n%s' % (why, __doc__))
    sys.exit(2)


def parse(argv):
    a = Args()
    i = 0
    while i < len(argv):
        arg = argv[i]
        key, eq, value = arg.partition('=')
        attr = key[2:].replace('-', '_')
        if arg in FLAGS:
            setattr(a, attr, True)
        elif key in VALUED:
            if not eq:
                i += 1
                if i == len(argv):
                    usage('%s needs a value' % key)
                value = argv[i]
            try:
                setattr(a, attr, VALUED[key](value))
            except ValueError:
                usage('bad value for %s: %s' % (key, value))
        elif arg.startswith('-'):
            usage('unexpected argument %s' % arg)
        elif a.type is None:
            a.type = arg
        else:
            a.files.append(arg)
        i += 1
    if a.type is None:
        usage('no type given')
    return a


def write(data):
    """Store one object holding data as the options say; its name."""
    if a.tree_spec:
        out = b''
        for line in data.decode('utf-8', 'surrogateescape').splitlines():
            if not line:
                continue
            mode, rest = line.split(' ', 1)
            name, hexid = rest.rsplit(' ', 1)
            out += (mode.encode() + b' ' +
                    name.encode('utf-8', 'surrogateescape') + b'\0' +
                    bytes.fromhex(hexid))
        data = out
    if a.header is not None:
        header = a.header.encode()
    else:
        size = a.size if a.size is not None else len(data)
        header = a.type.encode() + b' ' + str(size).encode()
    raw = header + b'\0' + data
    name = a.name or hashlib.new(a.hash, raw).hexdigest()
    body = raw if a.raw else zlib.compress(raw, a.level)
    if a.flip is not None:
        body = body[:a.flip] + bytes([body[a.flip] ^ 1]) + body[a.flip + 1:]
    if a.append:
        body += bytes.fromhex(a.append)
    if a.truncate is not None:
        body = body[:a.truncate]
    d = os.path.join(a.objects, name[:2])
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name[2:])
    if os.path.exists(path):
        os.chmod(path, 0o644)
    with open(path, 'wb') as f:
        f.write(body)
    return name


a = parse(sys.argv[1:])
if not a.files:
    print(write(sys.stdin.buffer.read()))
for file in a.files:
    with open(file, 'rb') as f:
        print(write(f.read()))
