/*
 * level_scan.h — the latency curve a set of pinned threads measures together: the input of the
 * effective cache levels (machine/effective.h).  Plain C, no ISA flags.  Each thread chases a
 * random cycle (chase.h) through the first s bytes of its own buffer, all threads at once, for s
 * from a few KiB up past the reported last level: a working set leaves a level when its loads
 * start to miss it, and dependent loads show that as a step of several times in latency, which
 * no speed state of a guest hides (bandwidth moves by 2x with them).  Store time over the same
 * working set is measured beside it: the last level is read off that (effective.h).
 */
#ifndef STOREBENCH_LEVEL_SCAN_H
#define STOREBENCH_LEVEL_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "effective.h"
#include "kernels.h"

/* Sizes a doubling, and passes over all of them (alternately up and down, so a drift of the
 * guest's speed lands on every size alike); each size's latency is the median of the passes. */
#define LEVEL_SCAN_STEPS 4
#define LEVEL_SCAN_PASSES 3

/* Dependent loads timed per size and pass: about 6 ms at DRAM's 100 ns. */
#define LEVEL_SCAN_LOADS 65536

/* Bytes stored per size and pass (at least one pass over the working set), and the byte. */
#define LEVEL_SCAN_STORE_MIB 8
#define LEVEL_SCAN_STORE_BYTES ((uint64_t)LEVEL_SCAN_STORE_MIB << 20)
#define LEVEL_SCAN_FILL 0x5a

/* How the curve is measured, one sentence for the metadata (levels_scan). */
extern const char level_scan_method[];

struct level_scan {
	unsigned threads;	  /* one per CPU */
	const int *cpu, *node;	  /* thread i runs on cpu[i], its memory on node[i] */
	uint64_t first_bytes;	  /* the smallest per-thread working set (at least 4 KiB) */
	uint64_t top_bytes;	  /* the largest, per thread */
	store_fn store;		  /* the temporal store kernel timed over each working set; NULL:
				   * loads only (no store curve) */
	int (*stopped)(void);	  /* nonzero: stop before the next size (a signal); may be NULL */
};

/*
 * Measure s's curve into out.  false, with err, when a thread cannot be pinned or its buffer
 * had (the memory is the caller's to check first: threads x top_bytes), or when stopped.
 */
bool level_scan_run(const struct level_scan *s, struct latency_curve *out, char *err,
		    size_t errlen);

#endif
