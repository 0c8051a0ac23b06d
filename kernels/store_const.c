/*
 * store_const.c — memset with the size known at compile time: the memset_const row, DPDK's "C"
 * rows for stores.  Baseline x86-64, default flags: the compiler's builtin memset is what is
 * measured (GCC 12 -O2: scalar and 16-byte stores up to 256 bytes, rep stosq from 512), so no
 * -fno-builtin here.  tests/kernels/disasm_test.py states what each size emitted.
 */
#include <string.h>

#include "kernels.h"

/* One function per size, kept out of line so that each call is that size's code alone. */
#define CONST_FN(n)                                                               \
	__attribute__((noinline)) void *store_memset_const_##n(void *dst, int c, size_t size) \
	{                                                                         \
		(void)size;                                                       \
		return memset(dst, c, n);                                         \
	}
KERNEL_CONST_SIZES(CONST_FN)

store_fn store_memset_const_at(size_t n)
{
	switch (n) {
#define CONST_CASE(k) \
	case k:       \
		return store_memset_const_##k;
		KERNEL_CONST_SIZES(CONST_CASE)
	default:
		return NULL;
	}
}

/*
 * The row's own function keeps the kernel contract for any n (kernels_test calls it so): a size
 * of the list through its function, any other through libc memset.  The sweep never measures the
 * latter (sweep.c: a compile-time size was built) and times the sized functions directly.
 */
void *store_memset_const(void *dst, int c, size_t n)
{
	store_fn f = store_memset_const_at(n);

	return f ? f(dst, c, n) : memset(dst, c, n);
}
