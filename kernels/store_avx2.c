/*
 * store_avx2.c — 256-bit temporal and non-temporal (vmovntdq ymm) stores.
 * ISA: AVX2 (this file alone is compiled with -mavx2; the harness calls it only after cpu.c saw
 * AVX2 in CPUID and YMM state enabled in XCR0).
 */
#include <immintrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

static inline __m256i avx2_splat(int c)
{
	return _mm256_set1_epi8((char)c);
}

STORE_VEC_FAMILY(avx2, __m256i, 32, avx2_splat, store_small_lt32_sse2, store_small_lt64_avx,
		 _mm256_storeu_si256, _mm256_store_si256, _mm256_stream_si256)

/* The kernels.def rows that run this file's loops (store_rows.h). */
#define STORE_LOOP_HERE_avx2_t_loop() ~, 1
#define STORE_LOOP_HERE_avx2_nt_loop() ~, 1
#include "store_rows.h"
