/*
 * cpu_caches.c — caches as CPUID describes them: leaf 4 (Intel) or 0x8000001D (AMD), per CPU #0.
 * Plain C, no ISA.  Sizes are exact; CPUID's sharing field is only an upper bound (addressable IDs,
 * 128 on a 72-CPU part), so sharing and instances stay 0 (unknown) until a topology fills them.
 */
#include "cpu.h"
#include "cpu_raw.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Leaf 4 / 0x8000001D cache type field (EAX[4:0]). */
static const char *const leaf_type[] = { NULL, "Data", "Instruction", "Unified" };

static int type_rank(const char *type)
{
	return !strcmp(type, "Data") ? 0 : !strcmp(type, "Instruction") ? 1 : 2;
}

static int cache_cmp(const void *a, const void *b)
{
	const struct cpu_cache *x = a, *y = b;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return type_rank(x->type) - type_rank(y->type);
}

static void add_cache(struct cpu_info *info, unsigned level, const char *type, size_t bytes)
{
	struct cpu_cache *c;

	if (info->ncaches == CPU_MAX_CACHES || !bytes)
		return;
	c = &info->caches[info->ncaches++];
	memset(c, 0, sizeof *c);
	c->level = level;
	snprintf(c->type, sizeof c->type, "%s", type);
	c->size_bytes = bytes;
}

/*
 * One deterministic-cache leaf; both vendors use the same layout.  false at the end of the list.
 * A product past SIZE_MAX (every field at its top: 2^64 bytes) is kept as SIZE_MAX, which
 * cache_check flags: wrapped to 0 it made the level vanish.
 */
static bool add_leaf(struct cpu_info *info, const uint32_t r[NUM_REGS])
{
	unsigned type = r[EAX] & 0x1f;
	size_t ways = (r[EBX] >> 22) + 1, parts = ((r[EBX] >> 12) & 0x3ff) + 1,
	       line = (r[EBX] & 0xfff) + 1, sets = (size_t)r[ECX] + 1, bytes;

	if (type == 0 || type >= sizeof leaf_type / sizeof leaf_type[0])
		return false;
	if (__builtin_mul_overflow(ways * parts * line, sets, &bytes))
		bytes = SIZE_MAX;
	add_cache(info, (r[EAX] >> 5) & 7, leaf_type[type], bytes);
	return true;
}

/* Very old parts without either leaf: libcpuid's sizes, nothing about sharing. */
static void caches_from_libcpuid(struct cpu_info *info, const struct cpu_raw_data_t *raw)
{
	struct cpu_raw_data_t copy = *raw;
	struct cpu_id_t id;

	if (cpu_identify(&copy, &id))
		return;
	add_cache(info, 1, "Data", id.l1_data_cache > 0 ? (size_t)id.l1_data_cache << 10 : 0);
	add_cache(info, 1, "Instruction",
		  id.l1_instruction_cache > 0 ? (size_t)id.l1_instruction_cache << 10 : 0);
	add_cache(info, 2, "Unified", id.l2_cache > 0 ? (size_t)id.l2_cache << 10 : 0);
	add_cache(info, 3, "Unified", id.l3_cache > 0 ? (size_t)id.l3_cache << 10 : 0);
}

void cpu_caches_from_cpuid(struct cpu_info *info, const struct cpu_raw_data_t *raw)
{
	bool amd = !strcmp(info->vendor, "AuthenticAMD") || !strcmp(info->vendor, "HygonGenuine");
	bool topoext = (cpu_raw_leaf(raw, 0x80000001u).c >> 22) & 1;

	info->ncaches = 0;
	info->cache_source = "cpuid";
	if (amd && topoext && cpu_raw_leaf(raw, 0x80000000u).a >= 0x8000001du) {
		for (size_t i = 0; i < MAX_AMDFN8000001DH_LEVEL && add_leaf(info, raw->amd_fn8000001dh[i]); i++)
			;
	} else if (!amd && cpu_raw_leaf(raw, 0).a >= 4) {
		for (size_t i = 0; i < MAX_INTELFN4_LEVEL && add_leaf(info, raw->intel_fn4[i]); i++)
			;
	}
	if (!info->ncaches)
		caches_from_libcpuid(info, raw);
	qsort(info->caches, info->ncaches, sizeof info->caches[0], cache_cmp);
}

size_t cpu_cache_bytes(const struct cpu_info *info, unsigned level)
{
	for (size_t i = 0; i < info->ncaches; i++)
		if (info->caches[i].level == level && strcmp(info->caches[i].type, "Instruction"))
			return info->caches[i].size_bytes;
	return 0;
}

size_t cpu_llc_bytes(const struct cpu_info *info)
{
	for (size_t i = info->ncaches; i-- > 0;)
		if (strcmp(info->caches[i].type, "Instruction"))
			return info->caches[i].size_bytes;
	return 0;
}
