/*
 * store_cc.c — one plain C fill loop, compiled once per x86-64 micro-architecture level: what the
 * compiler itself makes of a fill at each level (the PostgreSQL checksum thread's question, for
 * stores).  kernels/CMakeLists.txt builds this file four times, each with -O2 -ftree-vectorize
 * -fno-tree-loop-distribute-patterns (no memset call in its place), its own -march and CC_LEVEL
 * naming the function store_cc_<level>.  No intrinsic and no hint: the loop is the strategy.
 * tests/kernels/disasm_test.py states what each level emitted and fails when that changes.
 */
#include <stddef.h>

#include "kernels.h"

#define CC_FN_(level) store_cc_##level
#define CC_FN(level) CC_FN_(level)

void *CC_FN(CC_LEVEL)(void *dst, int c, size_t n)
{
	unsigned char *p = dst, v = (unsigned char)c;

	for (size_t i = 0; i < n; i++)
		p[i] = v;
	return dst;
}
