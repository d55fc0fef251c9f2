/*
 * hash.c: the repository's hash, SHA-1 or SHA-256.
 *
 * A store names its objects with one algorithm, chosen when it is made
 * (git's extensions.objectformat, read by setup).  Everything that
 * hashes or handles an id asks the_hash for the algorithm and its
 * sizes, so that one binary serves both kinds of store.  SHA-1 goes
 * through sha1dc.c (collision detection); SHA-256 is libcrypto's, whose
 * x86-64 code uses the SHA extensions where the CPU has them.
 */
#include "cache.h"

/* The ids of the empty tree, git's well-known constants. */
static const unsigned char empty_tree_sha1[] = {
	0x4b, 0x82, 0x5d, 0xc6, 0x42, 0xcb, 0x6e, 0xb9, 0xa0, 0x60,
	0xe5, 0x4b, 0xf8, 0xd6, 0x92, 0x88, 0xfb, 0xee, 0x49, 0x04,
};
static const unsigned char empty_tree_sha256[] = {
	0x6e, 0xf1, 0x9b, 0x41, 0x22, 0x5c, 0x53, 0x69, 0xf1, 0xc1,
	0x04, 0xd4, 0x5d, 0x8d, 0x85, 0xef, 0xa9, 0xb0, 0x57, 0xb5,
	0x3b, 0x14, 0xb4, 0xb9, 0xb9, 0x39, 0xdd, 0x74, 0xde, 0xcc,
	0x53, 0x21,
};

const struct hash_algo hash_sha1 = {
	"sha1", 0x73686131, 20, 40, empty_tree_sha1,
};
const struct hash_algo hash_sha256 = {
	"sha256", 0x73323536, 32, 64, empty_tree_sha256,
};
const struct hash_algo *the_hash = &hash_sha1;

const struct hash_algo *hash_algo_by_name(const char *name)
{
	if (!strcmp(name, hash_sha1.name))
		return &hash_sha1;
	if (!strcmp(name, hash_sha256.name))
		return &hash_sha256;
	return NULL;
}

void hash_init(struct hash_ctx *c, const struct hash_algo *algo)
{
	c->algo = algo;
	if (algo == &hash_sha256)
		SHA256_Init(&c->u.sha256);
	else
		sha1_init(&c->u.sha1);
}

void hash_update(struct hash_ctx *c, const void *p, size_t len)
{
	if (c->algo == &hash_sha256)
		SHA256_Update(&c->u.sha256, p, len);
	else
		sha1_update(&c->u.sha1, p, len);
}

int hash_final(unsigned char *md, struct hash_ctx *c)
{
	if (c->algo == &hash_sha256)
		return SHA256_Final(md, &c->u.sha256) == 1 ? 0 : -1;
	return sha1_final(md, &c->u.sha1);
}
