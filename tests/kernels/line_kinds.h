/*
 * line_kinds.h — the recorders of line_kinds_test: a kernel file compiled with its streaming and
 * cache-control instructions replaced by calls that record them; its loops, edges and unrolls stay.
 * ISA: the including unit's, which is its kernel file's own (-mavx2, -mavx512f, or none).
 */
#ifndef STOREBENCH_LINE_KINDS_H
#define STOREBENCH_LINE_KINDS_H

#include <stddef.h>
#include <x86intrin.h>

#include "kernels.h"
#include "store_loop.h"

/* A kernel row as its own file instantiates it, with only the recorded instructions swapped. */
struct recorded_kernel {
	const char *name;             /* the kernels.def row it stands for */
	store_fn fn;                  /* its loop, its unroll, its edges; recorders for the rest */
	struct recorded_kernel *next; /* registry link, filled by line_kinds_register() */
};

void line_kinds_register(struct recorded_kernel *r);

/* A streaming store of width bytes at p (movnti, (v)movntdq, clzero, movdir64b). */
void line_kinds_stream(const void *p, unsigned width);
/* A cache-control instruction on p's line (clflushopt, clwb). */
void line_kinds_flush(const void *p);

/*
 * The ISA bits of the instructions replaced below: a recorded row needs the rest of its row's ISA
 * (its edges and splat run for real), so movdir64b is tested on AMD and clzero on Intel.
 */
#define LINE_KINDS_REPLACED_ISA (ISA_CLFLUSHOPT | ISA_CLWB | ISA_CLZERO | ISA_MOVDIR64B)

/* immintrin.h is already in, so these reach only the kernel file included after this header. */
#define _mm_stream_si64(p, v)      ((void)(v), line_kinds_stream((p), 8))
#define _mm_stream_si128(p, v)     ((void)(v), line_kinds_stream((p), 16))
#define _mm256_stream_si256(p, v)  ((void)(v), line_kinds_stream((p), 32))
#define _mm512_stream_si512(p, v)  ((void)(v), line_kinds_stream((p), 64))
#define _mm_clzero(p)              line_kinds_stream((p), 64)
#define _movdir64b(p, src)         ((void)(src), line_kinds_stream((p), 64))
#define _mm_clflushopt(p)          line_kinds_flush(p)
#define _mm_clwb(p)                line_kinds_flush(p)

/* Registers fn as the recorded form of row name before main runs. */
#define LINE_KINDS_REGISTER(name, fn)							\
static struct recorded_kernel recorded_row_##name = { #name, fn, NULL };		\
__attribute__((constructor)) static void register_##name(void)				\
{											\
	line_kinds_register(&recorded_row_##name);					\
}

/*
 * The kernel file's wrappers, re-pointed: an nt or flush row becomes a registered static
 * function around the very loop and unroll its file names; temporal rows are not recorded.
 */
#undef STORE_KERNEL
#undef STORE_KERNEL_NT
#define STORE_KERNEL(name, loop, unroll)
#define STORE_KERNEL_NT(name, loop, unroll)						\
static void *recorded_##name(void *dst, int c, size_t n)				\
{											\
	loop((unsigned char *)dst, c, n, unroll);					\
	return dst;									\
}											\
LINE_KINDS_REGISTER(name, recorded_##name)

#endif
