/*
 * load_sse2.c — the 128-bit load kernel, the read side of rw mixes on any x86-64 CPU.
 * ISA: SSE2 (baseline x86-64, no extra flag), so a read kernel exists wherever storebench runs.
 * The loop is load_loop.h's, so this row and the AVX2/AVX-512 ones differ only in width.
 */
#include <immintrin.h>

#include "load.h"
#include "load_loop.h"

static inline __m128i sse2_loadu(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline __m128i sse2_load(const unsigned char *p)
{
	return _mm_load_si128((const __m128i *)p);
}

LOAD_KERNEL(sse2, __m128i, load_small_lt16, _mm_setzero_si128, sse2_loadu, sse2_load,
	    _mm_or_si128, load_fold128)
