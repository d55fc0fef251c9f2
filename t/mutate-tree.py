#!/usr/bin/env python3
"""mutate-tree.py: change a directory tree at random, reproducibly.

usage: mutate-tree.py [--populate N] [--binary] [--rounds N --run CMD]
                      SEED DIR [OPS]

Makes OPS (default 3) random changes to the files under DIR: add,
delete, modify, chmod, file <-> symlink, file <-> directory, moves of
files and whole directories to other places and names, and new deep
directories.  With --populate, first fills DIR with N files.  The same
SEED on the same tree makes the same changes, so a failing case can be
replayed; each change is printed on stdout.

With --rounds N, makes N rounds of 1 to OPS changes, round i seeded
with "SEED-i", and runs the shell command CMD after each round with
ROUND=i in its environment (for instance to store the tree), and once
before the first round with ROUND=0, so that one process makes a whole
series of trees.  Changes are printed as
"i: change".

Names come from a small pool chosen to stress git's tree order ("a",
"a.b", "a-b", "a0", "a!" sort around "a/") and quoting (tab, quote,
backslash, non-ASCII), so that a file and a directory of the same name,
and their neighbours, meet often.  With --binary some contents hold NUL
bytes.
"""
import os
import random
import shutil
import subprocess
import sys

NAMES = ["a", "a.b", "a-b", "a0", "a!", "ab", "b", "b c", "c", "d.txt",
         "tab\tx", 'q"t', "back\\s", "caf\u00e9", "z", "z-", "z.z", "zz"]
WORDS = ["alpha", "beta", "gamma", "delta", "", "x = 1;", "}", "{",
         "return 0;", "int main(void)", "# comment"]


def walk(top):
    """Sorted lists of (files and symlinks) and directories below top.
    os.scandir's entries know their kind: no lstat() a path, which made
    most of the time of a long series of rounds."""
    files, dirs = [], []
    todo = [top]
    while todo:
        with os.scandir(todo.pop()) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    dirs.append(e.path)
                    todo.append(e.path)
                else:
                    files.append(e.path)
    return sorted(files), sorted(dirs)


