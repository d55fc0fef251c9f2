/*
 * sha1dc.c: SHA-1 that notices the collision attacks we know of.
 *
 * Counter-cryptanalysis after Stevens and Shumow, "Speeding up detection
 * of SHA-1 collision attacks using unavoidable attack conditions" (USENIX
 * Security 2017).  Every SHA-1 collision attack found so far is built on
 * one of a few disturbance vectors (DVs): runs of local collisions whose
 * message differences follow SHA-1's own message expansion.  A block that
 * is half of such a near-collision pair has a twin: its expanded message
 * XOR the DV's difference dm.  Starting from our state at a step where
 * the twins' states agree, running the twin's message backward to step 0
 * and forward to step 80 gives the twin's chaining values; if the twin's
 * output equals ours, the block is the last block of a colliding pair.
 *
 * Doing that for 32 DVs on every block would cost 32 compressions.  The
 * paper's unavoidable bit conditions (UBCs) avoid it: an attack block
 * must satisfy, for its DV, a few relations between bits of its expanded
 * message words.  Ordinary data fails them for every DV on all but about
 * one block in twenty (4.7-4.9% of blocks, on text and random data
 * alike), and only those blocks are recompressed.
 *
 * So the fast path is: expand a batch of blocks four at a time (SIMD
 * lanes), check the UBCs, hand the clean runs to OpenSSL's SHA-1 (SHA-NI
 * or its vector code, as the CPU allows and OPENSSL_ia32cap says), and
 * pool the few flagged blocks: their twins are tested a vector at a
 * time, one (block, DV) pair a lane, only for the DVs whose conditions
 * held.
 */
#define _GNU_SOURCE	/* memmem */
#include <pthread.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/*
 * The DVs checked, the 32 of the paper's table: type I(K,b) and II(K,b).
 * Their order is the order of the bits in a DV mask.
 */
static const struct dv {
	unsigned char type, k, b;
} dvs[] = {
	{ 1, 43, 0 }, { 1, 44, 0 }, { 1, 45, 0 }, { 1, 46, 0 }, { 1, 46, 2 },
	{ 1, 47, 0 }, { 1, 47, 2 }, { 1, 48, 0 }, { 1, 48, 2 }, { 1, 49, 0 },
	{ 1, 49, 2 }, { 1, 50, 0 }, { 1, 50, 2 }, { 1, 51, 0 }, { 1, 51, 2 },
	{ 1, 52, 0 },
	{ 2, 45, 0 }, { 2, 46, 0 }, { 2, 46, 2 }, { 2, 47, 0 }, { 2, 48, 0 },
	{ 2, 49, 0 }, { 2, 49, 2 }, { 2, 50, 0 }, { 2, 50, 2 }, { 2, 51, 0 },
	{ 2, 51, 2 }, { 2, 52, 0 }, { 2, 53, 0 }, { 2, 54, 0 }, { 2, 55, 0 },
	{ 2, 56, 0 },
};
#define NR_DVS (sizeof(dvs) / sizeof(dvs[0]))

/* A<K>_<b> is the mask bit of I(K,b), B<K>_<b> that of II(K,b). */
#define A43_0 (1u << 0)
#define A44_0 (1u << 1)
#define A45_0 (1u << 2)
#define A46_0 (1u << 3)
#define A46_2 (1u << 4)
#define A47_0 (1u << 5)
#define A47_2 (1u << 6)
#define A48_0 (1u << 7)
#define A48_2 (1u << 8)
#define A49_0 (1u << 9)
#define A49_2 (1u << 10)
#define A50_0 (1u << 11)
#define A50_2 (1u << 12)
#define A51_0 (1u << 13)
#define A51_2 (1u << 14)
#define A52_0 (1u << 15)
#define B45_0 (1u << 16)
#define B46_0 (1u << 17)
#define B46_2 (1u << 18)
#define B47_0 (1u << 19)
#define B48_0 (1u << 20)
#define B49_0 (1u << 21)
#define B49_2 (1u << 22)
#define B50_0 (1u << 23)
#define B50_2 (1u << 24)
#define B51_0 (1u << 25)
#define B51_2 (1u << 26)
#define B52_0 (1u << 27)
#define B53_0 (1u << 28)
#define B54_0 (1u << 29)
#define B55_0 (1u << 30)
#define B56_0 (1u << 31)

/*
 * The unavoidable bit conditions.  UBC(i, p, j, q, c, dvs): for a block
 * of an attack on any DV in dvs, bit p of W[i] XOR bit q of W[j] is c,
 * W being the block's expanded message.  One line per distinct relation;
 * they read W[35] to W[64].  Each follows from the DV's local collisions
 * (t/ubc-derive.py derives them without carries, and more than these),
 * and they are exactly, DV by DV, the relations every attack path over
 * steps 35-64 satisfies when a path may write a state difference with
 * one signed digit more than the DV (a carry) and the boolean functions
 * may do anything they can: t/ubc-select.py selects them and t1432
 * checks the two are equal.  Every message signing such paths allow
 * lies within 2^-4.2 of its DV's best, and the table needs them all
 * down to 2^-4.09: a probability bound of 2^-4.1 or looser gives it, a
 * tighter one selects relations it lacks.  SHA-mbles breaks two of the
 * relations the carry-free derivation has and this selection drops.
 *
 * The table is checked in four stages, between which a group of blocks
 * whose masks are all empty stops (see UBC_MASK).  The stages' order
 * is greedy, on random blocks: each next relation the one that empties
 * most masks.  After the first stage's 72 relations 81% of blocks have
 * an empty mask, 43% of groups of four; after 96, 92% and 72%; after
 * 120, 95% and 81%: a group of four checks 99 relations on average,
 * not 156, a group of eight 116.  The mask a block ends with is the
 * same whatever the order and wherever it stops (an empty mask stays
 * empty): t1435 compares it with the table read in one piece.
 */
