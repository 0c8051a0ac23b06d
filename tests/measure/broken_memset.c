/*
 * broken_memset.c — an LD_PRELOAD memset that misbehaves on one exact call, for verify_runner_test.
 * Plain C, no ISA flags.  The `memset` kernel calls libc memset, so interposing it puts a faulty
 * kernel into the real runner: verification must catch it there, not only in plan_test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Only kernel calls of this size with this fill byte misbehave; prefill and libraries do not. */
#define BROKEN_BYTES 1000
#define BROKEN_FILL 0x3c

static void *(*real_memset)(void *, int, size_t);
static long broken_delta; /* bytes added to the broken call's length: -1 short, +1 past */
static bool broken_none;  /* the broken call stores nothing */

/* BROKEN_MEMSET=short|past|none, read once: getenv on every call would slow the kernel's calls,
 * and the cold working set (4 x LLC) makes millions of them. */
__attribute__((constructor)) static void find_real(void)
{
	const char *mode = getenv("BROKEN_MEMSET");

	real_memset = (void *(*)(void *, int, size_t))dlsym(RTLD_NEXT, "memset");
	if (mode && !strcmp(mode, "short"))
		broken_delta = -1;
	else if (mode && !strcmp(mode, "past"))
		broken_delta = 1;
	else if (mode && !strcmp(mode, "none"))
		broken_none = true;
}

/* Only the kernel's call misbehaves; every store goes through the real memset, so the faulty
 * kernel is as fast as the real one and only its length is wrong. */
void *memset(void *dst, int c, size_t n)
{
	if (n == BROKEN_BYTES && (c & 0xff) == BROKEN_FILL) {
		if (broken_none)
			return dst;
		n = (size_t)((long)n + broken_delta);
	}
	if (real_memset)
		return real_memset(dst, c, n);
	/* a library constructor that runs before ours; volatile keeps this loop from becoming memset */
	for (volatile unsigned char *p = dst; n--; p++)
		*p = (unsigned char)c;
	return dst;
}
