/*
 * kernels.h — the store-kernel contract and the kernel table, expanded from kernels.def.
 * Plain C, no ISA flags: safe to include anywhere.  The harness only ever calls kernels
 * through kernel_table after kernel_unavailable() said the CPU can run them.
 */
#ifndef STOREBENCH_KERNELS_H
#define STOREBENCH_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu.h"
#include "isa.h"

/*
 * The contract, identical for every kernel: memset-shaped, any n (0 included), any alignment of
 * dst.  Afterwards bytes [dst, dst+n) equal (unsigned char)c and no other byte was touched.
 * nt and flush kernels execute sfence before returning: the fence is part of the measured cost.
 */
typedef void *(*store_fn)(void *dst, int c, size_t n);

enum kernel_kind {
	KIND_libc,  /* the system libc's memset */
	KIND_rep,   /* string instructions */
	KIND_t,     /* ordinary (temporal) stores */
	KIND_nt,    /* non-temporal / direct stores, sfence before return */
	KIND_flush, /* temporal stores plus a per-line cache-control instruction, sfence */
};

enum kernel_fill {
	FILL_ANY,  /* writes any byte value */
	FILL_ZERO, /* the strategy only exists for zero; other values take a documented fallback */
};

/*
 * The sizes of the compile-time-size row (memset_const): DPDK's memcpy perf test times its copies
 * once more with the size a constant ("C" rows), since the compiler then inlines them.  One
 * function store_memset_const_<n> per size is memset(dst, c, <n>) as the compiler builds it.
 */
#define KERNEL_CONST_SIZES(X) X(6) X(64) X(128) X(192) X(256) X(512) X(768) X(1024) X(1536)
#define KERNEL_CONST_SIZE_TEXT(n) " " #n
#define KERNEL_CONST_SIZE_FN(n) void *store_memset_const_##n(void *dst, int c, size_t size);
KERNEL_CONST_SIZES(KERNEL_CONST_SIZE_FN)
#undef KERNEL_CONST_SIZE_FN

struct kernel {
	const char *name;      /* CSV id and CLI name; the function is store_<name> */
	store_fn fn;           /* the kernel; call only when the CPU can run it */
	unsigned isa;          /* enum isa_bit set the CPU must have */
	enum kernel_kind kind; /* strategy class, for grouping and plot colour */
	unsigned width;        /* bytes per store instruction, 0 when libc decides */
	unsigned unroll;       /* store instructions per aligned-body iteration */
	enum kernel_fill fill; /* which fill bytes the strategy really measures */
	const char *desc;      /* one line for `storebench list` */
	store_fn (*at_size)(size_t n); /* a compile-time-size row (loop const_sizes): the function
				        * built for a call of exactly n bytes, NULL for any other n;
				        * NULL for every other row (fn runs any n) */
	const char *(*unavailable)(const char *name); /* a glibc_impl row: why this glibc cannot
						       * run it, NULL when it can; NULL for every
						       * other row (the ISA decides) */
};

#define KERNEL(name, loop, isa, kind, width, unroll, fill, desc) \
	void *store_##name(void *dst, int c, size_t n);
#include "kernels.def"
#undef KERNEL

/* memset_const's at_size: store_memset_const_<n> for a size of KERNEL_CONST_SIZES, else NULL. */
store_fn store_memset_const_at(size_t n);

/* The function a call of n bytes of k runs: its own, or the one built for n (NULL: none was). */
static inline store_fn kernel_store_at(const struct kernel *k, size_t n)
{
	return k->at_size ? k->at_size(n) : k->fn;
}

/* Why k cannot run on cpu (its ISA, or for a glibc_impl row this glibc), NULL when it can.
 * The one gate before a kernel's first call: a glibc_impl row gets its function here. */
const char *kernel_unavailable(const struct kernel *k, const struct cpu_info *cpu);

extern const struct kernel kernel_table[];
extern const size_t kernel_count;

const char *kernel_kind_name(enum kernel_kind kind);

/* Bytes the aligned body writes per iteration (likwid's "bytes per iteration"). */
static inline size_t kernel_granule(const struct kernel *k)
{
	return (size_t)k->width * k->unroll;
}

/* The kernel called name, or NULL. */
const struct kernel *kernel_find(const char *name);

#endif
