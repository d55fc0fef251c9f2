# t/lib-apply.sh: the patch corpus of the apply tests (t4200-t4299).
# Source it after test-lib.sh.  apply_setup builds, with git, a repo
# "src" whose commit A holds a file of every kind and whose branches
# each make one kind of change; patches/NAME is git's patch from A to
# branch NAME.  "base" is a clean checkout of A.

APPLY_CASES="modify add delete mode rename copy binlit bindelta noeol crlf
empty symlink quoted typechange"

# gen N: N numbered lines, "line 1" up.
gen() {
	i=1
	while [ $i -le "$1" ]; do
		echo "line $i"
		i=$((i + 1))
	done
}

# case_branch NAME: start branch NAME at A, run the rest, commit.
case_branch() {
	name=$1 &&
	shift &&
	git checkout -q -b "$name" A &&
	"$@" &&
	git add -A &&
	git commit -q -m "$name" &&
	git checkout -q A
}

change_modify() {
	gen 100 | sed -e "s/^line 5$/five/" -e "s/^line 50$/fifty/" \
		-e "/^line 95$/d" >text &&
	echo "line 101" >>text &&
	gen 50 | sed "s/^line 1$/first/" >multi
}
change_add() {
	echo added >added &&
	mkdir -p newdir/x && gen 3 >newdir/x/y
}
change_delete() {
	git rm -q gone dir/sub/deep
}
change_mode() {
	chmod +x mode.sh
}
change_rename() {
	git mv ren-src ren-dst &&
	mkdir moved && git mv ren-edit moved/ren-edit &&
	sed -i "s/^line 10$/ten/" moved/ren-edit
}
change_copy() {
	sed "s/^copy 15$/fifteen/" copy-src >copy-dst
}
change_binlit() {
	printf "\000\001\002 new binary\n" >newbin &&
	seq 1 300 | gzip -n -c >small.bin
}
change_bindelta() {
	seq 1 6000 | sed "s/^3000$/three thousand/" | gzip -n -1 -c |
		cat bin-big - >bin-big.new && mv bin-big.new bin-big
}
change_noeol() {
	printf "a\nb\nmore" >noeol &&
	printf "a\nb" >eol &&
	printf "gains\n" >gaineol
}
change_crlf() {
	printf "a\r\nB\r\nc\r\n" >crlf
}
change_empty() {
	: >new-empty &&
	git rm -q empty-gone &&
	echo now >empty &&
	: >text-to-empty
}
change_symlink() {
	rm link && ln -s multi link &&
	ln -s dir/sub newlink &&
	git rm -q link-gone
}
change_quoted() {
	echo changed >"sp ace" &&
	echo changed >"tab	name" &&
	echo changed >"$(printf "\303\274ni")" &&
	echo new >"quo\"te"
}
change_typechange() {
	rm to-link && ln -s text to-link &&
	rm from-link && echo file >from-link
}

apply_setup() {
	git init -q src &&
	(
		cd src &&
		gen 100 >text &&
		gen 50 >multi &&
		echo bye >gone &&
		mkdir -p dir/sub && echo deep >dir/sub/deep &&
		echo "#!/bin/sh" >mode.sh &&
		gen 20 >ren-src &&
		gen 20 | sed "s/line/row/" >ren-edit &&
		gen 30 | sed "s/line/copy/" >copy-src &&
		seq 1 300 | gzip -n -9 -c >small.bin &&
		seq 1 6000 | gzip -n -1 -c >bin-big &&
		printf "a\nb" >noeol &&
		printf "a\nb\n" >eol &&
		printf "gains" >gaineol &&
		printf "a\r\nb\r\nc\r\n" >crlf &&
		: >empty && : >empty-gone &&
		echo "not empty" >text-to-empty &&
		ln -s text link && ln -s gone link-gone &&
		echo file >to-link && ln -s text from-link &&
		echo a >"sp ace" && echo b >"tab	name" &&
		echo c >"$(printf "\303\274ni")" &&
		git add -A && git commit -q -m A && git tag A &&
		for c in $APPLY_CASES; do
			case_branch $c change_$c || exit 1
		done
	) &&
	mkdir patches &&
	for c in $APPLY_CASES; do
		opt=-M &&
		if [ $c = copy ]; then opt="-C -C"; fi &&
		git -C src diff --binary $opt A $c -- >patches/$c || return 1
	done &&
	git clone -q src base &&
	git -C base checkout -q A
}

# pair [BRANCH]: ours/ and theirs/, two copies of base (checked out
# at BRANCH), their indexes refreshed after the copy.
pair() {
	rm -rf ours theirs &&
	for d in ours theirs; do
		cp -a base $d &&
		if [ -n "$1" ]; then
			git -C $d checkout -q "$1" -- || return 1
		fi &&
		git -C $d update-index -q --refresh || return 1
	done
}

# tree_of DIR: the tree of DIR's work tree (everything added).
tree_of() {
	(cd "$1" && git add -A && git write-tree)
}

# state_of DIR: every byte of the work tree and the index, for "nothing
# changed" checks (file names, modes, contents, link targets), one line
# a path ("./name"), .git/objects and .git/logs left out.
state_of() {
	python3 - "$1" <<-\EOF
	import hashlib, os, stat, sys
	os.chdir(sys.argv[1])
	skip = (b"./.git/objects", b"./.git/logs")
	paths = [b"."]
	def walk(d):
	    for e in os.scandir(d):
	        p = d + b"/" + e.name
	        if p in skip:
	            continue
	        paths.append(p)
	        if e.is_dir(follow_symlinks=False):
	            walk(p)
	walk(b".")
	out = sys.stdout.buffer
	for p in sorted(paths):
	    st = os.lstat(p)
	    if stat.S_ISLNK(st.st_mode):
	        out.write(p + b" -> " + os.readlink(p) + b"\n")
	    elif stat.S_ISREG(st.st_mode):
	        with open(p, "rb") as f:
	            h = hashlib.sha1(f.read()).hexdigest()
	        out.write(b"%s %o %s\n" % (p, st.st_mode & 0o7777, h.encode()))
	    else:
	        out.write(p + b"/\n")
	EOF
}
