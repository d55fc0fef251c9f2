/*
 * cpu.c: which extensions of the CPU our own code may use.
 *
 * OpenSSL picks its code by CPUID, masked by OPENSSL_ia32cap; make
 * bench CPU=baseline sets that mask to emulate a CPU without SHA-NI,
 * AVX and AVX2.  Our own vector code (the UBC check in sha1dc.c, the
 * BMI2 decode loop in inflate.c) reads the same variable the way
 * OpenSSL does, so that the emulation holds for all of the tools'
 * code, not only for OpenSSL's.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static int has_avx2, has_bmi2;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

/* Whether v ("~x" clears x's bits, "x" replaces them) keeps bit. */
static int cap_kept(const char *v, uint64_t bit)
{
	if (*v == '~')
		return !(strtoull(v + 1, NULL, 0) & bit);
	return !!(strtoull(v, NULL, 0) & bit);
}

/*
 * OPENSSL_ia32cap is "[~]a[:[~]b]": a over CPUID.1 EDX:ECX (AVX is bit
 * 60), b over CPUID.7 EBX:ECX (AVX2 bit 5, BMI2 bit 8); a value without
 * ":b" clears all of b, as OpenSSL reads it.  BMI2 came with AVX2 (Intel
 * Haswell, AMD Zen): a CPU emulated without AVX2 has no BMI2 either.
 */
static void check_cpu(void)
{
	const char *cap = getenv("OPENSSL_ia32cap"), *second;

#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	has_avx2 = !!__builtin_cpu_supports("avx2");
	has_bmi2 = __builtin_cpu_supports("bmi2") && has_avx2;
#endif
	if (!cap)
		return;
	second = strchr(cap, ':');
	if (*cap != ':' && !cap_kept(cap, 1ull << 60))
		has_avx2 = 0;
	if (!second || !cap_kept(second + 1, 1ull << 5))
		has_avx2 = 0;
	if (!has_avx2 || !cap_kept(second + 1, 1ull << 8))
		has_bmi2 = 0;
}

int cpu_has_avx2(void)
{
	pthread_once(&cpu_once, check_cpu);
	return has_avx2;
}

int cpu_has_bmi2(void)
{
	pthread_once(&cpu_once, check_cpu);
	return has_bmi2;
}
