/*
 * store_loop.h — the one loop shape every vector and line kernel instantiates.
 * No ISA of its own: each ISA file supplies the store hooks, so the AVX-512 rows run exactly the
 * head/body/tail logic that the SSE2 and AVX2 rows prove byte-exact on any x86-64 machine.
 */
#ifndef STOREBENCH_STORE_LOOP_H
#define STOREBENCH_STORE_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "mem_access.h"

/*
 * STORE_LOOP(fn, vec_t, unit, splat, small, head, body, tail) defines
 *	static void fn(unsigned char *d, int c, size_t n, unsigned unroll)
 * which writes exactly [d, d+n) with (unsigned char)c.  The hooks, macros or static functions:
 *	unit		bytes one body() writes; body addresses are unit-aligned
 *	splat(c)	the fill in the form body() stores, computed once per call
 *	small(d, c, n)	n < unit: write exactly [d, d+n)
 *	head(d, v)	n >= unit: write [d, p) and return p, the first body address; may also
 *			write bytes of [p, d+unit) (an overlapping unaligned vector store)
 *	body(p, v)	write [p, p+unit)
 *	tail(p, e, v)	e - p < unit: write [p, e); may rewrite bytes before p, never before d
 * fn is always inlined into wrappers that pass a literal unroll, so the pragma unrolls the inner
 * loop completely and the aligned body really holds `unroll` body() stores per iteration.
 */
#define STORE_LOOP(fn, vec_t, unit, splat, small, head, body, tail)			\
static inline __attribute__((always_inline))						\
void fn(unsigned char *d, int c, size_t n, unsigned unroll)				\
{											\
	unsigned char *const e = d + n;							\
	unsigned char *p;								\
											\
	if (n < (unit)) {								\
		small(d, c, n);								\
		return;									\
	}										\
	const vec_t v = splat(c);							\
											\
	p = head(d, v);									\
	while ((size_t)(e - p) >= (size_t)(unit) * unroll) {				\
		_Pragma("GCC unroll 8")							\
		for (unsigned i = 0; i < unroll; i++)					\
			body(p + (size_t)i * (unit), v);				\
		p += (size_t)(unit) * unroll;						\
	}										\
	while ((size_t)(e - p) >= (unit)) {						\
		body(p, v);								\
		p += (unit);								\
	}										\
	tail(p, e, v);									\
}

/*
 * Kernel wrappers: store_<name>() with the contract's signature around one loop instantiation.
 * STORE_KERNEL_NT adds the sfence that makes weakly-ordered stores globally visible before the
 * caller's next store, as the contract (and a fair measurement of streaming stores) requires.
 */
#define STORE_KERNEL(name, loop, unroll)						\
void *store_##name(void *dst, int c, size_t n)						\
{											\
	loop((unsigned char *)dst, c, n, unroll);					\
	return dst;									\
}

#define STORE_KERNEL_NT(name, loop, unroll)						\
void *store_##name(void *dst, int c, size_t n)						\
{											\
	loop((unsigned char *)dst, c, n, unroll);					\
	__asm__ __volatile__("sfence" ::: "memory");					\
	return dst;									\
}

#endif
