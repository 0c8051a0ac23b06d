/*
 * shares.h — what the first t threads of a placement occupy: CPUs, nodes, caches, per-thread shares.
 * Plain C, no ISA.  At t threads a thread's share of a cache is the instance's size over the threads
 * placed in it (L3/2 at 2 threads in one L3); cache-relative sizes and marks must use the share.
 */
#ifndef STOREBENCH_SHARES_H
#define STOREBENCH_SHARES_H

#include <stdbool.h>
#include <stddef.h>

#include "placement.h"
#include "topology.h"

/* One cache level (TOPO_L1D, TOPO_L2, TOPO_L3) under the threads; all zero when the machine has none. */
struct cache_share {
	unsigned level;				/* 1, 2, 3 */
	unsigned domains;			/* instances holding at least one of the threads */
	unsigned threads_max;			/* most threads in one of those instances */
	size_t share_min_bytes;			/* smallest per-thread share: instance size / its threads */
	size_t share_max_bytes;			/* largest one (equal unless the threads are uneven) */
	unsigned long long aggregate_bytes;	/* sum of the sizes of the instances used */
};

struct thread_set {
	unsigned threads;
	const int *cpu;				/* cpu[i], node[i]: thread i (the placement's first t) */
	const int *node;
	unsigned nodes;				/* distinct NUMA nodes used */
	unsigned long long node_memory_bytes;	/* their memory; 0 when the topology lacks a size */
	struct cache_share cache[TOPO_SHARE_KINDS];
};

/*
 * The first threads CPUs of pl (an order of t's PUs) as a thread set.  false + err when pl has fewer
 * CPUs or names one t does not have.  ts->cpu/node point into pl: keep pl alive.
 */
bool thread_set_of(const struct topology *t, const struct placement *pl, unsigned threads,
		   struct thread_set *ts, char *err, size_t errlen);

/* The share of one thread (index into ts) in its instance of the cache kind; 0 without one. */
size_t thread_share_bytes(const struct topology *t, const struct thread_set *ts, int kind,
			  unsigned thread);

#endif
