#!/usr/bin/env python3
"""Write a loose object, well formed or hostile, for tests.

usage: write-object.py [options] TYPE < data
  --objects DIR     the object directory (default .dircache/objects)
  --size N          claim size N in the header instead of len(data)
  --header TEXT     use this exact header text (before the NUL)
  --name HEX        store under this name instead of the SHA-1
  --append HEX      bytes to add after the zlib stream
  --truncate N      keep only the first N bytes of the file
  --raw             store the bytes without zlib
  --level N         zlib level (default 1, as git's loose objects)
  --flip N          flip the low bit of byte N of the stored bytes
  --tree-spec       stdin holds "mode name hexid" lines: build tree bytes
Prints the name the object was stored under.
"""
import argparse, hashlib, os, sys, zlib

p = argparse.ArgumentParser()
p.add_argument('type')
p.add_argument('--objects', default='.dircache/objects')
p.add_argument('--size', type=int)
p.add_argument('--header')
p.add_argument('--name')
p.add_argument('--append')
p.add_argument('--truncate', type=int)
p.add_argument('--raw', action='store_true')
p.add_argument('--level', type=int, default=1)
p.add_argument('--flip', type=int)
p.add_argument('--tree-spec', action='store_true')
a = p.parse_args()

data = sys.stdin.buffer.read()
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
name = a.name or hashlib.sha1(raw).hexdigest()
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
print(name)
