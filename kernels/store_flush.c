/*
 * store_flush.c — temporal 256-bit stores with a cache-control instruction on every written line.
 * ISA: AVX2 + CLFLUSHOPT + CLWB (this file alone gets -mavx2 -mclflushopt -mclwb; each row is
 * gated on its own CPUID bit).  Why: shows what pushing each line out of the cache costs.
 */
#include <immintrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

static inline __m256i flush_splat(int c)
{
	return _mm256_set1_epi8((char)c);
}

/* The unit is one 64-byte line written by two aligned ymm stores (the row's width 32, unroll 2). */
static inline void line_store(unsigned char *p, __m256i v)
{
	_mm256_store_si256((__m256i *)p, v);
	_mm256_store_si256((__m256i *)(p + 32), v);
}

/*
 * Partial lines are written exactly, never with a store overlapping the next line: that would
 * re-dirty a line already flushed.  Every line the call wrote is flushed once, after its last
 * store; a call shorter than a line may span two lines, both flushed by its one edge.
 */
#define FLUSH_HOOKS(insn, flush)							\
static inline void insn##_edge(unsigned char *d, int c, size_t n)			\
{											\
	store_small_lt64_avx(d, c, n);							\
	if (n == 0)									\
		return;									\
	flush(d);									\
	if (((uintptr_t)d ^ (uintptr_t)(d + n - 1)) >= STORE_LINE)			\
		flush(d + n - 1);							\
}											\
											\
static inline void insn##_body(unsigned char *p, __m256i v)				\
{											\
	line_store(p, v);								\
	flush(p);									\
}											\
											\
STORE_LINE_LOOP(insn##_loop, __m256i, STORE_LINE, flush_splat, insn##_edge, insn##_body)

FLUSH_HOOKS(clflushopt, _mm_clflushopt)
FLUSH_HOOKS(clwb, _mm_clwb)

/* The kernels.def rows that run this file's loops (store_rows.h). */
#define STORE_LOOP_HERE_clflushopt_loop() ~, 1
#define STORE_LOOP_HERE_clwb_loop() ~, 1
#include "store_rows.h"
