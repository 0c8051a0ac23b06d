/*
 * load_avx2.c — the 256-bit load kernel, the read side of rw mixes on AVX2 CPUs.
 * ISA: AVX2 (this file alone is compiled with -mavx2; the harness calls it only after cpu.c saw
 * AVX2 in CPUID and YMM state enabled in XCR0).
 */
#include <immintrin.h>

#include "load.h"
#include "load_loop.h"

static inline __m256i avx2_loadu(const unsigned char *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

static inline __m256i avx2_load(const unsigned char *p)
{
	return _mm256_load_si256((const __m256i *)p);
}

LOAD_KERNEL(avx2, __m256i, load_small_lt32_sse2, _mm256_setzero_si256, avx2_loadu, avx2_load,
	    _mm256_or_si256, load_fold256)
