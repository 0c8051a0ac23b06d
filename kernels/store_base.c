/*
 * store_base.c — kernels that need nothing beyond baseline x86-64: libc memset, rep stos, scalar.
 * No ISA flags; the scalar rows use only 64-bit general-register stores (vectorisation is off for
 * every kernel file), so they measure what a plain store loop costs.
 */
#include <string.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

/* The libc row: whatever the system libc dispatches to (glibc picks by CPU and tunables). */
void *store_memset(void *dst, int c, size_t n)
{
	return memset(dst, c, n);
}

/*
 * The same call as store_memset, measured as a second kernel: the answer's built-in control
 * (compare.h).  noipa keeps it a function of its own (identical code folding would otherwise
 * make both rows one address), so it is timed exactly as memset is.
 */
__attribute__((noipa)) void *store_memset_twin(void *dst, int c, size_t n)
{
	return memset(dst, c, n);
}

/* rep stosb over the whole range: the microcode decides the strategy (ERMS/FSRM). */
void *store_rep_stosb(void *dst, int c, size_t n)
{
	void *d = dst;

	__asm__ __volatile__("rep stosb"
			     : "+D"(d), "+c"(n)
			     : "a"(c)
			     : "memory");
	return dst;
}

/* rep stosq over whole qwords, then rep stosb for the 0..7 byte tail. */
void *store_rep_stosq(void *dst, int c, size_t n)
{
	void *d = dst;
	size_t q = n / 8, b = n % 8;

	__asm__ __volatile__("rep stosq\n\t"
			     "mov %[b], %%rcx\n\t"
			     "rep stosb"
			     : "+D"(d), "+c"(q)
			     : "a"(splat64(c)), [b] "r"(b)
			     : "memory");
	return dst;
}

static inline unsigned char *scalar_head_store(unsigned char *d, uint64_t v)
{
	st64(d, v);
	return align_above(d, 8);
}

static inline void scalar_body(unsigned char *p, uint64_t v)
{
	*(uint64_t *)p = v;
}

static inline void scalar_tail(unsigned char *p, unsigned char *e, uint64_t v)
{
	if (p < e)
		st64(e - 8, v);
}

STORE_LOOP(scalar_t_loop, uint64_t, 8, splat64, store_small_lt16, scalar_head_store,
	   scalar_body, scalar_tail)

/* The kernels.def rows that run this file's loops (store_rows.h). */
#define STORE_LOOP_HERE_scalar_t_loop() ~, 1
#include "store_rows.h"
