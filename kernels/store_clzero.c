/*
 * store_clzero.c — AMD clzero: zero one whole 64-byte line per instruction, then sfence.
 * ISA: CLZERO (this file alone gets -mclzero).  clzero can only write zeros; for a non-zero fill
 * the line body falls back to 64-bit movnti so the contract holds (kernels.def: FILL_ZERO).
 */
#include <x86intrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

/* Whole lines only (clzero zeroes the line holding p); partial lines get exact scalar stores. */
static inline void clzero_body(unsigned char *p, uint64_t v)
{
	(void)v;
	_mm_clzero(p);
}

/* The documented fallback for c != 0: non-temporal like clzero, so the row stays comparable. */
static inline void movnti_line_body(unsigned char *p, uint64_t v)
{
#pragma GCC unroll 8
	for (unsigned i = 0; i < STORE_LINE / 8; i++)
		_mm_stream_si64((long long *)(p + 8 * i), (long long)v);
}

STORE_LINE_LOOP(clzero_loop, uint64_t, STORE_LINE, splat64, store_small_lt64_scalar, clzero_body)
STORE_LINE_LOOP(movnti_line_loop, uint64_t, STORE_LINE, splat64, store_small_lt64_scalar,
		movnti_line_body)

/* clzero is weakly ordered like a streaming store: the sfence publishes the zeros. */
void *store_clzero(void *dst, int c, size_t n)
{
	if ((unsigned char)c == 0)
		clzero_loop(dst, c, n, 1);
	else
		movnti_line_loop(dst, c, n, 1);
	__asm__ __volatile__("sfence" ::: "memory");
	return dst;
}