#define UBC_LAST_WORD 64
#define SHA1_UBCS_1 \
	UBC(35, 1, 36, 6, 1, A46_2 | A49_2) \
	UBC(36, 1, 37, 6, 1, A47_2 | A50_2 | B46_2) \
	UBC(36, 4, 38, 4, 1, B52_0 | B54_0) \
	UBC(37, 1, 38, 6, 1, A48_2 | A51_2) \
	UBC(37, 4, 39, 4, 1, A43_0 | B53_0 | B55_0) \
	UBC(36, 4, 40, 29, 0, A46_0 | A49_0 | B45_0 | B48_0) \
	UBC(37, 4, 40, 29, 0, A43_0 | A47_0 | B46_0 | B53_0 | B55_0) \
	UBC(39, 1, 40, 6, 1, A46_2 | A50_2 | B49_2) \
	UBC(36, 0, 41, 30, 1, B49_2) \
	UBC(37, 5, 41, 30, 0, B49_2) \
	UBC(38, 4, 41, 29, 0, A44_0 | A48_0 | B47_0 | B54_0 | B56_0) \
	UBC(39, 4, 41, 4, 1, A43_0 | A45_0 | B55_0) \
	UBC(40, 6, 41, 1, 0, A50_2 | B49_2) \
	UBC(40, 1, 41, 6, 1, A47_2 | A51_2 | B50_2) \
	UBC(40, 29, 41, 29, 0, A44_0 | A47_0 | A48_0 | B46_0 | B47_0 | B56_0) \
	UBC(37, 0, 42, 30, 1, B50_2) \
	UBC(39, 4, 42, 29, 0, A43_0 | A45_0 | A49_0 | B48_0 | B55_0) \
	UBC(40, 4, 42, 4, 1, A44_0 | A46_0 | B56_0) \
	UBC(40, 6, 42, 6, 0, A46_2) \
	UBC(41, 6, 42, 1, 0, A51_2 | B50_2) \
	UBC(41, 1, 42, 6, 1, A48_2 | B46_2 | B51_2) \
	UBC(38, 0, 43, 30, 1, B51_2) \
	UBC(40, 4, 43, 29, 0, A44_0 | A46_0 | A50_0 | B49_0 | B56_0) \
	UBC(42, 6, 43, 1, 0, B46_2 | B51_2) \
	UBC(42, 29, 43, 29, 0, A46_0 | A49_0 | A50_0 | B48_0 | B49_0) \
	UBC(41, 4, 44, 29, 0, A43_0 | A45_0 | A47_0 | A51_0 | B45_0 | B50_0) \
	UBC(42, 6, 44, 6, 0, A46_2 | A48_2) \
	UBC(43, 29, 44, 29, 0, A47_0 | A50_0 | A51_0 | B45_0 | B49_0 | B50_0) \
	UBC(42, 4, 45, 29, 0, A44_0 | A46_0 | A48_0 | A52_0 | B46_0 | B51_0) \
	UBC(43, 6, 45, 6, 0, A47_2 | A49_2) \
	UBC(44, 1, 45, 6, 1, A51_2 | B49_2) \
	UBC(44, 29, 45, 29, 0, A48_0 | A51_0 | A52_0 | B45_0 | B46_0 | B50_0 | \
	    B51_0) \
	UBC(43, 4, 46, 29, 0, A43_0 | A45_0 | A47_0 | A49_0 | B47_0 | B52_0) \
	UBC(44, 6, 46, 6, 0, A46_2 | A48_2 | A50_2) \
	UBC(45, 29, 46, 29, 0, A49_0 | A52_0 | B46_0 | B47_0 | B51_0 | B52_0) \
	UBC(44, 4, 47, 29, 0, A44_0 | A46_0 | A48_0 | A50_0 | B48_0 | B53_0) \
	UBC(45, 6, 47, 6, 0, A47_2 | A49_2 | A51_2) \
	UBC(46, 6, 47, 1, 0, A46_2 | B50_2) \
	UBC(46, 29, 47, 29, 0, A43_0 | A50_0 | B47_0 | B48_0 | B52_0 | B53_0) \
	UBC(45, 4, 48, 29, 0, A45_0 | A47_0 | A49_0 | A51_0 | B49_0 | B54_0) \
	UBC(46, 1, 48, 1, 1, B51_2) \
	UBC(46, 6, 48, 6, 0, A48_2 | A50_2) \
	UBC(46, 29, 48, 29, 1, A45_0 | A47_0 | A49_0) \
	UBC(47, 6, 48, 1, 0, A47_2 | B51_2) \
	UBC(47, 29, 48, 29, 0, A44_0 | A51_0 | B48_0 | B49_0 | B53_0 | B54_0) \
	UBC(46, 4, 49, 29, 0, A46_0 | A48_0 | A50_0 | A52_0 | B50_0 | B55_0) \
	UBC(47, 6, 49, 6, 0, A49_2 | A51_2) \
	UBC(48, 6, 49, 1, 0, A48_2) \
	UBC(48, 29, 49, 29, 0, A45_0 | A52_0 | B49_0 | B50_0 | B54_0 | B55_0) \
	UBC(42, 1, 50, 1, 1, A49_2) \
	UBC(47, 4, 50, 29, 0, A47_0 | A49_0 | A51_0 | B45_0 | B51_0 | B56_0) \
	UBC(48, 6, 50, 6, 0, A50_2 | B46_2) \
	UBC(49, 6, 50, 1, 0, A49_2) \
	UBC(49, 29, 50, 29, 0, A46_0 | B45_0 | B50_0 | B51_0 | B55_0 | B56_0) \
	UBC(48, 4, 51, 29, 0, A48_0 | A50_0 | A52_0 | B46_0 | B52_0) \
	UBC(50, 6, 51, 1, 0, A50_2 | B46_2) \
	UBC(50, 29, 51, 29, 0, A47_0 | B46_0 | B51_0 | B52_0 | B56_0) \
	UBC(49, 4, 52, 29, 0, A49_0 | A51_0 | B45_0 | B47_0 | B53_0) \
	UBC(51, 29, 52, 29, 0, A48_0 | B47_0 | B52_0 | B53_0) \
	UBC(50, 4, 53, 29, 0, A50_0 | A52_0 | B46_0 | B48_0 | B54_0) \
	UBC(51, 6, 53, 6, 0, B49_2) \
	UBC(52, 29, 53, 29, 0, A49_0 | B45_0 | B48_0 | B53_0 | B54_0) \
	UBC(51, 4, 54, 29, 0, A51_0 | B47_0 | B49_0 | B55_0) \
	UBC(52, 6, 54, 6, 0, B50_2) \
	UBC(53, 29, 54, 29, 0, A50_0 | B46_0 | B49_0 | B54_0 | B55_0) \
	UBC(51, 1, 55, 1, 1, B50_2) \
	UBC(53, 6, 55, 6, 0, B51_2) \
	UBC(54, 29, 55, 29, 0, A51_0 | B47_0 | B50_0 | B55_0 | B56_0) \
	UBC(55, 29, 56, 29, 0, A52_0 | B48_0 | B51_0 | B56_0) \
	UBC(61, 2, 62, 7, 1, A46_2 | B46_2) \
	UBC(62, 2, 63, 7, 1, A47_2) \
	UBC(63, 2, 64, 7, 1, A48_2) \