class Mutator:
    def __init__(self, top, rng, binary):
        self.top = top
        self.rng = rng
        self.binary = binary

    def content(self):
        r = self.rng
        if self.binary and r.random() < 0.15:
            return bytes(r.randrange(256) for _ in range(r.randrange(1, 200)))
        lines = [r.choice(WORDS) for _ in range(r.randrange(0, 12))]
        text = "\n".join(lines)
        if lines and r.random() < 0.8:
            text += "\n"
        return text.encode()

    def write_file(self, path):
        with open(path, "wb") as f:
            f.write(self.content())
        if self.rng.random() < 0.2:
            os.chmod(path, 0o755)

    def free_name(self, d):
        taken = set(os.listdir(d))
        free = [n for n in NAMES if n not in taken]
        return self.rng.choice(free) if free else None

    def pick_dir(self, max_depth=4):
        """A directory at most max_depth below the top, so trees stay
        bushy rather than deep."""
        _, dirs = walk(self.top)
        dirs = [d for d in dirs
                if self.rel(d).count(os.sep) < max_depth]
        return self.rng.choice([self.top] + dirs)

    def pick_file(self):
        files, _ = walk(self.top)
        return self.rng.choice(files) if files else None

    def pick_regular(self):
        files, _ = walk(self.top)
        regs = [f for f in files if not os.path.islink(f)]
        return self.rng.choice(regs) if regs else None

    def rel(self, p):
        if p.startswith(self.top + os.sep):
            return p[len(self.top) + 1:]
        return os.path.relpath(p, self.top)

    def op_add(self):
        d = self.pick_dir()
        n = self.free_name(d)
        if n is None:
            return None
        self.write_file(os.path.join(d, n))
        return "add " + self.rel(os.path.join(d, n))

    def op_delete(self):
        _, dirs = walk(self.top)
        if dirs and self.rng.random() < 0.2:
            d = self.rng.choice(dirs)
            shutil.rmtree(d)
            return "delete dir " + self.rel(d)
        f = self.pick_file()
        if f is None:
            return None
        os.unlink(f)
        return "delete " + self.rel(f)

    def op_modify(self):
        f = self.pick_file()
        if f is None:
            return None
        if os.path.islink(f):
            os.unlink(f)
            os.symlink(self.rng.choice(NAMES) + "/" +
                       self.rng.choice(NAMES), f)
        else:
            with open(f, "ab" if self.rng.random() < 0.5 else "wb") as fh:
                fh.write(self.content() or b"x\n")
        return "modify " + self.rel(f)

    def op_chmod(self):
        f = self.pick_regular()
        if f is None:
            return None
        mode = os.stat(f).st_mode
        os.chmod(f, 0o644 if mode & 0o100 else 0o755)
        return "chmod " + self.rel(f)

    def op_symlink(self):
        f = self.pick_file()
        if f is None:
            return None
        was_link = os.path.islink(f)
        os.unlink(f)
        if was_link:
            self.write_file(f)
            return "symlink->file " + self.rel(f)
        os.symlink(self.rng.choice(NAMES), f)
        return "file->symlink " + self.rel(f)

    def op_file_dir(self):
        _, dirs = walk(self.top)
        if dirs and self.rng.random() < 0.5:
            d = self.rng.choice(dirs)
            shutil.rmtree(d)
            self.write_file(d)
            return "dir->file " + self.rel(d)
        f = self.pick_file()
        if f is None:
            return None
        os.unlink(f)
        os.mkdir(f)
        self.write_file(os.path.join(f, self.rng.choice(NAMES)))
        return "file->dir " + self.rel(f)

    def op_move(self):
        files, dirs = walk(self.top)
        src = self.rng.choice(files + dirs) if files + dirs else None
        if src is None:
            return None
        targets = [d for d in [self.top] + dirs
                   if d != src and not d.startswith(src + os.sep)]
        dst_dir = self.rng.choice(targets)
        n = self.free_name(dst_dir)
        if n is None:
            return None
        dst = os.path.join(dst_dir, n)
        os.rename(src, dst)
        return "move %s -> %s" % (self.rel(src), self.rel(dst))

    def op_deep(self):
        d = self.pick_dir(2)
        for _ in range(self.rng.randrange(2, 5)):
            n = self.free_name(d)
            if n is None:
                break
            d = os.path.join(d, n)
            os.mkdir(d)
        if d == self.top:
            return None
        self.write_file(os.path.join(d, self.rng.choice(NAMES)))
        return "deep " + self.rel(d)

    OPS = ["op_add", "op_delete", "op_modify", "op_chmod", "op_symlink",
           "op_file_dir", "op_move", "op_deep"]

    def mutate(self, count):
        done = []
        while len(done) < count:
            what = getattr(self, self.rng.choice(self.OPS))()
            if what:
                done.append(what)
        return done

    def populate(self, count):
        for _ in range(count):
            if self.rng.random() < 0.3:
                self.op_deep()
            else:
                self.op_add()


def parse_args(argv):
    opts = {"populate": 0, "binary": False, "rounds": 0, "run": None}
    args = argv[1:]
    while args and args[0].startswith("--"):
        if args[0] in ("--populate", "--rounds", "--run") and len(args) > 1:
            key = args[0][2:]
            opts[key] = args[1] if key == "run" else int(args[1])
            args = args[2:]
        elif args[0] == "--binary":
            opts["binary"] = True
            args = args[1:]
        else:
            return None, None
    if len(args) not in (2, 3) or bool(opts["rounds"]) != bool(opts["run"]):
        return None, None
    return opts, args


def run_rounds(opts, seed, top, ops):
    for i in range(0, opts["rounds"] + 1):
        if i:
            m = Mutator(top, random.Random("%s-%d" % (seed, i)),
                        opts["binary"])
            for what in m.mutate(m.rng.randrange(1, ops + 1)):
                sys.stdout.write("%d: %s\n" % (i, repr(what)[1:-1]))
        sys.stdout.flush()
        env = dict(os.environ, ROUND=str(i))
        if subprocess.call(opts["run"], shell=True, env=env):
            sys.stderr.write("mutate-tree.py: round %d: '%s' failed\n"
                             % (i, opts["run"]))
            return 1
    return 0


def main(argv):
    opts, args = parse_args(argv)
    if opts is None:
        sys.stderr.write("usage: mutate-tree.py [--populate N] [--binary] "
                         "[--rounds N --run CMD] SEED DIR [OPS]\n")
        return 129
    seed, top = args[0], args[1]
    ops = int(args[2]) if len(args) == 3 else 3
    os.makedirs(top, exist_ok=True)
    m = Mutator(top, random.Random(seed), opts["binary"])
    if opts["populate"]:
        m.populate(opts["populate"])
    if opts["rounds"]:
        return run_rounds(opts, seed, top, ops)
    for what in m.mutate(ops):
        sys.stdout.write(repr(what)[1:-1] + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
