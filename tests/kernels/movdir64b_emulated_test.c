/*
 * movdir64b_emulated_test.c — the movdir64b row's own code, with only the instruction emulated.
 * ISA: none.  kernels/store_movdir64b.c is compiled here with _movdir64b replaced by a checked
 * 64-byte copy, so CPUs without it (AMD before Zen 5) still prove its head/line/tail split.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_check.h"

static unsigned long emulated_lines;

/* Stands in for the instruction: enforces its destination alignment rule, then writes 64 bytes. */
static void emulated_movdir64b(void *dst, const void *src)
{
	if ((uintptr_t)dst % 64) {
		fprintf(stderr, "FAIL movdir64b: destination %p is not 64-byte aligned\n", dst);
		exit(1);
	}
	memcpy(dst, src, 64);
	emulated_lines++;
}

/* immintrin.h is already in, so these renames reach only the kernel file's own code. */
#define _movdir64b emulated_movdir64b
#define store_movdir64b store_movdir64b_emulated
#include "store_movdir64b.c"
#undef store_movdir64b

int main(void)
{
	const struct kernel *row = kernel_find("movdir64b");
	struct kernel k;

	if (!row) {
		fprintf(stderr, "FAIL: kernels.def has no movdir64b row\n");
		return 1;
	}
	k = *row;
	k.fn = store_movdir64b_emulated;
	if (kernel_check(&k))
		return 1;
	if (emulated_lines == 0) {
		fprintf(stderr, "FAIL movdir64b: no whole line ever reached the instruction\n");
		return 1;
	}
	printf("ok movdir64b with the instruction emulated: %lu lines through it\n", emulated_lines);
	return 0;
}