#define SHA1_UBCS_2 \
	UBC(37, 1, 37, 6, 0, A51_2) \
	UBC(35, 5, 39, 30, 0, A51_2) \
	UBC(38, 1, 40, 1, 1, A49_2) \
	UBC(38, 4, 40, 4, 1, A44_0 | B54_0 | B56_0) \
	UBC(39, 6, 40, 1, 0, A49_2) \
	UBC(38, 5, 42, 30, 0, B50_2) \
	UBC(41, 29, 42, 29, 0, A45_0 | A48_0 | A49_0 | B47_0 | B48_0) \
	UBC(39, 5, 43, 30, 0, B51_2) \
	UBC(41, 6, 43, 6, 0, A47_2) \
	UBC(44, 29, 46, 29, 1, A43_0 | A45_0 | A47_0) \
	UBC(45, 6, 46, 1, 0, B49_2) \
	UBC(45, 1, 47, 1, 1, B50_2) \
	UBC(45, 29, 47, 29, 1, A44_0 | A46_0 | A48_0) \
	UBC(47, 29, 49, 29, 1, A46_0 | A48_0 | A50_0) \
	UBC(43, 1, 51, 1, 1, A50_2) \
	UBC(47, 1, 51, 1, 1, B46_2) \
	UBC(50, 29, 52, 29, 1, A49_0 | A51_0 | B45_0) \
	UBC(53, 6, 54, 1, 0, B49_2) \
	UBC(52, 4, 55, 29, 0, A52_0 | B48_0 | B50_0 | B56_0) \
	UBC(55, 6, 56, 1, 0, B51_2) \
	UBC(54, 4, 57, 29, 0, B50_0 | B52_0) \
	UBC(56, 29, 57, 29, 0, B49_0 | B52_0) \
	UBC(55, 4, 58, 29, 0, B51_0 | B53_0) \
	UBC(58, 29, 59, 29, 0, B51_0 | B54_0) \

#define SHA1_UBCS_3 \
	UBC(35, 4, 39, 29, 0, A45_0 | A48_0 | B47_0) \
	UBC(37, 4, 41, 29, 0, A50_0 | B49_0) \
	UBC(38, 4, 42, 29, 0, A51_0 | B50_0) \
	UBC(42, 3, 46, 28, 0, B54_0) \
	UBC(49, 6, 51, 6, 0, A51_2) \
	UBC(51, 6, 52, 1, 0, A51_2) \
	UBC(50, 1, 54, 1, 1, B49_2) \
	UBC(51, 29, 54, 29, 1, A50_0 | B46_0 | B47_0) \
	UBC(48, 29, 55, 29, 1, A51_0 | A52_0) \
	UBC(54, 6, 55, 1, 0, B50_2) \
	UBC(52, 1, 56, 1, 1, B51_2) \
	UBC(53, 4, 56, 29, 0, B49_0 | B51_0) \
	UBC(53, 29, 56, 29, 1, A52_0 | B48_0 | B49_0) \
	UBC(57, 29, 58, 29, 0, B50_0 | B53_0) \
	UBC(56, 29, 59, 29, 1, B51_0 | B52_0) \
	UBC(57, 4, 61, 29, 0, B53_0) \
	UBC(60, 0, 61, 5, 1, A45_0 | B45_0) \
	UBC(61, 0, 62, 5, 1, A46_0 | B46_0) \
	UBC(61, 1, 62, 6, 1, A43_0) \
	UBC(59, 4, 63, 29, 0, B55_0) \
	UBC(59, 5, 63, 30, 0, A43_0) \
	UBC(62, 0, 63, 5, 1, A47_0 | B47_0) \
	UBC(62, 1, 63, 6, 1, A44_0) \
	UBC(63, 1, 64, 6, 1, A45_0 | B45_0) \

