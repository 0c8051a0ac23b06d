/*
 * store_loop.h — the two loop shapes the kernels instantiate: temporal, and whole lines apart.
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
 * which writes exactly [d, d+n) with (unsigned char)c: the temporal rows' shape, where head and
 * tail vectors may overlap the body.  The hooks, macros or static functions:
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

/* The line the streaming rule is about: 64 bytes on every x86-64 CPU. */
#define STORE_LINE 64

/*
 * STORE_LINE_LOOP(fn, vec_t, W, splat, edge, body) defines
 *	static void fn(unsigned char *d, int c, size_t n, unsigned unroll)
 * which writes exactly [d, d+n) with (unsigned char)c, whole lines apart from the rest: body()
 * alone writes every whole 64-byte line inside the range, edge() alone the partial lines at its
 * two ends, so no line receives stores of both (nt rows: streaming vs temporal; flush rows: each
 * line is flushed once, after its last store).  The hooks, macros or static functions:
 *	W		bytes one body() writes, dividing STORE_LINE; body addresses are W-aligned
 *	splat(c)	the fill in the form body() stores, computed once per call
 *	edge(d, c, n)	n < STORE_LINE: write exactly [d, d+n) and not one byte more, since the
 *			neighbouring line is body()'s; a call shorter than a line holds no whole
 *			line, so it is one edge() even where it spans two lines
 *	body(p, v)	write [p, p+W)
 * A line-aligned 64-byte call is one line of body() and no edge().  Unrolling as in STORE_LOOP;
 * the second loop finishes the last lines W bytes at a time.
 */
#define STORE_LINE_LOOP(fn, vec_t, W, splat, edge, body)				\
static inline __attribute__((always_inline))						\
void fn(unsigned char *d, int c, size_t n, unsigned unroll)				\
{											\
	unsigned char *const e = d + n;							\
											\
	if (n < STORE_LINE) {								\
		edge(d, c, n);								\
		return;									\
	}										\
	unsigned char *p = align_up(d, STORE_LINE);					\
	unsigned char *const b = align_down(e, STORE_LINE);				\
	const vec_t v = splat(c);							\
											\
	if (p != d)									\
		edge(d, c, (size_t)(p - d));						\
	while ((size_t)(b - p) >= (size_t)(W) * unroll) {				\
		_Pragma("GCC unroll 8")							\
		for (unsigned i = 0; i < unroll; i++)					\
			body(p + (size_t)i * (W), v);					\
		p += (size_t)(W) * unroll;						\
	}										\
	while (p != b) {								\
		body(p, v);								\
		p += (W);								\
	}										\
	if (b != e)									\
		edge(b, c, (size_t)(e - b));						\
}

/*
 * STORE_VEC_FAMILY(pfx, vec_t, W, splat, small, edge, storeu, store, stream) defines the two
 * loops of a W-byte vector family, pfx_t_loop and pfx_nt_loop, from its store intrinsics.
 * pfx_t_loop is a STORE_LOOP: one unaligned vector covers the head (the body starts at the next
 * W-byte boundary above d), the aligned temporal body, one unaligned vector ending at e (it may
 * rewrite body bytes, which already hold c), small() below W bytes.  pfx_nt_loop is a
 * STORE_LINE_LOOP: the aligned streaming store on whole lines, edge() (exact, temporal) on the
 * partial lines.  splat, small and edge stay in the ISA file: the cheapest broadcast and short
 * fill differ per ISA.
 */
#define STORE_VEC_FAMILY(pfx, vec_t, W, splat, small, edge, storeu, store, stream)	\
static inline unsigned char *pfx##_head(unsigned char *d, vec_t v)			\
{											\
	storeu((vec_t *)d, v);								\
	return align_above(d, W);							\
}											\
											\
static inline void pfx##_tail(unsigned char *p, unsigned char *e, vec_t v)		\
{											\
	if (p < e)									\
		storeu((vec_t *)(e - (W)), v);						\
}											\
											\
static inline void pfx##_t_body(unsigned char *p, vec_t v)				\
{											\
	store((vec_t *)p, v);								\
}											\
											\
static inline void pfx##_nt_body(unsigned char *p, vec_t v)				\
{											\
	stream((vec_t *)p, v);								\
}											\
											\
STORE_LOOP(pfx##_t_loop, vec_t, W, splat, small, pfx##_head, pfx##_t_body, pfx##_tail)		\
STORE_LINE_LOOP(pfx##_nt_loop, vec_t, W, splat, edge, pfx##_nt_body)

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
