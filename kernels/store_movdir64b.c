/*
 * store_movdir64b.c — Intel movdir64b: one 64-byte direct store per line, then sfence.
 * ISA: MOVDIR64B (this file alone gets -mmovdir64b).  The source is one 64-byte line of the
 * fill byte; movdir64b needs a 64-byte aligned destination, so partial lines get scalar stores.
 */
#include <immintrin.h>

#include "kernels.h"
#include "store_loop.h"
#include "store_small.h"

/* The source line; movdir64b reads it whole for every destination line. */
struct line64 {
	uint64_t q[STORE_LINE / 8];
} __attribute__((aligned(STORE_LINE)));

/*
 * A compound literal, so the source line lives in the loop function's own frame for the whole
 * call and the body passes its address, not a copy.
 */
#define line_splat(c)									\
	(&(const struct line64){ { splat64(c), splat64(c), splat64(c), splat64(c),	\
				   splat64(c), splat64(c), splat64(c), splat64(c) } })

/* Whole lines only, 64-byte aligned as movdir64b demands; partial lines get exact scalar stores. */
static inline void movdir64b_body(unsigned char *p, const struct line64 *v)
{
	_movdir64b(p, v);
}

STORE_LINE_LOOP(movdir64b_loop, const struct line64 *, STORE_LINE, line_splat,
		store_small_lt64_scalar, movdir64b_body)

/* movdir64b is weakly ordered like a streaming store: the sfence publishes the lines. */

/* The kernels.def rows that run this file's loops (store_rows.h). */
#define STORE_LOOP_HERE_movdir64b_loop() ~, 1
#include "store_rows.h"
