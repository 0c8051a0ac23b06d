/*
 * cache_check.h — flags cache facts no real x86 part has (e.g. this VM's 508 MiB L3 per core).
 * Plain C, no ISA.  A hypervisor can report any CPUID cache leaf; the value is kept as reported
 * (never replaced by a guess) and the flag travels with it into info, the CSV and the JSON.
 */
#ifndef STOREBENCH_CACHE_CHECK_H
#define STOREBENCH_CACHE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu.h"

/* No x86 part ships more L3 per core than 96 MiB over 2 cores (Milan-X/Genoa-X 16-core parts). */
#define CACHE_L3_MAX_BYTES_PER_CORE (48ull << 20)
/* Flag above this, a margin over the largest real value. */
#define CACHE_L3_FLAG_BYTES_PER_CORE (64ull << 20)
/* Above this no sharing can make a level plausible (a 2^64-byte leaf kept as SIZE_MAX). */
#define CACHE_L3_FLAG_BYTES (1ull << 40)

/*
 * The verdict on a level-3+ data/unified cache of cpu: true and "ok", true and "implausible: why",
 * or true and "unchecked: why" (no sharing known).  false for caches it does not judge (L1, L2, I).
 */
bool cache_check(const struct cpu_info *cpu, const struct cpu_cache *c, char *buf, size_t len);

/* true when cpu's last-level data cache is flagged implausible (reason in buf). */
bool cache_llc_implausible(const struct cpu_info *cpu, char *buf, size_t len);

#endif
