/*
 * cpu_raw.h — the decoders cpu.c and cpu_caches.c share: one CPUID leaf out of libcpuid's raw data.
 * Plain C, no ISA.  Live CPUs and replayed dumps arrive as the same struct, so one decoder serves
 * both and a dump of a Granite Rapids decodes exactly as that machine would decode itself.
 */
#ifndef STOREBENCH_CPU_RAW_H
#define STOREBENCH_CPU_RAW_H

#include <libcpuid.h>
#include <stdint.h>

#include "cpu.h"

struct regs {
	uint32_t a, b, c, d;
};

/* Leaf n (subleaf 0; 0x8000xxxx for extended) as the dump or CPU gave it; zeros beyond its max. */
struct regs cpu_raw_leaf(const struct cpu_raw_data_t *raw, uint32_t n);

/* caches[] from CPUID leaf 4 (Intel) or 0x8000001D (AMD), libcpuid's sizes where neither exists. */
void cpu_caches_from_cpuid(struct cpu_info *info, const struct cpu_raw_data_t *raw);

#endif
