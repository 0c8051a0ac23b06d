/*
 * store_flush.c — temporal 256-bit stores with a cache-control instruction on every written line.
 * ISA: AVX2 + CLFLUSHOPT + CLWB (this file alone gets -mavx2 -mclflushopt -mclwb; each row is
 * gated on its own CPUID bit).  Why: shows what pushing each line out of the cache costs.
 */
#include <immintrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

#define LINE 64

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
 * Head and tail are written exactly, not with overlapping stores: an overlapping store would
 * re-dirty a line after it was flushed.  Every line the call wrote is flushed once, after its
 * last store.
 */
#define FLUSH_HOOKS(insn, flush)							\
static inline void insn##_small(unsigned char *d, int c, size_t n)			\
{											\
	store_small_lt64_avx(d, c, n);							\
	if (n == 0)									\
		return;									\
	flush(d);									\
	if (((uintptr_t)d ^ (uintptr_t)(d + n - 1)) >= LINE)				\
		flush(d + n - 1);							\
}											\
											\
static inline unsigned char *insn##_head(unsigned char *d, __m256i v)			\
{											\
	unsigned char *p = align_up(d, LINE);						\
											\
	if (p != d) {									\
		store_small_lt64_avx(d, _mm256_cvtsi256_si32(v), (size_t)(p - d));	\
		flush(d);								\
	}										\
	return p;									\
}											\
											\
static inline void insn##_body(unsigned char *p, __m256i v)				\
{											\
	line_store(p, v);								\
	flush(p);									\
}											\
											\
static inline void insn##_tail(unsigned char *p, unsigned char *e, __m256i v)		\
{											\
	if (p < e) {									\
		store_small_lt64_avx(p, _mm256_cvtsi256_si32(v), (size_t)(e - p));	\
		flush(p);								\
	}										\
}											\
											\
STORE_LOOP(insn##_loop, __m256i, LINE, flush_splat, insn##_small, insn##_head,		\
	   insn##_body, insn##_tail)

FLUSH_HOOKS(clflushopt, _mm_clflushopt)
FLUSH_HOOKS(clwb, _mm_clwb)

/* One line per iteration: the two ymm stores of the line are the row's unroll. */
STORE_KERNEL_NT(avx2_clflushopt, clflushopt_loop, 1)
STORE_KERNEL_NT(avx2_clwb, clwb_loop, 1)
