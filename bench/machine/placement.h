/*
 * placement.h — which CPU each pool thread is pinned to: compact, spread or an explicit list.
 * Plain C, no ISA; the order comes from the topology (hwloc), this machine's or a replayed one.
 * Only allowed CPUs are used, so `taskset`/cgroup limits hold and too many threads are caught early.
 */
#ifndef STOREBENCH_PLACEMENT_H
#define STOREBENCH_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "topology.h"

struct placement {
	char spec[256];  /* "compact", "spread" or "cpus:<list>", the CSV placement column */
	size_t ncpus;    /* CPUs in order: thread i runs on cpu[i] */
	int *cpu;
	int *node;       /* NUMA node of cpu[i] (0 where the topology knows none) */
};

/*
 * Order the allowed CPUs of t for spec.  compact: one L3 domain (and NUMA node) after the other,
 * in tree order.  spread: every package, NUMA node and L3 domain gets a thread before any gets a
 * second.  Both: the first PU of every core before any SMT sibling.  "cpus:0,2,4-7": exactly those,
 * in that order.  false + err on bad input; pl is then empty (placement_free is still safe).
 */
bool placement_order(const struct topology *t, const char *spec, struct placement *pl, char *err,
		     size_t errlen);

/* placement_order on this machine's topology (refused when HWLOC_XMLFILE replaces it). */
bool placement_build(const char *spec, struct placement *pl, char *err, size_t errlen);

void placement_free(struct placement *pl);

#endif
