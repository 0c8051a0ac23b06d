/*
 * load_avx512.c — the 512-bit load kernel, the read side of rw mixes on AVX-512 CPUs.
 * ISA: AVX-512F only (this file alone gets -mavx512f; vpord needs nothing more); the harness calls
 * it only after cpu.c saw ZMM and opmask state enabled in XCR0.
 */
#include <immintrin.h>

#include "load.h"
#include "load_loop.h"

static inline __m512i avx512_loadu(const unsigned char *p)
{
	return _mm512_loadu_si512(p);
}

static inline __m512i avx512_load(const unsigned char *p)
{
	return _mm512_load_si512(p);
}

static inline uint64_t avx512_fold(__m512i v)
{
	return load_fold256(_mm256_or_si256(_mm512_castsi512_si256(v),
					    _mm512_extracti64x4_epi64(v, 1)));
}

LOAD_KERNEL(avx512, __m512i, load_small_lt64_avx, _mm512_setzero_si512, avx512_loadu, avx512_load,
	    _mm512_or_si512, avx512_fold)
