/*
 * store_clzero.c — AMD clzero: zero one whole 64-byte line per instruction, then sfence.
 * ISA: CLZERO (this file alone gets -mclzero).  clzero can only write zeros; for a non-zero fill
 * the line body falls back to 64-bit movnti so the contract holds (kernels.def: FILL_ZERO).
 */
#include <x86intrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

#define LINE 64

/* Whole lines only: the partial lines before and after get ordinary scalar stores, exactly. */
static inline unsigned char *line_head(unsigned char *d, uint64_t v)
{
	unsigned char *p = align_up(d, LINE);

	store_small_lt64_scalar(d, (int)(v & 0xff), (size_t)(p - d));
	return p;
}

static inline void line_tail(unsigned char *p, unsigned char *e, uint64_t v)
{
	store_small_lt64_scalar(p, (int)(v & 0xff), (size_t)(e - p));
}

static inline void clzero_body(unsigned char *p, uint64_t v)
{
	(void)v;
	_mm_clzero(p);
}

/* The documented fallback for c != 0: non-temporal like clzero, so the row stays comparable. */
static inline void movnti_line_body(unsigned char *p, uint64_t v)
{
#pragma GCC unroll 8
	for (unsigned i = 0; i < LINE / 8; i++)
		_mm_stream_si64((long long *)(p + 8 * i), (long long)v);
}

STORE_LOOP(clzero_loop, uint64_t, LINE, splat64, store_small_lt64_scalar, line_head, clzero_body,
	   line_tail)
STORE_LOOP(movnti_line_loop, uint64_t, LINE, splat64, store_small_lt64_scalar, line_head,
	   movnti_line_body, line_tail)

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
