/*
 * cache_check.c — plausibility of the L3 size and sharing a CPU or hypervisor reports.
 * Plain C, no ISA.  Rules a real part never breaks: an L3 is larger than the L2 below it and
 * smaller than 1 TiB, L3 per core stays under the largest shipped (48 MiB), and an Intel L3 is
 * shared by all cores of its die.  AMD is exempt from the
 * second: EPYC 72F3 and 9175F really run one core per CCD, each with the CCD's whole L3.
 */
#include "cache_check.h"

#include <stdio.h>
#include <string.h>

bool cache_check(const struct cpu_info *cpu, const struct cpu_cache *c, char *buf, size_t len)
{
	if (c->level < 3 || !strcmp(c->type, "Instruction"))
		return false;
	for (size_t i = 0; i < cpu->ncaches; i++)
		if (cpu->caches[i].level == c->level - 1 && strcmp(cpu->caches[i].type, "Instruction") &&
		    c->size_bytes <= cpu->caches[i].size_bytes) {
			snprintf(buf, len, "implausible: %zu bytes, no more than the L%u's %zu (every x86 "
					   "part's L%u is larger than its L%u)", c->size_bytes,
				 c->level - 1, cpu->caches[i].size_bytes, c->level, c->level - 1);
			return true;
		}
	if (c->size_bytes > CACHE_L3_FLAG_BYTES) {
		snprintf(buf, len, "implausible: %zu bytes (no x86 part has 1 TiB of L%u)",
			 c->size_bytes, c->level);
		return true;
	}
	if (!c->shared_cores) {
		snprintf(buf, len, "unchecked: no topology, so no sharing to check");
		return true;
	}
	if (c->size_bytes / c->shared_cores > CACHE_L3_FLAG_BYTES_PER_CORE) {
		snprintf(buf, len, "implausible: %zu MiB per core (no x86 part has over %llu MiB of L%u "
				   "per core)", (c->size_bytes / c->shared_cores) >> 20,
			 CACHE_L3_MAX_BYTES_PER_CORE >> 20, c->level);
		return true;
	}
	if (c->shared_cores == 1 && cpu->cores > cpu->packages && !strcmp(cpu->vendor, "GenuineIntel")) {
		snprintf(buf, len, "implausible: private to one core, but every Intel part shares its "
				   "L%u among all cores of a die", c->level);
		return true;
	}
	snprintf(buf, len, "ok");
	return true;
}

bool cache_llc_implausible(const struct cpu_info *cpu, char *buf, size_t len)
{
	for (size_t i = cpu->ncaches; i-- > 0;)
		if (strcmp(cpu->caches[i].type, "Instruction"))
			return cache_check(cpu, &cpu->caches[i], buf, len) &&
			       !strncmp(buf, "implausible", 11);
	return false;
}
