# bench/ops/hash.sh: SHA-1 throughput on one 256 MB file of random bytes,
# hot in the page cache: ours (OpenSSL's SHA-1 with our collision
# detection, `test-tool sha1`, raw), OpenSSL's plain SHA-1 (`openssl
# sha1`, raw) and git's (sha1collisiondetection, `git hash-object`, as a
# blob: 17 bytes more).  Under CPU=baseline ours and OpenSSL's run
# without SHA-NI and AVX; git's code uses neither.  With HASH=sha256,
# the same for SHA-256: ours (libcrypto's, `test-tool hash sha256`),
# OpenSSL's (`openssl sha256`) and git's (`git hash-object` in a sha256
# store, git's own SHA-256 or the one it was built with).  Brings its
# own data.
HASH_MB=256

op_hash() {
	tt=$top/t/helper/test-tool
	[ -x "$tt" ] || make -s -C "$top" t/helper/test-tool >/dev/null
	f=$W/hash-data
	[ -f "$f" ] || head -c $((HASH_MB * 1048576)) /dev/urandom >"$f"
	cat "$f" >/dev/null
	[ "$HASH" != sha256 ] || [ -d "$W/hash256.git" ] ||
		git init -q --bare --object-format=sha256 "$W/hash256.git"
	for i in $(seq $RUNS); do
		time_cmd ours-hash "$tt" sha1 "$f"
		time_cmd git-hash git hash-object --no-filters "$f"
		time_cmd ossl-hash openssl sha1 "$f"
		[ "$HASH" = sha256 ] || continue
		time_cmd ours-hash256 "$tt" hash sha256 "$f"
		time_cmd git-hash256 git --git-dir="$W/hash256.git" \
			hash-object --no-filters "$f"
		time_cmd ossl-hash256 openssl sha256 "$f"
	done
	a=$("$tt" sha1 "$f")
	b=$(openssl sha1 -r "$f" | cut -d" " -f1)
	[ "$a" = "$b" ] ||
		{ echo "bench: test-tool sha1 differs from openssl sha1" >&2
		  exit 1; }
	[ "$HASH" = sha256 ] || return 0
	a=$("$tt" hash sha256 "$f")
	b=$(openssl sha256 -r "$f" | cut -d" " -f1)
	[ "$a" = "$b" ] ||
		{ echo "bench: test-tool hash sha256 differs from openssl" >&2
		  exit 1; }
}

# hash_mbs KEY: MB/s of the median user+system CPU of KEY's runs.
hash_mbs() {
	awk '{ print $3 + $4 }' "$W/$1" | median |
		awk -v mb=$HASH_MB '{ printf "%.0f", ($1 > 0 ? mb / $1 : 0) }'
}

rows_hash() {
	row "SHA-1 of $HASH_MB MB: ours, detecting" hash
	row "  OpenSSL's plain SHA-1" hash ossl
	echo "  SHA-1 MB/s of CPU: ours $(hash_mbs ours-hash)," \
		"OpenSSL plain $(hash_mbs ossl-hash)," \
		"git hash-object $(hash_mbs git-hash)"
	[ "$HASH" = sha256 ] || return 0
	row "SHA-256 of $HASH_MB MB: ours (libcrypto)" hash256
	row "  OpenSSL's SHA-256" hash256 ossl
	echo "  SHA-256 MB/s of CPU: ours $(hash_mbs ours-hash256)," \
		"OpenSSL $(hash_mbs ossl-hash256)," \
		"git hash-object $(hash_mbs git-hash256)"
}

OPS="$OPS hash"
STANDALONE="$STANDALONE hash"