#define SHA1_UBCS_4 \
	UBC(36, 4, 37, 4, 1, A50_0) \
	UBC(37, 4, 38, 4, 1, A51_0) \
	UBC(35, 3, 39, 28, 0, A51_0 | B47_0) \
	UBC(38, 4, 39, 4, 1, A52_0) \
	UBC(35, 30, 40, 28, 1, B48_0) \
	UBC(36, 3, 40, 28, 0, B48_0) \
	UBC(36, 30, 41, 28, 1, B49_0) \
	UBC(37, 3, 41, 28, 0, B49_0) \
	UBC(37, 30, 42, 28, 1, B50_0) \
	UBC(38, 3, 42, 28, 0, B50_0) \
	UBC(38, 30, 43, 28, 1, B51_0) \
	UBC(39, 3, 43, 28, 0, B51_0) \
	UBC(39, 4, 43, 29, 0, A52_0 | B51_0) \
	UBC(39, 30, 44, 28, 1, B52_0) \
	UBC(40, 3, 44, 28, 0, B52_0) \
	UBC(40, 4, 44, 29, 0, B52_0) \
	UBC(41, 3, 45, 28, 0, B53_0) \
	UBC(41, 4, 45, 29, 0, B53_0) \
	UBC(42, 4, 46, 29, 0, B54_0) \
	UBC(43, 3, 47, 28, 0, B55_0) \
	UBC(43, 4, 47, 29, 0, B55_0) \
	UBC(44, 3, 48, 28, 0, B56_0) \
	UBC(44, 4, 48, 29, 0, B56_0) \
	UBC(48, 29, 50, 29, 1, A47_0 | A49_0 | A51_0) \
	UBC(49, 29, 51, 29, 1, A48_0 | A50_0 | A52_0) \
	UBC(55, 29, 58, 29, 1, B50_0) \
	UBC(56, 4, 59, 29, 0, B52_0 | B54_0) \
	UBC(57, 4, 59, 29, 0, B55_0) \
	UBC(59, 29, 60, 29, 0, B52_0) \
	UBC(58, 29, 61, 29, 1, B53_0) \
	UBC(58, 4, 62, 29, 0, B54_0) \
	UBC(58, 0, 63, 30, 1, A43_0) \
	UBC(59, 0, 64, 30, 1, A44_0) \
	UBC(60, 4, 64, 29, 0, B56_0) \
	UBC(60, 5, 64, 30, 0, A44_0) \
	UBC(63, 0, 64, 5, 1, A48_0 | B48_0) \

#define SHA1_UBCS SHA1_UBCS_1 SHA1_UBCS_2 SHA1_UBCS_3 SHA1_UBCS_4
/* ---- the UBCs, on 1, 4 or 8 blocks at a time ---- */

/*
 * Lane l of a vector holds a word of block l.  One block alone is done
 * in scalar code (vec1), a few in SSE2 (vec4, x86-64's baseline), and
 * runs of blocks in AVX2 (vec8) where the CPU has it and OPENSSL_ia32cap
 * does not hide it.  The code is written once, for the type V.
 */
typedef uint32_t vec1 __attribute__((vector_size(4)));
typedef int32_t svec1 __attribute__((vector_size(4)));
typedef uint32_t vec4 __attribute__((vector_size(16)));
typedef int32_t svec4 __attribute__((vector_size(16)));
typedef uint32_t vec8 __attribute__((vector_size(32)));
typedef int32_t svec8 __attribute__((vector_size(32)));

static inline uint32_t be32_at(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* W[16..UBC_LAST_WORD] from W[0..15]. */
#define EXPAND(w) \
	_Pragma("GCC unroll 49") \
	for (t = 16; t <= UBC_LAST_WORD; t++) { \
		V x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]; \
		w[t] = x << 1 | x >> 31; \
	}

/*
 * Each relation's DVs in every lane, for the vector and-not.  They are
 * read through a pointer the compiler cannot see through (OPAQUE):
 * folded into immediates, each would cost three instructions more.
 */
#define UBC(i, p, j, q, c, set) { set },
static const vec1 sets1[] = { SHA1_UBCS };
#undef UBC
#define UBC(i, p, j, q, c, set) { set, set, set, set },
static const vec4 sets4[] = { SHA1_UBCS };
#undef UBC
#define UBC(i, p, j, q, c, set) { set, set, set, set, set, set, set, set },
static const vec8 sets8[] = { SHA1_UBCS };
#undef UBC
#define OPAQUE(p) __asm__("" : "+r"(p))

/*
 * Each lane's DV mask: bit d set while every UBC of DV d holds.  W[j]
 * is shifted so that its bit q meets bit p of W[i], the XOR shifted to
 * bit 31 and spread over the word, so that a broken relation clears its
 * DVs with an and (and-not when c is 1) and an and-not.  The empty asm
 * statements keep that order: without them GCC reassociates the chain
 * of ands, computes every relation's word before the first and, and
 * spills most of them (1,933 instructions for four blocks, 1,608 so).
 */
#define ALIGN_BIT(x, from, to) \
	((from) > (to) ? (x) >> ((from) - (to)) : (x) << ((to) - (from)))
#if defined(__SSE2__)
#define KEEP_VEC(x) __asm__("" : "+x"(x))
#elif defined(__aarch64__)
#define KEEP_VEC(x) __asm__("" : "+w"(x))
#else
#define KEEP_VEC(x) __asm__("" : "+g"(x))
#endif
/*
 * A one-lane vector: GCC keeps it in a general register; clang puts no
 * vector there ("r" and "g" fail to build), so with clang (the fuzzers'
 * build) it goes through memory.
 */
#ifdef __clang__
#define KEEP_SCALAR(x) __asm__("" : "+m"(x))
#else
#define KEEP_SCALAR(x) __asm__("" : "+r"(x))
#endif
#define KEEP(x) KEEP_VEC(x)
#define UBC(i, p, j, q, c, set) \
	bit = (V)((SV)((w[i] ^ ALIGN_BIT(w[j], q, p)) << (31 - (p))) >> 31); \
	bit = (c ? ~bit : bit) & sets[k++]; \
	KEEP(bit); \
	mask &= ~bit; \
	KEEP(mask);
