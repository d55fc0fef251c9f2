#!/bin/sh
test_description='binary patches: literal and delta hunks as git chooses them'
. "$(dirname "$0")/test-lib.sh"

# Each hunk of a "GIT binary patch" (forward, then reverse) is either
# the deflated new content ("literal") or a deflated delta against the
# old ("delta"), whichever is smaller, as git chooses.  Our literals
# must be git's byte for byte (same zlib level); our deltas are our own
# (diff-delta.c), so only their kind is compared with git's, and git
# apply must take them.

TT="$TEST_DIRECTORY/helper/test-tool"

# bin-pairs.py SEED N: N random pairs of binary files as
# pairs/old/NNN and pairs/new/NNN: random bytes, runs of few values or
# of zeros, edited in a few places or many, cut, doubled, replaced,
# emptied.
cat >bin-pairs.py <<\EOF
import os, random, sys

seed, n = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(seed)

def noise(k):
    return rnd.randbytes(k)

def content(k):
    r = rnd.random()
    if r < 0.4:
        return noise(k)
    if r < 0.5:
        return b'\0' * k
    return bytes(rnd.choices(b'\0\1abc\n', k=k))

def edit(d):
    d = bytearray(d)
    for _ in range(rnd.choice([1, 3, 10, 50])):
        i = rnd.randrange(len(d) + 1)
        r = rnd.random()
        if r < 0.4 and d:
            d[min(i, len(d) - 1)] = rnd.getrandbits(8)
        elif r < 0.7:
            d[i:i] = content(rnd.randint(1, 500))
        else:
            del d[i:i + rnd.randint(1, 300)]
    return bytes(d)

for side in ('old', 'new'):
    os.makedirs('pairs/' + side, exist_ok=True)
for i in range(n):
    a = content(rnd.choice([40, 200, 1000, 5000, 20000])) + b'\0'
    r = rnd.random()
    if r < 0.6:
        b = edit(a)
    elif r < 0.7:
        b = content(len(a)) + b'\0'
    elif r < 0.8:
        b = a[:rnd.randrange(len(a) + 1)]
    elif r < 0.9:
        b = a + a[:rnd.randrange(len(a) + 1)]
    else:
        b = b'' if rnd.random() < 0.5 else noise(20) + b'\0'
    if a == b:
        b += b'\1'
    open('pairs/old/%03d' % i, 'wb').write(a)
    open('pairs/new/%03d' % i, 'wb').write(b)
EOF

# kinds PATCH: "path kind size" for each hunk of each file.
kinds() {
	awk '/^diff --git / { f = $3 }
	     /^(literal|delta) [0-9]+$/ { print f, $1, $2 }' "$1"
}

# store TREE-FILE DIR: DIR's files as a tree, its id in TREE-FILE.
store() {
	rm -f .dircache/index &&
	(cd "$2" && find . -type f -print0 |
		GIT_DIR="$TRASH_DIRECTORY/.dircache" \
		update-cache --add --stdin -z) &&
	write-tree >"$1"
}

# applies A B: our --binary patch from tree A to tree B turns a git
# checkout of A into B, and back again with -R.
applies() {
	diff-tree --binary $(cat $1) $(cat $2) >patch &&
	rm -rf co && git init -q co &&
	GIT_DIR=.dircache git archive $(cat $1) | tar -x -C co &&
	(cd co && git apply ../patch && git add -A &&
	 test $(git write-tree) = $(cat ../$2) &&
	 git apply -R ../patch && git add -A &&
	 test $(git write-tree) = $(cat ../$1))
}

test_expect_success 'setup: binary files edited, replaced, added, removed' '
	test_create_repo . &&
	mkdir w &&
	python3 -c "import random; r = random.Random(1)
