/*
 * broken_memset.c — an LD_PRELOAD memset that misbehaves on one exact call, for verify_runner_test.
 * Plain C, no ISA flags.  The `memset` kernel calls libc memset, so interposing it puts a faulty
 * kernel into the real runner: verification must catch it there, not only in plan_test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Only kernel calls of this size with this fill byte misbehave; prefill and libraries do not. */
#define BROKEN_BYTES 1000
#define BROKEN_FILL 0x3c

static void *(*real_memset)(void *, int, size_t);

__attribute__((constructor)) static void find_real(void)
{
	real_memset = (void *(*)(void *, int, size_t))dlsym(RTLD_NEXT, "memset");
}

/* BROKEN_MEMSET=short|past|none: one byte short, one byte past the end, nothing stored. */
void *memset(void *dst, int c, size_t n)
{
	volatile unsigned char *p = dst; /* volatile: the loop must not become a memset call */
	const char *mode = getenv("BROKEN_MEMSET");

	if (n == BROKEN_BYTES && (c & 0xff) == BROKEN_FILL && mode) {
		if (!strcmp(mode, "short"))
			n--;
		else if (!strcmp(mode, "past"))
			n++;
		else if (!strcmp(mode, "none"))
			n = 0;
	} else if (real_memset) {
		return real_memset(dst, c, n);
	}
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)c;
	return dst;
}
