# bench/ops/hash.sh: SHA-1 throughput on one 256 MB file of random bytes,
# hot in the page cache: ours (OpenSSL's SHA-1 with our collision
# detection, `test-tool sha1`, raw), OpenSSL's plain SHA-1 (`openssl
# sha1`, raw) and git's (sha1collisiondetection, `git hash-object`, as a
# blob: 17 bytes more).  Under CPU=baseline ours and OpenSSL's run
# without SHA-NI and AVX; git's code uses neither.  Brings its own data.
HASH_MB=256

op_hash() {
	tt=$top/t/helper/test-tool
	[ -x "$tt" ] || make -s -C "$top" t/helper/test-tool >/dev/null
	f=$W/hash-data
	[ -f "$f" ] || head -c $((HASH_MB * 1048576)) /dev/urandom >"$f"
	cat "$f" >/dev/null
	for i in $(seq $RUNS); do
		time_cmd ours-hash "$tt" sha1 "$f"
		time_cmd git-hash git hash-object --no-filters "$f"
		time_cmd ossl-hash openssl sha1 "$f"
	done
	a=$("$tt" sha1 "$f")
	b=$(openssl sha1 -r "$f" | cut -d" " -f1)
	[ "$a" = "$b" ] ||
		{ echo "bench: test-tool sha1 differs from openssl sha1" >&2
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
}

OPS="$OPS hash"
STANDALONE="$STANDALONE hash"
