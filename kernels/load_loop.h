/*
 * load_loop.h — the one loop shape every load kernel instantiates, and exact short-range reads.
 * No ISA of its own: each ISA file supplies the vector hooks; the 16/32-byte helpers exist only
 * where SSE2/AVX2 are enabled.  Why one shape: the rows differ only in width, as load.def says.
 */
#ifndef STOREBENCH_LOAD_LOOP_H
#define STOREBENCH_LOAD_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "mem_access.h"

#ifdef __SSE2__
#include <immintrin.h>
#endif

/* OR of the eight bytes of x, the contract's result. */
static inline uint64_t load_fold64(uint64_t x)
{
	x |= x >> 32;
	x |= x >> 16;
	x |= x >> 8;
	return x & 0xff;
}

/* n < 16: a pair of overlapping loads of the widest scalar that fits, so no loop and no call. */
static inline uint64_t load_small_lt16(const unsigned char *d, size_t n)
{
	uint64_t x = 0;

	if (n >= 8)
		x = *(const sb_u64 *)d | *(const sb_u64 *)(d + n - 8);
	else if (n >= 4)
		x = *(const sb_u32 *)d | *(const sb_u32 *)(d + n - 4);
	else if (n >= 2)
		x = *(const sb_u16 *)d | *(const sb_u16 *)(d + n - 2);
	else if (n == 1)
		x = *d;
	return load_fold64(x);
}

#ifdef __SSE2__
static inline uint64_t load_fold128(__m128i v)
{
	return load_fold64((uint64_t)_mm_cvtsi128_si64(v) |
			   (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)));
}

/* n < 32: two overlapping 16-byte loads, or the scalar pair below 16. */
static inline uint64_t load_small_lt32_sse2(const unsigned char *d, size_t n)
{
	if (n >= 16)
		return load_fold128(_mm_or_si128(_mm_loadu_si128((const __m128i *)d),
						 _mm_loadu_si128((const __m128i *)(d + n - 16))));
	return load_small_lt16(d, n);
}
#endif

#ifdef __AVX2__
static inline uint64_t load_fold256(__m256i v)
{
	return load_fold128(_mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}

/* n < 64: two overlapping 32-byte loads, else the 16-byte pair (VEX-encoded, no AVX-512 needed). */
static inline uint64_t load_small_lt64_avx(const unsigned char *d, size_t n)
{
	if (n >= 32)
		return load_fold256(_mm256_or_si256(_mm256_loadu_si256((const __m256i *)d),
						    _mm256_loadu_si256((const __m256i *)(d + n - 32))));
	return load_small_lt32_sse2(d, n);
}
#endif

/*
 * LOAD_KERNEL(name, vec_t, small, zero, loadu, load, or, fold) defines load_<name>() with the
 * contract's signature, shaped by load.def's LOAD_WIDTH_<name> and LOAD_UNROLL_<name>.  Hooks:
 *	small(d, n)	n < width: OR of exactly [d, d+n)
 *	zero()		the all-zero vector
 *	loadu(p)	unaligned vector load, load(p) the width-aligned one
 *	or(a, b)	vector OR; fold(v) the OR of v's bytes
 * One unaligned load covers the head, the aligned body keeps `unroll` independent accumulators so
 * the loads are not serialised behind one OR chain, and one unaligned load ending at the last byte
 * covers the tail; every load lies inside [d, d+n).  The empty asm pins each accumulator to one
 * register: without it GCC 12 copies all of them every iteration (a move per load).
 */
#define LOAD_KERNEL(name, vec_t, small, zero, loadu, load, or, fold)			\
uint64_t load_##name(const void *src, size_t n)						\
{											\
	enum { W = LOAD_WIDTH_##name, U = LOAD_UNROLL_##name };				\
	const unsigned char *const d = src, *const e = d + n;				\
	const unsigned char *p;								\
	vec_t acc[U];									\
											\
	if (n < W)									\
		return small(d, n);							\
	_Pragma("GCC unroll 8")								\
	for (unsigned i = 0; i < U; i++)						\
		acc[i] = zero();							\
	acc[0] = loadu(d);								\
	p = align_above(d, W);								\
	for (const unsigned char *end = p + (size_t)(e - p) / (W * U) * (W * U);	\
	     p != end; p += (size_t)W * U) {						\
		_Pragma("GCC unroll 8")							\
		for (unsigned i = 0; i < U; i++)					\
			acc[i] = or(acc[i], load(p + (size_t)i * W));			\
		_Pragma("GCC unroll 8")							\
		for (unsigned i = 0; i < U; i++)					\
			__asm__("" : "+v"(acc[i]));					\
	}										\
	_Pragma("GCC unroll 8")								\
	for (unsigned i = 0; i + 1 < U; i++)						\
		if ((size_t)(e - p) >= W) {						\
			acc[i] = or(acc[i], load(p));					\
			p += W;								\
		}									\
	if (p < e)									\
		acc[U - 1] = or(acc[U - 1], loadu(e - W));				\
	_Pragma("GCC unroll 8")								\
	for (unsigned i = 1; i < U; i++)						\
		acc[0] = or(acc[0], acc[i]);						\
	return fold(acc[0]);								\
}

#endif
