/*
 * store_avx512.c — 512-bit temporal and non-temporal (vmovntdq zmm) stores.
 * ISA: AVX-512F only (this file alone gets -mavx512f): the byte is broadcast as a 32-bit pattern
 * so AVX512BW is not needed; the harness calls it only after cpu.c saw ZMM state enabled in XCR0.
 */
#include <immintrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

/* vpbroadcastd of the replicated byte: AVX512F; a byte broadcast would need AVX512BW. */
static inline __m512i avx512_splat(int c)
{
	return _mm512_set1_epi32((int)((unsigned char)c * 0x01010101u));
}

/* One helper serves both: below 64 bytes the t loop's short fill is also the nt loop's edge. */
STORE_VEC_FAMILY(avx512, __m512i, 64, avx512_splat, store_small_lt64_avx,
		 store_small_lt64_avx, _mm512_storeu_si512, _mm512_store_si512,
		 _mm512_stream_si512)

/* The kernels.def rows that run this file's loops (store_rows.h). */
#define STORE_LOOP_HERE_avx512_t_loop() ~, 1
#define STORE_LOOP_HERE_avx512_nt_loop() ~, 1
#include "store_rows.h"