open(\"w/edited\", \"wb\").write(r.randbytes(20000))
open(\"w/replaced\", \"wb\").write(r.randbytes(3000))
open(\"w/zeros\", \"wb\").write(bytes(200000))
open(\"w/removed\", \"wb\").write(b\"\\0gone\")
open(\"w/emptied\", \"wb\").write(b\"\\0full\")" &&
	printf "\\000" >w/tiny &&
	store A w &&
	python3 -c "import random; r = random.Random(2)
d = bytearray(open(\"w/edited\", \"rb\").read())
for i in (10, 5000, 19000):
	d[i] ^= 0xff
d[9000:9000] = b\"inserted\"
open(\"w/edited\", \"wb\").write(bytes(d))
open(\"w/replaced\", \"wb\").write(r.randbytes(3000))
z = bytearray(200000)
z[150000] = 1
open(\"w/zeros\", \"wb\").write(bytes(z))
open(\"w/added\", \"wb\").write(b\"\\0new\")" &&
	rm w/removed && : >w/emptied &&
	printf "\\001" >w/tiny &&
	store B w
'

test_expect_success 'an edited file gets delta hunks both ways, as from git' '
	GIT_DIR=.dircache git diff-tree -p --binary $(cat A) $(cat B) >expect &&
	diff-tree --binary $(cat A) $(cat B) >actual &&
	kinds expect | cut -d" " -f1,2 >expect-kinds &&
	kinds actual | cut -d" " -f1,2 >actual-kinds &&
	test_cmp expect-kinds actual-kinds &&
	test $(grep -c "^a/edited delta$" actual-kinds) = 2 &&
	test $(grep -c "^a/zeros delta$" actual-kinds) = 2 &&
	test $(grep -c "^a/replaced literal$" actual-kinds) = 2
'

test_expect_success 'literal hunks are git'"'"'s byte for byte' '
	for p in replaced removed added emptied tiny; do
		GIT_DIR=.dircache git diff-tree -p --binary \
			$(cat A) $(cat B) -- $p >expect &&
		diff-tree --binary $(cat A) $(cat B) -- $p >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'git apply takes the patch forward and backward' '
	applies A B &&
	test_grep "^delta " patch &&
	applies B A
'

test_expect_success 'show-diff --binary chooses as git diff --binary' '
	rm -rf sd && mkdir sd && cp -R w/. sd/ &&
	(cd sd && init-db 2>/dev/null && rm -f .dircache/index &&
	 find . -path ./.dircache -prune -o -type f -print |
		update-cache --add --stdin &&
	 printf "more" >>edited && printf "\\000" >tiny &&
	 show-diff --binary >../actual &&
	 GIT_DIR=.dircache git diff --binary >../expect) &&
	kinds expect >expect-kinds &&
	kinds actual >actual-kinds &&
	cut -d" " -f1,2 expect-kinds >expect-k &&
	cut -d" " -f1,2 actual-kinds >actual-k &&
	test_cmp expect-k actual-k &&
	test_grep "^a/edited delta" actual-kinds
'

test_expect_success 'create_delta and apply_delta: round trips' '
	python3 bin-pairs.py 7 60 &&
	head -c 1100000 /dev/urandom >pairs/old/big &&
	{ cat pairs/old/big && echo tail; } >pairs/new/big &&
	head -c 300000 /dev/zero >pairs/old/runs &&
	{ head -c 70000 /dev/zero && echo x &&
	  head -c 200000 /dev/zero; } >pairs/new/runs &&
	: >pairs/old/empty && cp pairs/old/big pairs/new/empty &&
	cp pairs/old/big pairs/old/to-empty && : >pairs/new/to-empty &&
	cp pairs/old/big pairs/old/same && cp pairs/old/big pairs/new/same &&
	for f in $(ls pairs/old); do
		echo pairs/old/$f pairs/new/$f || return 1
	done >list &&
	"$TT" delta-roundtrip $(cat list) &&
	"$TT" delta-make pairs/old/runs pairs/new/runs >d &&
	"$TT" delta-apply pairs/old/runs d >out &&
	cmp out pairs/new/runs &&
	"$TT" delta-make pairs/old/same pairs/new/same >d &&
	test $(wc -c <d) -lt 100 &&
	"$TT" delta-make pairs/old/big pairs/new/big >d &&
	test $(wc -c <d) -lt 100
'

test_expect_success 'apply_delta refuses a delta for another base' '
	"$TT" delta-make pairs/old/big pairs/new/big >d &&
	test_expect_code 1 "$TT" delta-apply pairs/old/runs d >out 2>err &&
	test_grep "another size" err
'

# Our deltas are not git's, so near the break-even point one of us may
# pick a delta where the other picks the literal; everything else must
# agree, and every literal hunk must be git's.
test_expect_success 'random binary pairs: git'"'"'s choices, git'"'"'s literals' '
	rm -rf pairs && python3 bin-pairs.py 4104 120 &&
	store C pairs/old && store D pairs/new &&
	GIT_DIR=.dircache git diff-tree -p --binary $(cat C) $(cat D) >expect &&
	diff-tree --binary $(cat C) $(cat D) >actual &&
	kinds expect >expect-kinds && kinds actual >actual-kinds &&
	test $(wc -l <actual-kinds) = $(wc -l <expect-kinds) &&
	test $(wc -l <actual-kinds) -ge 220 &&
	paste -d" " expect-kinds actual-kinds >both &&
	awk "\$2 == \$5 { same++ }
	     \$2 == \"literal\" && \$5 == \"literal\" && \$3 != \$6 { bad++ }
	     END { print same \"/\" NR \" hunks of the same kind\";
		   exit bad || same < NR * 0.95 }" both &&
	python3 - <<-\EOF
	import re, sys
	def literals(p):
	    out, cur, hunk = {}, None, None
	    for l in open(p, "rb"):
	        if l.startswith(b"diff --git "):
	            cur, n = l.split()[2], 0
	        elif re.match(rb"^(literal|delta) ", l):
	            n += 1
	            hunk = (cur, n) if l.startswith(b"literal") else None
	            if hunk:
	                out[hunk] = b""
	        elif hunk and l.strip():
	            out[hunk] += l
	    return out
	ours, git = literals("actual"), literals("expect")
	common = set(ours) & set(git)
	bad = [k for k in common if ours[k] != git[k]]
	print(len(common), "literal hunks in both,", len(bad), "differ")
	sys.exit(1 if bad or len(common) < 80 else 0)
	EOF
'

test_expect_success 'random binary pairs: git apply takes them both ways' '
	applies C D
'

test_done
