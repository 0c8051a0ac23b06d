/*
 * store_sse2.c — 128-bit temporal and non-temporal stores, and the 64-bit movnti row.
 * ISA: SSE2 (baseline x86-64, no extra flag), so these rows run on every x86-64 CPU and prove
 * the shared loop shape (store_loop.h) that the AVX2 and AVX-512 rows reuse.
 */
#include <immintrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

static inline __m128i sse2_splat(int c)
{
	return _mm_set1_epi8((char)c);
}

STORE_VEC_FAMILY(sse2, __m128i, 16, sse2_splat, store_small_lt16, store_small_lt64_sse2,
		 _mm_storeu_si128, _mm_store_si128, _mm_stream_si128)

/* The 64-bit movnti row: eight movnti per whole line, scalar stores on the partial lines. */
static inline void scalar_nt_body(unsigned char *p, uint64_t v)
{
	_mm_stream_si64((long long *)p, (long long)v);
}

STORE_LINE_LOOP(scalar_nt_loop, uint64_t, 8, splat64, store_small_lt64_scalar, scalar_nt_body)

/* The kernels.def rows that run this file's loops (store_rows.h). */
#define STORE_LOOP_HERE_sse2_t_loop() ~, 1
#define STORE_LOOP_HERE_sse2_nt_loop() ~, 1
#define STORE_LOOP_HERE_scalar_nt_loop() ~, 1
#include "store_rows.h"
