/*
 * mem_access.h — unaligned, alias-anything scalar accesses and address alignment for the kernels.
 * No ISA: plain C, included by the store and load loop headers of every ISA file.
 * Why one place: stores and loads must treat the caller's buffer (any type, any alignment) alike.
 */
#ifndef STOREBENCH_MEM_ACCESS_H
#define STOREBENCH_MEM_ACCESS_H

#include <stddef.h>
#include <stdint.h>

/* The buffer's type is unknown to the kernel: accesses may not be aligned and alias anything. */
typedef uint64_t sb_u64 __attribute__((aligned(1), may_alias));
typedef uint32_t sb_u32 __attribute__((aligned(1), may_alias));
typedef uint16_t sb_u16 __attribute__((aligned(1), may_alias));

/*
 * First address strictly above d that is a multiple of a (a power of two): the overlapping-head
 * variant, where one unaligned access covers [d, d+a) and the aligned body starts there.  Like
 * strchr it takes const and returns plain, so store and load kernels share it.
 */
static inline void *align_above(const void *d, size_t a)
{
	return (void *)(((uintptr_t)d + a) & ~(uintptr_t)(a - 1));
}

/* First address at or above d that is a multiple of a: where the whole lines of [d, e) begin. */
static inline void *align_up(const void *d, size_t a)
{
	return (void *)(((uintptr_t)d + a - 1) & ~(uintptr_t)(a - 1));
}

/* Last address at or below e that is a multiple of a: where the whole lines of [d, e) end. */
static inline void *align_down(const void *e, size_t a)
{
	return (void *)((uintptr_t)e & ~(uintptr_t)(a - 1));
}

#endif