#define UBC_MASK(w, none_left) \
	OPAQUE(sets); \
	mask = ~(V){ 0 }; \
	k = 0; \
	SHA1_UBCS_1 \
	if (none_left(mask)) \
		goto done; \
	SHA1_UBCS_2 \
	if (none_left(mask)) \
		goto done; \
	SHA1_UBCS_3 \
	if (none_left(mask)) \
		goto done; \
	SHA1_UBCS_4 \
done:

/* Whether every lane's mask is empty: the check may stop. */
static inline int none1(vec1 m)
{
	return !m[0];
}

static inline int none4(vec4 m)
{
#ifdef __SSE2__
	__m128i z = _mm_cmpeq_epi32((__m128i)m, _mm_setzero_si128());

	return _mm_movemask_epi8(z) == 0xffff;
#else
	return !(m[0] | m[1] | m[2] | m[3]);
#endif
}

#undef KEEP
#define KEEP(x) KEEP_SCALAR(x)
static uint32_t ubc_mask1(const unsigned char *p)
{
	typedef vec1 V;
	typedef svec1 SV;
	const V *sets = sets1;
	V w[UBC_LAST_WORD + 1], mask, bit;
	int t, k;

	for (t = 0; t < 16; t++)
		w[t] = (V){ be32_at(p + 4 * t) };
	EXPAND(w)
	UBC_MASK(w, none1)
	return mask[0];
}
#undef KEEP
#define KEEP(x) KEEP_VEC(x)

/* Word t of each of the four blocks at p, as big-endian numbers. */
#ifdef __SSE2__
static inline vec4 bswap_lanes(__m128i x)
{
	x = _mm_shufflelo_epi16(x, 0xb1);	/* the halves of each word */
	x = _mm_shufflehi_epi16(x, 0xb1);
	return (vec4)_mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
}

static inline void load4(vec4 *w, const unsigned char *p)
{
	int t;

	for (t = 0; t < 16; t += 4) {
		const __m128i *q = (const __m128i *)(p + 4 * t);
		__m128i r0 = _mm_loadu_si128(q);
		__m128i r1 = _mm_loadu_si128(q + 4);
		__m128i r2 = _mm_loadu_si128(q + 8);
		__m128i r3 = _mm_loadu_si128(q + 12);
		__m128i lo01 = _mm_unpacklo_epi32(r0, r1);
		__m128i hi01 = _mm_unpackhi_epi32(r0, r1);
		__m128i lo23 = _mm_unpacklo_epi32(r2, r3);
		__m128i hi23 = _mm_unpackhi_epi32(r2, r3);

		w[t] = bswap_lanes(_mm_unpacklo_epi64(lo01, lo23));
		w[t + 1] = bswap_lanes(_mm_unpackhi_epi64(lo01, lo23));
		w[t + 2] = bswap_lanes(_mm_unpacklo_epi64(hi01, hi23));
		w[t + 3] = bswap_lanes(_mm_unpackhi_epi64(hi01, hi23));
	}
}
#else
static inline void load4(vec4 *w, const unsigned char *p)
{
	int t;

	for (t = 0; t < 16; t++)
		w[t] = (vec4){ be32_at(p + 4 * t), be32_at(p + 64 + 4 * t),
			       be32_at(p + 128 + 4 * t),
			       be32_at(p + 192 + 4 * t) };
}
#endif

/* The masks of the four blocks at p into out[0..3]. */
static void ubc_mask4(const unsigned char *p, uint32_t *out)
{
	typedef vec4 V;
	typedef svec4 SV;
	const V *sets = sets4;
	V w[UBC_LAST_WORD + 1], mask, bit;
	int t, k;

	load4(w, p);
	EXPAND(w)
	UBC_MASK(w, none4)
	memcpy(out, &mask, sizeof(mask));
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2_PATH 1
__attribute__((target("avx2")))
static inline int none8(vec8 m)
{
	return _mm256_testz_si256((__m256i)m, (__m256i)m);
}

/* The masks of the eight blocks at p into out[0..7], in AVX2. */
__attribute__((target("avx2")))
static void ubc_mask8(const unsigned char *p, uint32_t *out)
{
	typedef vec8 V;
	typedef svec8 SV;
	const V *sets = sets8;
	V w[UBC_LAST_WORD + 1], mask, bit;
	vec4 lo[16], hi[16];
	int t, k;

	load4(lo, p);
	load4(hi, p + 256);
	for (t = 0; t < 16; t++)
		w[t] = (V)_mm256_inserti128_si256(
			_mm256_castsi128_si256((__m128i)lo[t]),
			(__m128i)hi[t], 1);
	EXPAND(w)
	UBC_MASK(w, none8)
	memcpy(out, &mask, sizeof(mask));
}

#endif

const char *sha1_ubc_simd(void)
{
#ifdef HAVE_AVX2_PATH
	if (cpu_has_avx2())
		return "avx2";
#endif
#ifdef __SSE2__
	return "sse2";
#else
	return "generic";
#endif
}

/* The DV masks of the n blocks at p into out[0..n-1]. */
static void ubc_masks(const unsigned char *p, size_t n, uint32_t *out)
{
	unsigned char tail[256];
	uint32_t m[4];

#ifdef HAVE_AVX2_PATH
	if (cpu_has_avx2())
		for (; n >= 8; n -= 8, p += 512, out += 8)
			ubc_mask8(p, out);
#endif
	for (; n >= 4; n -= 4, p += 256, out += 4)
		ubc_mask4(p, out);
	if (n > 2) {
		memcpy(tail, p, 64 * n);
		memset(tail + 64 * n, 0, sizeof(tail) - 64 * n);
		ubc_mask4(tail, m);
		memcpy(out, m, sizeof(*out) * n);
		return;
	}
	for (; n; n--, p += 64, out++)
		*out = ubc_mask1(p);
}

/*
 * The reference the stages are checked against (TEST ONLY, t1435): the
 * table read in one piece, a relation at a time, in scalar code.
 */
#undef UBC
#define UBC(i, p, j, q, c, set) { i, p, j, q, c, set },
static const struct ubc {
	unsigned char i, p, j, q, c;
	uint32_t set;
} ubc_table[] = { SHA1_UBCS };
#undef UBC

static uint32_t ubc_mask_ref(const unsigned char *p)
{
	uint32_t w[UBC_LAST_WORD + 1], mask = ~0u, x;
	size_t t;

	for (t = 0; t < 16; t++)
		w[t] = be32_at(p + 4 * t);
	for (t = 16; t <= UBC_LAST_WORD; t++) {
		x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16];
		w[t] = x << 1 | x >> 31;
	}
	for (t = 0; t < sizeof(ubc_table) / sizeof(ubc_table[0]); t++) {
		const struct ubc *u = &ubc_table[t];

		if (((w[u->i] >> u->p ^ w[u->j] >> u->q) & 1) != u->c)
			mask &= ~u->set;
	}
	return mask;
}

