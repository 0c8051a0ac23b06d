/*
 * sweep.h — the list of points a run measures, in the order it measures them.
 * Plain C.  Points are enumerated before anything runs, so the progress line knows N, the memory
 * check knows the largest buffer, and --benchmark_filter is applied once.
 */
#ifndef STOREBENCH_SWEEP_H
#define STOREBENCH_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

struct point {
	const struct kernel *k;
	enum ws_mode mode;
	uint64_t call;     /* bytes per call */
	uint64_t ws;       /* distinct bytes per thread */
	unsigned threads;
	unsigned misalign;
	/* read/write mix; below rw 100, call is the chunk and ws the region each thread walks */
	struct rw_ratio rw;
	enum rw_mode rw_mode;
	enum rw_layout rw_layout;
	char name[192];    /* the Google Benchmark name */
};

/* Whether p reads as well as writes (rw below 100): an rw plan instead of the store plan. */
static inline bool point_mixed(const struct point *p)
{
	return !rw_ratio_is_store_only(&p->rw);
}

extern const char *const ws_mode_name[];

/*
 * Most combinations of the axes one sweep may have (before skips and the filter), at all thread
 * counts together; a larger sweep is bad input (exit 2) refused before anything is allocated.
 */
#define SWEEP_MAX_COMBINATIONS 1000000

/* The product of o's axis lengths (every combination); false if it overflows size_t. */
bool sweep_combinations(const struct run_opts *o, size_t *n);

/*
 * The points of o that pass the benchmark filter: threads, then working set, then call size,
 * then misalignment, then rw ratio, mode, layout and chunk, then kernel, so buffers grow
 * monotonically and are reused across kernels.  *skipped counts combinations dropped because
 * the call exceeds an explicit working set, *skipped_rw those a read/write mix cannot have
 * (cold/random working sets; split at 1 thread when interleave is also asked for),
 * *rounded_split the split points whose ratio whole threads rounded (they carry the ratio really
 * measured, and a point asked for twice that way is measured once).  Returns NULL
 * after one stderr line when the options cannot be measured (a chunk larger than a region, split
 * with one thread only).
 */
struct point *sweep_points(const struct run_opts *o, size_t *n, size_t *skipped,
			   size_t *skipped_rw, size_t *rounded_split);

/* Relative cost of p for the ETA: a fixed part plus the bytes prefilled and verified. */
double point_weight(const struct point *p);

/* Bytes one thread's buffer needs for p (region plus misalignment). */
uint64_t point_region_bytes(const struct point *p);

#endif
