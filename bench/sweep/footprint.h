/*
 * footprint.h — the memory a sweep really maps at its peak, per machine and per NUMA node.
 * Plain C, no ISA.  The pool keeps each thread's buffer and regrows all of a point's threads
 * when one is too small (measure.c), so the peak is replayed point by point, not guessed.
 */
#ifndef STOREBENCH_FOOTPRINT_H
#define STOREBENCH_FOOTPRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "buffer.h"
#include "placement.h"
#include "sweep.h"
#include "topology.h"

struct footprint {
	unsigned long long peak_bytes;	/* most bytes mapped at once, guards and page rounding in */
	size_t nnodes;			/* entries of node_peak: t->nnodes, 0 unless membind local */
	unsigned long long *node_peak;	/* node_peak[k]: most bytes on t->node[k] at once */
	size_t grows;			/* points that (re)allocate buffers */
	unsigned long long grown_bytes;	/* bytes those allocations map (first touch at prefill) */
};

/*
 * Replay pts[0..n) on pl's threads: thread i's buffer is bound to pl->node[i] when local.
 * t may be NULL (no per-node figures).  false when out of memory.  footprint_free after.
 */
bool footprint_of(const struct point *pts, size_t n, enum page_policy pages, bool local,
		  const struct placement *pl, const struct topology *t, struct footprint *f);
void footprint_free(struct footprint *f);

/* Whether p regrows buffers when run after the points that left lens[0..threads) (and updates
 * lens as the pool does): the one rule measure.c's prepare() follows. */
bool footprint_point_grows(const struct point *p, unsigned long long *lens);

#endif