int sha1_ubc_selfcheck(const unsigned char *p, size_t n, size_t *flagged)
{
	uint32_t mask[64];
	size_t i, k;
	int bad = 0;

	for (; n; n -= k, p += 64 * k) {
		k = n < 64 ? n : 64;
		ubc_masks(p, k, mask);
		for (i = 0; i < k; i++) {
			bad += mask[i] != ubc_mask_ref(p + 64 * i);
			*flagged += !!mask[i];
		}
	}
	return bad;
}

/* ---- the DVs' message differences ---- */

static uint32_t dv_dm[NR_DVS][80];
static unsigned char dv_step[NR_DVS];
static pthread_once_t dm_once = PTHREAD_ONCE_INIT;

static inline uint32_t rol(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

/*
 * A DV is a solution of the message expansion: I(K,b) is zero in
 * DV[K..K+14] with DV[K+15] = 2^b; II(K,b) is the same with DV[K+1] and
 * DV[K+3] = 2^(b-1 mod 32) too.  The recurrence gives the rest, both
 * ways, down to DV[-5].  Each disturbance at step i is a local
 * collision, corrected at steps i+1 to i+5, whence dm.  The twins'
 * states agree after step t when DV[t-5..t-1] is zero: the test step
 * is 65 when that holds there, else 58 (the two the paper uses).
 */
static void make_dv(const struct dv *d, uint32_t *dm, unsigned char *step)
{
	uint32_t v[85], *x = v + 5;	/* x[i] is DV[i], i >= -5 */
	int i, k = d->k;

	memset(v, 0, sizeof(v));
	x[k + 15] = 1u << d->b;
	if (d->type == 2)
		x[k + 1] = x[k + 3] = rol(1u << d->b, 31);
	for (i = k + 16; i < 80; i++)
		x[i] = rol(x[i - 3] ^ x[i - 8] ^ x[i - 14] ^ x[i - 16], 1);
	for (i = k - 1; i >= -5; i--)
		x[i] = rol(x[i + 16], 31) ^ x[i + 13] ^ x[i + 8] ^ x[i + 2];
	for (i = 0; i < 80; i++)
		dm[i] = x[i] ^ rol(x[i - 1], 5) ^ x[i - 2] ^
			rol(x[i - 3] ^ x[i - 4] ^ x[i - 5], 30);
	*step = !(x[60] | x[61] | x[62] | x[63] | x[64]) ? 65 : 58;
}

static void make_dms(void)
{
	size_t d;

	for (d = 0; d < NR_DVS; d++)
		make_dv(&dvs[d], dv_dm[d], &dv_step[d]);
}

/* ---- the round functions ---- */

#define F_IF(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define F_XOR(b, c, d) ((b) ^ (c) ^ (d))
#define F_MAJ(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))

/* ---- the twins, 4 or 8 at a time ---- */

/*
 * A flagged block as the twins' test needs it: its 16 message words,
 * the chaining values before and after it, and its DV mask.
 */
struct flagged {
	uint32_t m[16], ihv[5], out[5];
	uint32_t mask;
};

/* A twin to test: block b's under DV d. */
struct twin {
	const struct flagged *b;
	unsigned int d;
};

/*
 * The flagged blocks of one sha1_update, kept until POOL of them are
 * there (or the call ends) so that their twins, a DV or two each, fill
 * the vector lanes: a lane holds one twin, all at one test step.  A
 * test costs the same however few lanes it fills (its 80 steps are one
 * chain of dependent operations), and a pool of 8 blocks left most of
 * the lanes of its step-65 test empty: 32 fill them better.
 */
#define POOL 32
struct pool {
	struct flagged b[POOL];
	size_t nr;
};

#define VROL(x, n) ((x) << (n) | (x) >> (32 - (n)))

/* Steps [from, to) of message W in round [lo, hi), in every lane. */
#define VFORWARD(W, from, to, f, k, lo, hi) \
	for (i = from > lo ? from : lo; i < to && i < hi; i++) { \
		V t = VROL(a, 5) + f(b, c, d) + e + k + W[i]; \
		e = d; \
		d = c; \
		c = VROL(b, 30); \
		b = a; \
		a = t; \
	}
#define VBACKWARD(W, from, to, f, k, lo, hi) \
	for (i = (to < hi ? to : hi) - 1; i >= lo && i >= from; i--) { \
		V t = a; \
		a = b; \
		b = VROL(c, 2); \
		c = d; \
		d = e; \
		e = t - VROL(a, 5) - f(b, c, d) - k - W[i]; \
	}
#define VSTEPS_FORWARD(W, from, to) \
	VFORWARD(W, from, to, F_IF, 0x5a827999u, 0, 20) \
	VFORWARD(W, from, to, F_XOR, 0x6ed9eba1u, 20, 40) \
	VFORWARD(W, from, to, F_MAJ, 0x8f1bbcdcu, 40, 60) \
	VFORWARD(W, from, to, F_XOR, 0xca62c1d6u, 60, 80)
#define VSTEPS_BACKWARD(W, from, to) \
	VBACKWARD(W, from, to, F_XOR, 0xca62c1d6u, 60, 80) \
	VBACKWARD(W, from, to, F_MAJ, 0x8f1bbcdcu, 40, 60) \
	VBACKWARD(W, from, to, F_XOR, 0x6ed9eba1u, 20, 40) \
	VBACKWARD(W, from, to, F_IF, 0x5a827999u, 0, 20)
#define VEXPAND(W) \
	for (i = 16; i < 80; i++) { \
		V x = W[i - 3] ^ W[i - 8] ^ W[i - 14] ^ W[i - 16]; \
		W[i] = VROL(x, 1); \
	}

/*
 * The twins tw[0..n-1] (n at most LANES; the spare lanes redo twin 0):
 * our state before step T (back from the block's output), the twin's
 * from there back to step 0 (its chaining value) and on to step 80
 * with the twin's message (ours XOR the DV's dm, which the expansion
 * keeps): 1 when a twin's output is ours.
 */
#define TWINS_BODY(LANES, T) \
	enum { STEP = T }; \
	V w[80], w2[80], a, b, c, d, e, sa, sb, sc, sd, se, o[5], h[5]; \
	V diff; \
	int i, l; \
	for (l = 0; l < LANES; l++) { \
		const struct twin *x = &tw[l < n ? l : 0]; \
		for (i = 0; i < 16; i++) { \
			w[i][l] = x->b->m[i]; \
			w2[i][l] = x->b->m[i] ^ dv_dm[x->d][i]; \
		} \
		for (i = 0; i < 5; i++) { \
			o[i][l] = x->b->out[i]; \
			h[i][l] = x->b->ihv[i]; \
		} \
	} \
	VEXPAND(w) \
	VEXPAND(w2) \
	a = o[0] - h[0]; \
	b = o[1] - h[1]; \
	c = o[2] - h[2]; \
	d = o[3] - h[3]; \
	e = o[4] - h[4]; \
	VSTEPS_BACKWARD(w, STEP, 80) \
	sa = a; \
	sb = b; \
	sc = c; \
	sd = d; \
	se = e; \
	VSTEPS_BACKWARD(w2, 0, STEP) \
	h[0] = a; \
	h[1] = b; \
	h[2] = c; \
	h[3] = d; \
	h[4] = e; \
	a = sa; \
	b = sb; \
	c = sc; \
	d = sd; \
	e = se; \
	VSTEPS_FORWARD(w2, STEP, 80) \
	diff = (h[0] + a - o[0]) | (h[1] + b - o[1]) | (h[2] + c - o[2]) | \
	       (h[3] + d - o[3]) | (h[4] + e - o[4]); \
	for (l = 0; l < n; l++) \
		if (!diff[l]) \
			return 1; \
	return 0;

static int twins4_58(const struct twin *tw, int n)
{
	typedef vec4 V;
	TWINS_BODY(4, 58)
}

static int twins4_65(const struct twin *tw, int n)
{
	typedef vec4 V;
	TWINS_BODY(4, 65)
}

#ifdef HAVE_AVX2_PATH
__attribute__((target("avx2")))
static int twins8_58(const struct twin *tw, int n)
{
	typedef vec8 V;
	TWINS_BODY(8, 58)
}

__attribute__((target("avx2")))
static int twins8_65(const struct twin *tw, int n)
{
	typedef vec8 V;
	TWINS_BODY(8, 65)
}
#endif

static int twin_lanes(void)
{
#ifdef HAVE_AVX2_PATH
	if (cpu_has_avx2())
		return 8;
#endif
	return 4;
}

/* The n twins of a queue, all at test step t. */
static int test_twins(const struct twin *tw, int n, int t)
{
#ifdef HAVE_AVX2_PATH
	if (cpu_has_avx2())
		return t == 58 ? twins8_58(tw, n) : twins8_65(tw, n);
#endif
	return t == 58 ? twins4_58(tw, n) : twins4_65(tw, n);
}

/*
 * Test the twins of every DV in the pooled blocks' masks, a queue for
 * each test step, run whenever its lanes are full: 1 when one collides.
 */
static int flush_pool(struct pool *pl)
{
	struct twin q[2][8];
	int nq[2] = { 0, 0 }, lanes = twin_lanes(), hit = 0, k;
	uint32_t m;
	size_t i, d;

	pthread_once(&dm_once, make_dms);
	for (i = 0; i < pl->nr; i++) {
		for (m = pl->b[i].mask; m; m &= m - 1) {
			d = __builtin_ctz(m);
			k = dv_step[d] == 65;
			q[k][nq[k]].b = &pl->b[i];
			q[k][nq[k]].d = d;
			if (++nq[k] < lanes)
				continue;
			hit |= test_twins(q[k], lanes, k ? 65 : 58);
			nq[k] = 0;
		}
	}
	for (k = 0; k < 2; k++)
		if (nq[k])
			hit |= test_twins(q[k], nq[k], k ? 65 : 58);
	pl->nr = 0;
	return hit;
}

/*
 * The block at p, with DV mask mask, took ihv to out (OpenSSL did it):
 * into the pool; 1 when the pool, full, was tested and a twin collided.
 */
static int add_flagged(struct pool *pl, const uint32_t *ihv,
		       const unsigned char *p, uint32_t mask,
		       const uint32_t *out)
{
	struct flagged *f = &pl->b[pl->nr++];
	int i;

	for (i = 0; i < 16; i++)
		f->m[i] = be32_at(p + 4 * i);
	memcpy(f->ihv, ihv, sizeof(f->ihv));
	memcpy(f->out, out, sizeof(f->out));
	f->mask = mask;
	return pl->nr == POOL ? flush_pool(pl) : 0;
}

/* ---- the test switch ---- */

enum fire_kind { FIRE_NEVER, FIRE_ALL, FIRE_ID, FIRE_DATA };
static struct {
	enum fire_kind kind;
	size_t len;
	char arg[128];
} fire;
static pthread_once_t fire_once = PTHREAD_ONCE_INIT;
static int no_ubc;

static void read_fire(void)
{
	const char *v = getenv("DIRCACHE_TEST_SHA1DC_FIRE");

	no_ubc = !!getenv("DIRCACHE_TEST_SHA1DC_NO_UBC");

	if (!v || !*v)
		return;
	if (!strcmp(v, "all")) {
		fire.kind = FIRE_ALL;
		return;
	}
	if (!strncmp(v, "id:", 3))
		fire.kind = FIRE_ID;
	else if (!strncmp(v, "data:", 5))
		fire.kind = FIRE_DATA;
	else
		return;
	v = strchr(v, ':') + 1;
	fire.len = strlen(v);
	if (fire.len >= sizeof(fire.arg) || !fire.len) {
		fire.kind = FIRE_NEVER;
		return;
	}
	memcpy(fire.arg, v, fire.len + 1);
}

static int fires_on_id(const unsigned char *md)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < fire.len; i++) {
		int nib = i & 1 ? md[i / 2] & 15 : md[i / 2] >> 4;

		if (i >= 40 || fire.arg[i] != hex[nib])
			return 0;
	}
	return 1;
}

