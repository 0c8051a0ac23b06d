/*
 * cpuid_dump.c — this CPU's raw CPUID leaves as AIDA64-style text (see cpuid_dump.h).
 * Plain C; the cpuid instruction through GCC's <cpuid.h>.
 */
#include "cpuid_dump.h"

#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>

/* Subleaves read at most, for a leaf whose end is not marked by a null entry. */
#define SUBLEAF_MAX 64

static void leaf(FILE *out, uint32_t n, uint32_t sub, bool show_sub)
{
	unsigned a, b, c, d;

	__cpuid_count(n, sub, a, b, c, d);
	fprintf(out, "CPUID %08X: %08X-%08X-%08X-%08X", n, a, b, c, d);
	if (show_sub)
		fprintf(out, " [SL %02X]", sub);
	fputc('\n', out);
}

/* Subleaves until the one whose field (reg >> shift) & mask is zero, that one included. */
static void until_null(FILE *out, uint32_t n, int reg, unsigned shift, unsigned mask)
{
	for (uint32_t sub = 0; sub < SUBLEAF_MAX; sub++) {
		unsigned r[4];

		__cpuid_count(n, sub, r[0], r[1], r[2], r[3]);
		leaf(out, n, sub, true);
		if (!((r[reg] >> shift) & mask))
			break;
	}
}

static void one(FILE *out, uint32_t n)
{
	unsigned a, b, c, d;

	switch (n) {
	case 4:          /* deterministic cache parameters: type EAX[4:0], 0 ends */
	case 0x8000001d: /* AMD's copy of leaf 4 */
		until_null(out, n, 0, 0, 0x1f);
		return;
	case 0xb:  /* topology levels: type ECX[15:8], 0 ends */
	case 0x1f:
		until_null(out, n, 2, 8, 0xff);
		return;
	case 7: /* structured features: EAX of subleaf 0 is the last subleaf */
		__cpuid_count(7, 0, a, b, c, d);
		for (uint32_t sub = 0; sub <= a && sub < SUBLEAF_MAX; sub++)
			leaf(out, 7, sub, true);
		return;
	case 0xd: /* XSAVE state components: the ones the CPU describes */
		for (uint32_t sub = 0; sub < SUBLEAF_MAX; sub++) {
			__cpuid_count(0xd, sub, a, b, c, d);
			if (sub < 2 || a || b || c || d)
				leaf(out, 0xd, sub, true);
		}
		return;
	default:
		leaf(out, n, 0, false);
	}
}

int cpuid_dump_write(FILE *out, int cpu)
{
	unsigned max, maxext, b, c, d;

	__cpuid(0, max, b, c, d);
	__cpuid(0x80000000u, maxext, b, c, d);
	fprintf(out, "------[ CPUID Registers / Logical CPU #%d ]------\n", cpu);
	for (uint32_t n = 0; n <= max && n < 0x100; n++)
		one(out, n);
	for (uint32_t n = 0x80000000u; n <= maxext && n < 0x80000100u; n++)
		one(out, n);
	return fflush(out) || ferror(out) ? -1 : 0;
}
