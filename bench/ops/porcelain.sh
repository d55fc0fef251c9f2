# bench/ops/porcelain.sh: dircache status and dircache add against git
# status and git add, both on one checkout of the old tree ($W/porc)
# that holds our store and git's, each told to ignore the other's.
# The kernel source's top .gitignore (Debian's) ignores everything at
# the top; those lines are dropped and the change committed in both,
# so that the untracked walk enters every directory, as on a real
# kernel tree.  git runs without the untracked cache or fsmonitor.
# Rows: status clean and with 1% of the files changed, commit -a of
# 1% changed (a fresh 1% for each run, the same files for both), add .
# with nothing changed, add . of the whole tree into an empty store.

# The checkout, both stores, a commit of the tree in each (untimed);
# made afresh on every call, since the 1% rows change files.
porcelain_setup() {
	checkout_into "$W/porc"
	rm -rf .dircache/objects &&
		cp -al "$W/old/.dircache/objects" .dircache/objects
	git init -q && git config gc.auto 0 &&
		git config core.untrackedCache false &&
		git config core.fsmonitor false
	rm -rf .git/objects && cp -al "$W/old/.git/objects" .git/objects
	mkdir -p .dircache/info
	echo /.git >.dircache/info/exclude
	echo /.dircache >.git/info/exclude
	git read-tree "$OLD_TREE" && git update-index --refresh >/dev/null
	if [ -f .gitignore ]; then
		sed -i '/^\/\*$/d; /^!\/debian\/$/d' .gitignore
		update-cache .gitignore && git add .gitignore
	fi
	porc_tree=$(write-tree)
	[ "$porc_tree" = "$(git write-tree)" ] ||
		{ echo "bench: the porcelain trees differ" >&2; exit 1; }
	echo porcelain | commit-tree "$porc_tree" >.dircache/refs/heads/master
	git update-ref refs/heads/master \
		"$(echo porcelain | git commit-tree "$porc_tree")"
	# Files written in the second of the index are racy: wait, refresh.
	sleep 1
	update-cache --refresh >/dev/null
	git update-index --refresh >/dev/null
	[ -z "$(git status --porcelain)" ] && [ -z "$(dircache status -s)" ] ||
		{ echo "bench: the porcelain checkout is not clean" >&2; exit 1; }
}

# change_files N: append a line to every 100th file (the Nth of each
# hundred), symbolic links left alone.
change_files() {
	tr '\0' '\n' <"$W/old.list" | awk -v n="$1" 'NR % 100 == n' |
		while read -r f; do
			[ -L "$f" ] || echo "/* porcelain $1 */" >>"$f"
		done
}

op_porcelain() {
	porcelain_setup
	cd "$W/porc"
	for i in $(seq $RUNS); do
		time_cmd ours-stc dircache status
		time_cmd git-stc git status
		time_cmd ours-addu dircache add .
		time_cmd git-addu git add .
	done
	change_files 50
	for i in $(seq $RUNS); do
		time_cmd ours-st1 dircache status
		time_cmd git-st1 git status
	done
	dircache status --porcelain >"$W/st1-ours"
	git status --porcelain >"$W/st1-git"
	cmp -s "$W/st1-ours" "$W/st1-git" ||
		{ echo "bench: status --porcelain differs from git" >&2; exit 1; }
	for i in $(seq $RUNS); do
		[ "$i" = 1 ] || change_files $((50 + i))
		time_cmd ours-ca1 dircache commit -a -m "porcelain $i"
		time_cmd git-ca1 git commit -q -a -m "porcelain $i"
	done
	[ "$(rev-parse 'HEAD^{tree}')" = "$(git rev-parse 'HEAD^{tree}')" ] ||
		{ echo "bench: commit -a made another tree than git" >&2; exit 1; }
	for i in $(seq $RUNS); do
		discard "$W/padd-ours" "$W/padd-git"
		GIT_DIR=$W/padd-ours init-db 2>/dev/null
		git init -q --bare "$W/padd-git"
		mkdir -p "$W/padd-ours/info"
		printf '/.git\n/.dircache\n' >"$W/padd-ours/info/exclude"
		printf '/.git\n/.dircache\n' >"$W/padd-git/info/exclude"
		time_cmd ours-adda env GIT_DIR=$W/padd-ours dircache add .
		time_cmd git-adda env GIT_DIR=$W/padd-git GIT_WORK_TREE=$W/porc \
			git add .
	done
	GIT_DIR=$W/padd-ours ls-files -s >"$W/adda-ours"
	GIT_DIR=$W/padd-git git ls-files -s >"$W/adda-git"
	cmp -s "$W/adda-ours" "$W/adda-git" ||
		{ echo "bench: add . staged other entries than git" >&2; exit 1; }
	cd "$W"
	discard "$W/porc" "$W/padd-ours" "$W/padd-git"
}

rows_porcelain() {
	row "dircache status, clean" stc
	row "dircache status, 1% changed" st1
	row "dircache commit -a, 1% changed" ca1
	row "dircache add ., nothing changed" addu
	row "dircache add . of the whole tree" adda
}

OPS="$OPS porcelain"