/* ---- the context ---- */

#undef SHA1_Init
#undef SHA1_Update

void sha1_init(struct sha1_ctx *c)
{
	SHA1_Init(&c->h);
	c->len = 0;
	c->used = 0;
	c->attack = 0;
	c->fired = 0;
	c->flagged = 0;
	pthread_once(&fire_once, read_fire);
}

static void get_ihv(const struct sha1_ctx *c, uint32_t *ihv)
{
	ihv[0] = c->h.h0;
	ihv[1] = c->h.h1;
	ihv[2] = c->h.h2;
	ihv[3] = c->h.h3;
	ihv[4] = c->h.h4;
}

/*
 * The n whole blocks at p: the UBCs of a batch first, then OpenSSL on
 * each run of clean blocks (SHA1_Update hashes whole blocks in place
 * when it holds no partial one, as ours never does), block by block
 * where a block is flagged, to test its twins between the chaining
 * values before and after it.
 */
static void hash_blocks(struct sha1_ctx *c, struct pool *pl,
			const unsigned char *p, size_t n)
{
	uint32_t mask[64], ihv[5], out[5];
	size_t k, i, run;

	for (; n; n -= k, p += 64 * k) {
		k = n < 64 ? n : 64;
		ubc_masks(p, k, mask);
		if (no_ubc)
			memset(mask, 0xff, sizeof(*mask) * k);
		for (i = 0; i < k; i = run + 1) {
			for (run = i; run < k && !mask[run]; run++)
				;
			if (run > i)
				SHA1_Update(&c->h, p + 64 * i, 64 * (run - i));
			if (run == k)
				break;
			get_ihv(c, ihv);
			SHA1_Update(&c->h, p + 64 * run, 64);
			get_ihv(c, out);
			c->flagged++;
			if (add_flagged(pl, ihv, p + 64 * run, mask[run], out))
				c->attack = 1;
		}
	}
}

