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

/* Where a helper thread beside the writers goes (a victim, a pointer chase), from the first
 * writer's point of view. */
enum near {
	NEAR_L3,      /* another core of the first writer's L3 domain */
	NEAR_PACKAGE, /* a core of another L3 domain of the first writer's package */
	NEAR_SOCKET,  /* a core of another package */
	NEAR_ANY,     /* the first of those three that has a free core */
	NEAR_COUNT
};

extern const char *const near_name[NEAR_COUNT];

/*
 * The CPU a helper thread of relation where to the writers cpus[0, n) runs on: an allowed PU of a
 * core no writer runs on (sharing a core would share its L1d and L2 as well), the first such in
 * compact order, a core's first PU before its SMT siblings.  -1 when the machine has none: one
 * L3 domain per package has no NEAR_PACKAGE, one package no NEAR_SOCKET.
 */
int placement_near(const struct topology *t, const int *cpus, size_t n, enum near where);

#endif
