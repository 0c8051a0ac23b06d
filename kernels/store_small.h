/*
 * store_small.h — exact temporal fills shorter than a vector or a line, shared by the ISA files.
 * Scalar helpers need no ISA flag; the 16/32-byte helpers exist only where SSE2/AVX are enabled.
 * Why: short calls and the partial end lines of nt rows must write exactly [d, d+n), no more.
 */
#ifndef STOREBENCH_STORE_SMALL_H
#define STOREBENCH_STORE_SMALL_H

#include <stddef.h>
#include <stdint.h>

#include "mem_access.h"

#ifdef __SSE2__
#include <immintrin.h>
#endif

static inline uint64_t splat64(int c)
{
	return (uint64_t)(unsigned char)c * 0x0101010101010101ull;
}

static inline void st64(unsigned char *p, uint64_t v)
{
	*(sb_u64 *)p = v;
}

/* n < 16: a pair of overlapping stores of the widest scalar that fits, so no loop and no call. */
static inline void store_small_lt16(unsigned char *d, int c, size_t n)
{
	const uint64_t v = splat64(c);

	if (n >= 8) {
		st64(d, v);
		st64(d + n - 8, v);
	} else if (n >= 4) {
		*(sb_u32 *)d = (uint32_t)v;
		*(sb_u32 *)(d + n - 4) = (uint32_t)v;
	} else if (n >= 2) {
		*(sb_u16 *)d = (uint16_t)v;
		*(sb_u16 *)(d + n - 2) = (uint16_t)v;
	} else if (n == 1) {
		*d = (unsigned char)c;
	}
}

/* n < 64 with scalar stores only: the head and tail of the line kernels (clzero, movdir64b). */
static inline void store_small_lt64_scalar(unsigned char *d, int c, size_t n)
{
	const uint64_t v = splat64(c);

	if (n >= 32) {
		st64(d, v);
		st64(d + 8, v);
		st64(d + 16, v);
		st64(d + 24, v);
		st64(d + n - 32, v);
		st64(d + n - 24, v);
		st64(d + n - 16, v);
		st64(d + n - 8, v);
	} else if (n >= 16) {
		st64(d, v);
		st64(d + 8, v);
		st64(d + n - 16, v);
		st64(d + n - 8, v);
	} else {
		store_small_lt16(d, c, n);
	}
}

#ifdef __SSE2__
/* n < 32: two overlapping 16-byte stores, or the scalar pair below 16. */
static inline void store_small_lt32_sse2(unsigned char *d, int c, size_t n)
{
	if (n >= 16) {
		const __m128i v = _mm_set1_epi64x((long long)splat64(c));

		_mm_storeu_si128((__m128i *)d, v);
		_mm_storeu_si128((__m128i *)(d + n - 16), v);
	} else {
		store_small_lt16(d, c, n);
	}
}

/* n < 64: two or four overlapping 16-byte stores, or the scalar pair below 16. */
static inline void store_small_lt64_sse2(unsigned char *d, int c, size_t n)
{
	if (n >= 32) {
		const __m128i v = _mm_set1_epi64x((long long)splat64(c));

		_mm_storeu_si128((__m128i *)d, v);
		_mm_storeu_si128((__m128i *)(d + 16), v);
		_mm_storeu_si128((__m128i *)(d + n - 32), v);
		_mm_storeu_si128((__m128i *)(d + n - 16), v);
	} else {
		store_small_lt32_sse2(d, c, n);
	}
}
#endif

#ifdef __AVX2__
/* n < 64: two overlapping 32-byte stores, else the 16-byte pair (VEX-encoded, no AVX-512 needed). */
static inline void store_small_lt64_avx(unsigned char *d, int c, size_t n)
{
	if (n >= 32) {
		const __m256i v = _mm256_set1_epi64x((long long)splat64(c));

		_mm256_storeu_si256((__m256i *)d, v);
		_mm256_storeu_si256((__m256i *)(d + n - 32), v);
	} else {
		store_small_lt32_sse2(d, c, n);
	}
}
#endif

#endif
