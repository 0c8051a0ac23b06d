/*
 * cpu_caches.c — caches, online CPUs, SMT width and NUMA nodes: sysfs first, libnuma for nodes.
 * Plain C.  sysfs knows how many CPUs share each cache instance (sysconf and legacy CPUID leaves
 * misreport AMD's per-CCX L3); libcpuid sizes are only the fallback when sysfs is absent.
 */
#include "cpu.h"
#include "cpulist.h"
#include "sysfs.h"

#include <dirent.h>
#include <libcpuid.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYS_CPU "/sys/devices/system/cpu"

static size_t parse_size(const char *s)
{
	char *end;
	size_t v = strtoull(s, &end, 10);

	switch (*end) {
	case 'K': return v << 10;
	case 'M': return v << 20;
	case 'G': return v << 30;
	default: return v;
	}
}

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

static struct cpu_cache *cache_slot(struct cpu_info *info, unsigned level, const char *type)
{
	for (size_t i = 0; i < info->ncaches; i++)
		if (info->caches[i].level == level && !strcmp(info->caches[i].type, type))
			return &info->caches[i];
	if (info->ncaches == CPU_MAX_CACHES)
		return NULL;
	info->caches[info->ncaches].level = level;
	snprintf(info->caches[info->ncaches].type, sizeof info->caches[0].type, "%s", type);
	return &info->caches[info->ncaches++];
}

/* One CPU's cache leaves; an instance is counted once, at the lowest CPU that shares it. */
static void caches_of_cpu(struct cpu_info *info, long cpu)
{
	for (unsigned idx = 0;; idx++) {
		char path[128], level[16], type[16], size[32], shared[4096];
		struct cpu_cache *c;
		long first;
		unsigned nshared;

		snprintf(path, sizeof path, SYS_CPU "/cpu%ld/cache/index%u/level", cpu, idx);
		if (sysfs_line(path, level, sizeof level))
			return;
		snprintf(path, sizeof path, SYS_CPU "/cpu%ld/cache/index%u/type", cpu, idx);
		if (sysfs_line(path, type, sizeof type))
			continue;
		snprintf(path, sizeof path, SYS_CPU "/cpu%ld/cache/index%u/size", cpu, idx);
		if (sysfs_line(path, size, sizeof size))
			continue;
		snprintf(path, sizeof path, SYS_CPU "/cpu%ld/cache/index%u/shared_cpu_list", cpu, idx);
		if (sysfs_line(path, shared, sizeof shared))
			snprintf(shared, sizeof shared, "%ld", cpu);
		c = cache_slot(info, (unsigned)atoi(level), type);
		if (!c)
			continue;
		nshared = cpulist_count(shared, &first);
		c->size_bytes = parse_size(size);
		if (nshared > c->shared_cpus)
			c->shared_cpus = nshared;
		if (first == cpu || first < 0)
			c->instances++;
	}
}

static int caches_from_sysfs(struct cpu_info *info)
{
	char online[4096];
	struct cpulist it = cpulist_start(online);
	long lo, hi;

	if (sysfs_line(SYS_CPU "/online", online, sizeof online))
		return -1;
	while (cpulist_next(&it, &lo, &hi) == CPULIST_RANGE)
		for (long cpu = lo; cpu <= hi; cpu++)
			caches_of_cpu(info, cpu);
	return info->ncaches ? 0 : -1;
}

/* Without sysfs only sizes are known; sharing and instance counts stay 0 (unknown). */
static void caches_from_libcpuid(struct cpu_info *info)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;
	const struct {
		unsigned level;
		const char *type;
		size_t off;
	} leaves[] = {
		{ 1, "Data", offsetof(struct cpu_id_t, l1_data_cache) },
		{ 1, "Instruction", offsetof(struct cpu_id_t, l1_instruction_cache) },
		{ 2, "Unified", offsetof(struct cpu_id_t, l2_cache) },
		{ 3, "Unified", offsetof(struct cpu_id_t, l3_cache) },
	};

	if (!cpuid_present() || cpuid_get_raw_data(&raw) || cpu_identify(&raw, &id))
		return;
	for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
		int32_t kib = *(const int32_t *)((const char *)&id + leaves[i].off);
		struct cpu_cache *c;

		if (kib <= 0)
			continue;
		c = cache_slot(info, leaves[i].level, leaves[i].type);
		if (c)
			c->size_bytes = (size_t)kib << 10;
	}
}

/* SMT width of the first online CPU (cpu0 may be offline; hybrid parts put SMT cores first). */
static unsigned smt_width(void)
{
	char online[4096], path[96], list[4096];
	long cpu = -1, first;
	unsigned n;

	if (!sysfs_line(SYS_CPU "/online", online, sizeof online))
		cpulist_count(online, &cpu);
	snprintf(path, sizeof path, SYS_CPU "/cpu%ld/topology/thread_siblings_list",
		 cpu < 0 ? 0 : cpu);
	if (sysfs_line(path, list, sizeof list))
		return 1;
	n = cpulist_count(list, &first);
	return n ? n : 1;
}

void cpu_topology(struct cpu_info *info)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	info->online_cpus = online > 0 ? (unsigned)online : 1;
	info->threads_per_core = smt_width();
	info->numa_nodes = numa_available() >= 0 && numa_num_configured_nodes() > 0
				   ? (unsigned)numa_num_configured_nodes()
				   : 1;
	info->ncaches = 0;
	if (caches_from_sysfs(info))
		caches_from_libcpuid(info);
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
