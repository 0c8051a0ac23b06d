/*
 * cpuid_dump.h — this CPU's raw CPUID as text, in the line format of AIDA64 dumps
 * ("CPUID 00000004: EAX-EBX-ECX-EDX [SL 02]"), which libcpuid reads (--cpuid FILE) and the
 * fixtures in tests/fixtures/machines/cpuid use, so a dump of a machine replays like them and
 * scripts/glibc-model computes glibc's thresholds from either.
 */
#ifndef STOREBENCH_CPUID_DUMP_H
#define STOREBENCH_CPUID_DUMP_H

#include <stdio.h>

/*
 * Writes every basic and extended leaf up to the CPU's maxima, with the subleaves of the leaves
 * that have them (4, 7, 0xB, 0xD, 0x1F, 0x8000001D), as the CPU the caller runs on reports
 * them; the caller pins itself to logical CPU `cpu` first, which the heading names.  Returns 0,
 * or -1 when the write failed.
 */
int cpuid_dump_write(FILE *out, int cpu);

#endif
