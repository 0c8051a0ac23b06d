/*
 * load.h — the load-kernel contract and table (the read side of rw mixes), expanded from load.def.
 * Plain C, no ISA flags: safe to include anywhere.  One fixed load kernel per run, the widest the
 * CPU can run, so every store strategy is measured next to the same reads.
 */
#ifndef STOREBENCH_LOAD_H
#define STOREBENCH_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

struct cpu_info;

/*
 * The contract: read exactly [src, src+n), any n (0 included) and any alignment, never a byte
 * outside, and return the bitwise OR of those bytes (0 for n = 0).  The result depends on every
 * load, so the compiler cannot drop them; the caller stores it to a volatile sink so the call
 * itself survives.  A vector kernel covers the head and tail with overlapping loads inside the
 * range (OR is idempotent, so reading a byte twice does not change the result).
 */
typedef uint64_t (*load_fn)(const void *src, size_t n);

struct load_kernel {
	const char *name; /* CSV read_kernel id: "load_<row name>" */
	load_fn fn;       /* call only when load_kernel_unavailable() returned NULL */
	unsigned isa;     /* enum isa_bit set the CPU must have */
	unsigned width;   /* bytes per load instruction of the aligned body */
	unsigned unroll;  /* loads per aligned-body iteration (independent accumulators) */
	const char *desc; /* one line for `storebench list` */
};

#define LOAD(name, isa, width, unroll, desc) uint64_t load_##name(const void *src, size_t n);
#include "load.def"
#undef LOAD

/* Width and unroll as constants, so the ISA files instantiate exactly the row's shape. */
#define LOAD(name, isa, width, unroll, desc) \
	enum { LOAD_WIDTH_##name = (width), LOAD_UNROLL_##name = (unroll) };
#include "load.def"
#undef LOAD

extern const struct load_kernel load_table[];
extern const size_t load_count;

/* The row whose name (with or without the "load_" prefix) is name, or NULL. */
const struct load_kernel *load_kernel_find(const char *name);

/* NULL when lk can run here, else the reason (same wording as cpu_isa_unavailable). */
const char *load_kernel_unavailable(const struct load_kernel *lk, const struct cpu_info *info);

/* The widest load kernel this CPU can run; never NULL on x86-64 (SSE2 is baseline). */
const struct load_kernel *load_kernel_best(const struct cpu_info *info);

#endif