/* The twins of the blocks still pooled, tested. */
static void drain_pool(struct sha1_ctx *c, struct pool *pl)
{
	if (pl->nr && flush_pool(pl))
		c->attack = 1;
}

/*
 * One pool for the whole call: the block completed from buf and the
 * blocks that follow share it (a pool of its own, the first block of
 * every file hashed after its header would take a test alone).
 */
void sha1_update(struct sha1_ctx *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	struct pool pl;

	if (!len)
		return;
	if (fire.kind == FIRE_DATA && memmem(p, len, fire.arg, fire.len))
		c->fired = 1;
	c->len += len;
	if (c->used) {
		size_t n = 64 - c->used < len ? 64 - c->used : len;

		memcpy(c->buf + c->used, p, n);
		c->used += n;
		p += n;
		len -= n;
		if (c->used < 64)
			return;
	}
	pl.nr = 0;
	if (c->used) {
		hash_blocks(c, &pl, c->buf, 1);
		c->used = 0;
	}
	if (len >= 64) {
		hash_blocks(c, &pl, p, len / 64);
		p += len & ~(size_t)63;
		len &= 63;
	}
	drain_pool(c, &pl);
	memcpy(c->buf, p, len);
	c->used = len;
}

static void store_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

int sha1_final(unsigned char *md, struct sha1_ctx *c)
{
	unsigned char pad[128];
	size_t n = c->used < 56 ? 64 : 128;
	uint64_t bits = c->len << 3;
	struct pool pl;

	memcpy(pad, c->buf, c->used);
	memset(pad + c->used, 0, n - c->used);
	pad[c->used] = 0x80;
	store_be32(pad + n - 8, bits >> 32);
	store_be32(pad + n - 4, bits);
	pl.nr = 0;
	hash_blocks(c, &pl, pad, n / 64);
	drain_pool(c, &pl);
	store_be32(md, c->h.h0);
	store_be32(md + 4, c->h.h1);
	store_be32(md + 8, c->h.h2);
	store_be32(md + 12, c->h.h3);
	store_be32(md + 16, c->h.h4);
	if (fire.kind == FIRE_ALL || (fire.kind == FIRE_ID && fires_on_id(md)))
		c->fired = 1;
	return c->attack || c->fired ? -1 : 0;
}

int sha1_collision_error(const char *what)
{
	return error("%s: SHA-1 collision attack detected", what);
}
