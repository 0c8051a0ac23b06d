/*
 * placement.h — which CPU each pool thread is pinned to: compact, spread or an explicit list.
 * Plain C, Linux sysfs + libnuma.  Only CPUs in the process's affinity mask are used, so
 * `taskset`/cgroup limits are respected and "more threads than CPUs" is caught up front.
 */
#ifndef STOREBENCH_PLACEMENT_H
#define STOREBENCH_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

struct placement {
	char spec[256];  /* "compact", "spread" or "cpus:<list>", the CSV placement column */
	size_t ncpus;    /* CPUs in order: thread i runs on cpu[i] */
	int *cpu;
	int *node;       /* NUMA node of cpu[i] */
};

/*
 * Order the allowed CPUs for spec: compact fills one L3 domain (and NUMA node) before the next,
 * spread deals threads round-robin over (node, L3) domains; both use one hardware thread per
 * core before SMT siblings.  "cpus:0,2,4-7" takes exactly those.  false + err on bad input.
 */
bool placement_build(const char *spec, struct placement *pl, char *err, size_t errlen);

#endif
