/*
 * kernel_check.c — the byte-exact check of one store kernel: sizes, misalignments, fills, guards.
 * Plain C, no ISA flags; the caller decides whether the CPU can run the kernel.
 * Shared by kernels_test (every row) and movdir64b_emulated_test (the loop logic of movdir64b).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_check.h"

#define GUARD 256            /* sentinel bytes checked on each side of [dst, dst+n) */
#define MAX_N ((2u << 20) + 7)

static const int fills[] = { 0x00, 0xff, 0xa5 };

/* Sizes tried at every misalignment 0..63: small paths, head/tail/body boundaries, line ends. */
static const size_t misaligned_sizes[] = {
	255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2047, 4095, 4096, 4097, 8191, 65537,
};

/* Larger and odd sizes up to past 2 MiB, tried at a few misalignments. */
static const size_t large_sizes[] = {
	1500, 2049, 3333, 4095, 4097, 8193, 12345, 65535, 65536, 65537, 100003, 262151,
	1u << 20, (1u << 20) + 13, (2u << 20) - 1, MAX_N,
};
static const unsigned large_misalign[] = { 0, 1, 17, 32, 63 };

static unsigned char *arena;
static unsigned long cases;

/* First byte in [p, p+len) that is not want, or NULL. */
static const unsigned char *find_not(const unsigned char *p, size_t len, unsigned char want)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != want)
			return p + i;
	return NULL;
}

/* One call: sentinel around and inside the range, call, then every byte is what it must be. */
static int check(const struct kernel *k, size_t n, unsigned misalign, int c)
{
	const unsigned char fill = (unsigned char)c, sentinel = (unsigned char)~c;
	unsigned char *dst = arena + GUARD + misalign;
	const unsigned char *bad;
	void *ret;

	memset(dst - GUARD, sentinel, n + 2 * GUARD);
	ret = k->fn(dst, c, n);
	cases++;
	if (ret != dst) {
		fprintf(stderr, "FAIL %s: n=%zu misalign=%u c=0x%02x: returned %p, want dst %p\n",
			k->name, n, misalign, fill, ret, (void *)dst);
		return -1;
	}
	bad = find_not(dst - GUARD, GUARD, sentinel);
	if (!bad)
		bad = find_not(dst + n, GUARD, sentinel);
	if (bad) {
		fprintf(stderr, "FAIL %s: n=%zu misalign=%u c=0x%02x: byte at dst%+td outside the "
			"range changed to 0x%02x\n", k->name, n, misalign, fill, bad - dst, *bad);
		return -1;
	}
	bad = find_not(dst, n, fill);
	if (bad) {
		fprintf(stderr, "FAIL %s: n=%zu misalign=%u c=0x%02x: byte at dst+%td is 0x%02x, "
			"want the fill\n", k->name, n, misalign, fill, bad - dst, *bad);
		return -1;
	}
	return 0;
}

static int run_all(const struct kernel *k)
{
	for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
		const int c = fills[f];

		/* Every n up to 1024: aligned, and at a misalignment that varies with n. */
		for (size_t n = 0; n <= 1024; n++)
			if (check(k, n, 0, c) || check(k, n, (unsigned)(n * 37 + 11) % 64, c))
				return -1;
		/* Every misalignment for every n up to 160 (all small paths, first bodies) and more. */
		for (unsigned m = 0; m < 64; m++) {
			for (size_t n = 0; n <= 160; n++)
				if (check(k, n, m, c))
					return -1;
			for (size_t i = 0; i < sizeof misaligned_sizes / sizeof misaligned_sizes[0]; i++)
				if (check(k, misaligned_sizes[i], m, c))
					return -1;
		}
		for (size_t i = 0; i < sizeof large_sizes / sizeof large_sizes[0]; i++)
			for (size_t j = 0; j < sizeof large_misalign / sizeof large_misalign[0]; j++)
				if (check(k, large_sizes[i], large_misalign[j], c))
					return -1;
	}
	return 0;
}

int kernel_check(const struct kernel *k)
{
	int rc;

	/* Room for the guards, the largest misalignment and the largest size; page-aligned base. */
	arena = aligned_alloc(4096, (GUARD + 64 + MAX_N + GUARD + 4095) & ~(size_t)4095);
	if (!arena) {
		fprintf(stderr, "kernel_check: out of memory\n");
		return -1;
	}
	cases = 0;
	rc = run_all(k);
	free(arena);
	arena = NULL;
	if (rc == 0)
		printf("ok %s: %lu calls byte-exact (fills 0x00 0xff 0xa5, guards of %d bytes)\n",
		       k->name, cases, GUARD);
	return rc;
}
